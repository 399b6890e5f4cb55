"""A lesson followed by a class (issue 33), over Streamlit's own protocol (bench/protocol.py): the
teacher presses Next on /class, and every student's page must be on the new step within 3 s; the
students answer the step's question on their pages, the projector must count them within 3 s; the
teacher presses Reveal. Run through `bench/classroom.py --lesson` (the server, the replicas and the store
as a challenge's), e.g.

    python bench/classroom.py --lesson --students 30
    python bench/classroom.py --lesson --replicas 2 --students 60 --db postgresql+psycopg:///layerlab_bench
    python bench/classroom.py --lesson --replicas 2 --students 60 --db postgresql+psycopg:///layerlab_bench \
        --kill-replica

Each student opens the lesson's step on /recipe-card with its class and seat and follows it; the teacher
is a tab on /class with the teacher's key, pressing Next and Reveal as a teacher does. It prints, per Next
and over all of them, the time from the teacher's click to each student's page showing the new step (its
banner, "step k of n") and how many made it within 3 s; the time from each acknowledged answer (the
student's page says "Your answer: ...") to the projector's count including it; the server CPU of the
teacher's Next and Reveal (the script thread's CPU of the run(s) a click causes, written by the server to
LAYERLAB_CLASS_STATS); and, read from the store at the end, whether every acknowledged answer was kept,
once. --kill-replica SIGKILLs one replica while the first question takes answers; its tabs reopen their
links through the balancer and the students whose answer was not acknowledged send it again.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import sys
import time

from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench import flood
from bench.flood import STEP_LINE  # a lesson's banner, as classroom/lesson.py draws it
from bench.protocol import Student, reopen

FOLLOW_LIMIT = 10.0   # seconds a student is given to follow one Next (a miss after that)
COUNT_LIMIT = 10.0    # seconds the projector is given to count the last answer
ANSWER_SPREAD = 3.0   # seconds over which the class sends its answers to a question


class Follower(Student):
    """A student's tab that notes when its page first shows each step's banner, and when the page
    acknowledges its answer to a step ("Your answer: ..." after Send my answer)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.step_seen: dict[int, float] = {}
        self.sent: dict[int, float] = {}    # step (0-based) -> when Send my answer was pressed
        self.acked: dict[int, float] = {}   # step (0-based) -> when the page said the answer was kept
        self.asked = -1                     # the step (0-based) whose Send is in flight
        self.revealed: dict[int, float] = {}   # step (1-based) -> when its banner first showed the reveal
        self.drawn: dict[int, float] = {}      # ... and when the run that drew it (the view too) finished
        self.said: list[str] = []           # alerts since the last Join (bench/flood.py reads them)
        self.outlier: float | None = None   # this student's answer to every number question (--outlier)
        self.step = 0                       # the step (1-based) whose banner this page drew last

    def _delta(self, msg, log) -> None:
        super()._delta(msg, log)
        if msg.delta.WhichOneof("type") != "new_element":
            return
        el = msg.delta.new_element
        kind = el.WhichOneof("type")
        if kind == "html":   # the banner's lines (classroom/reveal.big_line): "Step k of n: ...", then after
            body = el.html.body   # Reveal this student's "... Your answer ..." / "You did not answer."
            if step := STEP_LINE.search(body):
                self.step = int(step[1])
                self.step_seen.setdefault(self.step, time.perf_counter())
                self.said.append(f" · step {self.step} ")   # what bench/flood.py's Join waits for
            elif self.step and ("Your answer " in body or "You did not answer" in body):
                self.revealed.setdefault(self.step, time.perf_counter())
            return
        if kind != "alert":
            return
        body = el.alert.body
        self.said.append(body)
        if body.startswith("Your answer: ") and self.asked in self.sent:
            self.acked.setdefault(self.asked, time.perf_counter())

    def _finished(self, status, log, run_id) -> None:
        super()._finished(status, log, run_id)
        for k, at in self.revealed.items():
            if k not in self.drawn and log is not None and log.started <= at:
                self.drawn[k] = time.perf_counter()

    def send_answer(self, step: int, q, vote: int = 1) -> bool:
        """Fill in the step's question and press Send my answer (False: the question is not on the page).
        The second vote (after Discuss with your neighbour) has a form of its own; its answers are noted
        under (step, 2), the first vote's under the step."""
        key = (f"lesson_choice_{step}" if q.kind == "choice" else f"lesson_number_{step}") + second(vote)
        field = self.widgets.get(key)
        button = next((w for w in self.widgets.values()
                       if w.kind == "button" and w.proto.label == "Send my answer"), None)
        if field is None or button is None:
            return False
        state = WidgetState(id=field.id)
        if q.kind == "choice":   # a radio travels as its option's text (Streamlit 1.67)
            state.string_value = self.rng.choice(q.choices)
        else:
            # a class that mostly knows: close to the right answer (a poll: anywhere from -3 to 5)
            guess = round(q.answer + self.rng.gauss(0, 0.05) if q.answer is not None
                          else self.rng.uniform(-3, 5), 2)
            state.double_value = self.outlier if self.outlier is not None else guess
        self.states[field.id] = state
        self.asked = step if vote == 1 else (step, 2)
        self.sent[self.asked] = time.perf_counter()
        self._send_rerun(trigger=WidgetState(id=button.id, trigger_value=True))
        return True


