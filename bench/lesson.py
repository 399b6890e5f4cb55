"""A lesson followed by a class (issue 33), over Streamlit's own protocol (bench/protocol.py): the
teacher presses Next, and every student's page must be on the new step within 3 s. Run through
`bench/classroom.py --lesson` (the server, the replicas and the store as a challenge's), e.g.

    python bench/classroom.py --lesson --students 30
    python bench/classroom.py --lesson --replicas 2 --students 60 --db postgresql+psycopg:///layerlab_bench

Each student opens the lesson's step on /recipe-card with its class and seat and follows its watch
timer (classroom.seats.WATCH_EVERY); the teacher's Next is store.goto, as /class makes it. It prints, per
Next and over all of them, the time from Next to each student's page showing the new step (its banner,
"step k of n") and how many made it within 3 s.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from bench.protocol import Student

FOLLOW_LIMIT = 10.0   # seconds a student is given to follow one Next (a miss after that)


class Follower(Student):
    """A student's tab that notes when its page first shows each step's banner."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.step_seen: dict[int, float] = {}

    def _delta(self, msg, log) -> None:
        super()._delta(msg, log)
        if msg.delta.WhichOneof("type") != "new_element":
            return
        el = msg.delta.new_element
        if el.WhichOneof("type") == "alert" and " · step " in el.alert.body:
            k = int(el.alert.body.split(" · step ", 1)[1].split(" ", 1)[0])
            self.step_seen.setdefault(k, time.perf_counter())


def make_lesson(args) -> tuple[str, ...]:
    """The recipe-card lesson in the store the server will use, its students seated."""
    import os
    import tempfile
    from pathlib import Path

    import store as store_module
    from lib.lessons import READY

    scratch = Path(tempfile.mkdtemp(prefix="layerlab-lesson-"))
    args.db_url = args.db or f"sqlite:///{scratch}/classes.sqlite3"
    os.environ["LAYERLAB_DB"] = args.db_url
    st = store_module.Store(args.db_url)
    args.code, args.key = st.start_lesson(READY["recipe-card"]())
    args.seats = [st.join(args.code, f"student {i + 1}") for i in range(args.students)]
    args.steps = len(st.lesson_state(args.code).steps)
    st.engine.dispose()
    return ("--db", args.db_url)


async def follow(url: str, args) -> dict:
    """Open every student on step 1, then Next through the lesson: the time each page took to follow."""
    import store as store_module

    rng = random.Random(args.seed)
    students = [Follower(url, "recipe-card", query=f"class={args.code}&seat={seat}",
                         rng=random.Random(rng.random())) for seat in args.seats]
    failed = 0

    async def _open(s: Follower, delay: float) -> None:
        nonlocal failed
        await asyncio.sleep(delay)
        try:
            await s.open(timeout=args.open_timeout)
        except Exception as err:   # counted, not fatal
            failed += 1
            s.closed = True
            print(f"  a student could not open the page: {type(err).__name__}: {err}", file=sys.stderr)

    warm = Student(url, "recipe-card")   # one tab first: the page's imports done once, not raced
    await warm.open(timeout=args.open_timeout)
    await warm.close()
    await asyncio.gather(*(_open(s, i * args.ramp) for i, s in enumerate(students)))
    db = store_module.Store(args.db_url)
    waits: dict[int, list[float]] = {}
    for k in range(1, args.steps):
        await asyncio.sleep(2.0 + rng.uniform(0, 1.0))   # the teacher talks; the watch's phase is anyone's
        t0 = time.perf_counter()
        await asyncio.to_thread(db.goto, args.code, args.key, k)
        until = t0 + FOLLOW_LIMIT
        live = [s for s in students if not s.closed]
        while time.perf_counter() < until and not all(k + 1 in s.step_seen for s in live):
            await asyncio.sleep(0.05)
        waits[k + 1] = [s.step_seen[k + 1] - t0 for s in live if k + 1 in s.step_seen]
    db.engine.dispose()
    live = sum(not s.closed for s in students)
    for s in students:
        await s.close()
    every = [w for ws in waits.values() for w in ws]
    return {"lesson_students": len(students), "failed_to_open": failed, "nexts": len(waits),
            "follows": len(every), "follows_expected": live * len(waits),
            "within_3s": sum(w <= 3.0 for w in every),
            "per_step": {k: {"p50_s": _pct(ws, 50), "max_s": max(ws) if ws else float("nan")}
                         for k, ws in waits.items()},
            "p50_s": _pct(every, 50), "p95_s": _pct(every, 95),
            "max_s": max(every) if every else float("nan")}


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, round(q / 100 * (len(v) - 1)))]


def report(r: dict) -> str:
    lines = [f"lesson: {r['lesson_students']} students, {r['nexts']} Nexts; {r['follows']} of "
             f"{r['follows_expected']} follows seen, {r['within_3s']} within 3 s "
             f"(p50 {1000 * r['p50_s']:.0f} ms · p95 {1000 * r['p95_s']:.0f} ms · max "
             f"{1000 * r['max_s']:.0f} ms from Next to the new step on the page)"]
    for k, s in r["per_step"].items():
        lines.append(f"  step {k}: p50 {1000 * s['p50_s']:.0f} ms · max {1000 * s['max_s']:.0f} ms")
    return "\n".join(lines)
