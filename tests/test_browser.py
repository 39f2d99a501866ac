"""Every notebook, run in the project's own JupyterLab and looked at in a real Chromium.

nbval proves what the kernel computes; these tests prove what a learner sees. For each notebook a
Chromium (driven by Playwright) opens it in `make lab`'s JupyterLab, serving a temporary copy of
the repository, clears the stored outputs and runs all cells from JupyterLab's menus, waits until
the kernel is idle, saves the notebook (in the copy) and moves any backward-step slider one step.
What the page shows is recorded once per notebook (`LivePage`) and checked against the stored one:
the tests below are parametrized from the stored files, so a new notebook is covered as soon as
it lands. A full-page screenshot of each notebook is saved in build/screenshots/<edition>/ (a
long one in several: name.png, name.2.png, ...).

Run them alone with `pytest -m browser`. Without a Chromium they are skipped, except under CI,
where a missing browser is an error (`apt-get install chromium`, or set $CHROMIUM_PATH).
"""

from __future__ import annotations

import base64
import json
import re
import time
import urllib.parse
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from local_lab import (
    CHROMIUM_ARGS,
    CHROMIUM_VARIABLE,
    ROOT,
    SCREENSHOTS,
    RunningLab,
    copy_repository,
    find_chromium,
    running_in_ci,
    running_lab,
)

from helpers import speaking
from helpers.backward.quiz_messages import QUIZ_MESSAGES
from helpers.exercises import check
from helpers.graph.dot import HIGHLIGHT_COLOUR
from tools.notebooks import all_notebooks
from tools.set_repository import language_of

pytestmark = pytest.mark.browser

NOTEBOOKS_DIR = ROOT / "notebooks"
NOTEBOOKS = all_notebooks()
RUN_TIMEOUT_SECONDS = 300
PAGE_TIMEOUT_MS = 120_000
VIEWPORT = {"width": 1280, "height": 900}
# Chromium cannot capture a taller picture in one piece: a longer notebook takes several.
MAX_SCREENSHOT_HEIGHT = 30_000
# Window heights tried until the notebook's measured height holds still.
SCREENSHOT_TRIES = 10
SCROLLER = "document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer')"
# The window height that shows the notebook down to its last cell (and a margin below it): the
# notebook's own scroll height would not do, as JupyterLab pads it with most of a window's height.
NOTEBOOK_HEIGHT = f"""() => {{
  const cells = {SCROLLER}.querySelectorAll('.jp-Cell');
  return Math.ceil(cells[cells.length - 1].getBoundingClientRect().bottom) + 24;
}}"""
LAST_CELL_IN_VIEW = """() => {
  const cells = document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell');
  const last = cells[cells.length - 1].getBoundingClientRect();
  return last.height > 0 && last.bottom <= window.innerHeight;
}"""
PICTURE_TYPES = ("image/png", "image/jpeg", "image/svg+xml")
# An output with a widget view shows the widget in JupyterLab; its picture (helpers.graph's view
# carries one) is for where the widget cannot run.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"


# --- what the stored notebooks say each cell should show -----------------------------------------