def second(vote: int) -> str:
    """The suffix of a question's widget keys in a vote (classroom/lesson.py: the second vote's form)."""
    return "_2" if vote == 2 else ""


def voting_again(s: Student, step: int) -> bool:
    """The student's page shows the second vote's form for the step."""
    return any(f"{kind}_{step}_2" in s.widgets for kind in ("lesson_choice", "lesson_number"))


ANSWERED = re.compile(r">(\d+) of \d+ answered<")   # the projector's count (classroom/lead.py, a big line)


class Teacher(Student):
    """The teacher's /class tab: notes the projector's count of answers ("n of m answered")."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.counted: list[tuple[float, int]] = []   # (when, answers counted) as the projector showed them
        self.done: list[tuple[float, int, int]] = []  # (when, charts, bytes) of each finished run

    def _finished(self, status, log, run_id) -> None:
        if log is not None:
            self.done.append((time.perf_counter(), log.plots, log.bytes))
        super()._finished(status, log, run_id)

    def _delta(self, msg, log) -> None:
        super()._delta(msg, log)
        if msg.delta.WhichOneof("type") != "new_element":
            return
        el = msg.delta.new_element
        if el.WhichOneof("type") == "html" and (n := ANSWERED.search(el.html.body)):   # reveal.big_line
            self.counted.append((time.perf_counter(), int(n[1])))


def make_lesson(args) -> tuple[str, ...]:
    """The recipe-card lesson in the store the server will use, its students seated; the server writes
    the teacher's CPU per action to a stats file (LAYERLAB_CLASS_STATS)."""
    import os
    import tempfile
    from pathlib import Path

    import store as store_module
    from classroom.asking import course

    scratch = Path(tempfile.mkdtemp(prefix="layerlab-lesson-"))
    args.db_url = args.db or f"sqlite:///{scratch}/classes.sqlite3"
    args.stats_file = scratch / "teacher.jsonl"
    os.environ["LAYERLAB_DB"] = args.db_url
    os.environ["LAYERLAB_CLASS_STATS"] = str(args.stats_file)
    st = store_module.Store(args.db_url)
    args.code, args.key = st.start_lesson(course()["recipe-card"])
    args.seats = [] if args.join else [st.join(args.code, f"student {i + 1}") for i in range(args.students)]
    args.plan = st.lesson_state(args.code).lesson
    args.steps = len(args.plan.steps)
    st.engine.dispose()
    return ("--db", args.db_url)


async def _wait(until: float, done) -> None:
    while time.perf_counter() < until and not done():
        await asyncio.sleep(0.05)


async def _second_vote(k: int, q, order: list, teacher, teacher_click, students: list, rng) -> dict:
    """Discuss with your neighbour, then the class votes again: the time from the teacher's click to each
    page showing the second vote's form, the second answers (those who answered the first, in a new
    order) acknowledged, and each counted on the projector (seconds from its acknowledgement)."""
    await asyncio.sleep(1.0)
    t0 = time.perf_counter()
    await teacher_click("lesson_discuss")
    live = [s for s in students if not s.closed]
    seen: dict[int, float] = {}
    while time.perf_counter() < t0 + FOLLOW_LIMIT and len(seen) < len(live):
        for i, s in enumerate(live):
            if i not in seen and voting_again(s, k):
                seen[i] = time.perf_counter() - t0
        await asyncio.sleep(0.02)
    n0 = len(teacher.counted)
    again = rng.sample(order, len(order))
    for s in again:
        await asyncio.sleep(ANSWER_SPREAD / max(1, len(again)))
        if not s.closed:
            s.send_answer(k, q, 2)
    await _wait(time.perf_counter() + FOLLOW_LIMIT, lambda: all((k, 2) in s.acked for s in again
                                                                if not s.closed))
    acks = sorted(s.acked[(k, 2)] for s in students if (k, 2) in s.acked)
    last = acks[-1] if acks else time.perf_counter()
    await _wait(last + COUNT_LIMIT, lambda: any(n >= len(acks) for _, n in teacher.counted[n0:]))
    shown = teacher.counted[n0:]
    counts = [next((t - at for t, n in shown if n >= j and t >= at), float("nan"))
              for j, at in enumerate(acks, 1)]
    return {"follows": list(seen.values()), "expected": len(live), "acked": len(acks), "counts": counts}


