"""The browser level's own helpers can fail (tests/e2e/conftest.py): assert_clean on an error toast and an
exception box, wait_ready on a page that never settles. A page of Streamlit's shape is written into the
browser (no server, no page load worth the name). And the Chromium they drive runs with Playwright's
switches, less the address bar's popup."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.turns import busy_toast
from tests.e2e.conftest import (
    CHUNK_FAILED,
    NO_POPUP,
    UNSETTLED,
    _chunks_loaded,
    assert_clean,
    axe_findings,
    playwright_disabled_features,
    wait_ready,
)

APP = """<div data-testid="stApp" data-test-connection-state="CONNECTED" data-test-script-state="notRunning">
  <div data-testid="stMain"><div data-testid="stElementContainer">y = xW + b</div></div>{extra}</div>"""
TOAST = '<div data-testid="stToast"><span>{}</span></div>'


@pytest.fixture
def blank(browser):
    page = browser.new_page()
    yield page
    page.context.close()


def test_assert_clean_passes_a_clean_page_and_the_busy_note(blank):
    blank.set_content(APP.format(extra=TOAST.format(busy_toast(3.0))))
    assert_clean(blank)


@pytest.mark.parametrize("extra", [TOAST.format("Could not save your answer"),
                                   '<div data-testid="stException">Traceback</div>'])
def test_assert_clean_fails_on_an_error_toast_or_an_exception(blank, extra):
    blank.set_content(APP.format(extra=extra))
    with pytest.raises(AssertionError):
        assert_clean(blank)


def test_wait_ready_fails_on_a_page_that_never_settles(blank):
    grows = ("<script>setInterval(() => document.querySelector(\"[data-testid='stMain']\")"
             ".insertAdjacentHTML('beforeend', '<div data-testid=\"stElementContainer\">more</div>'),"
             " 100)</script>")
    blank.set_content(APP.format(extra=grows))
    with pytest.raises(AssertionError, match=f"never settled.*{UNSETTLED} rounds"):
        wait_ready(blank, timeout=5_000)


def test_wait_ready_fails_soon_on_a_page_stuck_saying_a_script_runs(blank):
    """The page said 'running' with nothing in its main column after Pause on a busy machine: the test failed
    after 11.5 minutes of rounds. It fails after STUCK rounds now, with what the page showed."""
    import time

    from tests.e2e.conftest import STUCK

    element = '<div data-testid="stElementContainer">y = xW + b</div>'
    empty = APP.replace("notRunning", "running").replace(element, "")
    blank.set_content(empty.format(extra="<header>Layer Lab</header>"))
    start = time.monotonic()
    said = f"says a script runs, unchanged, for {STUCK} rounds.*: 0 elements"
    with pytest.raises(AssertionError, match=said):
        wait_ready(blank, timeout=2_000)
    assert time.monotonic() - start < STUCK * 6   # each round: half the timeout, then 3 s of stillness


# A whole document (axe asks for a language and a title); {style} is the one caption's, {script} runs.
DOC = """<html lang="en"><head><title>Layer Lab</title></head><body><main>
  <div data-testid="stElementContainer" data-stale="{stale}" style="{style}"><p>Step 3 of 5</p></div>
  </main><script>{script}</script></body></html>"""
FAINT = "color:#bbb;background:#fff"


def test_axe_waits_out_a_run_that_faded_the_page(blank):
    """Streamlit fades a stale element while a run is on; axe reads the page once the run is over."""
    back = ("setTimeout(() => { const e = document.querySelector('[data-stale]');"
            " e.dataset.stale = 'false'; e.style.color = '#000'; }, 800)")
    blank.set_content(DOC.format(stale="true", style=FAINT, script=back))
    assert axe_findings(blank) == []


def test_axe_still_finds_faint_text_when_runs_come_and_go_round_it(blank):
    """Text faint whether or not a run is on is a finding, however many runs came while axe read."""
    flicker = ("setInterval(() => { const e = document.querySelector('[data-stale]');"
               " e.dataset.stale = 'true'; setTimeout(() => { e.dataset.stale = 'false'; }, 20); }, 60)")
    blank.set_content(DOC.format(stale="false", style=FAINT, script=flicker))
    assert [f for f in axe_findings(blank) if f.startswith("color-contrast")]


def test_wait_ready_returns_on_a_settled_page(blank):
    blank.set_content(APP.format(extra=""))
    wait_ready(blank, timeout=5_000)


def test_a_widget_whose_code_failed_to_load_is_seen(blank):
    """The one reload is not taken twice: a page still showing the failed chunk fails, naming it; a page
    without one passes untouched."""
    blank.set_content(APP.format(extra=""))
    _chunks_loaded(blank, 5_000)   # nothing failed: no reload (a reload of this page would lose its content)
    assert "y = xW + b" in blank.inner_text("body")
    failed = f'<div class="stAlert">TypeError: {CHUNK_FAILED}: http://127.0.0.1/static/js/Slider.js</div>'
    blank.set_content(APP.format(extra=failed))
    blank._layerlab_reloaded_chunks = True
    with pytest.raises(AssertionError, match=r"Slider\.js"):
        _chunks_loaded(blank, 5_000)


def _our_chromium() -> list[list[str]]:
    """The command lines of this process's descendants that are Chromium's (read from /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid, ppid = stat.parent.name, stat.read_text().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        children.setdefault(int(ppid), []).append(int(pid))
    found, todo = [], [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode().rstrip("\0").split("\0")
            except OSError:
                continue
            found.append(cmd[0].split(" ") if len(cmd) == 1 else cmd)   # a zygote's child rewrites its own
    return [cmd for cmd in found if "chrom" in cmd[0]]


def test_chromium_keeps_playwrights_switches_and_starts_no_address_bar_popup(blank):
    """Our --disable-features replaces Playwright's (Chromium keeps one): it must still hold all of
    Playwright's list, read from its driver (a new Playwright that moved it fails here, and the browser level
    then runs with the popup, as before), and no renderer of the popup (--top-chrome-webui) is started."""
    kept = playwright_disabled_features()
    assert kept and "HttpsUpgrades" in kept, kept
    blank.set_content(APP.format(extra=""))
    renderers = [cmd for cmd in _our_chromium() if "--type=renderer" in cmd]
    assert renderers
    assert not [cmd for cmd in renderers if "--top-chrome-webui" in cmd]
    for cmd in renderers:
        off = [arg.split("=", 1)[1].split(",") for arg in cmd if arg.startswith("--disable-features=")]
        assert off and set(kept + NO_POPUP) <= set(off[0]), (off, kept)