def _stored(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _text(value: str | list[str]) -> str:
    return "".join(value) if isinstance(value, list) else value


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _outputs_with(cell: dict, mime_type: str) -> list[str]:
    """The stored outputs of ``mime_type`` that JupyterLab shows as such (not a widget's)."""
    return [
        _text(o["data"][mime_type])
        for o in cell.get("outputs", [])
        if mime_type in o.get("data", {}) and WIDGET_VIEW not in o["data"]
    ]


def _views_stored(cell: dict) -> int:
    """How many of the cell's stored outputs are helpers.graph's interactive view (a widget that
    carries its picture) or a step-through of a backward pass in it."""
    return sum(1 for o in cell.get("outputs", []) if WIDGET_VIEW in o.get("data", {}))


def _cells_where(predicate, what: str) -> list:
    """(notebook, cell index) of every stored cell for which ``predicate(cell)`` holds; if none
    does, one skipped parameter that says so (pytest's own message for an empty list is vague)."""
    found = [
        (path, index)
        for path in NOTEBOOKS
        for index, cell in enumerate(_stored(path)["cells"])
        if predicate(cell)
    ]
    return found or [pytest.param(None, marks=pytest.mark.skip(reason=f"no notebook has {what}"))]


def _is_code(cell: dict) -> bool:
    return cell["cell_type"] == "code"


def _draws_svg(cell: dict) -> bool:
    return _is_code(cell) and bool(_outputs_with(cell, "image/svg+xml"))


def _is_live_plot(cell: dict) -> bool:
    return _is_code(cell) and "LiveLossPlot(" in _text(cell["source"])


def _steps_through(cell: dict) -> bool:
    # helpers.backward_view.step_through shows a trace in the graph's view, with a step control.
    return _is_code(cell) and bool(re.search(r"\bstep_through\(", _text(cell["source"])))


def _predicts(cell: dict) -> bool:
    # step_through(..., predict=True) asks before it shows a step: questions, no step control.
    return _steps_through(cell) and "predict=True" in _text(cell["source"])


def _steps_with_a_slider(cell: dict) -> bool:
    return _steps_through(cell) and not _predicts(cell)


def _has_a_view(cell: dict) -> bool:
    return _is_code(cell) and _views_stored(cell) > 0


UNANSWERED = re.compile(
    r"^answer = \.\.\..*\n\s*check\(\s*[\"']([^\"']+)[\"']\s*,\s*answer\s*\)", re.M
)


def _is_unanswered_check(cell: dict) -> bool:
    return _is_code(cell) and bool(UNANSWERED.search(_text(cell["source"])))


def _raises(cell: dict) -> bool:
    return _is_code(cell) and "raises-exception" in _tags(cell)


def _image_references(markdown: str) -> int:
    return len(re.findall(r"!\[[^\]]*\]\(", markdown)) + len(re.findall(r"<img\b", markdown))


def _cell_id(pair: tuple[Path, int] | None) -> str:
    return "none" if pair is None else f"{pair[0].parent.name}-{pair[0].stem}-cell{pair[1]}"


# --- pictures: the text in an SVG, and which of its nodes is highlighted -------------------------


def svg_labels(svg: str) -> list[str]:
    """Every piece of text an SVG shows (Graphviz writes one <text> per label line), sorted."""
    tree = ElementTree.fromstring(svg.encode("utf-8"))
    texts = ("".join(t.itertext()).strip() for t in tree.iter(f"{SVG_NAMESPACE}text"))
    return sorted(text for text in texts if text)


def highlighted_nodes(svg: str) -> list[str]:
    """The labels of the Graphviz nodes drawn with `helpers.graph`'s highlight colour."""
    tree = ElementTree.fromstring(svg.encode("utf-8"))
    found = []
    for group in tree.iter(f"{SVG_NAMESPACE}g"):
        if group.get("class") != "node":
            continue
        strokes = {shape.get("stroke", "").lower() for shape in group.iter()}
        if HIGHLIGHT_COLOUR.lower() in strokes:
            found.append(" ".join(svg_labels(ElementTree.tostring(group, encoding="unicode"))))
    return found


def decode_image_source(source: str) -> str | None:
    """The SVG text of an <img src="data:image/svg+xml..."> (JupyterLab shows SVG that way)."""
    header, _, data = source.partition(",")
    if not header.startswith("data:image/svg+xml"):
        return None
    return (
        base64.b64decode(data).decode()
        if header.endswith(";base64")
        else urllib.parse.unquote(data)
    )


# --- driving JupyterLab ------------------------------------------------------------------------

# One pass over the open notebook's cells, in order: what each one shows.
READ_CELLS = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const serializer = new XMLSerializer();
  return [...panel.querySelectorAll('.jp-Notebook .jp-Cell')].map(cell => ({
    kind: cell.classList.contains('jp-CodeCell') ? 'code'
        : cell.classList.contains('jp-MarkdownCell') ? 'markdown' : 'raw',
    prompt: (cell.querySelector('.jp-InputArea-prompt') || {textContent: ''}).textContent.trim(),
    output_text: [...cell.querySelectorAll('.jp-OutputArea-output')]
        .map(o => o.innerText).join('\\n'),
    images: [...cell.querySelectorAll('img:not(.cm-widgetBuffer)')].map(img => ({
        source: img.currentSrc || img.src, loaded: img.complete && img.naturalWidth > 0,
        in_output: img.closest('.jp-OutputArea') !== null,
        in_widget: img.closest('.jupyter-widgets') !== null})),
    widget_svgs: [...cell.querySelectorAll('.agv-canvas svg')]
        .filter(svg => svg.querySelector('g.node')).map(svg => serializer.serializeToString(svg)),
    sliders: cell.querySelectorAll('.agv-steps input[type=range]').length,
    questions: [...cell.querySelectorAll('.agv-question')].map(q => q.textContent),
  }));
}"""


@dataclass
class LiveCell:
    """What one cell shows in JupyterLab after Run All."""

    kind: str
    prompt: str
    output_text: str
    images: list[dict]
    widget_svgs: list[str]
    sliders: int
    questions: list[str]  # what a predicted pass asks now
    # For a cell with a slider: the highlighted nodes before and after one step to the right.
    highlighted_before_and_after_slider: tuple[list[str], list[str]] | None = None

    def pictures(self) -> list[dict]:
        """The pictures in the cell's outputs (not those inside widgets)."""
        return [i for i in self.images if i["in_output"] and not i["in_widget"]]

    def svg_pictures(self) -> list[str]:
        svgs = (decode_image_source(i["source"]) for i in self.pictures())
        return [svg for svg in svgs if svg is not None]