async def _reopen_closed(tabs: list[Student], until: float) -> int:
    closed = [s for s in tabs if s.closed]
    await asyncio.gather(*(reopen(s, until) for s in closed))
    return len(closed)


async def follow(url: str, args, killer) -> dict:
    """Open every student on step 1, then Next through the lesson: the time each page took to follow,
    the answers counted, the teacher's CPU. `killer(pids, at, out)`: bench/classroom.py's, which SIGKILLs
    a replica (passed in: bench/classroom.py runs this module, never the other way)."""
    import store as store_module

    rng = random.Random(args.seed)
    if args.join:   # the class joins through /class's Join form (bench/flood.py)
        students = [Follower(url, "class", query=f"code={args.code}", rng=random.Random(rng.random()))
                    for _ in range(args.students)]
    else:
        students = [Follower(url, "recipe-card", query=f"class={args.code}&seat={seat}",
                             rng=random.Random(rng.random())) for seat in args.seats]
    if args.outlier is not None and students:
        students[0].outlier = args.outlier
    joins: dict[str, int] = {}
    flooded: dict = {}
    stop_flood = asyncio.Event()
    teacher = Teacher(url, "class", query=f"code={args.code}&key={args.key}")
    failed = 0

    async def _open(s: Student, delay: float) -> None:
        nonlocal failed
        await asyncio.sleep(delay)
        try:
            await s.open(timeout=args.open_timeout)
            if args.join:
                said = await flood.press_join(s, f"student {students.index(s) + 1}")
                joins[said[:70]] = joins.get(said[:70], 0) + 1
        except Exception as err:   # counted, not fatal
            failed += 1
            s.closed = True
            print(f"  a student could not open the page: {type(err).__name__}: {err}", file=sys.stderr)

    warm = Student(url, "recipe-card")   # one tab first: the page's imports done once, not raced
    await warm.open(timeout=args.open_timeout)
    await warm.close()
    await teacher.open(timeout=args.open_timeout)
    flooding = asyncio.create_task(flood.flood(url, args.code, stop_flood, flooded)) if args.flood else None
    await asyncio.gather(*(_open(s, i * args.ramp) for i, s in enumerate(students)))
    kill: dict = {}
    killed_once = False
    waits: dict[int, list[float]] = {}
    votes2: dict[int, dict] = {}   # step (1-based) -> the second vote's follows, acknowledgements, counts
    counts: list[float] = []
    reveals: dict[int, dict] = {}
    acked: dict[int, int] = {}   # step (1-based) -> answers acknowledged
    uncounted = 0

    async def teacher_click(key: str) -> None:
        if teacher.closed:   # its replica died: the teacher opens the teacher's link again
            teacher.query = f"code={args.code}&key={args.key}"
            await _reopen_closed([teacher], time.perf_counter() + 30)
        teacher.click(key)

    for k in range(1, args.steps):
        await asyncio.sleep(2.0 + rng.uniform(0, 1.0))   # the teacher talks; the watch's phase is anyone's
        t0 = time.perf_counter()
        await teacher_click("lesson_next")
        live = [s for s in students if not s.closed]
        await _wait(t0 + FOLLOW_LIMIT, lambda k=k, live=live: all(k + 1 in s.step_seen for s in live))
        waits[k + 1] = [s.step_seen[k + 1] - t0 for s in live if k + 1 in s.step_seen]
        q = args.plan.steps[k].question
        if q is None:
            continue
        # The class answers, spread over a few seconds; with --kill-replica, one replica dies halfway
        # through the first question, its students reopen and send again what was not acknowledged.
        await asyncio.sleep(0.5)
        n0 = len(teacher.counted)
        order = rng.sample(students, len(students))
        if args.answering:   # only so many answer (the outlier among them): a half-answered question
            order = [students[0], *rng.sample(students[1:], max(0, args.answering - 1))]
        for i, s in enumerate(order):
            await asyncio.sleep(ANSWER_SPREAD / len(order))
            if not s.closed:
                s.send_answer(k, q)
            if args.kill_replica and not killed_once and i == len(order) // 2:
                killed_once = True
                await killer(args.server_pids, 0.0, kill)
        if killed_once and k == next(j for j in range(1, args.steps) if args.plan.steps[j].question):
            await asyncio.sleep(0.5)
            kill["reopened"] = await _reopen_closed(students, time.perf_counter() + 60)
            if teacher.closed:   # the projector was on the killed replica: the teacher's link again
                teacher.query = f"code={args.code}&key={args.key}"
                kill["reopened"] += await _reopen_closed([teacher], time.perf_counter() + 60)
            for s in order:
                if k not in s.acked:
                    s.send_answer(k, q)
        await _wait(time.perf_counter() + FOLLOW_LIMIT, lambda k=k, order=order: all(
            k in s.acked for s in order if not s.closed))
        acks = sorted(s.acked[k] for s in students if k in s.acked)
        acked[k + 1] = len(acks)
        last, want = (acks[-1] if acks else time.perf_counter()), len(acks)
        await _wait(last + COUNT_LIMIT, lambda want=want, n0=n0: any(n >= want
                                                                          for _, n in teacher.counted[n0:]))
        shown = teacher.counted[n0:]
        for j, at in enumerate(acks, 1):
            seen = next((t for t, n in shown if n >= j and t >= at), None)
            if seen is None:
                uncounted += 1
            else:
                counts.append(seen - at)
        if args.second_vote:
            votes2[k + 1] = await _second_vote(k, q, order, teacher, teacher_click, students, rng)
        await asyncio.sleep(1.0 + rng.uniform(0, 1.0))
        t0 = time.perf_counter()
        await teacher_click("lesson_reveal")
        await _wait(t0 + FOLLOW_LIMIT, lambda t0=t0, k=k: any(t >= t0 and p for t, p, _ in teacher.done)
                    and all(k + 1 in s.drawn for s in students if not s.closed))
        seen = next(((t - t0, b) for t, p, b in teacher.done if t >= t0 and p), (float("nan"), 0))
        reveals[k + 1] = {"projector_s": seen[0], "projector_bytes": seen[1],
                          "students_s": [s.revealed[k + 1] - t0 for s in students if k + 1 in s.revealed],
                          "draw_s": [s.drawn[k + 1] - s.revealed[k + 1]
                                     for s in students if k + 1 in s.drawn]}
    await asyncio.sleep(2.0)
    stop_flood.set()
    if flooding is not None:
        await flooding
    kept = await asyncio.to_thread(_kept, store_module, args, students)
    for s in students:
        await s.close()
    await teacher.close()
    every = [w for ws in waits.values() for w in ws]
    cpu = _teacher_cpu(args)
    live = sum(not s.closed for s in students)
    return {"lesson_students": len(students), "failed_to_open": failed, "nexts": len(waits),
            "follows": len(every), "follows_expected": len(students) * len(waits),
            "within_3s": sum(w <= 3.0 for w in every), "live_at_end": live,
            "per_step": {k: {"p50_s": _pct(ws, 50), "max_s": max(ws) if ws else float("nan")}
                         for k, ws in waits.items()},
            "p50_s": _pct(every, 50), "p95_s": _pct(every, 95),
            "max_s": max(every) if every else float("nan"),
            "count_p50_s": _pct(counts, 50), "count_p95_s": _pct(counts, 95),
            "count_max_s": max(counts) if counts else float("nan"), "counted": len(counts),
            "uncounted": uncounted, "acked_per_step": acked, **cpu, **kept,
            "killed_pid": kill.get("killed"), "reopened": kill.get("reopened", 0),
            "reveals": reveals, "second_votes": votes2, "joins": joins, "flood": flooded,
            "outlier": args.outlier}


