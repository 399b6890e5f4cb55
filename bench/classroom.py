"""A classroom on one link: simulated students over Streamlit's own protocol (bench/protocol.py).

N students each move a slider every few seconds on one page; K more press Play on /trainer and
follow its fragment timer. Against a server it starts itself (one `streamlit run app.py`, or
`deploy/serve --replicas R`), or against a running one on 127.0.0.1 given by --url (then name its
pids with --pid so CPU and memory can be read). Counts and times are bounded; nothing but
127.0.0.1 is contacted.

    python bench/classroom.py --students 30 --every 3 --page recipe-card --duration 45
    python bench/classroom.py --students 10 --players 3 --page trainer
    python bench/classroom.py --replicas 2 --students 60
    python bench/classroom.py --url http://127.0.0.1:8501 --pid 12345 --students 10
    python bench/classroom.py --students 30 --submit-every 20               # a class challenge, SQLite
    python bench/classroom.py --replicas 2 --students 60 --submit-every 20 \
        --db postgresql+psycopg:///layerlab_bench --kill-replica                # one replica SIGKILLed
    python bench/classroom.py --students 0 --viewers 30 --submit-every 20       # the board's cost

With --submit-every, the students are in a class challenge (made in the store the server uses, seats
taken there): each also keeps /trainer open in the class and, every so many seconds, trains 100 epochs
and presses Submit. The server writes each acknowledged submission's time (score + commit) to a file
(LAYERLAB_CLASS_STATS); the store is read at the end: every acknowledged submission stored, none
twice. --viewers open /class on the class's code and follow its board. --kill-replica kills one
replica with SIGKILL halfway; its students reopen their links through the balancer and carry on.

It prints: slider answer p50 / p95 / max, moves finished of sent, each player's full redraws per
second, the server's CPU per move and cores used (from /proc/<pid>/stat of the server's process
tree, balancer included), bytes per second per student, and server memory per session (RSS).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import lesson as lesson_bench  # noqa: E402
from bench.protocol import Student, reopen  # noqa: E402

MAX_STUDENTS = 400
MAX_DURATION = 600.0
TICK = os.sysconf("SC_CLK_TCK")


# --- the server's processes, from /proc ------------------------------------------------------------
def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(d))
    return kids


def tree(pids: list[int]) -> list[int]:
    """The given processes and all their descendants."""
    kids, out, todo = _children(), [], list(pids)
    while todo:
        p = todo.pop()
        if p not in out:
            out.append(p)
            todo.extend(kids.get(p, []))
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_bytes(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def comm(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/comm").read_text().strip()
    return "?"


class Meter:
    """CPU and memory of a set of process trees between two readings."""

    def __init__(self, pids: list[int]):
        self.roots = pids

    def read(self) -> dict:
        procs = tree(self.roots)
        by: dict[str, float] = {}
        for p in procs:
            name = "balancer" if comm(p) == "haproxy" else "replicas"
            by[name] = by.get(name, 0.0) + cpu_seconds(p)
        return {"t": time.perf_counter(), "cpu": by, "rss": sum(rss_bytes(p) for p in procs),
                "n": sum(comm(p) != "haproxy" for p in procs)}


def cmdline(pid: int) -> list[str]:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    return []


def streamlit_pids(roots: list[int]) -> list[int]:
    """The `streamlit run` processes in these trees (the replicas; not deploy/serve or HAProxy)."""
    return [p for p in tree(roots) if "streamlit" in cmdline(p) and "run" in cmdline(p)]


class CpuQuota:
    """Each replica in a cgroup of its own, capped at `cores` of CPU time (root; cgroup v1 or v2).

    A stand-in for a machine per replica on a machine with too few cores: with two cores the load
    client and the balancer take a share, so two uncapped replicas cannot each have a core. Capped,
    every replica gets the same CPU whatever their number, and the load client the rest.
    """

    PERIOD_US = 100_000

    def __init__(self, cores: float):
        v1, v2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")
        controllers = v2 / "cgroup.controllers"
        if (v1 / "cpu.cfs_quota_us").exists():
            self.base, self.v2 = v1, False
        elif controllers.exists() and "cpu" in controllers.read_text().split():
            self.base, self.v2 = v2, True
            with contextlib.suppress(OSError):
                (v2 / "cgroup.subtree_control").write_text("+cpu")
        else:
            raise RuntimeError("--cpu-quota needs a cgroup cpu controller (/sys/fs/cgroup/cpu or cgroup v2)")
        self.quota_us = max(1000, round(cores * self.PERIOD_US))
        self.groups: list[Path] = []

    def apply(self, pids: list[int]) -> None:
        for pid in pids:
            g = self.base / f"layerlab-bench-{os.getpid()}-{pid}"
            try:
                g.mkdir(exist_ok=True)
                self.groups.append(g)
                if self.v2:
                    (g / "cpu.max").write_text(f"{self.quota_us} {self.PERIOD_US}")
                else:
                    (g / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
                    (g / "cpu.cfs_quota_us").write_text(str(self.quota_us))
                (g / "cgroup.procs").write_text(str(pid))
            except OSError as err:
                raise RuntimeError(f"--cpu-quota: cannot cap pid {pid} in {g}: {err} (needs root)") from err

    def release(self) -> None:
        """Remove the groups (their processes have been stopped; a survivor goes back to the root)."""
        for g in self.groups:
            with contextlib.suppress(OSError):
                for pid in (g / "cgroup.procs").read_text().split():
                    (self.base / "cgroup.procs").write_text(pid)
            for _ in range(50):
                try:
                    g.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.1)
        self.groups = []


# --- starting a server -------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_health(url: str, proc: subprocess.Popen | None, timeout: float = 90.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        with contextlib.suppress(OSError):
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                return
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer its health check in {timeout:.0f} s")


def start_server(replicas: int, options: list[str], log, serve: tuple[str, ...] = ()
                 ) -> tuple[subprocess.Popen, str]:
    """One `streamlit run app.py` (replicas == 0) or deploy/serve with that many replicas (and `serve`'s
    own flags, such as --db)."""
    port = free_port()
    flags = [f"--{o}" if not o.startswith("--") else o for o in options]
    flags = [part for f in flags for part in f.split("=", 1)]
    if replicas:
        cmd = [str(ROOT / "deploy" / "serve"), "--replicas", str(replicas), "--port", str(port),
               "--address", "127.0.0.1", *serve, *(["--", *flags] if flags else [])]
    else:
        cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
               "--server.port", str(port), "--server.address", "127.0.0.1",
               "--server.fileWatcherType", "none", "--server.runOnSave", "false",
               "--browser.gatherUsageStats", "false", *flags]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_health(url, proc)
    except Exception:
        stop(proc)
        raise
    return proc, url


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


# --- one class ------------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, max(0, round(q / 100 * len(v) + 0.5) - 1))]


async def mover(st: Student, every: float, slider: str | None, until: float, rng: random.Random,
                closed: bool = False):
    """Move every few seconds; `closed`: wait for the answer first, then think for `every` s.

    Open (the default) is a class at a given pace; closed keeps each student's next move behind its
    last answer, so past capacity the moves finished per second are the server's throughput (an
    open student's moves merge into one run while it waits, and each counts as answered).
    """
    await asyncio.sleep(rng.uniform(0, every))
    while time.perf_counter() < until and not st.closed:
        st.move(slider)
        while closed and st.pending and not st.closed and time.perf_counter() < until:
            st.finished.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(st.finished.wait(), max(0.01, until - time.perf_counter()))
        await asyncio.sleep(every * rng.uniform(0.8, 1.2))


async def press(st: Student, key: str, until: float) -> bool:
    """Press a button and wait for the run that answers it (False: the tab closed or time ran out)."""
    n = len(st.stats.latencies)
    st.pending.append(time.perf_counter())
    st.click(key)
    while len(st.stats.latencies) == n:
        if st.closed or time.perf_counter() > until:
            st.pending.clear()
            return False
        await asyncio.sleep(0.01)
    return True


async def submitter(st: Student, every: float, until: float, grace: float, rng: random.Random,
                    revive: bool) -> None:
    """A student in the challenge: every `every` s, 100 more epochs on /trainer, then Submit."""

    async def pause(seconds: float) -> None:   # never past the end of the class
        await asyncio.sleep(max(0.0, min(seconds, until - time.perf_counter())))

    await pause(rng.uniform(0, every))
    while time.perf_counter() < until:
        if st.closed and not (revive and await reopen(st, until)):
            return
        if st.stats.paused_at is not None:   # eyes up: the page holds training and Submit
            await pause(1.0)
            continue
        if await press(st, "trainer_step_100", until + grace):
            st.stats.submits_sent += 1
            if await press(st, "class_submit", until + grace):
                st.stats.submits_answered += 1
                st.stats.submit_latencies.append(st.stats.latencies[-1])
        await pause(every * rng.uniform(0.8, 1.2))


async def revived_mover(st: Student, args, until: float, rng: random.Random, revive: bool) -> None:
    while time.perf_counter() < until:
        await mover(st, args.every, args.slider, until, rng, closed=args.closed)
        if not (revive and st.closed and await reopen(st, until)):
            return


async def killer(pids: list[int], at: float, out: dict) -> None:
    """SIGKILL one replica `at` seconds in (deploy/serve starts it again; its students reopen their links
    through the balancer meanwhile)."""
    await asyncio.sleep(at)
    replicas = streamlit_pids(pids)
    if len(replicas) < 2:
        out["killed"] = None
        return
    victim = replicas[0]
    os.kill(victim, signal.SIGKILL)
    out["killed"] = victim


async def pauser(args, at: float, out: dict) -> None:
    """The teacher's Pause switch `at` seconds in: the class's flag in the store, as /class sets it."""
    import store as store_module

    await asyncio.sleep(at)
    db = store_module.Store(args.db_url)
    await asyncio.to_thread(db.set_flag, args.code, args.key, "paused", True)
    out["paused_at"] = time.perf_counter()
    db.engine.dispose()


async def classroom(url: str, args, meter: Meter | None) -> dict:
    rng = random.Random(args.seed)
    students = [Student(url, args.page, query=args.query, rng=random.Random(rng.random()))
                for _ in range(args.students)]
    players = [Student(url, "trainer", query=args.player_query, rng=random.Random(rng.random()))
               for _ in range(args.players)]
    seats = getattr(args, "seats", [])
    submitters = [Student(url, "trainer", query=f"class={args.code}&seat={seat}&twin=false",
                          rng=random.Random(rng.random())) for seat in seats]
    klass = getattr(args, "code", None)
    viewers = [Student(url, "class", query=f"code={args.code}", rng=random.Random(rng.random()))
               for _ in range(args.viewers if klass else 0)]
    # The teacher's view (board, gallery, class chart): the key is read once and leaves the link.
    viewers += [Student(url, "class", query=f"code={args.code}&key={args.key}",
                        rng=random.Random(rng.random())) for _ in range(args.teachers if klass else 0)]
    # The idle server's own CPU (timers, watchers), so a view's cost per refresh is net of it.
    idle0 = meter.read() if meter else None
    await asyncio.sleep(3.0 if meter else 0.0)
    idle = (sum(meter.read()["cpu"].values()) - sum(idle0["cpu"].values())) / 3.0 if meter else 0.0
    # One tab first, closed again: imports and caches warm, so RSS per session counts sessions only.
    for page in {args.page, *(["trainer"] if players else [])}:
        warm = Student(url, page, query=args.query if page == args.page else args.player_query)
        await warm.open(timeout=args.open_timeout)
        await warm.close()
    before = meter.read() if meter else None
    opened_at = time.perf_counter()
    failed = 0

    async def _open(st: Student, delay: float):
        nonlocal failed
        await asyncio.sleep(delay)
        try:
            await st.open(timeout=args.open_timeout)
        except Exception as err:  # a student who cannot connect is counted, not fatal
            failed += 1
            st.closed = True
            print(f"  a student could not open the page: {type(err).__name__}: {err}", file=sys.stderr)

    everyone = students + players + submitters + viewers
    await asyncio.gather(*(_open(st, i * args.ramp) for i, st in enumerate(everyone)))
    open_s = time.perf_counter() - opened_at
    opened = meter.read() if meter else None
    for p in players:
        if not p.closed:
            p.click("trainer_play")
    await asyncio.sleep(1.0 if players else 0.0)   # the players' first full run and timer

    marks = {id(st): (st.stats.moves_sent, len(st.stats.latencies), st.stats.bytes_in,
                      st.stats.redraws, st.stats.ticks_done) for st in everyone}
    stats_file = getattr(args, "stats_file", None)
    lines0 = len(stats_file.read_text().splitlines()) if stats_file and stats_file.exists() else 0
    kill = {}
    start = meter.read() if meter else None
    t0 = time.perf_counter()
    until = t0 + args.duration
    client0 = time.process_time()
    revive = bool(args.kill_replica)
    tasks = [asyncio.create_task(revived_mover(st, args, until, random.Random(rng.random()), revive))
             for st in students if not st.closed]
    tasks += [asyncio.create_task(submitter(st, args.submit_every, until, args.grace,
                                            random.Random(rng.random()), revive))
              for st in submitters if not st.closed]
    if args.kill_replica and meter:
        tasks.append(asyncio.create_task(killer(meter.roots, args.duration / 2, kill)))
    if args.pause_at:
        tasks.append(asyncio.create_task(pauser(args, args.pause_at * args.duration, kill)))
    if getattr(args, "hostile", False):
        tasks.append(asyncio.create_task(asyncio.to_thread(flood, args.db_url, args.code, args.duration / 2,
                                                           kill)))
    await asyncio.gather(*tasks, asyncio.sleep(args.duration))
    t1 = time.perf_counter()
    end = meter.read() if meter else None
    client_cpu = time.process_time() - client0
    in_window = sum(len(st.stats.latencies) - marks[id(st)][1] for st in students)
    # Moves still on their way get a bounded grace to arrive (counted as unfinished after it).
    grace_until = time.perf_counter() + args.grace
    while time.perf_counter() < grace_until and any(st.pending for st in students if not st.closed):
        await asyncio.sleep(0.2)
    window = t1 - t0
    lat, sent, done = [], 0, 0
    for st in students:
        m0 = marks[id(st)]
        sent += st.stats.moves_sent - m0[0]
        new = st.stats.latencies[m0[1]:]
        done += len(new)
        lat.extend(new)
    unanswered = sum(len(st.pending) for st in students)
    redraws = [(p.stats.redraws - marks[id(p)][3]) / window for p in players]
    ticks = [(p.stats.ticks_done - marks[id(p)][4]) / window for p in players]

    def rate(group):
        return [(st.stats.bytes_in - marks[id(st)][2]) / window for st in group]

    changed = [c for st in students for c in st.stats.changed[1:]]
    whole = [c for st in students for c in st.stats.sent_whole[1:]]
    out = {
        "page": args.page, "students": args.students, "players": args.players, "every_s": args.every,
        "closed": args.closed, "moves_per_s": round(in_window / window, 2),
        "window_s": round(window, 1), "open_s": round(open_s, 1), "failed_to_open": failed,
        "moves_sent": sent, "moves_finished": done, "moves_unfinished": unanswered,
        "p50_s": pct(lat, 50), "p95_s": pct(lat, 95), "max_s": max(lat) if lat else float("nan"),
        "redraws_per_s": redraws, "ticks_per_s": ticks,
        "mover_bytes_per_s": statistics.mean(rate(students)) if students else 0.0,
        "player_bytes_per_s": rate(players),
        "elements_changed_per_move": statistics.median(changed) if changed else None,
        "elements_sent_per_move": statistics.median(whole) if whole else None,
        "busy_notes": sum(st.stats.busy_notes for st in everyone),
        "client_cpu_s": round(client_cpu, 1),
        # The machine's run queue: other work on a shared machine makes latencies noisy.
        "loadavg_1min": float(Path("/proc/loadavg").read_text().split()[0]),
        "cores": os.cpu_count(),
    }
    if submitters or viewers:
        out.update(class_figures(args, submitters, viewers, marks, window, stats_file, lines0, kill))
    if meter:
        cpu = {k: end["cpu"].get(k, 0.0) - start["cpu"].get(k, 0.0) for k in end["cpu"]}
        total = sum(cpu.values())
        out["server_cpu_s"] = {k: round(v, 2) for k, v in cpu.items()}
        out["server_cores"] = round(total / window, 2)
        alone = not (players or submitters or viewers)   # the movers alone: CPU per move is theirs
        out["cpu_per_move_ms"] = round(1000 * total / done, 1) if done and alone else None
        out["moves_per_s_per_core"] = round(done / total, 2) if total and alone else None
        out["rss_per_session_mb"] = round((opened["rss"] - before["rss"]) / max(1, len(everyone)) / 1e6, 2)
        out["server_processes"] = end["n"]
        refreshes = out.get("board_refreshes", 0)
        out["idle_cores"] = round(idle, 4)
        if viewers and refreshes and not (students or players or submitters):
            out["cpu_per_board_refresh_ms"] = round(1000 * (total - idle * window) / refreshes, 2)
    for st in everyone:
        await st.close()
    return out


def pause_figures(submitters, paused_at: float | None) -> dict:
    """How long after the teacher's switch each student's page showed the banner (None: never)."""
    if paused_at is None:
        return {}
    waits = [st.stats.paused_at - paused_at for st in submitters if st.stats.paused_at is not None]
    return {"pause_students": len(submitters), "pause_seen": len(waits),
            "pause_within_3s": sum(w <= 3.0 for w in waits), "pause_p50_s": pct(waits, 50),
            "pause_p95_s": pct(waits, 95), "pause_max_s": max(waits) if waits else float("nan")}


def class_figures(args, submitters, viewers, marks, window, stats_file, lines0, kill) -> dict:
    """What the class challenge did: submissions pressed, answered, acknowledged by the server (its
    stats file), stored (the store itself), and the server's time per submission."""
    import store as store_module

    lines = stats_file.read_text().splitlines()[lines0:] if stats_file and stats_file.exists() else []
    acks = [json.loads(line) for line in lines]
    ids = [a["submission"] for a in acks]
    db = store_module.Store(args.db_url)
    kept = {s["id"] for s in db.submissions(args.code)}
    networks = [(r["nickname"], json.dumps(r["weights"], sort_keys=True))
                for r in db.export(args.code, args.key)]
    db.engine.dispose()
    lat = [x for st in submitters for x in st.stats.submit_latencies]
    server = [a["submit_s"] for a in acks]
    return {
        "submitters": len(submitters), "submit_every_s": args.submit_every,
        "submits_pressed": sum(st.stats.submits_sent for st in submitters),
        "submits_answered": sum(st.stats.submits_answered for st in submitters),
        "submits_acknowledged": len(ids), "submits_distinct": len(set(ids)), "submits_stored": len(kept),
        "submits_lost": len(set(ids) - kept),                       # acknowledged, not in the store
        "submits_twice": len(networks) - len(set(networks)),        # one student's network stored twice
        "submit_server_p50_s": pct(server, 50), "submit_server_p95_s": pct(server, 95),
        "submit_answer_p50_s": pct(lat, 50), "submit_answer_p95_s": pct(lat, 95),
        "reopened": sum(st.stats.reopened for st in submitters),
        "reopen_p95_s": pct([x for st in submitters for x in st.stats.reopen_s], 95),
        "killed_pid": kill.get("killed"),
        **pause_figures(submitters, kill.get("paused_at")),
        "viewers": len(viewers), "teacher_view": bool(args.teachers),
        "board_refreshes": sum(st.stats.ticks_done - marks[id(st)][4] for st in viewers),
        "hostile": bool(getattr(args, "hostile", False)),
        "flood_seats": kill.get("flood_seats"), "flood_refused": kill.get("flood_refused"),
        "seats": len(db_seats(args)),
        "errors_drawn": {"students": sum(len(st.stats.exceptions) for st in submitters),
                         "viewers": sum(len(st.stats.exceptions) for st in viewers)},
        "first_errors": [e for st in [*submitters, *viewers] for e in st.stats.exceptions][:3],
    }


