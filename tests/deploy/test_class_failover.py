"""A class across two replicas and one PostgreSQL store: a student submits, their replica is killed
with SIGKILL, they carry on from their link on the other replica and submit again; every
acknowledged submission is in the store, none twice."""

from __future__ import annotations

import os
import shutil
import signal

import pytest

from tests.deploy.conftest import Serve, isolated
from tests.unit.test_store import PROBLEM, _postgres_url

pytestmark = pytest.mark.e2e


def test_a_killed_replica_loses_no_submission_and_the_student_carries_on():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.skip("needs Chromium (apt-get install chromium)")
    import subprocess

    name = _postgres_url()
    url = f"postgresql+psycopg:///{name}"
    from store import Store

    store = Store(url)
    code, _ = store.create_class(PROBLEM)
    seat = store.join(code, "Ada")
    s = Serve(2, "--no-restart", "--db", url)
    try:
        first, then = isolated(_drive, s.url, chromium, code, seat,
                               lambda cookie: os.kill(s.replicas[cookie][0], signal.SIGKILL))
        assert then != first   # the student was moved to the other replica
        board = store.leaderboard(code)
        assert len(board) == 1 and board[0].submissions == 2   # both acknowledged, none twice
        assert store.counts(code).submissions == 2
    finally:
        s.stop()
        store.engine.dispose()
        subprocess.run(["dropdb", "--if-exists", name], capture_output=True, timeout=30)


def _submit(page, button: str) -> None:
    main = page.locator("[data-testid='stMain']")
    main.get_by_role("button", name=button, exact=True).first.click()
    page.wait_for_timeout(1500)
    main.get_by_role("button", name="Submit to the class", exact=True).first.click()
    page.get_by_text("Scored: public accuracy").wait_for(timeout=60_000)


def _drive(base, chromium, code, seat, kill, timeout: float = 90_000) -> tuple[str, str]:
    """A student submits, `kill(replica cookie)` kills their replica, they reload their link and submit
    again. Returns the replica cookie before and after. tests/container/test_compose.py drives it too."""
    from playwright.sync_api import sync_playwright

    connected = "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            ctx = browser.new_context(viewport={"width": 1366, "height": 900})
            page = ctx.new_page()
            page.set_default_timeout(timeout)
            page.goto(f"{base}/trainer?class={code}&seat={seat}&twin=false")
            page.wait_for_selector(connected)
            _submit(page, "+100")
            first = {c["name"]: c["value"] for c in ctx.cookies()}["layerlab_replica"]
            kill(first)                                           # mid-class, no goodbye
            page.reload()                                         # the student's link: the same seat
            page.wait_for_selector(connected)
            page.locator("[data-testid='stMain']").get_by_role(        # the same student, in the class
                "button", name="Submit to the class", exact=True).wait_for()
            assert "Ada" in page.inner_text("[data-testid='stMain']")
            _submit(page, "+10")
            return first, {c["name"]: c["value"] for c in ctx.cookies()}["layerlab_replica"]
        finally:
            browser.close()
