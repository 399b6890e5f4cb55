"""The lesson builder in Chromium (issue 33, item 1): a teacher builds a two-step lesson on /class from two
links, saves it, opens it again by its code on a phone, and starts it with Start the lesson as a ready
lesson is started. Screenshots of the builder at both widths go to artifacts/screenshots/."""

from __future__ import annotations

import re

from tests.e2e.conftest import assert_clean, axe_findings, main_text, screenshot, tab_to, wait_ready

BUILD = "Build a lesson of your own (for the teacher)"


def _button(page, name: str):
    return page.locator("[data-testid='stMain']").get_by_role("button", name=name, exact=True).first


def _open_builder(page) -> None:
    page.get_by_text(BUILD, exact=True).click()
    page.get_by_role("textbox", name="A link to a view").wait_for(timeout=15_000)
    wait_ready(page)


def _type(page, label: str, text: str) -> None:
    box = page.get_by_role("textbox", name=label, exact=True)
    box.fill(text)
    box.press("Tab")
    wait_ready(page)


def _add(page, link: str, title: str, n: int) -> None:
    _type(page, "A link to a view", link)
    _type(page, "Its title (optional)", title)
    _button(page, "Add the step").click()
    page.get_by_text(f"Added step {n}").wait_for(timeout=15_000)
    wait_ready(page)


def test_a_teacher_builds_a_two_step_lesson_from_links_saves_it_and_starts_it(open_page):
    teacher = open_page("/class")
    _open_builder(teacher)
    _type(teacher, "The lesson's title", "Cards <b>and</b> bends")
    _add(teacher, f"{teacher.url.split('/class')[0]}/recipe-card?x1=2&w11=1.5&hide=nin,nout", "The card", 1)
    _add(teacher, "/activations?bend=identity&hide=bend", "No bend", 2)
    text = main_text(teacher)
    assert "1. The card" in text and "2. No bend" in text and "/activations?bend=identity&hide=bend" in text
    teacher.get_by_role("textbox", name="The lesson's title").focus()   # from the title on, keys alone
    tab_to(teacher, "Save the lesson")
    teacher.keyboard.press("Enter")
    teacher.get_by_text("Saved under the code").wait_for(timeout=15_000)
    wait_ready(teacher)
    code = re.search(r"Saved under the code ([A-Z2-9]{6})", main_text(teacher))[1]
    assert_clean(teacher)
    teacher.mouse.move(0, 0)
    assert axe_findings(teacher) == []   # issue 35: every class screen
    screenshot(teacher, "lesson-build")

    phone = open_page("/class", "phone")                   # the same lesson, opened again by its code
    _open_builder(phone)
    _type(phone, "Open a saved lesson", code)
    phone.locator(".st-key-build_open button:visible").click()   # (a select's arrow is named Open too)
    phone.get_by_text("Opened").wait_for(timeout=15_000)
    wait_ready(phone)
    assert "2. No bend" in main_text(phone) and "Cards <b>and</b> bends" in main_text(phone)   # as typed
    assert_clean(phone)
    phone.mouse.move(0, 0)
    assert axe_findings(phone) == []   # issue 35: every class screen
    screenshot(phone, "lesson-build")

    pick = teacher.locator("[class*='st-key-lesson_start_pick_']")   # Lead a lesson's pick, as typed
    assert "Yours: Cards <b>and</b> bends" in pick.inner_text() + pick.locator("input").first.input_value()
    _button(teacher, "Start the lesson").click()
    teacher.wait_for_function("() => /code=[A-Z2-9]{6}/.test(location.href)", timeout=30_000)
    wait_ready(teacher)
    text = main_text(teacher)
    assert "Step 1 of 2: The card" in text and "Cards <b>and</b> bends" in text, text[:400]
    assert teacher.locator("[data-testid='stImage'] img").count() == 1       # the join QR, as any lesson's
    assert_clean(teacher)
    assert axe_findings(teacher) == []   # issue 35: every class screen
    screenshot(teacher, "lesson-build-started")


