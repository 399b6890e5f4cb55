"""Play then Pause on /trainer answers within seconds, again and again, and the tab stays connected.

The server runs as the README's first command starts it. A removed patch that let a run in progress
finish instead of being cut (docs/PROFILE.md) made the next run refer to a figure the browser had just
dropped: "Cached ForwardMsg MISS", the tab disconnected for good and Pause stayed
disabled; this test watches the console for exactly that.
"""

from __future__ import annotations

from tests.e2e.conftest import assert_clean, wait_ready


def _click(page, name: str, timeout: float = 15_000) -> None:
    page.locator("[data-testid='stMain']").get_by_role("button", name=name).first.click(timeout=timeout)


def test_play_and_pause_answer_again_and_again(open_page):
    page = open_page("/trainer")
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and (
        "ForwardMsg" in m.text or "delta path" in m.text or "fatal" in m.text) else None)
    _click(page, "+100")
    wait_ready(page)   # its run drawn (on a loaded CI machine Play's click raced that rerun's redraw)
    for _ in range(4):
        _click(page, "Play")
        page.get_by_role("button", name="Pause", exact=True).wait_for(timeout=15_000)
        page.wait_for_timeout(2500)   # ticks of both fragments (the maps, and the sections below)
        _click(page, "Pause")         # enabled and answered within seconds
        page.get_by_role("button", name="Play", exact=True).wait_for(timeout=15_000)
        state = page.get_attribute("[data-testid='stApp']", "data-test-connection-state")
        assert state == "CONNECTED", (state, errors)
    assert not errors, errors
    assert_clean(page)
