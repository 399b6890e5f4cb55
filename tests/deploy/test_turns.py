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
