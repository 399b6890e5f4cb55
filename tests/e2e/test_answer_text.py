"""A screen reader reads each lesson's answer as text (issue 35 item 2): the line under the chart that
carries it, and its numbers as a table behind "The numbers behind this chart". Read from Chromium's
accessibility tree (Playwright's aria snapshot of the page's main part), not from the DOM's text.

Also the screenshots of what this changed (artifacts/screenshots/answer-*.png): each page with its
numbers open, and the trainer's classes in their shapes at both widths.
"""
from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import screenshot, wait_ready

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


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_screenshot_the_classes_in_their_shapes(open_page, width):
    page = open_page("/trainer?problem=classes&k=5&twin=false", width)
    screenshot(page, "answer-trainer-classes")
