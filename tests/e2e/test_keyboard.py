"""The keyboard alone (issue 35 item 4), as a student without a mouse works: Tab to a control, Enter.

- /trainer: Tab to Play, Enter, the epochs advance, the live region tells a screen reader how far
  training has got (at most every few seconds, never every tick), Tab to Pause, Enter, it stops.
- the class join: Tab to the nickname, type it, Tab to Join, Enter; on the class trainer, Tab to
  +100, Enter, Tab to Submit, Enter: the receipt.
- 200 % zoom on a 1366 px laptop (a 683 px wide page of twice the pixels): on every page, nothing runs
  off the side.
"""

from __future__ import annotations

import re
import time

import pytest

from classroom import connection
from tests.e2e.conftest import assert_clean, axe_findings, close_page, screenshot, tab_to, wait_ready
from tests.e2e.test_links import PROBLEM
from ui.nav import LESSONS

pytestmark = pytest.mark.e2e

AT_TRAINER = "() => location.pathname.endsWith('/trainer') && location.search.includes('seat=')"

_EPOCH = """() => { const m = Array.from(
  document.querySelectorAll("[data-testid='stMain'] [data-testid='stMetric']"))
  .find(e => e.innerText.startsWith('Epoch'));
  return m ? parseInt(m.querySelector("[data-testid='stMetricValue']").innerText.replace(/,/g, '')) : -1; }"""
_SAID = "() => document.querySelector('.layerlab-live[role=status]')?.textContent || ''"


def test_the_trainer_by_keyboard_alone_plays_pauses_and_is_told_the_progress(open_page):
    page = open_page("/trainer?twin=false")
    assert page.evaluate(_SAID).startswith("Stopped: epoch 0, test accuracy")
    tab_to(page, "Play")
    ring = page.evaluate("() => { const s = getComputedStyle(document.activeElement); "
                         "return [s.outlineStyle, s.outlineWidth, s.boxShadow]; }")
    assert (ring[0] != "none" and ring[1] != "0px") or ring[2] != "none", ring   # the focus is visible
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => ({_EPOCH})() > 0", timeout=30_000)
    said, start = [], time.monotonic()
    while time.monotonic() - start < 9:            # what a screen reader is given while it plays
        text = page.evaluate(_SAID)
        if not said or said[-1] != text:
            said.append(text)
        page.wait_for_timeout(200)
    assert page.evaluate(_EPOCH) > 0
    training = [s for s in said if s.startswith("Training: epoch")]
    assert training, said
    assert len(said) <= 4, said                    # 9 s of ticks: a few announcements, not one a tick
    # Pause took Play's place and the focus with it: Enter again, no Tab (pages/trainer/announce.py's swaps)
    assert page.evaluate("() => document.activeElement.closest('.st-key-trainer_pause') !== null")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => /^Stopped: epoch [1-9]/.test(({_SAID})())", timeout=30_000)
    wait_ready(page)
    epoch = page.evaluate(_EPOCH)
    assert f"epoch {epoch:,}," in page.evaluate(_SAID)   # the words say the epoch the page shows
    page.wait_for_timeout(1500)
    assert page.evaluate(_EPOCH) == epoch                # stopped
    page.wait_for_function("() => document.activeElement.closest('.st-key-trainer_play') !== null",
                           timeout=10_000)          # and Play takes it back
    assert_clean(page)
    assert axe_findings(page) == []                 # after Play: its metrics, curves and maps


def test_pause_takes_plays_focus_when_the_server_answers_late(browser, server):
    """A slow laptop or a busy server: the run that draws Pause in Play's place reaches the page 2.5 s after
    Enter (the page's websocket holds the server's messages that long). Pause still gets the focus, and
    Enter on it gives it back to Play. (The keeper forgot a key older than 1.5 s: on a busy machine the
    focus fell to the page's top, and the next Enter went nowhere.)"""
    held = {"on": False, "queue": [], "ws": None}

    def route(ws):
        to_server = ws.connect_to_server()
        held["ws"] = ws
        to_server.on_message(lambda m: held["queue"].append(m) if held["on"] else ws.send(m))

    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    try:
        page.route_web_socket(re.compile(r"/_stcore/stream"), route)
        page.goto(server.url + "/trainer?twin=false")
        wait_ready(page)
        tab_to(page, "Play")
        for button, partner in (("trainer_play", "trainer_pause"), ("trainer_pause", "trainer_play")):
            held["on"] = True
            page.keyboard.press("Enter")
            page.wait_for_timeout(2_500)   # the page still shows the button pressed, focused
            assert page.evaluate(f"() => !!document.activeElement.closest('.st-key-{button}')")
            while held["queue"]:   # in order; what comes meanwhile joins the queue
                held["ws"].send(held["queue"].pop(0))
            held["on"] = False
            page.wait_for_function(f"() => document.activeElement.closest('.st-key-{partner}') !== null",
                                   timeout=15_000)
        wait_ready(page)
        assert page.get_by_role("button", name="Play", exact=True).is_visible()
    finally:
        close_page(page)


