"""tools/notebooks.py: what `make outputs` strips and merges, and the index `make html` writes."""

import copy
import json

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tools.notebooks import all_notebooks, page_of, strip_volatile, title_of, write_index

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
    "version": "3.11.7",
}


def executed_notebook(outputs=(), **cell_metadata):
    """A notebook as nbclient leaves it: timings, widget state, the interpreter's version."""
    cell = new_code_cell("print(1.63)", outputs=list(outputs))
    cell.metadata.update(
        execution={"iopub.status.idle": "2026-11-22T20:00:00Z"}, collapsed=False, **cell_metadata
    )
    notebook = new_notebook(cells=[cell, new_markdown_cell("text")])
    notebook.metadata.update(
        kernelspec=dict(KERNELSPEC),
        language_info=dict(LANGUAGE_INFO),
        widgets={"application/vnd.jupyter.widget-state+json": {"state": {}}},
    )
    return notebook


def test_split_prints_are_joined_into_one_stream_per_run_of_chunks():
    outputs = [
        new_output("stream", name="stdout", text="1.63 MB"),
        new_output("stream", name="stdout", text="\n"),
        new_output("stream", name="stderr", text="warning\n"),
        new_output("stream", name="stdout", text="after\n"),
    ]
    (cell, _) = strip_volatile(executed_notebook(outputs)).cells
    assert [(o.name, o.text) for o in cell.outputs] == [
        ("stdout", "1.63 MB\n"),
        ("stderr", "warning\n"),
        ("stdout", "after\n"),
    ]


def test_timings_widget_state_and_interpreter_version_are_stripped():
    notebook = strip_volatile(executed_notebook())
    assert set(notebook.metadata) == {"kernelspec", "language_info"}
    assert notebook.metadata.language_info == {
        "file_extension": ".py",
        "mimetype": "text/x-python",
        "name": "python",
        "nbconvert_exporter": "python",
    }
    assert notebook.cells[0].metadata == {}


def test_cell_tags_and_hidden_state_are_kept():
    metadata = {"tags": ["raises-exception"], "jupyter": {"source_hidden": True}}
    notebook = strip_volatile(executed_notebook(**metadata))
    assert notebook.cells[0].metadata == metadata


def test_the_result_is_a_notebook_nbformat_writes_and_validates():
    notebook = strip_volatile(executed_notebook([new_output("stream", name="stdout", text="1\n")]))
    nbformat.validate(notebook)
    assert notebook.cells[0].outputs[0].text == "1\n"  # attribute access, as nbformat's nodes


@pytest.mark.parametrize("path", all_notebooks(), ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_stripping_a_stored_notebook_changes_nothing(path):
    # The stored notebooks were stripped by the hand-written code this replaced: the same file.
    stored = nbformat.read(path, as_version=4)
    again = strip_volatile(copy.deepcopy(stored))
    assert json.loads(nbformat.writes(again)) == json.loads(nbformat.writes(stored))


def test_title_is_the_first_markdown_heading():
    notebook = new_notebook(cells=[new_code_cell("x = 1"), new_markdown_cell("text\n## 05 — Nets")])
    assert title_of(notebook, "fallback") == "05 — Nets"
    assert title_of(new_notebook(), "fallback") == "fallback"


def test_index_lists_pages_in_order_with_escaped_titles(tmp_path):
    index = write_index([("en/01_a.html", "01 <basics>"), ("en/02_b.html", "02 leaves")], tmp_path)
    page = index.read_text()
    assert page.index("en/01_a.html") < page.index("en/02_b.html")
    assert "01 &lt;basics&gt;" in page


def test_index_lists_each_edition_under_its_own_heading(tmp_path):
    pages = [("en/01_a.html", "01 basics"), ("zh/01_a.html", "01 基础")]
    page = write_index(pages, tmp_path).read_text(encoding="utf-8")
    assert page.index("<h2>English</h2>") < page.index("en/01_a.html")
    assert page.index("en/01_a.html") < page.index("<h2>中文</h2>") < page.index("zh/01_a.html")


def test_a_page_shows_what_a_widget_carries_for_where_it_cannot_run():
    # A graph view's output: the widget, and the picture as an image in HTML.
    view = {
        "application/vnd.jupyter.widget-view+json": {"model_id": "abc", "version_major": 2},
        "text/html": "<img src='data:image/svg+xml;base64,PHN2Zy8+' alt='the autograd graph'>",
        "text/plain": "<interactive view>",
    }
    notebook = executed_notebook([new_output("execute_result", data=view, execution_count=1)])
    notebook.metadata.widgets = {
        "application/vnd.jupyter.widget-state+json": {"state": {"abc": {}}, "version_major": 2}
    }
    page = page_of(notebook)
    assert 'alt="the autograd graph"' in page
    assert "application/vnd.jupyter.widget-view+json" not in page
    assert "widgets" in notebook.metadata  # the notebook itself is left as it was
