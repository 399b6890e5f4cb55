"""A class challenge in Chromium: the teacher starts one and projects its board, a student joins with the
code, trains on /trainer and submits; the board shows the student within seconds; pause reaches them."""

from __future__ import annotations

import re

from tests.e2e.conftest import assert_clean, main_text, screenshot, wait_ready


def _button(page, name: str):
    return page.locator("[data-testid='stMain']").get_by_role("button", name=name, exact=True).first


def test_teacher_starts_student_joins_submits_and_the_board_shows_them(open_page):
    teacher = open_page("/class")
    assert_clean(teacher)
    screenshot(teacher, "class-start")
    _button(teacher, "Start the challenge").click()
    teacher.wait_for_function("() => /code=[A-Z2-9]{6}/.test(location.href)")
    wait_ready(teacher)
    code = re.search(r"code=([A-Z2-9]{6})", teacher.url)[1]
    assert "key=" not in main_text(teacher)                             # a projector shows no key...
    teacher.get_by_text("Your teacher's link", exact=True).click()     # ...until the teacher opens it
    link = teacher.locator("[data-testid='stCode']", has_text="key=").inner_text()
    assert f"code={code}" in link and "key=" not in teacher.url        # the key is not in the address bar
    assert teacher.get_by_text(code, exact=True).count() >= 1           # the join code, large
    assert teacher.locator("[data-testid='stImage'] img").count() == 1  # the QR code of the student link
    # ...that a phone's camera reads as the student link, at the address the page was reached at
    import io

    import zxingcpp
    from PIL import Image

    shot = Image.open(io.BytesIO(teacher.locator("[data-testid='stImage'] img").screenshot()))
    found = zxingcpp.read_barcodes(shot)
    from ui.address import network_ip, reachable

    opened = teacher.url.split("/class")[0]                  # http://127.0.0.1:port: no student reaches it
    want = reachable(opened)[0] + f"/class?code={code}"
    assert [b.text for b in found] == [want]
    if network_ip():                                          # the link names the machine's network address
        assert network_ip() in want and "127.0.0.1" not in want
        assert "network address" in main_text(teacher)
    screenshot(teacher, "class-board")

    student = open_page(f"/class?code={code}", "phone")
    student.get_by_role("textbox", name="Your nickname").fill("Ada")
    _button(student, "Join").click()
    at_trainer = "() => location.pathname.endsWith('/trainer') && location.search.includes('seat=')"
    student.wait_for_function(at_trainer,
                              timeout=30_000)
    wait_ready(student)
    assert "Class challenge" in main_text(student) and "Ada" in main_text(student)
    _button(student, "+100").click()
    student.wait_for_function("() => document.body.innerText.includes('100')")
    wait_ready(student)
    _button(student, "Submit to the class").click()
    student.get_by_text("Scored: public accuracy").wait_for(timeout=30_000)
    assert_clean(student)
    screenshot(student, "class-student")

    # The teacher's board refreshes by itself (every 3 s): the student is on it.
    teacher.locator("[data-testid='stDataFrame']").wait_for(timeout=15_000)
    assert teacher.locator("[data-testid='stMetric']", has_text="Joined").inner_text().strip().endswith("1")
    screenshot(teacher, "class-board-scored")

    # Pause: the student's page says so within a few seconds, by itself, and Play is held.
    teacher.get_by_text("Pause the class").click()
    student.get_by_text("Eyes up").wait_for(timeout=10_000)
    wait_ready(student)
    assert _button(student, "Play").is_disabled() and _button(student, "Submit to the class").is_disabled()
    teacher.get_by_text("Pause the class").click()                      # resume: all of it comes back
    student.get_by_text("Eyes up").wait_for(state="detached", timeout=10_000)
    wait_ready(student)
    assert _button(student, "Play").is_enabled()
