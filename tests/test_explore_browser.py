"""The interactive view of a graph (`helpers.graph.explore`), driven in JupyterLab in a real
Chromium as a learner drives it.

A small notebook is written into a temporary copy of the repository: a model of eight residual
blocks, recorded, its loss, ``loss.backward()``, and ``explore(loss)``. `make lab`'s JupyterLab
runs it in Chromium (Playwright), and the tests drag the picture, turn the mouse wheel, search
for ``w``, click a folded module, and read the side panel, whose numbers must be those of
``w.grad`` computed here. The same notebook, run outside JupyterLab and opened without being
trusted, must still show its picture (the image every output carries). Screenshots land in
build/screenshots/explore/.

Run them alone with `pytest -m browser tests/test_explore_browser.py`.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse

import nbformat
import pytest
import torch
from local_lab import (
    CHROMIUM_ARGS,
    CHROMIUM_VARIABLE,
    SCREENSHOTS,
    copy_repository,
    find_chromium,
    running_in_ci,
    running_lab,
)

from helpers.graph.dot import HIGHLIGHT_COLOUR
from helpers.graph.model import format_number

pytestmark = pytest.mark.browser

FOLDER = "explore"
TIMEOUT_MS = 120_000
VIEWPORT = {"width": 1280, "height": 900}
SHOTS = SCREENSHOTS / "explore"
MODEL = """\
import torch
from torch import nn

from helpers.graph import explore, recording


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(4)
        self.linear = nn.Linear(4, 4)

    def forward(self, x):
        return x + self.linear(self.norm(x)).tanh()


torch.manual_seed(0)
model = nn.Sequential(*[Block() for _ in range(8)])
w = torch.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()
with recording(model):
    loss = (model(w) ** 2).mean()
loss.backward()
"""
CELLS = [MODEL, "explore(loss)"]
# A backward pass, traced and stepped through in the same view.
STEPS = """\
import torch

from helpers.backward import trace
from helpers.backward_view import step_through

w = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
a = torch.relu(w * 3.0 + b)
steps = trace(a)
step_through(steps)
"""
# The same pass played as questions, in each language.
PREDICT = STEPS.replace("step_through(steps)", "step_through(steps, predict=True)")
PREDICT_ZH = PREDICT.replace(
    "import torch\n", "import torch\n\nfrom helpers import set_language\n\nset_language('zh')\n", 1
)
VIEW = ".jp-NotebookPanel:not(.lm-mod-hidden) .agv"


def w_grad() -> torch.Tensor:
    """``w.grad`` as the notebook computes it, computed here."""
    namespace: dict = {}
    exec(MODEL, namespace)  # noqa: S102 - the notebook's own code, written above
    return namespace["w"].grad


def write_notebook(path, cells=CELLS) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)


# --- the lab and the page ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        reason = f"no Chromium found: install it or point ${CHROMIUM_VARIABLE} at it."
        if running_in_ci():
            pytest.fail(f"CI is set, so the browser tests must run, but {reason}", pytrace=False)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def lab(chromium_path, tmp_path_factory):
    from playwright.sync_api import sync_playwright

    work = tmp_path_factory.mktemp("explore")
    repository = copy_repository(work / "repository")
    write_notebook(repository / "notebooks" / FOLDER / "view.ipynb")
    write_notebook(repository / "notebooks" / FOLDER / "steps.ipynb", [STEPS])
    write_notebook(repository / "notebooks" / FOLDER / "predict.ipynb", [PREDICT])
    write_notebook(repository / "notebooks" / FOLDER / "predict_zh.ipynb", [PREDICT_ZH])
    _run_outside_the_lab(repository / "notebooks" / FOLDER, "untrusted.ipynb")
    with running_lab(repository / "notebooks", work / "jupyter") as running:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
            try:
                yield running, browser
            finally:
                browser.close()


def _run_outside_the_lab(folder, name: str) -> None:
    """The notebook executed by nbclient and saved with its outputs, never signed: JupyterLab
    opens it untrusted, as it opens a notebook downloaded from elsewhere."""
    from nbclient import NotebookClient

    path = folder / name
    write_notebook(path)
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(folder)}}).execute()
    nbformat.write(notebook, path)


def _open(page, running, relative: str) -> None:
    query = urllib.parse.urlencode({"reset": "", "token": running.token})
    page.goto(f"{running.base_url}/lab/tree/{urllib.parse.quote(relative)}?{query}")
    page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell")
    deadline = time.monotonic() + 120
    while running.session_for(relative) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    running.wait_until_kernel_idle(relative, timeout=120)
    tab = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
    if tab.count():
        tab.click()


def _run(lab, name: str):
    running, browser = lab
    relative = f"{FOLDER}/{name}"
    page = browser.new_page(viewport=VIEWPORT)
    page.set_default_timeout(TIMEOUT_MS)
    _open(page, running, relative)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator("li[data-command='runmenu:run-all']").click()
    page.wait_for_selector(f"{VIEW} .agv-canvas svg g.node")
    running.wait_until_kernel_idle(relative, timeout=120)
    page.wait_for_timeout(500)
    return page, relative


def _opened(lab, name: str):
    """A module's page of notebook ``name``, run; closed, with its kernel, after the module."""
    page, relative = _run(lab, name)
    yield page
    page.close()
    lab[0].shut_down_kernel(relative)


