"""tools/notebooks.py: what `make outputs` strips and merges, and the index `make html` writes."""

from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tools.notebooks import merge_streams, strip_volatile, title_of, write_index


def test_split_prints_are_joined_into_one_stream_per_run_of_chunks():
    outputs = [
        new_output("stream", name="stdout", text="1.63 MB"),
        new_output("stream", name="stdout", text="\n"),
        new_output("stream", name="stderr", text="warning\n"),
        new_output("stream", name="stdout", text="after\n"),
    ]
    merged = merge_streams(outputs)
    assert [(o.name, o.text) for o in merged] == [
        ("stdout", "1.63 MB\n"),
        ("stderr", "warning\n"),
        ("stdout", "after\n"),
    ]


def test_timings_widget_state_and_interpreter_version_are_stripped():
    notebook = new_notebook(
        cells=[
            new_code_cell(
                "1", metadata={"execution": {"iopub.status.idle": "2026-11-22T20:00:00Z"}}
            )
        ]
    )
    notebook.metadata["widgets"] = {"state": {}}
    notebook.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    strip_volatile(notebook)
    assert "widgets" not in notebook.metadata
    assert notebook.metadata["language_info"] == {"name": "python"}
    assert "execution" not in notebook.cells[0].metadata


def test_title_is_the_first_markdown_heading():
    notebook = new_notebook(cells=[new_code_cell("x = 1"), new_markdown_cell("text\n## 05 — Nets")])
    assert title_of(notebook, "fallback") == "05 — Nets"
    assert title_of(new_notebook(), "fallback") == "fallback"


def test_index_lists_pages_in_order_with_escaped_titles(tmp_path):
    index = write_index([("en/01_a.html", "01 <basics>"), ("en/02_b.html", "02 leaves")], tmp_path)
    page = index.read_text()
    assert page.index("en/01_a.html") < page.index("en/02_b.html")
    assert "01 &lt;basics&gt;" in page