def db_seats(args) -> list:
    import store as store_module

    db = store_module.Store(args.db_url)
    try:
        from sqlalchemy import select

        from store.models import Class, Seat
        with db.engine.connect() as conn:
            return conn.execute(select(Seat.id).join(Class, Class.id == Seat.class_id)
                                .where(Class.code == args.code)).all()
    finally:
        db.engine.dispose()


def report(r: dict) -> str:
    def ms(v):
        return "-" if v != v else (f"{1000 * v:,.0f} ms" if v < 10 else f"{v:,.1f} s")

    pace = (f"moving a slider {r['every_s']:g} s after each answer" if r.get("closed")
            else f"moving a slider every {r['every_s']:g} s")
    lines = [f"/{r['page']}: {r['students']} students {pace}, "
             f"{r['players']} playing /trainer, {r['window_s']} s"]
    lines.append(f"  slider answer p50 {ms(r['p50_s'])} · p95 {ms(r['p95_s'])} · max {ms(r['max_s'])}; "
                 f"moves finished {r['moves_finished']} of {r['moves_sent']} sent "
                 f"({r['moves_unfinished']} unanswered after the grace); "
                 f"{r['moves_per_s']:g} answered per second")
    if r["players"]:
        lines.append("  players' full redraws/s: " + ", ".join(f"{v:.1f}" for v in r["redraws_per_s"])
                     + "  (ticks/s " + ", ".join(f"{v:.1f}" for v in r["ticks_per_s"]) + ")")
        lines.append("  player bytes/s: " + ", ".join(f"{v / 1000:,.0f} KB" for v in r["player_bytes_per_s"]))
    lines.append(f"  mover bytes/s: {r['mover_bytes_per_s'] / 1000:,.1f} KB; elements changed per move "
                 f"{r['elements_changed_per_move']} (sent whole {r['elements_sent_per_move']})")
    if r.get("cpu_quota"):
        lines.append(f"  each server process capped at {r['cpu_quota']:g} cores (cgroup)")
    if "server_cores" in r:
        per = f"{r['cpu_per_move_ms']} ms CPU per move, " if r["cpu_per_move_ms"] else ""
        lines.append(f"  server: {per}{r['server_cores']} cores used {r['server_cpu_s']}, "
                     f"moves/s per core {r['moves_per_s_per_core']}, "
                     f"RSS per session {r['rss_per_session_mb']} MB ({r['server_processes']} processes)")
    if r.get("submitters"):
        good = not r["submits_lost"] and not r["submits_twice"]
        again = r["submits_acknowledged"] - r["submits_distinct"]
        lines.append(f"  class: {r['submitters']} students submitting every {r['submit_every_s']:g} s: "
                     f"{r['submits_pressed']} pressed, {r['submits_answered']} answered, "
                     f"{r['submits_acknowledged']} acknowledged ({r['submits_distinct']} distinct"
                     + (f"; {again} resent a network already in and got it back" if again else "")
                     + f"), {r['submits_stored']} stored: {r['submits_lost']} lost, "
                     f"{r['submits_twice']} twice" + ("" if good else "  <-- FAILED"))
        lines.append(f"  submission, server time (score + commit) p50 {ms(r['submit_server_p50_s'])} · p95 "
                     f"{ms(r['submit_server_p95_s'])}; the click's answer p50 "
                     f"{ms(r['submit_answer_p50_s'])} · p95 {ms(r['submit_answer_p95_s'])}")
        if r.get("killed_pid"):
            lines.append(f"  replica pid {r['killed_pid']} killed with SIGKILL halfway; "
                         f"{r['reopened']} students reopened their link and carried on "
                         f"(back in p95 {ms(r['reopen_p95_s'])})")
    if r.get("hostile"):
        errors = r["errors_drawn"]
        bad = sum(errors.values())
        lines.append(f"  hostile: two unreadable rows planted; a join flood got {r['flood_seats']} seats, "
                     f"{r['flood_refused']} refused ({r['seats']} seats in the class); errors drawn: "
                     f"{errors['students']} on students' trainers, {errors['viewers']} on /class"
                     + (f"  <-- FAILED: {r['first_errors']}" if bad else ""))
    if r.get("pause_students"):
        lines.append(f"  pause: {r['pause_seen']} of {r['pause_students']} students saw the banner, "
                     f"{r['pause_within_3s']} within 3 s; p50 {ms(r['pause_p50_s'])} · p95 "
                     f"{ms(r['pause_p95_s'])} · max {ms(r['pause_max_s'])} after the switch")
    if r.get("viewers"):
        per = r.get("cpu_per_board_refresh_ms")
        who = "teacher's views (board, gallery, chart)" if r.get("teacher_view") else "viewers of the board"
        lines.append(f"  /class: {r['viewers']} {who}, {r['board_refreshes']} refreshes"
                     + (f", server CPU {per} ms per view per refresh (net of the idle server's "
                        f"{1000 * r['idle_cores']:.1f} ms/s)" if per is not None else ""))
    lines.append(f"  opened in {r['open_s']} s ({r['failed_to_open']} failed); load client CPU "
                 f"{r['client_cpu_s']} s; 'server busy' notes seen {r['busy_notes']}; machine load "
                 f"{r['loadavg_1min']:g} on {r['cores']} cores")
    return "\n".join(lines)