@pytest.fixture(scope="module")
def page(lab):
    yield from _opened(lab, "view.ipynb")


@pytest.fixture(scope="module")
def steps_page(lab):
    yield from _opened(lab, "steps.ipynb")


def view_box(page) -> list[float]:
    return [
        float(n) for n in page.locator(f"{VIEW} .agv-canvas svg").get_attribute("viewBox").split()
    ]


def boxes(page) -> int:
    return page.locator(f"{VIEW} .agv-canvas svg g.node").count()


def panel_rows(page, heading: str) -> dict[str, str]:
    """The rows of the side panel's section under ``heading``."""
    return page.evaluate(
        """heading => {
          const sections = [...document.querySelectorAll('.agv-panel section')];
          const section = sections.find(s => (s.querySelector('h4') || {}).textContent === heading);
          if (!section) return {};
          // A long label stands in a row of its own, above its value's.
          const rows = [...section.querySelectorAll('tr')], pairs = [];
          for (let i = 0; i < rows.length; i++) {
            const cells = rows[i].cells;
            if (cells.length === 2) pairs.push([cells[0].textContent, cells[1].textContent]);
            else pairs.push([cells[0].textContent, rows[++i].cells[0].textContent]);
          }
          return Object.fromEntries(pairs);
        }""",
        heading,
    )


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(VIEW).screenshot(path=str(SHOTS / f"{name}.png"))


# --- the tests ---------------------------------------------------------------------------------


def test_the_view_shows_the_picture_the_kernel_drew_with_its_box_ids(page):
    ids = page.locator(f"{VIEW} .agv-canvas svg g.node").evaluate_all("gs => gs.map(g => g.id)")
    assert ids and all(re.fullmatch(r"[nmr]\d+", box) for box in ids)
    assert any(box.startswith("m") for box in ids), "the recorded model is not folded"
    shot(page, "opened")


