"""The teacher's record in Chromium (issue 45 item 7): a lesson class whose first question was asked twice
(a first vote, Discuss, a second vote, Reveal) and whose class also handed in homework. The teacher opens
"The record of this lesson" by keyboard; it holds a row per vote and the homework's row, and axe-core finds
nothing serious or critical at 1366 and 420 px. Photographed (artifacts/screenshots/lesson-record-*.png)."""

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
    page.locator("summary", has_text=RECORD).first.focus()   # then Enter, as a keyboard user opens it
    page.keyboard.press("Enter")
    grid = page.locator("details", has=page.get_by_text(RECORD)).locator("[data-testid='stDataFrame']")
    grid.first.wait_for(timeout=20_000)
    wait_ready(page)
    assert_clean(page)
    cells = page.evaluate(_CELLS)   # at 420 px only the columns in sight: the first, where each row says
    # a row per question step (4) and one more for the step asked twice; then the homework's row
    assert cells.count("in class") == 5, cells
    assert cells.count("homework: One layer is a recipe card: predict y = xW + b") == 1, cells
    page.mouse.move(0, 0)
    assert axe_findings(page) == []
    screenshot(page, "lesson-record")


def test_tab_reaches_the_record(open_page):
    code, key = _class()
    page = open_page(f"/class?code={code}&key={key}")
    page.wait_for_url(lambda url: "key=" not in url, timeout=30_000)
    wait_ready(page)
    tab_to(page, RECORD)
    page.keyboard.press("Enter")
    page.locator("details[open]", has=page.get_by_text(RECORD)).first.wait_for(timeout=20_000)
