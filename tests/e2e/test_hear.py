"""The trainer for a student who cannot see the map (issue 48 items 1 and 2), in Chromium.

The live region's words after training the checkerboard name its four quarters; the Listen button makes
no sound until a key works it (no AudioContext exists before), and Escape stops it (the context is
suspended); all by keyboard, axe-core clean with the disclosure open. Screenshots: hear-trainer-*.png.
"""
from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_clean, axe_findings, screenshot, tab_to, wait_ready

pytestmark = pytest.mark.e2e

_SAID = "() => document.querySelector('.layerlab-live[role=status]')?.textContent || ''"
_AUDIO = """() => { const s = window.__layerLabListen;
  return {state: s && s.ctx ? s.ctx.state : 'none', playing: !!(s && s.playing)}; }"""


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_the_checkerboard_is_told_in_words_and_heard_only_after_a_key(open_page, width):
    page = open_page("/trainer?twin=false&opt=adam", width)
    main = page.locator("[data-testid='stMain']")
    for _ in range(2):
        main.get_by_role("button", name="+100", exact=True).click()
        wait_ready(page)
    page.wait_for_function(f"() => /^Stopped: epoch 200,/.test(({_SAID})())", timeout=30_000)
    said = page.evaluate(_SAID)
    assert "upper-left and lower-right quarters" in said, said
    assert "upper-right and lower-left quarters" in said, said
    assert "The boundary meets the square's edges 4 times" in said, said

    assert page.evaluate(_AUDIO) == {"state": "none", "playing": False}   # no sound of its own
    main.get_by_role("button", name="+100", exact=True).focus()             # from the buttons, by Tab
    tab_to(page, "Listen to the map")
    page.keyboard.press("Enter")                                            # opens the disclosure
    main.get_by_role("button", name="Listen", exact=True).wait_for()
    page.wait_for_timeout(1000)
    assert page.evaluate(_AUDIO) == {"state": "none", "playing": False}    # opening it plays nothing
    tab_to(page, "Listen")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => ({_AUDIO})().playing", timeout=20_000)
    assert page.evaluate(_AUDIO)["state"] == "running"
    assert main.get_by_role("button", name="Stop", exact=True).count() == 1
    assert "Playing the map, row by row from the top" in main.inner_text()
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => ({_AUDIO})().state === 'suspended'", timeout=5_000)
    assert page.evaluate(_AUDIO) == {"state": "suspended", "playing": False}
    assert main.get_by_role("button", name="Listen", exact=True).count() == 1
    assert_clean(page)
    assert axe_findings(page) == []
    screenshot(page, "hear-trainer")