def test_a_drag_moves_the_picture(page):
    before = view_box(page)
    canvas = page.locator(f"{VIEW} .agv-canvas").bounding_box()
    x, y = canvas["x"] + canvas["width"] / 2, canvas["y"] + canvas["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 60, y - 40, steps=5)
    page.mouse.up()
    after = view_box(page)
    assert after[2:] == before[2:], "a drag must not zoom"
    assert after[0] == pytest.approx(before[0] + 60 / (canvas["width"] / before[2]), rel=0.05)
    assert after[1] > before[1]


def test_the_wheel_zooms_in_and_out(page):
    before = view_box(page)
    canvas = page.locator(f"{VIEW} .agv-canvas").bounding_box()
    page.mouse.move(canvas["x"] + 100, canvas["y"] + 100)
    page.mouse.wheel(0, -200)
    page.wait_for_timeout(200)
    zoomed_in = view_box(page)
    assert zoomed_in[2] < before[2] and zoomed_in[3] < before[3]
    page.mouse.wheel(0, 400)
    page.wait_for_timeout(200)
    assert view_box(page)[2] > zoomed_in[2]
    page.locator(f"{VIEW} button[data-do='fit']").click()
    shot(page, "fit")


def test_a_search_finds_w_and_the_panel_shows_the_numbers_of_w_grad(page):
    search = page.locator(f"{VIEW} .agv-search")
    search.fill("w")
    search.press("Enter")
    page.wait_for_selector(f"{VIEW} .agv-panel:not([hidden]) h3")
    assert page.locator(f"{VIEW} .agv-panel h3").text_content() == "w"
    said = page.locator(f"{VIEW} .agv-panel").inner_text()
    assert "null" not in said and "undefined" not in said
    selected = page.locator(f"{VIEW} .agv-canvas svg .agv-selected")
    assert selected.count() == 1
    assert "w" in selected.locator("text").all_text_contents()
    grad = w_grad()
    rows = panel_rows(page, "gradient (.grad)")
    assert rows["shape"] == "(3, 4)"
    assert rows["min"] == format_number(float(grad.min()))
    assert rows["max"] == format_number(float(grad.max()))
    assert rows["mean"] == format_number(float(grad.double().mean()))
    assert rows["norm"] == format_number(float(grad.double().norm()))
    assert rows["nan"] == rows["inf"] == "0"
    first = ", ".join(format_number(v) for v in grad.flatten()[:6].tolist())
    assert rows["first values"] == f"[{first}, …]"
    shot(page, "w")


def test_a_click_on_a_folded_module_unfolds_it_and_the_boxes_grow(page):
    before = boxes(page)
    search = page.locator(f"{VIEW} .agv-search")
    search.fill("2.linear")
    search.press("Enter")  # brings the module's box into view, still folded
    page.wait_for_selector(f"{VIEW} .agv-canvas svg g.node[id^='m'].agv-selected")
    assert boxes(page) == before
    module = page.locator(f"{VIEW} .agv-canvas svg g.node[id^='m'].agv-selected")
    title = "2.linear · Linear"
    assert module.locator("text").first.text_content() == title
    module.click()
    page.wait_for_function(
        "([selector, count]) => document.querySelectorAll(selector).length > count",
        arg=[f"{VIEW} .agv-canvas svg g.node", before],
    )
    assert boxes(page) > before
    heading = page.locator(f"{VIEW} .agv-panel h3").text_content()
    assert heading == title
    frame_labels = page.locator(f"{VIEW} .agv-canvas svg g.cluster text").all_text_contents()
    assert title in frame_labels
    shot(page, "unfolded")


def test_a_click_on_a_frame_name_folds_it_again(page):
    before = boxes(page)
    name = "2.linear · Linear"  # unfolded by the test before
    label = page.locator(f"{VIEW} .agv-canvas svg g.cluster > text", has_text=name)
    label.click()
    page.wait_for_function(
        "([selector, count]) => document.querySelectorAll(selector).length < count",
        arg=[f"{VIEW} .agv-canvas svg g.node", before],
    )
    assert boxes(page) < before
    assert page.locator(f"{VIEW} .agv-panel h3").text_content() == name


def test_an_untrusted_notebook_still_shows_the_picture(lab):
    running, browser = lab
    relative = f"{FOLDER}/untrusted.ipynb"
    stored = json.loads((running.root_dir / relative).read_text(encoding="utf-8"))
    output = stored["cells"][1]["outputs"][0]["data"]
    assert {"image/svg+xml", "text/html", "application/vnd.jupyter.widget-view+json"} <= set(output)
    page = browser.new_page(viewport=VIEWPORT)
    page.set_default_timeout(TIMEOUT_MS)
    try:
        _open(page, running, relative)
        picture = page.locator(".jp-OutputArea-output img[src^='data:image/svg+xml']")
        picture.wait_for()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=picture.element_handle()
        )
        assert page.locator(".agv").count() == 0  # not trusted: no widget runs
        SHOTS.mkdir(parents=True, exist_ok=True)
        picture.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "untrusted.png"))
    finally:
        page.close()
        running.shut_down_kernel(relative)


