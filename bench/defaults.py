"""Do the trainer's first networks learn? Epochs and engine seconds to a clearly good test score.

For each problem type's first dataset, the page's first network (pages/trainer/links.py PROBLEM_UI) against
the one size the page had for every problem before (8 units, rate 0.03), over several seeds:
the epochs until the test score reaches the target (accuracy 90 % for classes, R² 0.95 for values),
and the engine's seconds for them (lib.train, one thread). Seconds of Play on screen are about these
epochs over the Play rate bench/play_browser.py measures (alone: ~5,000 epochs/s on 2-8-1).

    python bench/defaults.py            # 6 seeds, up to 8,000 epochs each
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lib.datasets import PROBLEMS, make_problem, split  # noqa: E402
from lib.settings import first  # noqa: E402
from lib.train import TrainConfig, Trainer  # noqa: E402

TARGET = {"classify": ("test_acc", 0.9), "classes": ("test_acc", 0.9), "regress": ("test_r2", 0.95)}
OLD = ((8,), 0.03)


def networks() -> dict:
    return {p: (first(p)["hidden"], first(p)["lr"]) for p in PROBLEMS}


def to_target(problem: str, hidden, lr: float, seed: int, most: int, chunk: int = 50):
    X, y = make_problem(problem, first(problem)["dataset"], 400, seed=seed)
    Xtr, ytr, Xte, yte = split(X, y, 0.8, seed=seed, stratify=problem != "regress")
    head = PROBLEMS[problem].head
    cfg = TrainConfig(hidden=hidden, head=head, lr=lr, seed=seed, classes=3 if head == "softmax" else 0)
    t = Trainer(cfg, Xtr, ytr, Xte, yte)
    metric, goal = TARGET[problem]
    t0 = time.perf_counter()
    while t.epoch < most:
        t.step(chunk)
        if t.metrics()[metric] >= goal:
            return t.epoch, time.perf_counter() - t0
    return None, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--most", type=int, default=8000, help="epochs at most per run")
    args = ap.parse_args()
    nets = networks()
    for problem in ("classify", "classes", "regress"):
        metric, goal = TARGET[problem]
        for label, (hidden, lr) in (("first network", nets[problem][:2]), ("old default", OLD)):
            runs = [to_target(problem, hidden, lr, s, args.most) for s in range(args.seeds)]
            reached = [r for r in runs if r[0] is not None]
            epochs = sorted(e for e, _ in reached)
            secs = sorted(s for _, s in reached)
            median = (f"median {epochs[len(epochs) // 2]:,} epochs, {secs[len(secs) // 2]:.2f} s of engine"
                      if reached else "never")
            dataset = first(problem)["dataset"]
            print(f"{problem:8s} {dataset:12s} {label:13s} hidden={','.join(map(str, hidden)):6s} "
                  f"lr={lr:<5} {metric} >= {goal}: {len(reached)}/{len(runs)} seeds within "
                  f"{args.most:,} epochs; {median}", flush=True)


if __name__ == "__main__":
    main()
