"""A class challenge in Chromium: the teacher starts one and projects its board, a student joins with the
code, trains on /trainer and submits; the board shows the student within seconds; pause reaches two
playing students within 3 s and stops their epochs.
Two students on the board within 3 s, reveal re-ranks it, a reload keeps a seat, /class at both widths."""

from __future__ import annotations

import re
import time

from tests.e2e.conftest import assert_clean, first_screen, main_text, screenshot, wait_ready


def _button(page, name: str):
    return page.locator("[data-testid='stMain']").get_by_role("button", name=name, exact=True).first


AT_TRAINER = "() => location.pathname.endsWith('/trainer') && location.search.includes('seat=')"


def _join(open_page, code: str, nickname: str, width: str):
    student = open_page(f"/class?code={code}", width)
    student.get_by_role("textbox", name="Your nickname").fill(nickname)
    _button(student, "Join").click()
    student.wait_for_function(AT_TRAINER, timeout=30_000)
    wait_ready(student)
    return student


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

    student = _join(open_page, code, "Ada", "phone")
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

    # Pause, with two students playing: within 3 s both pages say so by themselves, their epoch counters
    # stop, and Play and Submit are held; resume gives it all back.
    bo = _join(open_page, code, "Bo", "laptop")
    for s in (student, bo):
        _button(s, "Play").click()
        _button(s, "Pause").wait_for(timeout=10_000)
    teacher.get_by_text("Pause the class").click()
    t0 = time.monotonic()
    for s in (student, bo):
        s.get_by_text("Eyes up").wait_for(timeout=max(1, 3_500 - 1000 * (time.monotonic() - t0)))
    assert time.monotonic() - t0 <= 3.5
    for s in (student, bo):
        wait_ready(s)
        first = _epoch(s)
        s.wait_for_timeout(1000)
        # Played past where it was (Ada had 100 epochs, Bo none), then stopped: what it trained is kept.
        assert _epoch(s) == first > (100 if s is student else 0), (first, _epoch(s))
        assert _button(s, "Play").is_disabled() and _button(s, "Submit to the class").is_disabled()
    screenshot(student, "class-student-paused")
    teacher.get_by_text("Pause the class").click()                      # resume: all of it comes back
    for s in (student, bo):
        s.get_by_text("Eyes up").wait_for(state="detached", timeout=10_000)
        wait_ready(s)
        assert _button(s, "Play").is_enabled()


def _epoch(page) -> int:
    box = page.locator("[data-testid='stMetric']", has_text="Epoch").first
    return int(re.sub(r"[^0-9]", "", box.locator("[data-testid='stMetricValue']").inner_text()))


def _train_and_submit(student, presses: int) -> None:
    for i in range(presses):
        _button(student, "+100").click()
        student.wait_for_function(
            "n => [...document.querySelectorAll(\"[data-testid='stMetric']\")].some(m => "
            "m.innerText.includes('Epoch') && m.innerText.replace(/[^0-9]/g, '') === String(n))",
            arg=100 * (i + 1), timeout=30_000)
        wait_ready(student)
    _button(student, "Submit to the class").click()
    student.get_by_text("Scored: public accuracy").wait_for(timeout=30_000)


def _gallery_titles(page) -> list[str]:
    """The boundary gallery's titles, in page order ('1. Ada', ...): the board's ranks, as text."""
    titles = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot .annotation-text')]"
                           ".map(t => t.textContent)")
    return [t for t in titles if re.match(r"\d+\. ", t)]


