"""Runs take turns on a real server (engine/turns.py): students who move at the same moment are all
answered, and a student playing the trainer beside them keeps getting redraws (its ticks do not wait
in line, and a run waiting on purpose hands its turn on)."""

from __future__ import annotations

import asyncio

from bench.protocol import Student
from tests.deploy.conftest import play_until, run


def test_students_moving_at_once_beside_a_player_are_all_answered(single):
    async def go():
        player = Student(single.url, "trainer", query="twin=false")
        movers = [Student(single.url, page) for page in ("trainer", "trainer", "recipe-card", "recipe-card")]
        for s in (player, *movers):
            await s.open()
        await play_until(player, 3)
        before = player.stats.redraws
        for _ in range(3):                      # three rounds, every mover at the same moment
            for s in movers:
                s.move(s.slider().key)
            for _ in range(600):
                await asyncio.sleep(0.05)
                if all(not s.pending and not s.inflight for s in movers):
                    break
        during = player.stats.redraws - before
        for s in (player, *movers):
            await s.close()
        return player, movers, during

    player, movers, during = run(go())
    for s in movers:
        assert len(s.stats.latencies) == 3, (s.page, s.stats)   # every move answered, none lost in line
    assert during >= 1, player.stats                               # Play went on meanwhile


def test_on_a_real_server_a_runs_messages_wake_the_loop_once_per_burst(tmp_path):
    """engine/wakeups.py acts in a real `streamlit run`: far fewer wake-ups than script events."""
    import json
    import os
    import time

    from bench.server import StreamlitServer
    from tests.deploy.conftest import ARTIFACTS

    stats = tmp_path / "engine-stats.json"
    server = StreamlitServer("app.py", ARTIFACTS, prefix="deploy-wakeups",
                             env={**os.environ, "LAYERLAB_ENGINE_STATS": str(stats)}).wait_healthy(60)
    try:
        async def go():
            s = Student(server.url, "trainer")
            await s.open()
            for _ in range(3):
                s.move(s.slider().key)
                for _ in range(400):
                    await asyncio.sleep(0.05)
                    if not s.pending and not s.inflight:
                        break
            await asyncio.sleep(1.2)      # the counts are written at most once a second
            s.move(s.slider().key)
            await asyncio.sleep(1.0)
            await s.close()
            return s

        s = run(go())
        assert len(s.stats.latencies) >= 3, s.stats
        deadline = time.time() + 5
        while not stats.exists() and time.time() < deadline:
            time.sleep(0.1)
        counts = json.loads(stats.read_text())
    finally:
        server.stop()
    # A /trainer run draws ~140 elements; Streamlit alone wakes the loop once for each (measured here:
    # 451 events, 130 wake-ups on a loaded 2-core machine; fewer wake-ups the busier the loop is).
    assert counts["events"] >= 200, counts
    assert counts["wakeups"] * 2 <= counts["events"], counts
