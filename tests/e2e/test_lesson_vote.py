"""Peer instruction's second vote and the quiet hand in Chromium (issue 45 items 5 and 8): a teacher at
1366 px and three students (two phones at 420 px, a laptop) through the ready recipe-card lesson. The first
vote shows the room only its count; the teacher presses Discuss with your neighbour by keyboard; each
student votes again under their first answer; no frame a phone receives holds the right answer before
Reveal, in either vote; two students press I'm lost (one by keyboard) and the projector shows "2 lost",
never who; Reveal shows both votes side by side and how many moved to the right answer; the teacher clears
the hands. axe-core finds nothing serious on each new screen at 1366 and 420 px; each is photographed."""

from __future__ import annotations

import re

from classroom import lead, reveal
from tests.e2e.conftest import (
    assert_clean,
    axe_findings,
    choose_lesson,
    main_text,
    screenshot,
    tab_to,
    wait_ready,
)
from tests.e2e.test_projector import _leaked
from ui import fmt

ON_STEP = "() => location.search.includes('class=')"


def _main(page):
    return page.locator("[data-testid='stMain']")


def _join(open_page, code: str, nickname: str, width: str, frames=None):
    student = open_page(f"/class?code={code}", width, frames=frames)
    student.get_by_role("textbox", name="Your nickname").fill(nickname)
    _main(student).get_by_role("button", name="Join", exact=True).click()
    student.wait_for_function(ON_STEP, timeout=30_000)
    wait_ready(student)
    return student


def _send(student, value: str) -> None:
    box = student.get_by_role("spinbutton", name="Your answer")
    try:
        box.wait_for(timeout=30_000)
    except Exception:   # what the page showed instead, for the developer
        from tests.e2e.conftest import SHOTS

        student.screenshot(path=str(SHOTS / "lesson-vote-no-answer-box.png"))
        raise AssertionError(main_text(student)[:600]) from None
    box.fill(value)
    box.press("Tab")
    student.get_by_role("button", name="Send my answer").click()
    student.get_by_text("you can change it until your teacher reveals").wait_for(timeout=15_000)


def _clean(page, name: str) -> None:
    """No error, nothing serious for axe, and a photograph (artifacts/screenshots/<name>-<width>.png)."""
    wait_ready(page)
    assert_clean(page)
    page.mouse.move(0, 0)                                        # no tooltip over the shot
    assert axe_findings(page) == [], name
    screenshot(page, name)