def test_two_students_reach_the_board_within_3_s_reveal_reranks_and_a_reload_keeps_the_seat(open_page):
    from store import Store

    teacher = open_page("/class")
    _button(teacher, "Start the challenge").click()
    teacher.wait_for_function("() => /code=[A-Z2-9]{6}/.test(location.href)")
    wait_ready(teacher)
    code = re.search(r"code=([A-Z2-9]{6})", teacher.url)[1]

    ada, bo = _join(open_page, code, "Ada", "phone"), _join(open_page, code, "Bo", "laptop")
    for student, presses, n in ((ada, 1, 1), (bo, 3, 2)):
        _train_and_submit(student, presses)
        t0 = time.monotonic()   # on the projector within 3 s of the acknowledgement (a fragment every 3 s)
        teacher.wait_for_function(
            "n => [...document.querySelectorAll(\"[data-testid='stMetric']\")].some(m => "
            "m.innerText.includes('Submissions') && m.innerText.trim().endsWith(String(n)))", arg=n,
            timeout=3_500)
        assert time.monotonic() - t0 <= 3.5
    # A third student tuned to the public half (stored as the server would store it): first on the public
    # half, last once the private half is revealed.
    store = Store()
    ada_net = store.weights(next(r.submission for r in store.leaderboard(code) if r.nickname == "Ada"))
    seat = store.join(code, "Cy")
    store.submit(code, seat, spec={"hidden": [8], "act": "relu", "opt": "adam", "epoch": 5}, weights=ada_net,
                 n_params=33, public=1.0, private=0.0)
    teacher.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .annotation-text')]"
                              ".some(t => t.textContent === '1. Cy')", timeout=10_000)
    assert _gallery_titles(teacher)[0] == "1. Cy"
    teacher.get_by_text("Reveal the private scores").click()
    teacher.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .annotation-text')]"
                              ".some(t => t.textContent === '3. Cy')", timeout=10_000)
    wait_ready(teacher)
    private = [r.nickname for r in store.leaderboard(code, reveal=True)]
    assert [t.split(". ", 1)[1] for t in _gallery_titles(teacher)] == private and private[-1] == "Cy"
    # Snapshots: star two, they show large side by side with their settings.
    stars = teacher.locator(".st-key-class_stars")
    for name in ("Bo", "Ada"):
        box = stars.locator("input")
        box.click()
        box.press_sequentially(name)                   # type to filter, as a teacher would, then pick it
        teacher.wait_for_timeout(300)
        box.press("Enter")
        teacher.keyboard.press("Escape")
        shown = "n => document.body.innerText.split('public test points wrong').length - 1 === n"
        teacher.wait_for_function(shown, arg=["Bo", "Ada"].index(name) + 1, timeout=15_000)
        wait_ready(teacher)
    for r in store.leaderboard(code):   # Bo's and Ada's snapshots drawn large, Cy's not
        drawn = teacher.locator(f".st-key-class_snap_{r.submission} .js-plotly-plot").count()
        assert drawn == (r.nickname != "Cy"), (r.nickname, drawn)
    assert main_text(teacher).count("public test points wrong (ringed)") == 2
    screenshot(teacher, "class-revealed")
    first_screen(teacher, "class-revealed")
    teacher.set_viewport_size({"width": 420, "height": 900})
    screenshot(teacher, "class-revealed")
    assert_clean(teacher)

    # A reload keeps Ada in her seat: the same student, the class's data, Submit there.
    ada.reload()
    wait_ready(ada)
    assert "Class challenge" in main_text(ada) and "Ada" in main_text(ada)
    assert _button(ada, "Submit to the class").is_enabled()
    # A student's /class shows the board too, live, and no teacher control.
    board = open_page(f"/class?code={code}", "phone")
    assert "The board of class" in main_text(board) and board.get_by_text("Pause the class").count() == 0
    screenshot(board, "class-student-board")
    store.engine.dispose()