def _kept(store_module, args, students: list[Follower]) -> dict:
    """Every acknowledged answer in the store, and no student's answer to a step kept twice."""
    db = store_module.Store(args.db_url)
    try:
        acked = lost = twice = stored = 0
        for k, step in enumerate(args.plan.steps):
            if step.question is None:
                continue
            for vote, mark in ((1, k), (2, (k, 2))):
                rows = db.answers(args.code, args.key, k, vote)
                names = [n for n, _ in rows]
                stored += len(rows)
                twice += len(names) - len(set(names))
                for i, s in enumerate(students):
                    if mark in s.acked:
                        acked += 1
                        lost += f"student {i + 1}" not in names
        return {"answers_acked": acked, "answers_stored": stored, "answers_lost": lost,
                "answers_twice": twice}
    finally:
        db.engine.dispose()


def _teacher_cpu(args) -> dict:
    """The teacher's runs as the server noted them: CPU per Next and per Reveal (ms)."""
    by: dict[str, list[float]] = {}
    try:
        lines = args.stats_file.read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        with_cpu = json.loads(line)
        if "teacher" in with_cpu:
            by.setdefault(with_cpu["teacher"], []).append(1000 * with_cpu["cpu_s"])
    return {f"teacher_{what}_ms": [round(v, 1) for v in by.get(what, [])] for what in ("next", "reveal")}


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, round(q / 100 * (len(v) - 1)))]


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values):.0f} ms ({', '.join(f'{v:.0f}' for v in values)})" if values \
        else "not seen"