@dataclass
class LivePage:
    """A notebook as JupyterLab showed it after running all of its cells."""

    cells: list[LiveCell]
    saved: dict  # the notebook as JupyterLab saved it after the run: its outputs, errors included
    screenshot: Path
    screenshot_is_whole: bool  # the screenshot reaches the notebook's last cell
    problems: list[str] = field(default_factory=list)


class NotebookRunner:
    """Runs each notebook once in JupyterLab, on first request, and keeps what the page showed."""

    def __init__(self, lab: RunningLab, browser) -> None:
        self.lab = lab
        self.browser = browser
        self._pages: dict[Path, LivePage] = {}

    def page_of(self, notebook: Path) -> LivePage:
        if notebook not in self._pages:
            self._pages[notebook] = self._run(notebook)
        return self._pages[notebook]

    def _run(self, notebook: Path) -> LivePage:
        relative = notebook.relative_to(NOTEBOOKS_DIR).as_posix()
        page = self.browser.new_page(viewport=VIEWPORT)
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        try:
            _open(page, self.lab, relative)
            _run_all_cells(page, self.lab, relative)
            saved = _save(page, self.lab.root_dir / relative)
            screenshot, whole = _screenshot(
                page, SCREENSHOTS / notebook.parent.name / f"{notebook.stem}.png"
            )
            cells = [LiveCell(**facts) for facts in page.evaluate(READ_CELLS)]
            for index, cell in enumerate(cells):
                if cell.sliders:
                    cell.highlighted_before_and_after_slider = _move_slider(page, index)
            return LivePage(cells, saved, screenshot, whole)
        finally:
            page.close()
            self.lab.shut_down_kernel(relative)