def test_a_bad_row_and_a_markdown_nickname_leave_the_teachers_page_whole(browser, server):
    """Issue 32 in Chromium: a class holding a submission with epoch 2**63 from a student called
    `![](//evil.invalid/p)`. The teacher's /class draws (board, chart, Manage), the bad row says it could not
    be read, the browser never asks that host for anything, and the JSON download is built when pressed and
    holds the class."""
    import json
    from pathlib import Path

    from lib.datasets import make_problem, split
    from lib.train import TrainConfig, Trainer
    from store import Store

    problem = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.1, "cells": 2,
               "seed": 0, "feat": ["x1", "x2"]}
    X, y = make_problem("classify", "checkerboard", 400, noise=0.1, seed=0, cells=2)
    t = Trainer(TrainConfig(hidden=(8,)), *split(X, y, 0.8, seed=0))
    t.step(30)
    store = Store()
    code, key = store.create_class(problem)
    store.submit(code, store.join(code, "Ada"), weights=t.to_dict(), n_params=33, public=0.8, private=0.7,
                 spec={"hidden": [8], "act": "relu", "opt": "adam", "epoch": 30})
    evil = "![](//evil.invalid/p)"
    store.submit(code, store.join(code, evil), spec={"hidden": [8], "act": "relu", "epoch": 2**63},
                 weights={**t.to_dict(), "epoch": 2**63}, n_params=33, public=0.9, private=0.1)
    asked = []
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    teacher = ctx.new_page()
    teacher.on("request", lambda r: asked.append(r.url))           # from the first load on
    teacher.goto(f"{server.url}/class?code={code}&key={key}")
    teacher.wait_for_url(lambda url: "key=" not in url, timeout=30_000)  # the key left (history.py) ...
    wait_ready(teacher)                                                 # ... and the run that follows is done
    teacher.locator("[data-testid='stDataFrame']").wait_for(timeout=15_000)
    assert_clean(teacher)
    assert "could not be drawn" not in main_text(teacher)
    teacher.get_by_text("Manage the class").click()
    wait_ready(teacher)
    screenshot(teacher, "class-bad-row")
    with teacher.expect_download(timeout=30_000) as got:
        _button(teacher, "Download every submission (JSON)").click()
    whole = json.loads(Path(got.value.path()).read_text())
    assert whole["code"] == code and len(whole["submissions"]) == 2
    assert_clean(teacher)
    # Removing the bad row from the Remove list: tests/app/test_class.py (the select's options, the click).
    assert not [u for u in asked if "evil.invalid" in u]
    assert teacher.locator("img[src*='evil.invalid']").count() == 0
    ctx.close()
    store.engine.dispose()


def test_the_store_stopped_mid_class_is_one_line_on_every_page_and_they_come_back_by_themselves(open_page):
    """A server whose PostgreSQL (a private one) stops mid-class: the projector's board, a student's Submit
    and a /class opened meanwhile each say so in one line, nothing else breaks; started again, every page
    comes back by itself (the board at its next refresh, /class within its 5 s look) and Submit works."""
    import os

    from bench.server import StreamlitServer
    from classroom.text import AWAY
    from store import Store
    from tests.e2e.conftest import ROOT
    from tests.unit.test_store import PROBLEM, PrivatePostgres

    pg = PrivatePostgres()
    server = None
    try:
        server = StreamlitServer("app.py", ROOT / "artifacts", prefix="server-store-away",
                                 env={**os.environ, "LAYERLAB_DB": pg.url}).wait_healthy(60)
        store = Store(pg.url)
        code, key = store.create_class(PROBLEM)
        seat = store.join(code, "Ada")
        store.engine.dispose()
        teacher = open_page(f"/class?code={code}&key={key}", base=server.url)
        student = open_page(f"/trainer?class={code}&seat={seat}&twin=false", base=server.url)
        _button(student, "+100").click()
        wait_ready(student)
        pg.stop()
        teacher.get_by_text(AWAY).wait_for(timeout=15_000)               # the board's next refresh
        _button(student, "Submit to the class").click()
        student.get_by_text("Not submitted: The class store cannot be reached; your network is still on "
                            "this page.").wait_for(timeout=30_000)
        late = open_page(f"/class?code={code}", "phone", base=server.url)
        assert late.get_by_text(AWAY).count() == 1
        for page in (teacher, student, late):
            assert_clean(page)
        screenshot(late, "class-store-away")
        pg.start()
        t0 = time.monotonic()
        late.get_by_text(re.compile(r"\d+ joined")).wait_for(timeout=30_000)   # its own look, no reload
        teacher.get_by_text(AWAY).wait_for(state="detached", timeout=30_000)
        assert time.monotonic() - t0 < 30                              # 3.6 s here: the 5 s look, or sooner
        joined = teacher.locator("[data-testid='stMetric']", has_text="Joined").inner_text()
        assert joined.strip().endswith("1")
        _button(student, "Submit to the class").click()
        student.get_by_text("Scored: public accuracy").wait_for(timeout=30_000)
        for page in (teacher, student, late):
            assert_clean(page)
    finally:
        if server is not None:
            server.stop()
        pg.close()