def test_a_question_about_the_page_shows_its_computed_answer_to_the_teacher(open_page):
    """Issue 45 item 2: "About this page" draws what the page can be asked, its parameters and the right
    answer computed from the step's link; the editor passes axe-core and is drawn at both widths."""
    card = "/recipe-card?mode=plain&nin=2&nout=2&x1=1&x2=2&w11=0.5&w12=-1&w21=1&w22=0.5&b1=0&b2=0.5"
    for size in (None, "phone"):
        teacher = open_page("/class", size) if size else open_page("/class")
        _open_builder(teacher)
        _add(teacher, card, "The card", 1)
        kind = teacher.get_by_role("radiogroup", name="A question before the view")
        kind.get_by_role("radio", name="No question").focus()
        for _ in range(3):                                    # by keyboard: No question → … → About this page
            teacher.keyboard.press("ArrowRight")
        teacher.get_by_text("Right answer, computed from this step's link").wait_for(timeout=15_000)
        wait_ready(teacher)
        text = main_text(teacher)
        assert "Right answer, computed from this step's link: 2.5\u00a0±\u00a00.05" in text, text[-800:]
        words = teacher.get_by_role("textbox", name="The question").input_value()
        assert words.startswith("What is output y1")
        assert_clean(teacher)
        teacher.mouse.move(0, 0)
        assert axe_findings(teacher) == []
        teacher.get_by_role("textbox", name="A new link for this step").scroll_into_view_if_needed()
        screenshot(teacher, "lesson-build-ask")


def test_a_retitled_step_is_kept_and_the_lesson_saves(open_page):
    """Issue 43, item 1: the picker held step 2 by its label, so after "Keep these for step 2" with a new
    title every run raised a TypeError ("This app has encountered an error") and Save never happened."""
    teacher = open_page("/class")
    _open_builder(teacher)
    _add(teacher, "/recipe-card?x1=2", "The card", 1)
    _add(teacher, "/activations?bend=identity", "No bend", 2)
    teacher.locator("[data-testid='stSelectbox']", has_text="The step").get_by_role("combobox").click()
    teacher.keyboard.press("ArrowDown")   # opens the list
    teacher.get_by_role("option", name="2. No bend").click()
    wait_ready(teacher)
    assert teacher.get_by_role("textbox", name="Its title", exact=True).input_value() == "No bend"
    _type(teacher, "Its title", "A straight line")
    _button(teacher, "Keep these for step 2").click()
    teacher.get_by_text("Step 2 kept").wait_for(timeout=15_000)
    wait_ready(teacher)
    assert_clean(teacher)
    _button(teacher, "Save the lesson").click()
    teacher.get_by_text("Saved under the code").wait_for(timeout=15_000)
    wait_ready(teacher)
    assert_clean(teacher)
    text = main_text(teacher)
    assert "2. A straight line" in text and "This app has encountered an error" not in text
    assert "Keep these for step 2" in text      # the picker still on step 2, by its new name
    teacher.mouse.move(0, 0)
    assert axe_findings(teacher) == []
    screenshot(teacher, "lesson-build-retitled")


def test_a_reload_restores_the_unsaved_lesson(open_page):
    """Issue 43, item 1: a reload (or a laptop that slept and came back as a new session) lost every unsaved
    step. The lesson being built is kept as it changes, its code in the address bar's own entry (no Back per
    change); the reload restores title and steps with one line, axe clean, at 1366 and 420 px."""
    for size in ("laptop", "phone"):
        teacher = open_page("/class", size)
        _open_builder(teacher)
        entries = teacher.evaluate("history.length")
        _type(teacher, "The lesson's title", "Unsaved bends")
        _add(teacher, "/activations?bend=relu&hide=bend", "A bend", 1)
        teacher.wait_for_function("() => /[?&]draft=[A-Z2-9]{6}/.test(location.href)", timeout=15_000)
        code = re.search(r"draft=([A-Z2-9]{6})", teacher.url)[1]
        assert teacher.evaluate("history.length") == entries             # replaced in place, never pushed
        teacher.reload()
        wait_ready(teacher)
        teacher.get_by_text("Your unsaved lesson was restored.").wait_for(timeout=15_000)
        wait_ready(teacher)
        text = main_text(teacher)
        assert "1. A bend" in text and "/activations?bend=relu&hide=bend" in text, text[-800:]
        assert teacher.get_by_role("textbox", name="The lesson's title").input_value() == "Unsaved bends"
        assert f"draft={code}" in teacher.url
        assert_clean(teacher)
        teacher.mouse.move(0, 0)
        assert axe_findings(teacher) == []
        screenshot(teacher, "lesson-build-restored")
    lost = open_page("/class?draft=ZZZZZZ", "phone")                     # a code that names no draft
    lost.get_by_text("Your unsaved lesson could not be restored").wait_for(timeout=15_000)
    wait_ready(lost)
    assert_clean(lost)
    assert "draft=" not in lost.url and "No steps yet" not in main_text(lost)   # the builder closed, empty
    screenshot(lost, "lesson-build-draft-lost")