def parse(argv=None, description: str = __doc__.split("\n\n")[0]) -> argparse.Namespace:
    """This benchmark's options (bench/scaleout.py runs the same class with them)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--url", help="a running server or balancer on 127.0.0.1 (default: start one)")
    ap.add_argument("--pid", type=int, action="append", default=[],
                    help="with --url: a server (or deploy/serve) pid whose process tree is metered")
    ap.add_argument("--replicas", type=int, default=0, help="start deploy/serve with this many replicas")
    ap.add_argument("--page", default="recipe-card", help="the page the slider movers use")
    ap.add_argument("--query", default="", help="the movers' link query, e.g. 'hidden=8'")
    ap.add_argument("--slider", default=None, help="the slider's key (default: the page's first slider)")
    ap.add_argument("--students", type=int, default=10, help="slider movers")
    ap.add_argument("--players", type=int, default=0, help="students pressing Play on /trainer")
    ap.add_argument("--player-query", default="", help="the players' link query, e.g. 'twin=false'")
    ap.add_argument("--every", type=float, default=3.0, help="seconds between one student's moves")
    ap.add_argument("--duration", type=float, default=45.0, help="seconds of load (after all opened)")
    ap.add_argument("--grace", type=float, default=15.0, help="seconds to wait for moves still running")
    ap.add_argument("--ramp", type=float, default=0.05, help="seconds between two students' arrivals")
    ap.add_argument("--open-timeout", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                    help="a Streamlit option for the server started here, e.g. runner.fastReruns=false")
    ap.add_argument("--closed", action="store_true",
                    help="each student waits for its answer before the next move (throughput past capacity)")
    ap.add_argument("--cpu-quota", type=float, default=0.0, metavar="CORES",
                    help="cap each server process started here at this much CPU (cgroups, root)")
    ap.add_argument("--submit-every", type=float, default=0.0, metavar="S",
                    help="a class challenge: each student also trains and submits on /trainer every S s")
    ap.add_argument("--submitters", type=int, default=None,
                    help="students in the challenge (default: --students)")
    ap.add_argument("--viewers", type=int, default=0, help="tabs on /class following the class's board")
    ap.add_argument("--teachers", type=int, default=0,
                    help="tabs on the teacher's /class (board, gallery and class chart, every 3 s)")
    ap.add_argument("--db", default=None, metavar="URL",
                    help="the class store of the server started here (default: SQLite in a scratch folder)")
    ap.add_argument("--pause-at", type=float, default=0.0, metavar="FRACTION",
                    help="the teacher pauses the class this far into the window (e.g. 0.5); the banners are "
                         "counted")
    ap.add_argument("--kill-replica", action="store_true",
                    help="with --replicas: SIGKILL one replica halfway; its students reopen their links")
    ap.add_argument("--hostile", action="store_true",
                    help="with --submit-every: two rows no page could make are planted in the store (an "
                         "epoch of 2^63, malformed JSON, scores that are not numbers) and one client floods "
                         "the class with joins; every tab's drawn errors are counted")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line as well")
    ap.add_argument("--lesson", action="store_true",
                    help="the students follow a lesson (bench/lesson.py): Next to every page on the step")
    ap.add_argument("--join", action="store_true",
                    help="with --lesson: the students join through /class's Join form (bench/flood.py)")
    ap.add_argument("--flood", action="store_true",
                    help="with --lesson: one client presses Join from fresh sessions all lesson long")
    ap.add_argument("--answering", type=int, default=0, metavar="N",
                    help="with --lesson: only N students answer each question (0: all)")
    ap.add_argument("--second-vote", action="store_true",
                    help="with --lesson: Discuss with your neighbour, then the class votes again")
    ap.add_argument("--outlier", type=float, default=None, metavar="V",
                    help="with --lesson: the first student answers V to every number question")
    args = ap.parse_args(argv)
    if not 0 <= args.students + args.players <= MAX_STUDENTS:
        ap.error(f"at most {MAX_STUDENTS} simulated students")
    if args.cpu_quota and (args.url or not 0.05 <= args.cpu_quota <= (os.cpu_count() or 1)):
        ap.error("--cpu-quota caps servers started here, at 0.05 cores to the machine's count")
    if args.submitters is None:
        args.submitters = args.students if args.submit_every else 0
    if args.submitters + args.viewers + args.teachers + args.students + args.players > MAX_STUDENTS:
        ap.error(f"at most {MAX_STUDENTS} simulated tabs")
    if (args.submitters or args.viewers or args.teachers or args.pause_at) and not args.submit_every:
        ap.error("--submitters, --viewers, --teachers and --pause-at need a class: --submit-every S")
    if args.submit_every and (args.url or args.submit_every < 5):
        ap.error("--submit-every makes its own class on a server started here, every 5 s or more")
    if args.hostile and not args.submit_every:
        ap.error("--hostile needs a class: --submit-every S")
    if args.kill_replica and args.replicas < 2:
        ap.error("--kill-replica needs --replicas 2 or more")
    if args.replicas > 1 and args.submit_every and not (args.db or "").startswith("postgresql"):
        ap.error("a class across replicas needs one store: --db postgresql+psycopg:///NAME")
    if not 0 < args.duration <= MAX_DURATION:
        ap.error(f"--duration is 0 to {MAX_DURATION:.0f} s")
    return args


def make_class(args) -> tuple[str, ...]:
    """A class in the store the server will use, its students seated; the server's environment names
    the store and the stats file. Returns deploy/serve's flags."""
    import tempfile
    from datetime import timedelta

    import store as store_module
    from bench.submit import PROBLEM, networks

    scratch = Path(tempfile.mkdtemp(prefix="layerlab-classroom-"))
    args.db_url = args.db or f"sqlite:///{scratch}/classes.sqlite3"
    args.stats_file = scratch / "submits.jsonl"
    os.environ["LAYERLAB_DB"] = args.db_url
    os.environ["LAYERLAB_CLASS_STATS"] = str(args.stats_file)
    st = store_module.Store(args.db_url)
    args.code, args.key = st.create_class(PROBLEM)
    args.seats = [st.join(args.code, f"student {i + 1}") for i in range(args.submitters)]
    if (args.viewers or args.teachers) and not args.submitters:   # the board's cost: thirty scored networks
        from lib.challenge import evaluate

        seed = st.test_seed(args.code)
        for i, net in enumerate(networks(30)):
            pub, priv, n = evaluate(net, PROBLEM, seed)
            seat = st.join(args.code, f"on the board {i + 1}")
            st.submit(args.code, seat, spec={"hidden": [8], "epoch": 20 + i}, weights=net, n_params=n,
                      public=pub, private=priv)
    if args.hostile:
        plant(st, args.code)
    st.engine.dispose()
    assert timedelta(seconds=args.submit_every) >= store_module.MIN_GAP
    return ("--db", args.db_url)   # a killed replica is restarted by deploy/serve, as in a class