def highlighted(page) -> list[str]:
    """The ids of the boxes drawn with the step's red outline."""
    return page.evaluate(
        """colour => [...document.querySelectorAll('.agv-canvas svg g.node')]
          .filter(g => [...g.querySelectorAll('*')].some(e => e.getAttribute('stroke') === colour))
          .map(g => g.id)""",
        HIGHLIGHT_COLOUR,
    )


def gradients_moved(page, action, picture: str | None = None) -> int:
    """Do ``action`` and wait for the gradients of the step it shows to travel: the most dots
    seen moving at once, each on an arrow of that step, gone once they arrived (0: none moved).
    With ``picture``, a screenshot of that name is taken while they travel."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate(
        """() => {
          window.agvDots = 0;
          window.agvOffArrow = 0;
          window.agvWatch = new MutationObserver(() => {
            const dots = document.querySelectorAll('.agv-canvas circle.agv-gradient');
            window.agvDots = Math.max(window.agvDots, dots.length);
            for (const dot of dots) if (!dot.closest('g.edge.agv-moving')) window.agvOffArrow++;
          });
          window.agvWatch.observe(document.body, { subtree: true, childList: true });
        }"""
    )
    action()
    if picture is not None:
        page.wait_for_selector(f"{VIEW} circle.agv-gradient", state="attached")
        shot(page, picture)
    try:
        page.wait_for_function(
            "() => window.agvDots > 0 && !document.querySelector('circle.agv-gradient')",
            timeout=5000,
        )
    except PlaywrightTimeout:
        pass  # nothing moved: said by the 0 returned
    seen, off_arrow = page.evaluate(
        "() => { window.agvWatch.disconnect(); return [window.agvDots, window.agvOffArrow]; }"
    )
    assert off_arrow == 0, "a gradient's dot was drawn away from the arrows of its step"
    # Every number is back in view once its dot arrived.
    hidden = page.evaluate(
        "() => [...document.querySelectorAll('.agv-canvas g.edge text')]"
        ".filter(t => t.style.opacity === '0').length"
    )
    assert hidden == 0
    return seen


def test_step_through_shows_the_backward_pass_in_the_view_one_step_at_a_time(steps_page):
    page = steps_page
    status = page.locator(f"{VIEW} .agv-status")
    assert status.text_content().startswith("Step 1 of 5: ReluBackward0")
    first = highlighted(page)
    # Step 2, AddBackward0, sends to two Nodes: two gradients travel, one per arrow.
    next_step = page.locator(f"{VIEW} button[data-do='next']")
    moved = gradients_moved(page, next_step.click, picture="steps-moving")
    assert status.text_content().startswith("Step 2 of 5")
    assert moved == 2
    assert highlighted(page) != first
    page.locator(f"{VIEW} .agv-steps input[type=range]").focus()
    # The slider, as with a keyboard: step 3 is AccumulateGrad of b, which sends nothing on;
    # step 4, MulBackward0, sends one gradient.
    assert gradients_moved(page, lambda: page.keyboard.press("ArrowRight")) == 0
    assert status.text_content().startswith("Step 3 of 5")
    assert gradients_moved(page, lambda: page.keyboard.press("ArrowRight")) == 1
    assert status.text_content().startswith("Step 4 of 5")
    shot(page, "steps")
    # A step back shows the picture, and nothing travels backward.
    assert gradients_moved(page, lambda: page.keyboard.press("ArrowLeft")) == 0
    assert status.text_content().startswith("Step 3 of 5")


def test_a_click_in_the_step_view_reads_what_a_node_received_so_far(steps_page):
    page = steps_page
    box = page.evaluate(
        """() => [...document.querySelectorAll('.agv-canvas svg g.node')]
          .find(g => [...g.querySelectorAll('text')].some(t => t.textContent === 'b')).id"""
    )
    page.locator(f"{VIEW} .agv-canvas svg g.node[id='{box}']").click()
    page.wait_for_selector(f"{VIEW} .agv-panel:not([hidden]) section")
    rows = panel_rows(page, "in this backward pass")
    assert rows == {"step 3, received": "1.0", "step 3, sent": "added to b.grad"}
    assert panel_rows(page, "value")["first values"] == "[1.0]"
    shot(page, "steps-b")


# --- a predicted pass --------------------------------------------------------------------------


def box_titled(page, title: str) -> str:
    return page.evaluate(
        """title => [...document.querySelectorAll('.agv-canvas svg g.node')]
          .find(g => [...g.querySelectorAll('text')].some(t => t.textContent === title)).id""",
        title,
    )


def verdict_after(page, action) -> tuple[str, str]:
    """Do ``action`` and wait for the kernel's verdict: its class (right, wrong) and its text."""
    verdict = page.locator(f"{VIEW} .agv-verdict")
    before = verdict.text_content() if verdict.count() else ""
    action()
    page.wait_for_function(
        """before => { const v = document.querySelector('.agv-verdict');
          return v && !v.hidden && v.textContent !== before; }""",
        arg=before,
    )
    return verdict.get_attribute("class"), verdict.text_content()


