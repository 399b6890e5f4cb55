"""A screen reader reads each lesson's answer as text (issue 35 item 2): the line under the chart that
carries it, and its numbers as a table behind "The numbers behind this chart". Read from Chromium's
accessibility tree (Playwright's aria snapshot of the page's main part), not from the DOM's text.

Also the screenshots of what this changed (artifacts/screenshots/answer-*.png): each page with its
numbers open, and the trainer's classes in their shapes at both widths.
"""
from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import assert_clean, screenshot, wait_ready

pytestmark = pytest.mark.e2e

NUMBERS = "The numbers behind this chart"
CASES = {
    "/recipe-card": r"Outputs y = xW \+ b: \S+ -?[\d.−-]+",
    "/tax-bands": r"At an income of \S+ the ramps pile up to a tax of \S+: marginal rate [\d.]+ %",
    "/trainer": r"Test accuracy [\d.]+ % after [\d,]+ epochs? \(train accuracy [\d.]+ %",
}


def _tree(page) -> str:
    return page.locator("[data-testid='stMain']").aria_snapshot()


@pytest.mark.parametrize("width", ["laptop", "phone"])
@pytest.mark.parametrize("path", list(CASES))
def test_each_lesson_s_answer_is_in_the_accessibility_tree(open_page, path, width):
    page = open_page(path, width)
    if path == "/trainer":   # an answer worth reading: a few epochs trained
        page.locator("[data-testid='stMain']").get_by_role("button", name="+100", exact=True).click()
        page.wait_for_function("() => /after 100 epochs/.test("
                               "document.querySelector(\"[data-testid='stMain']\").innerText)",
                               timeout=60_000)
        wait_ready(page)
    tree = _tree(page)
    assert re.search(CASES[path], tree), tree[:3000]
    # the numbers: a real table (rows and cells) once its disclosure is opened
    page.get_by_text(NUMBERS).first.click()
    page.wait_for_timeout(500)
    tree = _tree(page)
    table = tree[tree.index(NUMBERS):]
    assert re.search(r"- table", table) and re.search(r"- (cell|columnheader)", table), table[:2000]
    screenshot(page, "answer-" + path.strip("/"))


# The first outline of each path the map draws its points with, as its drawing commands: one path per
# class and split (ui/boundary.py's class_path), so each class's shape shows as its own command pattern.
_SHAPES = """(sel) => Array.from(document.querySelectorAll(sel + ' .shapelayer path'))
    .map(p => p.getAttribute('d') || '').filter(d => (d.match(/Z/gi) || []).length >= 2)
    .map(d => d.split(/Z/i)[0].replace(/[^MLHVmlhv]/g, ''))"""


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_screenshot_the_classes_in_their_shapes(view, width):
    """Five classes, each in its own shape on the map (colour is not the only difference: a reader who
    tells no colours apart tells the shapes)."""
    page = view("/trainer?problem=classes&k=5&twin=false", width)
    assert_clean(page)
    shapes = page.evaluate(_SHAPES, ".st-key-trainer_boundary")
    assert len(set(shapes)) == 5, shapes                                  # five outlines, one per class
    screenshot(page, "answer-trainer-classes")


# Issue 48 item 4: a grid that carries a lesson's answer (st.dataframe paints a canvas) also has its cells
# as a table a screen reader reaches. Read from Chromium's own accessibility tree (CDP), by its caption.
GRIDS = {
    "/recipe-card": ("Each output y with x and with ", "y with x"),
    "/stacking": ("Y = XW + b: the outputs, one row per token", "token 1"),
    "/gpt2-mlp": ("Each hidden unit on the path: its sum z, the share GELU keeps, GELU(z), on or off", "on"),
}


def _ax_tables(page) -> dict[str, list[str]]:
    """Every table in Chromium's accessibility tree: its name (caption) -> the names of its cells."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    by_id = {n["nodeId"]: n for n in nodes}

    def name(n) -> str:
        return str((n.get("name") or {}).get("value", ""))

    def cells(n) -> list[str]:
        out = []
        for c in n.get("childIds", []):
            child = by_id.get(c)
            if child is None:
                continue
            if (child.get("role") or {}).get("value") in ("cell", "columnheader", "rowheader", "gridcell"):
                out.append(name(child))
            out += cells(child)
        return out

    return {name(n): cells(n) for n in nodes if (n.get("role") or {}).get("value") == "table"}


@pytest.mark.parametrize("path", list(GRIDS))
def test_a_grid_s_numbers_are_cells_in_chromium_s_accessibility_tree(open_page, path):
    caption, first = GRIDS[path]
    page = open_page(path)
    tables = _ax_tables(page)
    named = [t for t in tables if t.startswith(caption)]
    assert len(named) == 1, list(tables)
    got = tables[named[0]]
    assert first in got, got
    numbers = [c for c in got if re.fullmatch(r"[−]?\d[\d,]*(\.\d+)?", c)]
    assert numbers, got                                  # the numbers themselves, as cells
    assert not any(re.match(r"-\d", c) for c in got), got   # written as the page writes them: "−0.65"
