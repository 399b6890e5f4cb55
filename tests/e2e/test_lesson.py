"""A lesson as a class activity in Chromium (issue 33): a teacher and three students. The teacher starts
the recipe-card lesson, three students join, Next takes every student's page to the step, they answer
before they see, Reveal shows the room's three answers on the projector and opens the view on a student's
screen. Screenshots of the projector's reveal and a student's phone go to docs/."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from classroom.asking import course
from tests.e2e.conftest import assert_clean, axe_findings, main_text, screenshot, tab_to, wait_ready

DOCS = Path(__file__).resolve().parents[2] / "docs"
ON_STEP = "() => location.pathname.endsWith('/recipe-card') && location.search.includes('class=')"


def _button(page, name: str):
    return page.locator("[data-testid='stMain']").get_by_role("button", name=name, exact=True).first


def _join(open_page, code: str, nickname: str, width: str):
    student = open_page(f"/class?code={code}", width)
    student.get_by_role("textbox", name="Your nickname").fill(nickname)
    _button(student, "Join").click()
    student.wait_for_function(ON_STEP, timeout=30_000)
    wait_ready(student)
    return student


def test_a_teacher_leads_three_students_through_a_step_and_reveals(open_page):
    teacher = open_page("/class")
    _button(teacher, "Start the lesson").click()
    teacher.wait_for_function("() => /code=[A-Z2-9]{6}/.test(location.href)")
    wait_ready(teacher)
    code = re.search(r"code=([A-Z2-9]{6})", teacher.url)[1]
    assert "Step 1 of 5" in main_text(teacher) and "key=" not in teacher.url
    assert teacher.locator("[data-testid='stImage'] img").count() == 1       # the QR code, as a challenge's

    students = [_join(open_page, code, name, width)
                for name, width in (("Ada", "phone"), ("Bo", "laptop"), ("Cy", "laptop"))]
    for s in students:
        assert "Step 1 of 5" in main_text(s) and "your teacher leads" in main_text(s)
        assert "seat=" in s.url                          # a reload keeps the student (classroom/history.put)

    tab_to(teacher, "Next")              # the keyboard alone leads the lesson (issue 35): Tab, Enter
    teacher.keyboard.press("Enter")
    t0 = time.monotonic()
    for s in students:                                   # every page follows the teacher by itself
        s.get_by_text("Predict first").wait_for(timeout=max(1, 6_000 - 1000 * (time.monotonic() - t0)))
    assert all("w11=1.5" in s.url for s in students)     # the step's view, in each student's link
    for s in students:
        wait_ready(s)
        assert "opens after your teacher presses Reveal" in main_text(s)
        assert s.get_by_text("The recipe card").count() == 0              # the view waits for Reveal
    right = f"{course()['recipe-card'].steps[1].question.answer:g}"   # lib's answer to the step (3.5)
    for s, value in zip(students, (right, right, "2.5"), strict=True):
        box = s.get_by_role("spinbutton", name="Your answer")
        box.fill(value)
        tab_to(s, "Send my answer")                      # leaving the box sets it; Enter sends
        s.keyboard.press("Enter")
        s.get_by_text("you can change it until your teacher reveals").wait_for(timeout=15_000)
    teacher.get_by_text("3 of 3 students answered").wait_for(timeout=10_000)
    assert "Ada" not in main_text(teacher)               # never who answered what

    tab_to(teacher, "Reveal")
    teacher.keyboard.press("Enter")
    teacher.get_by_text("2 of 3 right", exact=True).wait_for(timeout=15_000)
    wait_ready(teacher)
    assert f"2 of 3 answered {right}, the right answer; 1 answered 2.5." in main_text(teacher)
    assert_clean(teacher)
    teacher.mouse.move(0, 0)                              # no tooltip over the projector's shot
    assert axe_findings(teacher) == []   # issue 35: every class screen
    shutil.copy(screenshot(teacher, "lesson-reveal"), DOCS / "lesson-reveal.png")

    ada = students[0]
    ada.get_by_text("The recipe card").first.wait_for(timeout=6_000)     # the live view opens
    wait_ready(ada)
    text = main_text(ada)
    assert f"✓ Right · Your answer {right} · the answer {right}" in text, text[:300]
    assert "Predict first" not in text and "1.0 × 1.5" in text   # the step's view: w₁₁ = 1.5 on the card
    assert_clean(ada)
    assert axe_findings(ada) == []   # issue 35: every class screen
    shutil.copy(screenshot(ada, "lesson-phone"), DOCS / "lesson-phone.png")


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_the_lesson_start_box_lists_the_course(open_page, width):
    """Lead a lesson: The course opens by keyboard and lists every ready lesson (title, minutes, questions,
    pages, what it builds on), each line wrapping inside the box; axe finds nothing serious."""
    teacher = open_page("/class", width)
    main = teacher.locator("[data-testid='stMain']")
    summary = main.locator("summary", has_text="The course: ")
    summary.focus()
    teacher.keyboard.press("Enter")
    items = main.locator("ol li", has_text="questions)")
    items.first.wait_for(timeout=10_000)
    assert items.count() >= 12
    assert "Any curve from ramps" in items.nth(5).inner_text()
    column = main.locator("[class*='st-key-lesson_start_pick_']").bounding_box()
    for i in (0, items.count() - 1):   # every line wraps inside the lesson-start box
        box = items.nth(i).bounding_box()
        assert box["x"] >= column["x"] - 40 and box["x"] + box["width"] <= column["x"] + column["width"] + 40
    assert_clean(teacher)
    assert axe_findings(teacher) == []
    screenshot(teacher, "lesson-start")