def _open(page, lab: RunningLab, relative: str) -> None:
    # ?reset: a fresh workspace, so that no notebook of an earlier page is reopened with it.
    query = urllib.parse.urlencode({"reset": "", "token": lab.token})
    page.goto(f"{lab.base_url}/lab/tree/{urllib.parse.quote(relative)}?{query}")
    page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell")
    # JupyterLab starts the kernel after the page shows; Run All before that would ask which one.
    deadline = time.monotonic() + RUN_TIMEOUT_SECONDS
    while lab.session_for(relative) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    lab.wait_until_kernel_idle(relative, timeout=RUN_TIMEOUT_SECONDS)
    # Give the notebook the whole width, as a learner would: click the open side panel's tab.
    open_panel_tab = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
    if open_panel_tab.count():
        open_panel_tab.click()


def _run_all_cells(page, lab: RunningLab, relative: str) -> None:
    # Clear the stored outputs first, so that nothing seen afterwards can be a stored one.
    page.get_by_role("menuitem", name="Edit", exact=True).click()
    page.locator("li[data-command='editmenu:clear-all']").click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator("li[data-command='runmenu:run-all']").click()
    # Run All marks every cell [*] at once; the marks turn to numbers as the cells finish. A
    # number first and no [*] left means done, or stopped at an error (cells left [ ] show it).
    page.wait_for_function(
        """() => {
          const prompts = [...document.querySelectorAll(
            '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')];
          return prompts.length > 0 && /\\d/.test(prompts[0].textContent)
            && prompts.every(p => !p.textContent.includes('*'));
        }""",
        timeout=RUN_TIMEOUT_SECONDS * 1000,
    )
    lab.wait_until_kernel_idle(relative, timeout=RUN_TIMEOUT_SECONDS, settle=2.0)
    # Pictures load after their outputs arrive; wait until each has loaded or failed.
    page.wait_for_function("() => [...document.images].every(img => img.complete)")


def _save(page, path: Path) -> dict:
    """Save the notebook from JupyterLab's File menu; return what it wrote."""
    before = path.stat().st_mtime_ns
    page.get_by_role("menuitem", name="File", exact=True).click()
    page.locator("li[data-command='docmanager:save']").click()
    deadline = time.monotonic() + 60
    while path.stat().st_mtime_ns == before and time.monotonic() < deadline:
        time.sleep(0.2)
    page.wait_for_selector(".lm-TabBar-tab.jp-mod-dirty", state="detached")  # saved
    return json.loads(path.read_text(encoding="utf-8"))


def _screenshot(page, path: Path) -> tuple[Path, bool]:
    """The whole notebook in pictures: the window is made as tall as the notebook, up to what
    Chromium can capture in one piece; a taller notebook goes on in more pictures, scrolled a
    window at a time (``name.2.png``, ``name.3.png``, ...).

    JupyterLab lays out only the cells near the window and guesses the height of the others, so
    the notebook's height is measured again at each new window height until it stops changing.
    Returns the first picture and whether the last one shows the notebook's last cell.
    """
    # Run All leaves the notebook scrolled to its last cell; a reader starts at the top.
    page.evaluate(f"() => {{ {SCROLLER}.scrollTop = 0; }}")
    height = page.viewport_size["height"]
    for _ in range(SCREENSHOT_TRIES):
        wanted = min(page.evaluate(NOTEBOOK_HEIGHT), MAX_SCREENSHOT_HEIGHT)
        if wanted == height:
            break
        height = wanted
        page.set_viewport_size({"width": VIEWPORT["width"], "height": height})
        page.wait_for_timeout(1000)  # one layout pass at the new size
    path.parent.mkdir(parents=True, exist_ok=True)
    for old in path.parent.glob(f"{path.stem}.*.png"):  # a longer notebook's pictures, earlier
        old.unlink()
    page.screenshot(path=str(path))
    step = page.evaluate(f"() => {SCROLLER}.clientHeight") - 200  # each shows the last one's end
    for part in range(2, SCREENSHOT_TRIES + 2):
        if page.evaluate(LAST_CELL_IN_VIEW):
            break
        page.evaluate(f"() => {{ {SCROLLER}.scrollTop += {step}; }}")
        page.wait_for_timeout(1000)
        page.screenshot(path=str(path.with_name(f"{path.stem}.{part}.png")))
    return path, page.evaluate(LAST_CELL_IN_VIEW)


