"""Two replicas against one: the moves a class gets answered per second past capacity (issue 10).

    python bench/scaleout.py                     # /recipe-card, each replica capped at 0.6 cores
    python bench/scaleout.py --page trainer --students 60
    python bench/scaleout.py --quota 0           # no cap: a machine with a core per replica and more

Runs the same class twice through `deploy/serve` (HAProxy in front), with --replicas 1 and then
--replicas 2: N students, each moving the page's first slider a short think time after its last
answer (bench/classroom.py --closed), so the replicas are past capacity and the moves answered per
second are what they can do. Prints both runs, then the ratio of two replicas to one against the
goal of 1.8.

Why the cap: on a machine with two cores the load client and the balancer take a share of them,
so two uncapped replicas cannot each have a core and the ratio would measure the machine. Each
replica is put in a cgroup of its own capped at --quota cores (root; see CpuQuota in
bench/classroom.py), the stand-in for a core of its own: the replicas of both runs get the same CPU
each and the client gets the rest. The output says how much of its cap each run used; a run that did
not reach its cap was not past capacity and its ratio says nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.classroom import parse, report, run  # noqa: E402

GOAL = 1.8
DEFAULTS = ["--page", "recipe-card", "--students", "60", "--every", "0.2", "--duration", "40",
            "--closed", "--cpu-quota", "0.6"]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--quota" in argv:   # a short name for classroom's --cpu-quota; 0 turns the cap off
        i = argv.index("--quota")
        argv = [*argv[:i], "--cpu-quota", *argv[i + 1:]]
    args = parse([*DEFAULTS, *argv], description=__doc__.split("\n\n")[0])
    if args.url or args.players:
        raise SystemExit("scaleout starts its own servers and has no players: leave out --url and --players")
    results = {}
    for n in (1, 2):
        args.replicas = n
        r = results[n] = run(args)
        print(f"--- {n} replica{'s' * (n > 1)}")
        print(report(r))
        cap = args.cpu_quota * n
        used = r.get("server_cpu_s", {}).get("replicas", 0.0) / r["window_s"]
        if cap:
            print(f"  replicas used {used:.2f} of their {cap:g} cores ({100 * used / cap:.0f} %)", flush=True)
    one, two = results[1]["moves_per_s"], results[2]["moves_per_s"]
    ratio = two / one if one else float("nan")
    verdict = "meets" if ratio >= GOAL else "misses"
    print(f"\nmoves answered per second: 1 replica {one:g}, 2 replicas {two:g}: "
          f"{ratio:.2f}x ({verdict} the goal >= {GOAL}x); p95 {1000 * results[1]['p95_s']:,.0f} -> "
          f"{1000 * results[2]['p95_s']:,.0f} ms")
    if args.json:
        print(json.dumps({"ratio": ratio, "runs": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