def report(r: dict) -> str:
    lines = [f"lesson: {r['lesson_students']} students, {r['nexts']} Nexts; {r['follows']} of "
             f"{r['follows_expected']} follows seen, {r['within_3s']} within 3 s "
             f"(p50 {1000 * r['p50_s']:.0f} ms · p95 {1000 * r['p95_s']:.0f} ms · max "
             f"{1000 * r['max_s']:.0f} ms from Next to the new step on the page)"]
    for k, s in r["per_step"].items():
        lines.append(f"  step {k}: p50 {1000 * s['p50_s']:.0f} ms · max {1000 * s['max_s']:.0f} ms")
    lines.append(f"  answers counted on the projector: {r['counted']} (not seen counted: {r['uncounted']}), "
                 f"p50 {1000 * r['count_p50_s']:.0f} ms · p95 {1000 * r['count_p95_s']:.0f} ms · max "
                 f"{1000 * r['count_max_s']:.0f} ms from the student's acknowledgement")
    lines.append(f"  teacher's server CPU per Next: {_ms(r['teacher_next_ms'])}; per Reveal: "
                 f"{_ms(r['teacher_reveal_ms'])}")
    lines.append(f"  answers: {r['answers_acked']} acknowledged {r['acked_per_step']}, {r['answers_stored']} "
                 f"stored, "
                 f"{r['answers_lost']} lost, {r['answers_twice']} twice")
    for k, v in r.get("second_votes", {}).items():
        fs, cs = v["follows"], [c for c in v["counts"] if c == c]
        lines.append(f"  second vote of step {k}: {len(fs)} of {v['expected']} pages showed its form, p95 "
                     f"{1000 * _pct(fs, 95):.0f} ms · max {1000 * max(fs, default=float('nan')):.0f} ms from "
                     f"Discuss; {v['acked']} answers acknowledged, {len(cs)} counted on the projector, p95 "
                     f"{1000 * _pct(cs, 95):.0f} ms")
    for k, v in r.get("reveals", {}).items():
        ss = v["students_s"]
        lines.append(f"  reveal of step {k}: the projector's chart in {1000 * v['projector_s']:.0f} ms "
                     f"({v['projector_bytes'] / 1000:.0f} kB); {len(ss)} of {r['lesson_students']} students' "
                     f"screens p50 {1000 * _pct(ss, 50):.0f} ms · max "
                     f"{1000 * max(ss, default=float('nan')):.0f} ms from the teacher's click, drawn (the "
                     f"banner to the view's end) p50 {1000 * _pct(v['draw_s'], 50):.0f} ms · max "
                     f"{1000 * max(v['draw_s'], default=float('nan')):.0f} ms")
    if r.get("outlier") is not None:
        lines.append(f"  one student answered {r['outlier']:g} to every number question")
    if r.get("joins"):
        lines.append(f"  the class joined through /class: {r['joins']}")
    if r.get("flood"):
        f = r["flood"]
        lines.append(f"  a flood of Join from fresh sessions ({flood.FLOOD_FROM}): {f.get('tries', 0)} "
                     f"tries, {f.get('said', {})}")
    if r.get("killed_pid"):
        lines.append(f"  replica pid {r['killed_pid']} SIGKILLed mid-question; {r['reopened']} tabs reopened")
    return "\n".join(lines)