def _move_slider(page, cell_index: int) -> tuple[list[str], list[str]]:
    """Step the cell's first step control one to the right, as a learner would with the arrow
    key on its slider."""
    cell = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").nth(
        cell_index
    )
    widget_svg = cell.locator(".agv-canvas svg").filter(has=page.locator("g.node")).first
    serialize = "svg => new XMLSerializer().serializeToString(svg)"
    before = highlighted_nodes(widget_svg.evaluate(serialize))
    cell.locator(".agv-steps input[type=range]").first.focus()
    page.keyboard.press("ArrowRight")
    after = before
    deadline = time.monotonic() + 30
    while after == before and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        after = highlighted_nodes(widget_svg.evaluate(serialize))
    return before, after


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        reason = (
            f"no Chromium found (looked for ${CHROMIUM_VARIABLE}, chromium, chromium-browser, "
            "google-chrome): the browser tests need one. Install it (Debian/Ubuntu: "
            f"`apt-get install chromium`) or point ${CHROMIUM_VARIABLE} at it."
        )
        if running_in_ci():
            pytest.fail(f"CI is set, so the browser tests must run, but {reason}", pytrace=False)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def runner(chromium_path, tmp_path_factory):
    from playwright.sync_api import sync_playwright

    work = tmp_path_factory.mktemp("browser")
    repository = copy_repository(work / "repository")
    with running_lab(repository / "notebooks", work / "jupyter") as lab:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
            try:
                yield NotebookRunner(lab, browser)
            finally:
                browser.close()


