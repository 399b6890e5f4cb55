"""The load client sends what a real browser sends: frames recorded from Chromium, compared."""

from __future__ import annotations

import asyncio
import shutil

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg

from bench.protocol import Student
from tests.deploy.conftest import isolated, run

pytestmark = pytest.mark.e2e


def browser_frames(url: str, path: str, act) -> list[BackMsg]:
    return isolated(_browser_frames, url, path, act)


def _browser_frames(url: str, path: str, act) -> list[BackMsg]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.fail("Debian's chromium is not installed (apt-get install chromium)")
    sent: list[bytes] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
            page.set_default_timeout(90_000)   # a shared machine can be slow
            page.goto(url + path)
            page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']")
            page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']")
            page.get_by_role("slider").first.wait_for()
            page.wait_for_timeout(500)
            act(page)
            page.wait_for_timeout(1500)
        finally:
            browser.close()
    msgs = []
    for raw in sent:
        m = BackMsg()
        m.ParseFromString(raw if isinstance(raw, bytes) else raw.encode("latin-1"))
        msgs.append(m)
    return [m for m in msgs if m.WhichOneof("type") == "rerun_script"]


def client_frames(url: str, page: str, act) -> list[BackMsg]:
    sent: list[BackMsg] = []

    async def go():
        st = Student(url, page)
        await st.open()
        real_send = st.ws.send

        async def spy(data):
            m = BackMsg()
            m.ParseFromString(data)
            sent.append(m)
            await real_send(data)

        st.ws.send = spy
        act(st)
        await asyncio.sleep(1.5)
        await st.close()
        return st

    run(go())
    return sent


KEY_OF = """e => Array.from(e.closest("[class*='st-key-']").classList)
    .find(c => c.startsWith('st-key-')).slice('st-key-'.length)"""


def test_a_slider_move_is_the_same_message_as_the_browsers(single):
    keys = []

    def press(page):
        slider = page.get_by_role("slider", name="Multiply the input by k")   # bound to the link by Streamlit
        keys.append(slider.evaluate(KEY_OF))   # Streamlit marks a keyed widget's box st-key-<key>
        slider.focus()
        page.keyboard.press("ArrowRight")

    seen = browser_frames(single.url, "/recipe-card", press)
    key = keys[0]
    ours = client_frames(single.url, "recipe-card", lambda st: st.move(key))
    first, move = seen[0].rerun_script, seen[-1].rerun_script
    assert first.page_name == "recipe-card" and not first.page_script_hash
    mine = ours[0].rerun_script
    # Same page, same fragment (the slider's section), the same widget id, the link updated.
    assert mine.page_script_hash == move.page_script_hash != ""
    assert mine.fragment_id == move.fragment_id
    assert not move.is_auto_rerun and not mine.is_auto_rerun
    ids = [w.id for w in move.widget_states.widgets if w.id.endswith(f"-{key}")]
    assert ids and ids[0] in {w.id for w in mine.widget_states.widgets}
    assert f"{key}=" in move.query_string and f"{key}=" in mine.query_string
    assert bool(move.cached_message_hashes) == bool(mine.cached_message_hashes)