def play_the_first_step(page, picture: str) -> list[tuple[str, str]]:
    """A wrong click, the right click, then what ReluBackward0 sends typed in: the verdicts.
    ``picture`` names the screenshot taken after the wrong click."""
    click = lambda title: page.locator(  # noqa: E731 - one line, used three times below
        f"{VIEW} .agv-canvas svg g.node[id='{box_titled(page, title)}']"
    ).click()
    said = [verdict_after(page, lambda: click("AddBackward0"))]
    # AddBackward0 still waits for ReluBackward0's gradient: that box glows until the next answer.
    glowing = "() => [...document.querySelectorAll('.agv-canvas .agv-waiting')].map(g => g.id)"
    assert page.evaluate(glowing) == [box_titled(page, "ReluBackward0")]
    shot(page, picture)
    said.append(verdict_after(page, lambda: click("ReluBackward0")))
    assert page.evaluate(glowing) == []
    page.wait_for_selector(f"{VIEW} .agv-answer:visible")
    page.locator(f"{VIEW} .agv-answer").fill("1")
    said.append(verdict_after(page, lambda: page.keyboard.press("Enter")))
    return said


@pytest.fixture(scope="module")
def predict_page(lab):
    yield from _opened(lab, "predict.ipynb")


def test_a_predicted_pass_is_played_in_the_view_with_verdicts_and_a_score(predict_page):
    page = predict_page
    question = page.locator(f"{VIEW} .agv-question")
    assert "which Node does the engine run first?" in question.text_content()
    assert page.locator(f"{VIEW} .agv-steps").count() == 0  # no slider to look ahead with
    shot(page, "predict-start")
    (wrong, why), (right, _), (typed, sent) = play_the_first_step(page, "predict-waiting")
    assert "agv-wrong" in wrong and "AddBackward0 is not ready" in why
    assert "agv-right" in right and "agv-right" in typed and "AddBackward0 gets 1.0" in sent
    assert "which Node does the engine run next?" in question.text_content()
    score = page.locator(f"{VIEW} .agv-score").text_content()
    assert score == "right at the first try: 1 of 2"
    assert page.locator(f"{VIEW} .agv-status").text_content().startswith("Step 1 of 5")
    shot(page, "predict")
    # "Show me" reveals step 2, AddBackward0: its two gradients travel as the step shows.
    show_me = page.locator(f"{VIEW} button[data-do='show-me']")
    assert gradients_moved(page, show_me.click) == 2
    assert page.locator(f"{VIEW} .agv-status").text_content().startswith("Step 2 of 5")
    page.locator(f"{VIEW} button[data-do='replay']").click()
    page.wait_for_function(
        "() => document.querySelector('.agv-score').textContent.endsWith(' 0 of 0')"
    )


def test_in_chinese_the_predicted_pass_asks_and_judges_in_chinese(lab):
    page, relative = _run(lab, "predict_zh.ipynb")
    try:
        assert "最先运行" in page.locator(f"{VIEW} .agv-question").text_content()
        (_, why), (_, right), (_, sent) = play_the_first_step(page, "predict-waiting-zh")
        assert why.startswith("不对") and right.startswith("对") and "AddBackward0 得到 1.0" in sent
        assert page.locator(f"{VIEW} button[data-do='check']").text_content() == "检查"
        shot(page, "predict-zh")
    finally:
        page.close()
        lab[0].shut_down_kernel(relative)
