"""Homework mode alone in Chromium (issue 45 item 6): /class?homework=recipe-card, no teacher, no class.
By keyboard alone a student steps through, predicts, checks, sees right or not with the right answer and
the step's live view, and reaches the score; no right answer reaches the browser (its websocket frames)
before that step's answer is checked; axe-core finds nothing serious or critical at 1366 and 420 px, and
each screen is photographed (artifacts/screenshots/homework-*)."""

from __future__ import annotations

import re

import pytest

from classroom.asking import course
from tests.e2e.conftest import assert_clean, axe_findings, main_text, screenshot, tab_to, wait_ready
from tests.e2e.test_projector import _leaked
from tests.minus import deltas

LESSON = course()["recipe-card"]
RIGHT = [f"{s.question.answer:g}" if s.question else None for s in LESSON.steps]   # lib's: 3.5, 2.5, ...


def _press(page, name: str) -> None:
    """Tab to the control `name` and press Enter: the keyboard alone."""
    tab_to(page, name)
    page.keyboard.press("Enter")


def _answer(page, typed: str) -> None:
    box = page.get_by_role("textbox", name="Your answer")
    box.focus()
    page.keyboard.type(typed)
    _press(page, "Check my answer")


def _clean(page, shot: str) -> None:
    wait_ready(page)
    assert_clean(page)
    page.mouse.move(0, 0)          # no tooltip in the shot (a focused button's too)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    assert axe_findings(page) == []
    screenshot(page, shot)


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_homework_alone_by_keyboard_no_answer_in_the_frames_before_it_is_checked(open_page, width):
    frames: list = []
    page = open_page("/class?homework=recipe-card", width, frames=frames)
    assert "Step 1 of 5: The card" in main_text(page)
    page.locator("iframe").first.wait_for(timeout=10_000)              # no question: the view at once
    _clean(page, "homework-step")

    _press(page, "Next")
    page.get_by_text("Predict first").wait_for(timeout=15_000)
    wait_ready(page)
    assert page.locator("iframe").count() == 0                          # the view waits for the answer
    assert not _leaked(frames, RIGHT[1]), "the right answer reached the browser before it was checked"
    assert RIGHT[1] not in main_text(page)
    _answer(page, "three")                                              # not a number: one line, kept
    page.get_by_text("Write a number").wait_for(timeout=15_000)
    assert page.get_by_role("textbox", name="Your answer").input_value() == "three"
    assert not _leaked(frames, RIGHT[1])
    _clean(page, "homework-bad-answer")
    page.get_by_role("textbox", name="Your answer").fill("")
    _answer(page, RIGHT[1])
    page.get_by_text("✓ Right").wait_for(timeout=15_000)
    assert f"✓ Right · Your answer {RIGHT[1]} · the answer {RIGHT[1]}" in main_text(page)
    page.locator("iframe").first.wait_for(timeout=10_000)               # the live view of the step
    assert "w11=1.5" in page.locator("iframe").first.get_attribute("src")
    _clean(page, "homework-right")

    assert "step=2" in page.url                                          # the place is in the address
    page.reload()                                                        # ... so a reload keeps it
    wait_ready(page)
    assert "Step 2 of 5" in main_text(page) and "Predict first" in main_text(page)
    _press(page, "Back")                                                 # Back by keyboard: step 1's view
    page.get_by_text("Step 1 of 5").wait_for(timeout=15_000)
    page.wait_for_url(re.compile(r"step=1"), timeout=10_000)


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_a_wrong_answer_the_score_and_a_bad_class_code(open_page, width):
    frames: list = []
    page = open_page("/class?homework=recipe-card", width, frames=frames)
    page.get_by_role("textbox", name="Class code").fill("ZZZZZZ")
    page.get_by_role("textbox", name="Your nickname").fill("Ada")
    page.get_by_role("textbox", name="Your nickname").press("Tab")
    wait_ready(page)
    _press(page, "Next")
    page.get_by_text("Step 2 of 5").wait_for(timeout=15_000)
    wait_ready(page)
    frames.clear()     # step 1's view (a live page with y1 = 2.5 on it) is gone: from here, this step's own
    _press(page, "Next")
    page.get_by_text("Step 3 of 5").wait_for(timeout=15_000)
    wait_ready(page)
    assert not _leaked(frames, RIGHT[2]), "step 3's right answer reached the browser before it was checked"
    _answer(page, "1")
    page.get_by_text("No class has the code ZZZZZZ").wait_for(timeout=15_000)   # beside the code, kept
    assert page.get_by_role("textbox", name="Your answer").input_value() == "1"
    assert not _leaked(frames, RIGHT[2])
    _clean(page, "homework-bad-code")
    page.get_by_role("textbox", name="Class code").fill("")
    page.get_by_role("textbox", name="Your nickname").fill("")
    page.get_by_role("textbox", name="Your nickname").press("Tab")
    wait_ready(page)
    _press(page, "Check my answer")
    page.get_by_text("✗ Not this time").wait_for(timeout=15_000)
    assert f"the answer {RIGHT[2]}" in main_text(page)
    _clean(page, "homework-wrong")
    for _ in range(2):
        _press(page, "Next")
        wait_ready(page)
    _press(page, "See my score")
    page.get_by_text("0 of 4 right").wait_for(timeout=15_000)
    assert "3 questions not answered" in main_text(page)
    never = RIGHT[3].replace("-", "\u2212")   # step 4's, as the page would write it (−1.5)
    # never answered: never sent as this page writes it (step 3's view has a colour scale from -1.5, the
    # card's own numbers, and is open by now)
    assert not _leaked(frames, never) and f"the answer {never}" not in str(list(deltas(frames)))
    _clean(page, "homework-score")