def test_a_second_vote_after_discussing_and_an_im_lost_count(open_page):
    lesson = lead.ready()["recipe-card"]
    step = lesson.steps[1]
    right = f"{step.question.answer:g}"
    teacher = open_page("/class", height=768)
    choose_lesson(teacher, lesson.title)
    teacher.get_by_role("button", name="Start the lesson").click()
    teacher.wait_for_function("() => /code=[A-Z2-9]{6}/.test(location.href)", timeout=30_000)
    wait_ready(teacher)
    code = re.search(r"code=([A-Z2-9]{6})", teacher.url)[1]
    frames: list = []
    ada = _join(open_page, code, "Ada", "phone", frames)
    bo = _join(open_page, code, "Bo", "laptop")
    cy = _join(open_page, code, "Cy", "phone")
    side = teacher.locator("[data-testid='stSidebar']")
    assert side.get_by_role("button", name="Discuss with your neighbour").count() == 0   # no question yet
    side.get_by_role("button", name="Next").click(no_wait_after=True)
    for s in (ada, bo, cy):
        s.get_by_text("Predict first").wait_for(timeout=15_000)
    for s, value in ((ada, "2.5"), (bo, "2.5"), (cy, right)):     # the first vote: one of three right
        wait_ready(s)
        _send(s, value)
    _main(teacher).get_by_text("3 of 3 answered", exact=True).wait_for(timeout=10_000)
    assert not _leaked(frames, right), "the right answer reached a phone in the first vote"

    discuss = side.get_by_role("button", name="Discuss with your neighbour")
    discuss.wait_for(timeout=10_000)
    cut = discuss.evaluate("b => [b, ...b.querySelectorAll('*')]"
                           ".some(e => e.scrollWidth > e.clientWidth + 1)")
    assert not cut, "the Discuss button's words are cut"          # in half the sidebar they were
    _clean(teacher, "lesson-vote-first")                          # the sidebar with Discuss, whole
    tab_to(teacher, "Discuss with your neighbour")                # the keyboard alone asks again
    teacher.keyboard.press("Enter")
    _main(teacher).get_by_text("Second vote, after discussing:", exact=True).wait_for(timeout=15_000)
    _main(teacher).get_by_text("0 of 3 answered", exact=True).wait_for(timeout=15_000)
    assert side.get_by_role("button", name="Discuss with your neighbour").count() == 0
    _clean(teacher, "lesson-vote-second")
    for s, first in ((ada, "2.5"), (bo, "2.5"), (cy, right)):
        s.get_by_text("then vote again").first.wait_for(timeout=6_000)
        wait_ready(s)
        assert f"Your first answer: {first}" in main_text(s)
        assert s.get_by_role("spinbutton", name="Your answer").input_value() == ""   # starts empty
    assert not _leaked(frames, right), "the right answer reached a phone in the second vote"
    _clean(ada, "lesson-vote-phone-second")
    _clean(bo, "lesson-vote-laptop-second")

    tab_to(ada, "I'm lost")                                       # a quiet hand, by keyboard
    ada.keyboard.press("Space")
    bo.get_by_text("I'm lost").first.click()
    _main(teacher).get_by_text("✋ 2 lost", exact=True).wait_for(timeout=10_000)
    assert "Ada" not in main_text(teacher) and "Bo" not in main_text(teacher)   # never who
    _clean(teacher, "lesson-vote-lost")
    _clean(ada, "lesson-vote-phone-lost")

    for s in (ada, bo, cy):                                       # the second vote: all three right
        _send(s, right)
    _main(teacher).get_by_text("3 of 3 answered", exact=True).wait_for(timeout=10_000)
    side.get_by_role("button", name="Reveal").click(no_wait_after=True)
    moved = f"2 of 3 moved to the right answer; right: {fmt.pct(1 / 3, 0)} → {fmt.pct(1.0, 0)}"
    _main(teacher).get_by_text(moved, exact=True).wait_for(timeout=15_000)
    wait_ready(teacher)
    bars = teacher.evaluate("() => [...document.querySelectorAll('.js-plotly-plot .trace.bars')].length")
    assert bars == 2 and reveal.KEY in main_text(teacher), bars  # both votes, side by side on one chart
    ticks = teacher.evaluate("() => [...document.querySelectorAll('.js-plotly-plot .xtick text')]"
                             ".map(t => t.textContent)")
    assert f"{right} ✓" in ticks, ticks
    assert f"{reveal.FIRST}: 1 of 3 right. {reveal.SECOND}: 3 of 3 right." in main_text(teacher)
    _clean(teacher, "lesson-vote-reveal")
    teacher.set_viewport_size({"width": 420, "height": 900})     # the reveal on a narrow screen
    _clean(teacher, "lesson-vote-reveal")
    teacher.set_viewport_size({"width": 1366, "height": 768})

    ada.get_by_text("✓ Right", exact=False).first.wait_for(timeout=10_000)
    assert f"Your answer {right} · the answer {right} (your first answer 2.5)" in main_text(ada)
    assert moved in main_text(ada)
    _clean(ada, "lesson-vote-phone-reveal")

    side.get_by_role("button", name="Clear the lost hands").click(no_wait_after=True)
    _main(teacher).get_by_text("✋ 2 lost", exact=True).wait_for(state="detached", timeout=10_000)
    ada.wait_for_function("() => !document.querySelector(\"[data-testid='stMain'] input[type=checkbox]\")"
                          ".checked", timeout=10_000)             # her toggle follows the clear