def test_the_class_join_and_submit_by_keyboard_alone(open_page):
    code, _ = connection.store().create_class(PROBLEM)
    page = open_page(f"/class?code={code}", "phone")
    nickname = page.get_by_role("textbox", name="Your nickname")
    for _ in range(40):                                  # Tab to the nickname's field
        page.keyboard.press("Tab")
        if nickname.evaluate("e => e === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reached the nickname")
    page.keyboard.type("Kim")
    tab_to(page, "Join")
    page.keyboard.press("Enter")
    page.wait_for_function(AT_TRAINER, timeout=30_000)
    wait_ready(page)
    tab_to(page, "+100")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => ({_EPOCH})() >= 100", timeout=30_000)
    wait_ready(page)
    tab_to(page, "Submit to the class")
    page.keyboard.press("Enter")
    page.get_by_text("Scored: public accuracy").wait_for(timeout=30_000)
    assert_clean(page)
    assert re.search(r"Kim", page.inner_text("[data-testid='stMain']"))


_SIDEWAYS = """() => { const m = document.querySelector("[data-testid='stMain']");
  return m.scrollWidth - m.clientWidth; }"""


@pytest.mark.parametrize("path", [f"/{lesson.url_path}" for lesson in LESSONS])
def test_200_percent_zoom_on_a_laptop_loses_nothing_sideways(browser, server, path):
    """WCAG 1.4.4 / 1.4.10: at 200 % a 1366 x 768 screen is a 683 x 384 page drawn at twice the pixels."""
    ctx = browser.new_context(viewport={"width": 683, "height": 384}, device_scale_factor=2)
    page = ctx.new_page()
    page.goto(server.url + path)
    wait_ready(page)
    assert_clean(page)
    assert page.evaluate(_SIDEWAYS) <= 0, f"{path}: runs off the side at 200 %"
    screenshot(page, "zoom-200" + path.replace("/", "-"))
    ctx.close()


def test_a_point_typed_by_keyboard_joins_the_data(open_page):
    """Issue 35 item 4: a point by its coordinates and class, without a click on the map."""
    page = open_page("/trainer?twin=false")
    tab_to(page, "just look")                      # the pills are one Tab stop: arrows move among them
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    wait_ready(page)
    tab_to(page, "Add a point by typing its coordinates")
    page.keyboard.press("Enter")
    for label, value in (("x₁", "1.2"), ("x₂", "-0.5")):
        tab_to(page, label)
        page.keyboard.press("Control+A")
        page.keyboard.type(value)
    tab_to(page, "Add class 1 (green square)")     # leaving the field sets its value
    wait_ready(page)
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.search.includes('pts=1.2_-0.5_1')", timeout=30_000)
    wait_ready(page)
    assert "1 of 150 points placed by hand" in page.inner_text("[data-testid='stMain']")
    assert_clean(page)
    screenshot(page, "trainer-typed-point")


def test_no_single_key_shortcut_takes_a_key_from_a_screen_reader(open_page):
    """WCAG 2.1.4: Streamlit's own 'r' (rerun) and 'c' (clear caches) are off for a viewer
    (.streamlit/config.toml's toolbarMode = "minimal"): a letter typed outside a field does nothing."""
    page = open_page("/recipe-card")
    page.evaluate("""() => { window.__runs = 0; new MutationObserver(() => {
        if (document.querySelector("[data-testid=stApp][data-test-script-state=running]")) window.__runs++;
      }).observe(document.querySelector('[data-testid=stApp]'), {attributes: true}); }""")
    # A page still settling (a chart that asks again for a figure it lost, on a busy machine) runs on its
    # own: the keys are pressed once it has run nothing for 1.5 s, so a run after them is most likely theirs.
    # A run of its own can still fall in the 1.5 s after them (CI saw one once), so the whole try is made up
    # to three times: a shortcut that works reruns the page every time, a stray run does not come thrice.
    runs_after = []
    for _ in range(3):
        for _ in range(10):
            page.evaluate("window.__runs = 0")
            page.wait_for_timeout(1500)
            if page.evaluate("window.__runs") == 0:
                break
        else:
            raise AssertionError("the page never stayed 1.5 s without a run")
        for key in ("r", "R", "c", "C"):
            page.keyboard.press(key)
        page.wait_for_timeout(1500)
        runs_after.append(page.evaluate("window.__runs"))
        if runs_after[-1] == 0:
            break
    assert runs_after[-1] == 0, f"the page ran after the keys in every try: {runs_after}"
    assert page.get_by_text("Clear caches").count() == 0
