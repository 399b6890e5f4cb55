"""Links in Chromium: no history entry keeps a teacher's key, a student's seat stays only where a reload
needs it, notes on a link show in the page, and every byte the page loads comes from the app itself."""

from __future__ import annotations

import contextlib
import re
from urllib.parse import urlsplit

from classroom import connection
from tests.e2e.conftest import assert_clean, main_text, screenshot, wait_ready

PROBLEM = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.0, "cells": 2,
           "seed": 3, "feat": ["x1", "x2"]}


def _all_entries(page) -> list[str]:
    """The URLs of every history entry of this tab (pushState entries included), oldest first: walk Back
    one entry at a time, reading each entry's URL the moment it is restored (the page may rewrite its
    address right after), until Back changes nothing. The tab is left at its oldest entry."""
    urls = [page.url]
    page.evaluate("""() => { window.__entries = [];
        window.addEventListener('popstate', () => window.__entries.push(location.href)); }""")
    for _ in range(20):
        n = page.evaluate("() => window.__entries.length")
        page.evaluate("() => history.back()")
        try:
            page.wait_for_function(f"() => window.__entries.length > {n}", timeout=3_000)
        except Exception:   # no popstate: the oldest entry, or a document of its own (then it loads)
            if page.evaluate("() => typeof window.__entries === 'undefined'"):
                urls.insert(0, page.url)
                break
            break
        urls.insert(0, page.evaluate("() => window.__entries[window.__entries.length - 1]"))
        page.wait_for_timeout(500)
    return [u for u in urls if u.startswith("http")]


def test_no_history_entry_keeps_the_teachers_key(open_page, server):
    """Streamlit pushed `/class?code=X` on top of the teacher's `/class?code=X&key=K`, so Back brought
    the key back. Now the key leaves the entry it came in (replaceState): Back never shows it, and the
    teacher's controls stay (the key is kept in the session)."""
    code, key = connection.store().create_class(PROBLEM)
    page = open_page("/")                            # somewhere before, so there is a Back to go to
    page.goto(f"{server.url}/class?code={code}&key={key}")
    wait_ready(page)
    page.wait_for_function("() => !location.search.includes('key=')", timeout=15_000)
    wait_ready(page)
    assert page.get_by_text("Pause the class").count() == 1, main_text(page)[:500]   # the teacher's view
    # Navigate on within the app, then go Back through everything.
    page.locator("[data-testid='stSidebarNav'] a", has_text="Bends").first.click()
    page.wait_for_url("**/activations*")
    wait_ready(page)
    urls = _all_entries(page)
    assert any(f"code={code}" in u for u in urls), urls            # the class page is in the history...
    assert not [u for u in urls if "key=" in u or key in u], urls  # ...but never with its key


def test_a_students_seat_is_in_one_entry_only_the_one_a_reload_needs(open_page, server):
    """The seat must survive a reload (HOUSE.md), so /trainer keeps it in its address; Back goes to the
    class page without it, and nothing before the join holds it."""
    code, _ = connection.store().create_class(PROBLEM)
    student = open_page(f"/class?code={code}")
    student.get_by_role("textbox", name="Your nickname").fill("Ada")
    student.locator("[data-testid='stMain']").get_by_role("button", name="Join", exact=True).first.click()
    student.wait_for_function(
        "() => location.pathname.endsWith('/trainer') && location.search.includes('seat=')", timeout=30_000)
    wait_ready(student)
    seat = dict(p.split("=", 1) for p in urlsplit(student.url).query.split("&"))["seat"]
    student.reload()
    wait_ready(student)
    assert "Ada" in main_text(student)                           # a reload keeps the student
    now = student.url
    urls = _all_entries(student)
    assert urls[-1] == now and seat in now
    assert not [u for u in urls[:-1] if seat in u and "/trainer" not in u], urls
    assert any(u.endswith(f"/class?code={code}") for u in urls), urls


def test_an_unknown_key_in_hide_is_said_in_the_page(open_page):
    """`hide=nope` got its note in the sidebar, folded away (closed for the room view): now it shows in
    the page, above the lesson, where a teacher sees it."""
    page = open_page("/activations?hide=nope")
    assert_clean(page)
    assert "Ignored nope in hide=: no such control on this page." in main_text(page)
    assert "Ignored nope" not in page.inner_text("[data-testid='stSidebar']")
    screenshot(page, "hide-unknown-note")


def test_every_request_the_pages_make_goes_to_the_app_itself(browser, server):
    """A school network that blocks font or icon hosts must lose nothing: every request (the favicon,
    fonts, icons, scripts) goes to the app's own host."""
    hosts = {"127.0.0.1", "localhost"}
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if r.url.startswith(("http:", "https:", "ws:", "wss:")) and urlsplit(r.url).hostname not in hosts
            else None)
    for path in ("/", "/trainer", "/gpt2-params", "/class"):
        page.goto(server.url + path)
        wait_ready(page)
        page.wait_for_timeout(500)
    icon = page.evaluate(
        "() => Array.from(document.querySelectorAll(\"link[rel*='icon']\")).map(l => l.href)")
    ctx.close()
    assert not outside, outside
    assert icon and all(urlsplit(h).hostname in hosts for h in icon), icon


def _step_to(page, nth: int, param: str, want: int) -> None:
    """Arrow-press slider `nth` one committed value at a time until the link says `param=want` (back-to-back
    presses can merge into one run: each press waits for its value in the address bar, and is pressed
    again if it was lost)."""
    for _ in range(40):
        now = re.search(rf"[?&]{param}=(\d+)", page.url)
        value = int(now[1]) if now else None
        if value == want:
            break
        slider = page.get_by_role("slider").nth(nth)
        slider.focus()
        page.keyboard.press("ArrowRight")
        with contextlib.suppress(Exception):   # lost in a merged run: pressed again
            page.wait_for_function(f"() => !location.search.includes('{param}={value}')", timeout=5_000)
        wait_ready(page)
    wait_ready(page)
    page.wait_for_timeout(600)


def _numbers(page) -> dict[str, str]:
    boxes = page.locator("[data-testid='stMetric']")
    return {boxes.nth(i).locator("[data-testid='stMetricLabel']").inner_text():
            boxes.nth(i).locator("[data-testid='stMetricValue']").inner_text() for i in range(boxes.count())}


def test_gpt2_params_an_invalid_shape_shows_sender_and_receiver_the_same_page(open_page, server):
    """d_model 1024 with 13 heads, reached by moving sliders: the sender's page keeps its totals and later
    sections, says which setting is invalid, and the same link opened afresh shows the same numbers."""
    sender = open_page("/gpt2-params")
    _step_to(sender, 0, "d", 1024)          # d: 768 -> 1024
    _step_to(sender, 2, "heads", 13)        # heads: 12 -> 13 (kv follows)
    assert "d=1024" in sender.url and "heads=13" in sender.url
    assert_clean(sender)
    text = main_text(sender)
    assert "1,024 numbers per token cannot be split evenly into 13 heads" in text
    for later in ("Where every number lives", "Two facts, checked", "Memory to hold the weights"):
        assert later in text
    mine = _numbers(sender)
    assert mine.get("Parameters") and "In all 12 blocks" in mine, mine
    receiver = open_page(sender.url.replace(server.url, ""))
    assert_clean(receiver)
    assert _numbers(receiver) == mine
    assert "cannot be split evenly into 13 heads" in main_text(receiver)
