"""A teacher's click on /class as the class grows: the server's time for the rerun it starts.

Each class lives in a scratch SQLite store with 5, 50 and 200 students (`--sizes`) of 5 submissions each
(`--each`), every submission a realistic network (2-16-16-1 by default, `--hidden`: 337 weights, written as
lib.train's export writes them). The teacher's page runs under streamlit.testing's AppTest, as
tests/app/test_class.py drives it: /class with the teacher's key in its link, which the page keeps in its
session. One warm-up run fills the page's caches (the gallery's maps are computed once per submission,
ever); then `--clicks` reruns, each what a click on any of the teacher's widgets costs the server, are
timed (wall clock of `AppTest.run`, the script and its fragments, and the process's CPU time, steadier on a
busy machine). It prints the medians per class size and their ratios against the smallest class: a page
whose click costs the same at every size prints ratios near 1.

    python bench/teacher_click.py
    python bench/teacher_click.py --sizes 5,50,200 --each 5 --clicks 5
    python bench/teacher_click.py --gap 1.2        # each click after the board's shared read expired
    git stash && python bench/teacher_click.py; git stash pop        # the figures before a change
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROBLEM = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.1, "cells": 2,
           "seed": 0, "feat": ["x1", "x2"]}


def base_network(hidden: tuple[int, ...]) -> dict:
    """One trained network in lib.train's export format: the shape every stored submission has."""
    from lib.datasets import make_problem, split
    from lib.train import TrainConfig, Trainer

    X, y = make_problem("classify", "checkerboard", 400, noise=0.1, seed=0, cells=2)
    Xtr, ytr, Xte, yte = split(X, y, 0.8, seed=0)
    t = Trainer(TrainConfig(hidden=hidden, lr=0.03), Xtr, ytr, Xte, yte)
    t.step(50)
    return t.to_dict()


def fill(store, students: int, each: int, base: dict, rng) -> tuple[str, str]:
    """A class of `students` x `each` submissions, written straight into the store's tables (the store's
    own submit would score and rank each one: minutes, and not what is measured here)."""
    import json
    from datetime import UTC, datetime, timedelta

    import numpy as np

    from store.models import Class, Seat, Submission

    code, key = store.create_class(PROBLEM)
    hidden = base["config"]["hidden"]
    spec = {"hidden": hidden, "act": "relu", "opt": "adam", "lr": 0.03, "batch": 0, "l1": 0.0, "l2": 0.0}
    now = datetime.now(UTC)
    with store._write.begin() as s:   # a bench fills a class at once: the store's own write session
        cid = s.query(Class.id).filter(Class.code == code).scalar()
        for i in range(students):
            seat = Seat(class_id=cid, token_hash=f"{code}-{i:04d}".ljust(64, "0"), nickname=f"student {i}",
                        nickname_key=f"student {i}", joined_at=now, last_seen=now)
            s.add(seat)
            s.flush()
            for j in range(each):
                net = json.loads(json.dumps(base))
                for layer in net["layers"]:   # each network its own numbers, as trained ones are
                    W = np.asarray(layer["W"]) + rng.normal(0, 0.05, np.shape(layer["W"]))
                    layer["W"] = W.tolist()
                net["epoch"] = int(50 + 10 * j)
                pub = float(rng.uniform(0.5, 1.0))
                s.add(Submission(class_id=cid, seat_id=seat.id, weights=json.dumps(net), n_params=337,
                                 spec=json.dumps({**spec, "epoch": net["epoch"]}), public=pub,
                                 private=float(np.clip(pub + rng.normal(0, 0.03), 0, 1)),
                                 created_at=now + timedelta(seconds=i * each + j)))
    return code, key


def click_times(code: str, key: str, clicks: int, gap: float) -> tuple[list[float], list[float]]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["code"] = code
    at.query_params["key"] = key
    at.run()
    at.switch_page("pages/class.py").run()      # the teacher's page; its first run keeps the key
    if at.exception:
        raise SystemExit(f"the teacher's page failed: {at.exception[0].message}")
    at.run()                                     # warm: the maps, the charts, the board are cached now
    wall, cpu = [], []
    for _ in range(clicks):
        time.sleep(gap)
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)   # every thread of this process: steadier on a busy machine
    if at.exception:
        raise SystemExit(f"the teacher's page failed: {at.exception[0].message}")
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="5,50,200", help="students per class, comma separated")
    ap.add_argument("--each", type=int, default=5, help="submissions per student")
    ap.add_argument("--clicks", type=int, default=5, help="timed reruns per class")
    ap.add_argument("--hidden", default="16,16", help="the networks' hidden layers")
    ap.add_argument("--gap", type=float, default=0.0,
                    help="seconds before each click: past the board's shared read (1 s), a click reads "
                         "the class again, as one a while after the last refresh does")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="layerlab-bench-")
    os.environ["LAYERLAB_DB"] = f"sqlite:///{folder}/classes.sqlite3"   # before the page's store opens
    os.environ.setdefault("STREAMLIT_LOGGER_LEVEL", "error")   # no 'missing ScriptRunContext' per call

    import numpy as np

    from classroom import connection

    store = connection.store()
    base = base_network(tuple(int(u) for u in args.hidden.split(",")))
    rng = np.random.default_rng(0)
    sizes = [int(n) for n in args.sizes.split(",")]
    rows = []
    for n in sizes:
        code, key = fill(store, n, args.each, base, rng)
        wall, cpu = click_times(code, key, args.clicks, args.gap)
        rows.append((n, statistics.median(wall), min(wall), statistics.median(cpu)))
    first, first_cpu = rows[0][1], rows[0][3]
    print(f"teacher's click on /class: {args.each} submissions per student, hidden {args.hidden}, "
          f"median of {args.clicks} reruns, {args.gap:g} s apart")
    print(f"{'students':>9} {'submissions':>12} {'median ms':>10} {'min ms':>8} {'ratio':>6} {'CPU ms':>7} "
          f"{'ratio':>6}")
    for n, med, low, cpu in rows:
        print(f"{n:>9} {n * args.each:>12} {1000 * med:>10.0f} {1000 * low:>8.0f} {med / first:>6.2f} "
              f"{1000 * cpu:>7.0f} {cpu / first_cpu:>6.2f}")


if __name__ == "__main__":
    main()
