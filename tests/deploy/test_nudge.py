"""A lesson's move reaches every following page at once (engine/nudge.py), not at the page's next timer
tick: a real server, three students' tabs over Streamlit's own protocol (bench/protocol.py), the teacher's
moves made through the store from here, as another replica's teacher would."""

from __future__ import annotations

import asyncio
import time

from bench.lesson import Follower
from classroom.asking import course
from classroom.lesson import FOLLOW_EVERY
from store import Store
from store.lessons import FRESH
from tests.deploy.conftest import run

# The slowest of three tabs must show each new step within this; the browser's timer alone (FOLLOW_EVERY,
# 3 s) would bring a tab after a uniformly spread 0-3 s, so three moves of three tabs all within it would
# happen by chance about once in 10,000 runs.
WITHIN = 1.5


def test_a_lesson_move_reaches_every_following_page_at_once(single):
    assert FOLLOW_EVERY >= 2 * WITHIN, "the fallback timer alone could pass this test"
    store = Store(None)   # the server's own store: both take LAYERLAB_HOME from tests/conftest.py
    code, key = store.start_lesson(course()["recipe-card"])
    seats = [store.join(code, f"student {i + 1}") for i in range(3)]
    steps = len(store.lesson_state(code).steps)

    async def go() -> list[float]:
        tabs = [Follower(single.url, "recipe-card", query=f"class={code}&seat={seat}") for seat in seats]
        for tab in tabs:
            await tab.open()
        waits = []
        for k in range(1, min(steps, 4)):
            await asyncio.sleep(0.7)   # the tabs' timers at any phase
            t0 = time.perf_counter()
            store.goto(code, key, k)
            while time.perf_counter() < t0 + 10 and not all(k + 1 in t.step_seen for t in tabs):
                await asyncio.sleep(0.02)
            waits.append(max(t.step_seen.get(k + 1, float("inf")) for t in tabs) - t0)
        for tab in tabs:
            await tab.close()
        return waits

    waits = run(go())
    assert all(w <= WITHIN for w in waits), (
        f"the slowest tab followed each move after {[round(w, 2) for w in waits]} s; the store's age is "
        f"{FRESH} s and the page's own timer {FOLLOW_EVERY} s: was it nudged (engine/nudge.py)?")
