"""A replica that dies loses no lesson: the browser reconnects through the balancer to another
replica, gets its view back from the link and one line saying the page was restarted (shown to
nobody else: not on a first visit, not to a fresh browser opening the same link). Then SIGTERM
stops everything deploy/serve started."""

from __future__ import annotations

import os
import shutil
import signal
import time

import pytest

from tests.deploy.conftest import Serve, alive, isolated

pytestmark = pytest.mark.e2e

CONNECTED = "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
RESTARTED = "The server you were on stopped"   # ui/replica.NOTE's words
KEY_OF = """e => Array.from(e.closest("[class*='st-key-']").classList)
    .find(c => c.startsWith('st-key-')).slice('st-key-'.length)"""


@pytest.fixture
def serve_no_restart():
    s = Serve(2, "--no-restart")
    yield s
    s.stop()


def shown(page, key: str) -> str:
    """The value the slider with this key shows (a range input or an ARIA slider)."""
    return page.locator(f".st-key-{key}").get_by_role("slider").first.evaluate(
        "e => e.getAttribute('aria-valuenow') ?? e.value")


def replica_cookie(ctx) -> str:
    return {c["name"]: c["value"] for c in ctx.cookies()}["layerlab_replica"]


def test_a_student_whose_replica_stops_comes_back_on_the_other_with_the_view_from_the_link(
        serve_no_restart):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.fail("Debian's chromium is not installed (apt-get install chromium)")
    s = serve_no_restart
    isolated(_drive, s, chromium)
    stop_stops_everything(s)


def _drive(s, chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        browser = pw.chromium.launch(executable_path=chromium, args=args)
        try:
            ctx = browser.new_context(viewport={"width": 1366, "height": 900})
            page = ctx.new_page()
            page.set_default_timeout(90_000)   # a shared machine can be slow
            sockets = []
            page.on("websocket", lambda ws: sockets.append(ws.url))
            page.goto(s.url + "/recipe-card")
            page.wait_for_selector(CONNECTED)
            page.wait_for_selector(IDLE)
            slider = page.get_by_role("slider").first
            key = slider.evaluate(KEY_OF)      # Streamlit marks a keyed widget's box st-key-<key>
            slider.focus()
            page.keyboard.press("ArrowRight")  # the link follows the slider
            page.wait_for_function(f"location.search.includes('{key}=')")
            page.wait_for_selector(IDLE)
            link = page.evaluate("location.search")
            value = shown(page, key)
            first = replica_cookie(ctx)
            assert page.get_by_text(RESTARTED).count() == 0   # not on the first replica

            pid, _ = s.replicas[first]
            os.kill(pid, signal.SIGTERM)       # the student's replica goes away
            deadline = time.time() + 20
            while alive(pid) and time.time() < deadline:
                time.sleep(0.2)
            assert not alive(pid)

            # Streamlit's frontend reconnects by itself and HAProxy redispatches it to the live
            # replica. An idle page is not rerun on a reconnect (the frontend takes the session for
            # resumed): it keeps showing what it had until the student's next move.
            opened = len(sockets)
            deadline = time.time() + 90
            while len(sockets) == opened and time.time() < deadline:
                page.wait_for_timeout(250)
            assert len(sockets) > opened, "the browser did not reconnect"
            page.wait_for_selector(CONNECTED)
            page.wait_for_selector(IDLE)
            page.get_by_role("slider").first.wait_for()
            assert shown(page, key) == value
            assert page.evaluate("location.search") == link
            # The next move runs the new session from the link and the widget values, and the
            # page says it was restarted.
            page.get_by_role("slider").first.focus()
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"location.search !== {link!r}")
            page.wait_for_selector(IDLE)
            page.get_by_text(RESTARTED).wait_for()
            assert page.locator("[data-testid='stException']").count() == 0
            link, value = page.evaluate("location.search"), shown(page, key)
            assert f"{key}={value}" in link
            # A fresh browser opening the same link (copied from the address bar) is not told.
            other = browser.new_context(viewport={"width": 1366, "height": 900})
            fresh = other.new_page()
            fresh.set_default_timeout(90_000)
            fresh.goto(s.url + "/recipe-card" + link)
            fresh.wait_for_selector(CONNECTED)
            fresh.wait_for_selector(IDLE)
            fresh.get_by_role("slider").first.wait_for()
            assert shown(fresh, key) == value
            assert fresh.get_by_text(RESTARTED).count() == 0
            other.close()
            # A reload gets the other replica's cookie (re-stuck) and the same view from the link.
            page.reload()
            page.wait_for_selector(CONNECTED)
            second = replica_cookie(ctx)
            assert second != first and second in s.replicas
            page.wait_for_selector(IDLE)
            page.get_by_role("slider").first.wait_for()
            assert shown(page, key) == value   # and the link alone gives the same view
            assert page.get_by_text(RESTARTED).count() == 0   # a new session on its own replica
        finally:
            browser.close()


def stop_stops_everything(s):
    """SIGTERM stops everything deploy/serve started: the live replica and the balancer."""
    pids = s.pids()
    assert s.stop(signal.SIGTERM) == 0
    deadline = time.time() + 15
    while (any(alive(p) for p in pids) or "serve: stopped" not in s.lines) and time.time() < deadline:
        time.sleep(0.2)
    assert not any(alive(p) for p in pids)
    assert "serve: stopped" in s.lines
