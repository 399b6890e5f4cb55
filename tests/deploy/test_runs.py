"""Past capacity, slower, never frozen (ui/runs.py): a student's quick moves do not cut the run in
progress short, a finished run's picture is delivered, and the last move's value is what shows."""

from __future__ import annotations

import asyncio
import os

import pytest

from bench.protocol import Student
from bench.server import StreamlitServer
from tests.deploy.conftest import ARTIFACTS, run
from ui import runs


def test_install_is_idempotent_and_marks_both_hooks():
    assert runs.install() and runs.install()
    assert runs.installed()


def _burst(url: str, moves: int = 6):
    """One student sends `moves` slider moves back to back, without waiting for answers."""
    async def go():
        st = Student(url, "recipe-card")
        await st.open()
        await asyncio.sleep(1.0)            # the opening runs settle (one of them may end early)
        st.stats.runs_cut = 0
        slider = st.slider()
        values = [st.move(slider.key) for _ in range(moves)]
        for _ in range(600):
            if not st.pending and not st.inflight:
                break
            await asyncio.sleep(0.05)
        await st.close()
        return st, slider.key, values

    return run(go())


@pytest.mark.parametrize("cut", [False, True], ids=["queued", "streamlit-default"])
def test_quick_moves_wait_for_the_run_in_progress(cut):
    env = dict(os.environ, LAYERLAB_FINISH_RUNS="0" if cut else "1")
    server = StreamlitServer("app.py", ARTIFACTS, prefix=f"runs-{'cut' if cut else 'queued'}", env=env)
    try:
        server.wait_healthy(60)
        st, key, values = _burst(server.url)
    finally:
        server.stop()
    assert f"{key}={values[-1]}" in st.query              # the last move is what the page holds
    assert not st.pending                                  # every move was answered
    if cut:
        # The control: Streamlit's default cuts the run in progress at the next move.
        assert st.stats.runs_cut >= 1, st.stats
    else:
        assert st.stats.runs_cut == 0, st.stats            # the run in progress finished


def test_the_run_after_a_finished_one_refers_only_to_what_the_browser_still_holds():
    """The browser ages its message cache at every finish it sees; a request listed its cache before
    the run in progress finished. What the next run may refer to: what that run sent itself, and
    entries of fragments it did not run (the bug this prevents: "Cached ForwardMsg MISS", the tab
    disconnected for good while playing /trainer)."""
    listed = frozenset({"sent", "old-live", "old-main", "old-inside", "unknown"})
    fragment_of = {"sent": "live", "old-live": "live", "old-main": "", "old-inside": "inside"}
    # after a whole-app run: only what it sent
    assert runs.still_cached(listed, None, {"sent", "new"}, fragment_of) == {"sent"}
    # after a tick of the live fragment: its own old entries may be gone, the others' are not
    assert runs.still_cached(listed, ("live",), {"sent"}, fragment_of) == {"sent", "old-main", "old-inside"}
    # an entry never seen in this session's runs counts as aged
    assert "unknown" not in runs.still_cached(listed, ("inside",), set(), fragment_of)


def test_install_wraps_the_cache_hooks():
    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.runtime.scriptrunner_utils import script_run_context

    originals = (script_run_context.ScriptRunContext.reset, script_run_context.ScriptRunContext.enqueue,
                 script_runner.ScriptRunner._on_script_finished)
    assert runs.install()
    names = [f.__qualname__ for f in (script_run_context.ScriptRunContext.reset,
                                       script_run_context.ScriptRunContext.enqueue,
                                       script_runner.ScriptRunner._on_script_finished)]
    assert all("_keep_browser_cache" in n for n in names), names
    assert originals  # installed once per process: a second install leaves them as they are