def plant(st, code: str) -> None:
    """Two submissions no page could make, written past every check (as an older version, a hand-edited
    database or a bug might have): the board, the gallery, the snapshots and the teacher's Manage must
    still draw for everyone. The first ranks top: an epoch of 2^63 in a network that otherwise scores."""
    from datetime import UTC, datetime

    from sqlalchemy import insert, select

    from bench.submit import networks
    from store.models import Class, Seat, Submission

    net = networks(1)[0]
    rows = [dict(spec=json.dumps({"hidden": [8], "act": "relu", "opt": "adam", "lr": 0.03, "epoch": 2**63}),
                 weights=json.dumps({**net, "epoch": 2**63}), n_params=2**31 - 1, public=1.0, private=1.0),
            dict(spec="{not json", weights="[]", n_params=-1,
                 public=float("nan") if st.url.startswith("postgresql") else 1e308, private=float("-inf"))]
    for i, row in enumerate(rows):
        st.join(code, f"mallory {i + 1}")
        with st.engine.begin() as conn:   # bound parameters, as every query of the store
            cid = conn.scalar(select(Class.id).where(Class.code == code))
            sid = conn.scalar(select(Seat.id).where(Seat.class_id == cid,
                                                    Seat.nickname == f"mallory {i + 1}"))
            conn.execute(insert(Submission).values(class_id=cid, seat_id=sid, created_at=datetime.now(UTC),
                                                   **row))


