"""A class submitting at once: the server's time per submission (scoring on the hidden points with lib,
then the store's transaction), and that every acknowledged submission is stored once.

Students are threads of one process, as the sessions of one `streamlit run` are: each trains its own
2-8-1 network a few epochs, then submits it through exactly what Submit calls (lib.challenge.evaluate,
then Store.submit). The peer is the store alone (the same transaction with the scores given), so the
ratio says how much of a submission is scoring.

    python bench/submit.py                                   # SQLite in a scratch folder, 30 students
    python bench/submit.py --db postgresql+psycopg:///layerlab_bench --students 60
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import store as store_module
from lib.challenge import evaluate
from lib.datasets import make_problem, split
from lib.train import TrainConfig, Trainer

PROBLEM = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.1, "cells": 2,
           "seed": 0, "feat": ["x1", "x2"]}


def networks(count: int) -> list[dict]:
    X, y = make_problem("classify", "checkerboard", 400, noise=0.1, seed=0, cells=2)
    Xtr, ytr, Xte, yte = split(X, y, 0.8, seed=0)
    out = []
    for i in range(count):
        t = Trainer(TrainConfig(hidden=(8,), lr=0.03, seed=i), Xtr, ytr, Xte, yte)
        t.step(20 + i)
        out.append(t.to_dict())
    return out


def p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(0.95 * len(xs)) - 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default=None, help="a SQLAlchemy URL (default: SQLite in a scratch folder)")
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3, help="submissions per student")
    args = ap.parse_args()
    store_module.MIN_GAP = timedelta(0)         # rounds follow each other at once here
    url = args.db or f"sqlite:///{tempfile.mkdtemp(prefix='layerlab-bench-')}/classes.sqlite3"
    st = store_module.Store(url)
    code, _ = st.create_class(PROBLEM)
    seed = st.test_seed(code)
    seats = [st.join(code, f"s{i}") for i in range(args.students)]
    nets = networks(args.students * args.rounds)
    full, alone, acked = [], [], []
    lock = threading.Lock()

    def student(i: int) -> None:
        for r in range(args.rounds):
            net = nets[i * args.rounds + r]
            t0 = time.perf_counter()
            pub, priv, n = evaluate(net, PROBLEM, seed)
            t1 = time.perf_counter()
            rec = st.submit(code, seats[i], spec={"hidden": [8]}, weights=net, n_params=n, public=pub,
                            private=priv)
            t2 = time.perf_counter()
            with lock:
                full.append(t2 - t0)
                alone.append(t2 - t1)
                acked.append(rec.submission)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(args.students)]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t0
    stored = st.counts(code).submissions
    kind = url.split(":", 1)[0]
    print(f"{kind}: {args.students} students x {args.rounds} submissions, all at once, in {wall:.1f} s")
    print(f"  submission (score + store): p50 {1000 * statistics.median(full):.0f} ms, "
          f"p95 {1000 * p95(full):.0f} ms")
    print(f"  the store alone (peer):     p50 {1000 * statistics.median(alone):.0f} ms, "
          f"p95 {1000 * p95(alone):.0f} ms; ratio {p95(full) / max(p95(alone), 1e-9):.2f}x at p95")
    print(f"  acknowledged {len(acked)}, distinct {len(set(acked))}, stored {stored}: "
          + ("every one once" if len(set(acked)) == len(acked) == stored else "MISMATCH"))


if __name__ == "__main__":
    main()
