"""The teacher's record in Chromium (issue 45 item 7): a lesson class whose first question was asked twice
(a first vote, Discuss, a second vote, Reveal) and whose class also handed in homework. The teacher opens
"The record of this lesson" by keyboard, over the page; it holds a row per vote and the homework's row, and
axe-core finds nothing serious or critical at 1366 and 420 px. Photographed
(artifacts/screenshots/lesson-record-*.png)."""

from __future__ import annotations

import pytest

from classroom.asking import course
from store import Store
from tests.e2e.conftest import assert_clean, axe_findings, screenshot, tab_to, wait_ready

RECORD = "The record of this lesson"

# The record's cells as a screen reader reaches them (st.dataframe paints a canvas and keeps the cells in
# sight as an accessible grid beside it).
_CELLS = """() => Array.from(document.querySelectorAll("[data-testid='stDataFrame'] [role='gridcell']"))
    .map(c => c.innerText.trim())"""


def _class() -> tuple[str, str]:
    """A recipe-card lesson class: step 2's question answered by three students, asked again after a
    discussion and answered again, revealed; one student's homework on the same lesson."""
    store = Store()
    lesson = course()["recipe-card"]
    code, key = store.start_lesson(lesson)
    seats = [store.join(code, nick) for nick in ("Ada", "Bo", "Cy")]
    step = next(i for i, s in enumerate(lesson.steps) if s.question and s.question.kind == "number")
    q = lesson.steps[step].question
    store.goto(code, key, step)
    for seat, value in zip(seats, (q.answer, q.answer + 7, q.answer + 9), strict=True):
        store.answer(code, seat, step, value)
    store.discuss(code, key, step)
    for seat in seats:
        store.answer(code, seat, step, q.answer)
    store.reveal(code, key, step)
    store.homework_answer(code, lesson="course:recipe-card", title=lesson.title, step=step,
                          step_title=lesson.steps[step].title, question=q, nickname="Di", value=q.answer)
    return code, key


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_the_record_shows_each_vote_and_the_homework_and_reads_by_keyboard(open_page, width):
    code, key = _class()
    page = open_page(f"/class?code={code}&key={key}", width)
    page.wait_for_url(lambda url: "key=" not in url, timeout=30_000)
    wait_ready(page)
    if width == "phone":   # the teacher's controls are in the sidebar, folded away on a phone
        page.get_by_test_id("stExpandSidebarButton").click()
    page.get_by_role("button", name=RECORD).focus()   # then Enter, as a keyboard user opens it
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    dialog.locator("[data-testid='stDataFrame']").first.wait_for(timeout=20_000)
    wait_ready(page)
    assert_clean(page)
    cells = page.evaluate(_CELLS)
    # a row per question step (4) and one more for the step asked twice; then the homework's row
    assert cells.count("in class") == 5, cells
    assert cells.count("homework: One layer is a recipe card: predict y = xW + b") == 1, cells
    if width == "laptop":   # over the page, every column in sight (in the sidebar 3 of 8 were)
        assert {"1", "100.0 %"} <= set(cells), cells
        box = dialog.locator("[data-testid='stDataFrame']").first.bounding_box()
        assert box["width"] >= 600, box
    assert f"/class?homework=recipe-card&code={code}" in dialog.inner_text()
    page.mouse.move(0, 0)
    assert axe_findings(page) == []
    screenshot(page, "lesson-record")
    page.keyboard.press("Escape")   # closed by keyboard, the page as it was
    dialog.wait_for(state="detached", timeout=10_000)


def test_tab_reaches_the_record(open_page):
    code, key = _class()
    page = open_page(f"/class?code={code}&key={key}")
    page.wait_for_url(lambda url: "key=" not in url, timeout=30_000)
    wait_ready(page)
    tab_to(page, RECORD)
    page.keyboard.press("Enter")
    page.get_by_role("dialog").locator("[data-testid='stDataFrame']").first.wait_for(timeout=20_000)