def flood(db_url: str, code: str, seconds: float, out: dict) -> None:
    """One client joining the class as fast as the store answers, for `seconds` (bounded: at most 2,000
    tries): how many seats it got and how many joins were refused."""
    import store as store_module

    db = store_module.Store(db_url)
    made = refused = 0
    until = time.perf_counter() + seconds
    try:
        for i in range(2000):
            if time.perf_counter() >= until:
                break
            try:
                db.join(code, f"flood {i}")
                made += 1
            except store_module.StoreError:
                refused += 1
    finally:
        db.engine.dispose()
    out.update(flood_seats=made, flood_refused=refused)


def run(args: argparse.Namespace) -> dict:
    """One class against the server these options name or start (stopped again by its pid)."""

    proc, log, quota = None, None, None
    try:
        if args.url:
            url, pids = args.url, args.pid
            Student(url, args.page)  # refuses anything but 127.0.0.1
        else:
            (ROOT / "artifacts").mkdir(exist_ok=True)
            log = open(ROOT / "artifacts" / "classroom-server.log", "w")  # noqa: SIM115
            serve = lesson_bench.make_lesson(args) if args.lesson else make_class(args) if args.submit_every \
                else ()
            proc, url = start_server(args.replicas, args.set, log, serve)
            pids = [proc.pid]
            if args.cpu_quota:
                quota = CpuQuota(args.cpu_quota)
                quota.apply(streamlit_pids(pids))
        meter = Meter(pids) if pids else None
        args.server_pids = pids or []
        load = lesson_bench.follow(url, args, killer) if args.lesson else classroom(url, args, meter)
        result = asyncio.run(load)
        result["cpu_quota"] = args.cpu_quota
    finally:
        if proc is not None:
            stop(proc)
        if quota is not None:
            quota.release()
        if log is not None:
            log.close()
    return result


def _sigterm(signum, frame):  # stop the servers started here, as Ctrl-C does
    raise KeyboardInterrupt


def main(argv=None) -> int:
    args = parse(argv)
    signal.signal(signal.SIGTERM, _sigterm)   # here, not in run(): tests call run() from a worker thread
    result = run(args)
    print(lesson_bench.report(result) if args.lesson else report(result))
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