# --- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_cell_runs_and_a_screenshot_is_saved(runner, notebook):
    live = runner.page_of(notebook)
    assert len(live.cells) == len(_stored(notebook)["cells"])
    # JupyterLab does not run an empty code cell: it keeps the prompt [ ]:.
    code_prompts = [
        shown.prompt
        for shown, cell in zip(live.cells, live.saved["cells"], strict=True)
        if _is_code(cell) and _text(cell["source"]).strip()
    ]
    assert code_prompts == [f"[{n}]:" for n in range(1, len(code_prompts) + 1)], (
        f"Run All did not run every cell once, in order: prompts {code_prompts}"
    )
    assert live.screenshot.stat().st_size > 0


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_screenshot_shows_the_notebook_down_to_its_last_cell(runner, notebook):
    assert runner.page_of(notebook).screenshot_is_whole, (
        f"{runner.page_of(notebook).screenshot} stops before the notebook's last cell"
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_no_error_is_shown_outside_cells_tagged_raises_exception(runner, notebook):
    saved = runner.page_of(notebook).saved
    for index, cell in enumerate(saved["cells"]):
        errors = [o for o in cell.get("outputs", []) if o["output_type"] == "error"]
        if errors and "raises-exception" not in _tags(cell):
            error = errors[0]
            pytest.fail(f"cell {index} shows {error['ename']}: {error['evalue']}", pytrace=False)


@pytest.mark.parametrize(
    "where", _cells_where(_raises, "a cell tagged raises-exception"), ids=_cell_id
)
def test_cell_tagged_raises_exception_shows_its_error(runner, where):
    notebook, index = where
    live = runner.page_of(notebook)
    errors = [o for o in live.saved["cells"][index]["outputs"] if o["output_type"] == "error"]
    assert errors, f"cell {index} is tagged raises-exception but raised nothing"
    assert errors[0]["ename"] in live.cells[index].output_text


@pytest.mark.parametrize("where", _cells_where(_draws_svg, "a graph drawing"), ids=_cell_id)
def test_graph_drawing_is_an_svg_in_the_page_with_the_stored_labels(runner, where):
    notebook, index = where
    stored = [
        svg_labels(svg) for svg in _outputs_with(_stored(notebook)["cells"][index], "image/svg+xml")
    ]
    live = [svg_labels(svg) for svg in runner.page_of(notebook).cells[index].svg_pictures()]
    assert live == stored


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_cell_shows_as_many_pictures_as_its_stored_outputs(runner, notebook):
    live = runner.page_of(notebook).cells
    for index, cell in enumerate(_stored(notebook)["cells"]):
        stored = sum(
            1
            for o in cell.get("outputs", [])
            if set(o.get("data", {})) & set(PICTURE_TYPES) and WIDGET_VIEW not in o["data"]
        )
        assert len(live[index].pictures()) == stored, f"cell {index}"


@pytest.mark.parametrize(
    "where", _cells_where(_has_a_view, "an interactive view of a graph"), ids=_cell_id
)
def test_every_interactive_view_shows_its_picture_in_the_page(runner, where):
    notebook, index = where
    cell = runner.page_of(notebook).cells[index]
    assert len(cell.widget_svgs) == _views_stored(_stored(notebook)["cells"][index])


@pytest.mark.parametrize("where", _cells_where(_is_live_plot, "a live training plot"), ids=_cell_id)
def test_live_training_plot_leaves_exactly_one_figure_in_its_cell(runner, where):
    notebook, index = where
    assert len(runner.page_of(notebook).cells[index].pictures()) == 1


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_picture_has_loaded(runner, notebook):
    broken = [
        (index, image["source"][:80])
        for index, cell in enumerate(runner.page_of(notebook).cells)
        for image in cell.images
        if not image["loaded"]
    ]
    assert not broken, f"broken pictures (cell, address): {broken}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_picture_a_markdown_cell_links_is_in_the_page(runner, notebook):
    live = runner.page_of(notebook).cells
    for index, cell in enumerate(_stored(notebook)["cells"]):
        if cell["cell_type"] == "markdown":
            assert len(live[index].images) >= _image_references(_text(cell["source"])), (
                f"cell {index}"
            )


@pytest.mark.parametrize(
    "where", _cells_where(_is_unanswered_check, "a check-yourself cell"), ids=_cell_id
)
def test_check_yourself_cell_shows_its_unanswered_state(runner, where):
    notebook, index = where
    exercise_id = UNANSWERED.search(_text(_stored(notebook)["cells"][index]["source"])).group(1)
    with speaking(language_of(notebook)):  # each edition answers in its own language
        expected = check(exercise_id, ...).message
    assert runner.page_of(notebook).cells[index].output_text.strip() == expected


@pytest.mark.parametrize(
    "where",
    _cells_where(_steps_with_a_slider, "a backward-step slider (step_through)"),
    ids=_cell_id,
)
def test_moving_the_backward_step_slider_changes_the_highlighted_node(runner, where):
    notebook, index = where
    cell = runner.page_of(notebook).cells[index]
    assert cell.sliders, f"cell {index} calls step_through, but no step control shows"
    before, after = cell.highlighted_before_and_after_slider
    assert before, "no node is highlighted before the slider moves"
    assert after and after != before


@pytest.mark.parametrize(
    "where",
    _cells_where(_predicts, "a predicted pass (step_through(..., predict=True))"),
    ids=_cell_id,
)
def test_a_predicted_pass_opens_on_its_first_question(runner, where):
    notebook, index = where
    cell = runner.page_of(notebook).cells[index]
    assert not cell.sliders, "a predicted pass has no step control to look ahead with"
    # The quiz's first question in the notebook's language, whatever the pass's length.
    template = QUIZ_MESSAGES.texts["first question"][language_of(notebook)]
    first = re.escape(template).replace(r"\{number\}", r"\d+").replace(r"\{total\}", r"\d+")
    assert cell.questions and re.match(first, cell.questions[0]), cell.questions
