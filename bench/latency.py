"""Slider key press -> end of the run it starts, per page, against a bare one-slider page.

    python bench/latency.py                          # every lesson, 5-10 minutes
    python bench/latency.py --pages trainer,tax-bands --moves 12
    python bench/latency.py --json artifacts/latency.json --budget 600
    python bench/latency.py --app /tmp/old            # an older checkout (git archive | tar -x)
    python bench/latency.py --py-spy /tmp/spy --js-profile   # where the server's / browser's time goes
    python bench/latency.py --no-chart-peer          # only the bare peer (a shorter run)

Starts `streamlit run app.py`, `streamlit run bench/bare.py` and `streamlit run bench/bare_chart.py`
on free 127.0.0.1 ports (headless, no file watcher, no run on save; all read the repo's
.streamlit/config.toml), drives Debian's Chromium through Playwright, and for every page
(ui.nav.LESSONS, or --pages) moves up to --sliders visible sliders (found by role, spread over the
page: first, middle, last) --moves times each, after one warm-up move, alternating ArrowRight /
ArrowLeft (turning back at an end).

A move is timed inside the browser, on one clock: from the keydown event to the arrival of the
websocket message that ends the run it started: a ForwardMsg whose `script_finished` is
FINISHED_SUCCESSFULLY or FINISHED_FRAGMENT_RUN_SUCCESSFULLY (fragment runs send one too; a run
cancelled by a newer one sends FINISHED_EARLY_FOR_RERUN and is not the end). Frames are decoded
in Python from Playwright's `framereceived` with streamlit.proto's ForwardMsg and matched, by
their order on the socket, to timestamps an init script records for each message. "KB per move"
is what the server sent from the keypress to that message. Before every move the page must be
quiet (no message for --quiet ms); runs that arrive after the measured one without a key press
(a second rerun, a timer) are counted as "extra runs".

After every page move each peer's slider is moved once (the two peers' order swapped every time),
so all see the same load: the bare page (bench/bare.py), which every ratio divides by, and the bare
page plus one plotly chart the slider changes (bench/bare_chart.py, drawn with st.plotly_chart as
any Streamlit author would): what a page with one changed chart pays at least.

Prints: page | median ms | ratio to bare | KB per move | goal <= 2x | bare ms | on wire ms |
server CPU | browser ms | notes, the chart peer's row "(bare+chart)" first. The ratio divides by
the bare page's median over the moves made right after this page's. The last two columns are costs
per move (the server process's CPU from /proc, the page's main-thread CPU from CDP), which a busy
machine barely moves; the waits before them are stretched by it. bench/README.md explains every
column.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.server import StreamlitServer  # noqa: E402  (after the checkout is on sys.path)

# The peers, each moved once after every page move: (name, script in bench/, URL path and query).
# "bare" divides every ratio; "chart" is the bare page plus one plotly chart the slider changes.
PEER_PAGES = [("bare", "bare.py", "/"), ("chart", "bare_chart.py", "/")]
DEFAULT_PAGES = ["recipe-card", "activations", "tax-bands", "gpt2-params", "gpt2-mlp", "trainer"]
GOAL = 2.0

# Runs before the page's own scripts: every websocket message gets a timestamp on the page's
# clock, and every keydown too. Frames are matched to Playwright's by (socket, index).
TAP_JS = """
(() => {
  const Native = window.WebSocket;
  const lat = window.__lat = {sockets: 0, frames: [], keys: []};
  class Tapped extends Native {
    constructor(...args) {
      super(...args);
      const id = lat.sockets++;
      this.addEventListener('message', (e) => {
        const d = e.data;
        const n = typeof d === 'string' ? d.length : (d.byteLength !== undefined ? d.byteLength : d.size);
        lat.frames.push([id, performance.now(), n]);
      });
    }
  }
  window.WebSocket = Tapped;
  document.addEventListener('keydown', (e) => lat.keys.push([performance.now(), e.key]), true);
})();
"""


def start_server(script: str, logdir: Path, cwd: Path = ROOT) -> StreamlitServer:
    """`streamlit run <script>` on a free port (bench/server.py), its log named after the script."""
    return StreamlitServer(script, logdir, prefix=Path(script).stem, cwd=cwd)


class Tab:
    """One browser page with its websocket frames decoded."""

    DONE = None  # filled with the two "finished" statuses on first use

    def __init__(self, browser, url: str, server: StreamlitServer):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.server = server
        self.ForwardMsg = ForwardMsg
        Tab.DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
        self.ctx = browser.new_context(viewport={"width": 1366, "height": 900})
        self.ctx.add_init_script(TAP_JS)
        self.page = self.ctx.new_page()
        # (socket, index, bytes, kind, arrival on this process's clock); Playwright reports frames
        # from the browser's network layer, which a busy page main thread does not hold up.
        self.frames: list[tuple[int, int, int, str | None, float]] = []
        self._sockets: list = []
        self.page.on("websocket", self._on_socket)
        self.cdp = self.ctx.new_cdp_session(self.page)
        self.cdp.send("Performance.enable")
        self.page.goto(url)
        self.wait_ready()

    def _on_socket(self, ws) -> None:
        sid = len(self._sockets)
        self._sockets.append(ws)
        count = [0]

        def on_frame(payload) -> None:
            kind = None
            if isinstance(payload, (bytes, bytearray)):
                msg = self.ForwardMsg()
                with contextlib.suppress(Exception):
                    msg.ParseFromString(bytes(payload))
                    kind = msg.WhichOneof("type")
                    if kind == "script_finished":
                        kind = "done" if msg.script_finished in Tab.DONE else "cancelled"
            self.frames.append((sid, count[0], len(payload), kind, time.perf_counter()))
            count[0] += 1

        ws.on("framereceived", on_frame)

    def wait_ready(self, timeout: float = 90_000) -> None:
        """The first run has finished (its script_finished arrived) and the page shows no skeleton."""
        p = self.page
        deadline = time.time() + timeout / 1000
        while not any(f[3] == "done" for f in self.frames) and time.time() < deadline:
            p.wait_for_timeout(20)
        p.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']",
                            timeout=timeout)
        p.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']",
                            timeout=timeout)
        p.wait_for_function("!document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=timeout)

    def js_frames(self) -> list:
        return self.page.evaluate("window.__lat.frames.slice()")

    def wait_quiet(self, quiet_ms: float, timeout_s: float = 15) -> bool:
        """No message for quiet_ms, and Python has seen every frame the page has."""
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            idle, n_js = self.page.evaluate(
                "[window.__lat.frames.length ? performance.now() - window.__lat.frames.at(-1)[1] : 1e9,"
                " window.__lat.frames.length]")
            if idle >= quiet_ms and n_js == len(self.frames):
                return True
            self.page.wait_for_timeout(max(10, quiet_ms - idle) if idle < quiet_ms else 10)
        return False

    def sliders(self, k: int) -> list:
        """Up to k visible, enabled sliders, spread over the page (first, middle, last)."""
        loc = self.page.get_by_role("slider")
        for _ in range(20):  # a page may still be drawing its widgets
            if loc.count():
                break
            self.page.wait_for_timeout(250)
        found = []
        for i in range(loc.count()):
            s = loc.nth(i)
            with contextlib.suppress(Exception):
                if s.is_visible() and s.get_attribute("aria-disabled") != "true":
                    found.append(s)
        if len(found) <= k:
            return found
        step = (len(found) - 1) / (k - 1) if k > 1 else 0
        return [found[round(i * step)] for i in range(k)]

    _VALUE = "e => [e.getAttribute('aria-valuenow'), e.getAttribute('aria-valuetext')]"

    def _moved(self, slider, before: list, n0: int, wait_s: float = 0.6) -> bool:
        """Did the key press change the slider or start a run (seen within wait_s)?"""
        if before[0] is not None:
            return True  # a numeric slider's end was handled before the press
        text0 = before[3]
        deadline = time.time() + wait_s
        while time.time() < deadline:
            if len(self.frames) > n0 or slider.evaluate(self._VALUE)[1] != text0:
                return True
            self.page.wait_for_timeout(20)
        return False

    def move(self, slider, direction: int, timeout_s: float = 20) -> dict:
        """Press one arrow key on the slider; time it to the end of the run it starts."""
        slider.focus()
        vals = slider.evaluate("e => [e.getAttribute('aria-valuenow'), e.getAttribute('aria-valuemin'),"
                               " e.getAttribute('aria-valuemax'), e.getAttribute('aria-valuetext')]")
        key = "ArrowRight" if direction > 0 else "ArrowLeft"
        with contextlib.suppress(TypeError, ValueError):
            now, lo, hi = (float(v) for v in vals[:3])
            if now >= hi:
                key = "ArrowLeft"
            elif now <= lo:
                key = "ArrowRight"
        n0 = len(self.frames)
        n_keys = self.page.evaluate("window.__lat.keys.length")
        t_press = time.perf_counter()
        self.page.keyboard.press(key)
        if not self._moved(slider, vals, n0):
            # At an end the value stays put and nothing runs (a select_slider has no
            # aria-valuenow to tell us before): go the other way, and time that press.
            key = "ArrowLeft" if key == "ArrowRight" else "ArrowRight"
            n0 = len(self.frames)
            n_keys = self.page.evaluate("window.__lat.keys.length")
            t_press = time.perf_counter()
            self.page.keyboard.press(key)
        deadline = time.time() + timeout_s
        end = None
        while end is None and time.time() < deadline:
            for i in range(n0, len(self.frames)):
                if self.frames[i][3] == "done":
                    end = i
                    break
            else:
                self.page.wait_for_timeout(5)
        if end is None:
            return {"failed": "no finished run"}  # the key press started nothing (an end, a disabled slider)
        keys = self.page.evaluate("window.__lat.keys.slice()")
        t_key = keys[n_keys][0] if len(keys) > n_keys else None
        js = self.js_frames()
        for _ in range(200):  # the page's record of the frame may trail Playwright's by a moment
            if len(js) > end:
                break
            self.page.wait_for_timeout(5)
            js = self.js_frames()
        sid, idx, nbytes, _, t_end = self.frames[end]
        mine = [f for f in js if f[0] == sid]
        first_sid, first_idx = self.frames[n0][0], self.frames[n0][1]
        first = [f for f in js if f[0] == first_sid]
        if t_key is None or idx >= len(mine) or mine[idx][2] != nbytes:
            return {"failed": "frames not matched to the page's clock"}
        return {
            "ms": mine[idx][1] - t_key,
            "start_ms": first[first_idx][1] - t_key if first_idx < len(first) else None,
            # network view: first message of the run to its end, and key press to its end
            "server_ms": 1000 * (t_end - self.frames[n0][4]),
            "net_ms": 1000 * (t_end - t_press),
            "bytes": sum(f[2] for f in self.frames[n0:end + 1]),
            "frames": end + 1 - n0,
            "key": key,
        }

    def browser_ms(self) -> tuple[float, float]:
        """The page's main thread so far, from CDP: (CPU ms, ms busy with tasks).

        ThreadTime is CPU time (a busy machine barely moves it); TaskDuration is the wall time
        of its tasks (scripting, layout, paint), which a busy machine stretches.
        """
        metrics = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        return 1000 * metrics.get("ThreadTime", 0.0), 1000 * metrics.get("TaskDuration", 0.0)

    def js_profile_start(self) -> None:
        self.cdp.send("Profiler.enable")
        self.cdp.send("Profiler.setSamplingInterval", {"interval": 250})  # microseconds
        self.cdp.send("Profiler.start")

    def js_profile_stop(self, moves: int) -> dict[str, float]:
        """Main-thread JavaScript samples since js_profile_start, as ms per move by script chunk.

        Streamlit ships one chunk per element kind (PlotlyChart.<hash>.js holds plotly.js,
        DataFrame.<hash>.js the grid, index.<hash>.js React and Streamlit's core); "(program)" is
        the browser's own work outside JavaScript (style, layout, paint), "(idle)" is waiting.
        """
        prof = self.cdp.send("Profiler.stop")["profile"]
        nodes = {n["id"]: n for n in prof["nodes"]}
        by: dict[str, float] = {}
        for node_id, dt in zip(prof.get("samples", []), prof.get("timeDeltas", []), strict=False):
            frame = nodes[node_id]["callFrame"]
            url = frame.get("url") or ""
            name = url.rsplit("/", 1)[-1].split(".", 1)[0] if url else frame.get("functionName") or "?"
            by[name] = by.get(name, 0.0) + dt / 1000
        by.pop("(idle)", None)
        return {k: round(v / moves, 1) for k, v in sorted(by.items(), key=lambda kv: -kv[1])[:8]}

    def costed_move(self, slider, direction: int, quiet_ms: float) -> dict:
        """move(), then wait for quiet: adds the server's CPU and the page's main-thread time for
        the whole move (drawing after the last message included) and any runs that followed."""
        cpu0, task0 = self.server.cpu_ms(), self.browser_ms()
        r = self.move(slider, direction)
        if "failed" in r:
            return r
        n_after = len(self.frames)
        self.wait_quiet(quiet_ms)
        r["server_cpu_ms"] = self.server.cpu_ms() - cpu0
        task1 = self.browser_ms()
        r["browser_ms"], r["browser_busy_ms"] = task1[0] - task0[0], task1[1] - task0[1]
        r["extra_runs"] = self.extra_runs_since(n_after)
        return r

    def extra_runs_since(self, n: int) -> int:
        return sum(1 for f in self.frames[n:] if f[3] == "done")

    def close(self) -> None:
        self.ctx.close()


class Peer:
    """A peer page's one slider, moved once after every page move so both see the same load.

    `name` keys its moves in measure()'s result ("bare" -> "bare_moves", "chart" -> "chart_moves").
    """

    def __init__(self, name: str, tab: Tab, quiet_ms: float):
        self.name, self.tab, self.quiet_ms = name, tab, quiet_ms
        self.slider = tab.sliders(1)[0]
        self.i = 0

    def move(self) -> dict | None:
        self.i += 1
        if not self.tab.wait_quiet(self.quiet_ms):
            return None
        r = self.tab.costed_move(self.slider, 1 if self.i % 2 else -1, self.quiet_ms)
        return None if "failed" in r else r


def move_peers(peers: list[Peer], out: dict, round_no: int) -> None:
    """Move every peer once, in turn, the order swapped every round (no peer always goes first)."""
    for peer in peers if round_no % 2 == 0 else peers[::-1]:
        b = peer.move()
        if b is not None:
            out[f"{peer.name}_moves"].append(b)


def measure(tab: Tab, peers: list[Peer], n_sliders: int, moves: int, quiet_ms: float,
            deadline: float) -> dict:
    """Up to n_sliders sliders, a warm-up and `moves` timed moves each, the peers' moves after each."""
    sliders = tab.sliders(n_sliders)
    out = {"sliders": len(sliders), "moves": [], "extra_runs": 0, "failed": 0, "per_slider": [],
           **{f"{p.name}_moves": [] for p in peers}}
    for s in sliders:
        times = []
        for i in range(moves + 1):  # the first move is a warm-up
            if time.time() > deadline:
                out["truncated"] = True
                break
            if not tab.wait_quiet(quiet_ms):
                out["busy"] = True  # something keeps sending (a playing fragment?)
                return out
            r = tab.costed_move(s, 1 if i % 2 == 0 else -1, quiet_ms)
            if "failed" in r:
                out["failed"] += 1
                out.setdefault("failures", []).append(r["failed"])
                continue
            out["extra_runs"] += r["extra_runs"]
            if i > 0:
                out["moves"].append(r)
                times.append(r["ms"])
                move_peers(peers, out, len(out["moves"]))
        if times:
            label = s.get_attribute("aria-label") or "?"
            out["per_slider"].append(f"{label[:24]} {round(statistics.median(times))}")
    return out


def summarise(moves: list[dict]) -> dict:
    ms = [m["ms"] for m in moves]
    if not ms:
        return {"median_ms": None, "n": 0}
    starts = [m["start_ms"] for m in moves if m["start_ms"] is not None]
    q = statistics.quantiles(ms, n=4) if len(ms) >= 2 else [ms[0]] * 3
    return {
        "median_ms": statistics.median(ms), "p25_ms": q[0], "p75_ms": q[2],
        "kb_per_move": statistics.median(m["bytes"] / 1024 for m in moves),
        "first_frame_ms": statistics.median(starts) if starts else None,
        "server_ms": statistics.median(m["server_ms"] for m in moves),
        "net_ms": statistics.median(m["net_ms"] for m in moves),
        "server_cpu_ms": statistics.mean(m["server_cpu_ms"] for m in moves),
        "browser_ms": statistics.median(m["browser_ms"] for m in moves),
        "browser_busy_ms": statistics.median(m["browser_busy_ms"] for m in moves),
        "n": len(ms),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", help="comma separated URL paths (default: every lesson in ui/nav.py)")
    ap.add_argument("--moves", type=int, default=8, help="timed moves per slider (after a warm-up)")
    ap.add_argument("--sliders", type=int, default=3, help="sliders per page, spread over it")
    ap.add_argument("--quiet", type=float, default=250, help="ms without a message before a move")
    ap.add_argument("--budget", type=float, default=900, help="seconds for the whole run")
    ap.add_argument("--json", help="write every move and the summary here")
    ap.add_argument("--py-spy", type=Path, metavar="DIR",
                    help="record the app server with py-spy while each page is measured, one raw "
                         "(collapsed) profile per page in DIR; read them with profile_pages.py --py-spy DIR")
    ap.add_argument("--js-profile", action="store_true",
                    help="sample the page's JavaScript (CDP Profiler) during the moves and print where the "
                         "browser's time goes, by script chunk (PlotlyChart, index = React/Streamlit, ...)")
    ap.add_argument("--app", type=Path, default=ROOT,
                    help="the checkout whose app.py to serve (default: this one), e.g. an older commit "
                         "unpacked with `git archive <commit> | tar -x -C DIR`; the peers stay ours")
    ap.add_argument("--no-chart-peer", action="store_true",
                    help="do not measure the second peer, bench/bare_chart.py (the bare page plus one "
                         "plotly chart): each page move is then followed by the bare page's only")
    args = ap.parse_args()

    if args.pages:
        pages = [p.strip().strip("/") for p in args.pages.split(",") if p.strip()]
    else:
        sys.path.insert(0, str(args.app.resolve()))
        from ui.nav import LESSONS

        pages = list(DEFAULT_PAGES)
        pages += [lesson.url_path for lesson in LESSONS if lesson.url_path not in pages]

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("Debian's chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    t_start = time.time()
    deadline = t_start + args.budget
    logdir = Path(tempfile.mkdtemp(prefix="latency-"))
    results: dict = {"pages": {}, "load_before": os.getloadavg()[:2], "app": str(args.app.resolve())}
    app = start_server("app.py", logdir, cwd=args.app.resolve())
    peer_pages = [p for p in PEER_PAGES if p[0] == "bare" or not args.no_chart_peer]
    peer_servers = [start_server(str(ROOT / "bench" / script), logdir) for _, script, _ in peer_pages]
    servers = [app, *peer_servers]
    try:
        for s in servers:
            s.wait_healthy(90)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            try:
                peers = [Peer(name, Tab(browser, server.url + query, server), args.quiet)
                         for (name, _, query), server in zip(peer_pages, peer_servers, strict=True)]
                for peer in peers:
                    for _ in range(2):  # warm the peers up
                        peer.move()
                for path in pages:
                    if time.time() > deadline:
                        results["pages"][path] = {"skipped": "budget"}
                        continue
                    try:
                        tab = Tab(browser, f"{app.url}/{path}", app)
                    except Exception as e:  # a page that does not load is a result
                        results["pages"][path] = {"error": f"{type(e).__name__}: {e}"[:200]}
                        continue
                    if tab.page.locator("[data-testid='stException']").count():
                        results["pages"][path] = {"error": "the page shows an exception"}
                        tab.close()
                        continue
                    spy = _start_py_spy(app, args.py_spy, path) if args.py_spy else None
                    if args.js_profile:
                        tab.js_profile_start()
                    try:
                        r = measure(tab, peers, args.sliders, args.moves, args.quiet, deadline)
                        if args.js_profile:
                            r["js_profile_ms_per_move"] = tab.js_profile_stop(max(1, len(r["moves"])))
                    finally:
                        tab.close()
                        if spy is not None:
                            _stop_py_spy(spy)
                    results["pages"][path] = {**r, **summarise(r["moves"]),
                                              **{p.name: summarise(r[f"{p.name}_moves"]) for p in peers}}
                for peer in peers:
                    peer.tab.close()
            finally:
                browser.close()
    finally:
        for s in servers:
            s.stop()

    for name, _, _ in peer_pages:
        results[name] = summarise([m for r in results["pages"].values() for m in r.get(f"{name}_moves", [])])
    results["seconds"] = round(time.time() - t_start, 1)
    results["load_after"] = os.getloadavg()[:2]
    _print_table(results)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=1))
    shutil.rmtree(logdir, ignore_errors=True)
    return 0


def _start_py_spy(server: StreamlitServer, out_dir: Path, page: str) -> subprocess.Popen:
    """py-spy on the server while one page is measured (its page load is not in it)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    spy = subprocess.Popen(
        ["py-spy", "record", "--pid", str(server.proc.pid), "--format", "raw", "--full-filenames",
         "--threads", "--nonblocking", "--rate", "250", "-o", str(out_dir / f"{page}.txt")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # attached before the first move
    return spy


def _stop_py_spy(spy: subprocess.Popen) -> None:
    spy.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
    try:
        spy.wait(30)
    except subprocess.TimeoutExpired:
        spy.kill()
        spy.wait(5)


def _print_table(results: dict) -> None:
    b = results["bare"]
    if b["median_ms"] is not None:
        print(f"\nbare one-slider page (bench/bare.py), moved after every page move: median "
              f"{b['median_ms']:.0f} ms (quartiles {b['p25_ms']:.0f}-{b['p75_ms']:.0f}), "
              f"{b['kb_per_move']:.1f} KB, server CPU {b['server_cpu_ms']:.1f} ms, "
              f"browser main thread {b['browser_ms']:.1f} ms CPU per move")
    ch = results.get("chart")
    if ch and ch["median_ms"] is not None and b["median_ms"] is not None:
        print(f"bare page + one plotly chart (bench/bare_chart.py), moved after every page move too: "
              f"median {ch['median_ms']:.0f} ms (quartiles {ch['p25_ms']:.0f}-{ch['p75_ms']:.0f}), "
              f"{ch['median_ms'] / b['median_ms']:.1f}x the bare page, {ch['kb_per_move']:.1f} KB, "
              f"server CPU {ch['server_cpu_ms']:.1f} ms, browser main thread {ch['browser_ms']:.1f} ms "
              "CPU per move")
    print(f"load average before {results['load_before'][0]:.1f}, after {results['load_after'][0]:.1f} "
          f"({os.cpu_count()} cores); app from {results['app']}")
    cols = [("page", 14), ("median ms", 9), ("ratio to bare", 13), ("KB per move", 11),
            (f"goal <= {GOAL:g}x", 11), ("bare ms", 7), ("on wire ms", 10), ("server CPU", 10),
            ("browser ms", 10)]
    print("\n" + " | ".join(f"{c:>{w}s}" if i else f"{c:{w}s}" for i, (c, w) in enumerate(cols)) + " | notes")
    print("-|-".join("-" * w for _, w in cols) + "-|------")

    def row(label: str, r: dict, peer: float, notes: list[str]) -> float:
        ratio = r["median_ms"] / peer
        cells = [f"{r['median_ms']:9.0f}", f"{ratio:12.1f}x", f"{r['kb_per_move']:11.1f}",
                 f"{'yes' if ratio <= GOAL else 'no':>11s}", f"{peer:7.0f}", f"{r['server_ms']:10.0f}",
                 f"{r['server_cpu_ms']:10.0f}", f"{r['browser_ms']:10.0f}"]
        print(f"{label:14s} | " + " | ".join(cells) + " | " + "; ".join(notes))
        return ratio

    if ch and ch["median_ms"] is not None and b["median_ms"] is not None:
        row("(bare+chart)", ch, b["median_ms"],
            [f"peer: bare page + one plotly chart (bench/bare_chart.py), {ch['n']} moves, bare ms over all"])
    for path, r in results["pages"].items():
        if r.get("median_ms") is None:
            note = r.get("error") or r.get("skipped") or ("busy" if r.get("busy") else "no move measured")
            print(f"/{path:13s} | " + " | ".join(f"{'-':>{w}s}" for _, w in cols[1:]) + f" | {note}")
            continue
        peer = r["bare"]["median_ms"] or b["median_ms"]
        per = ", ".join(map(str, r["per_slider"]))
        notes = [f"{r['n']} moves on {r['sliders']} sliders (medians {per} ms)"]
        if r["extra_runs"]:
            notes.append(f"{r['extra_runs']} extra runs")
        if r["failed"]:
            reasons = sorted(set(r.get("failures", [])))
            notes.append(f"{r['failed']} moves dropped ({'; '.join(reasons)})")
        if r.get("busy"):
            notes.append("stopped: page kept sending")
        if r.get("truncated"):
            notes.append("budget ran out")
        r["ratio"] = row(f"/{path}", r, peer, notes)
    for path, r in results["pages"].items():
        if r.get("js_profile_ms_per_move"):
            print(f"/{path} browser JS, ms per move: "
                  + ", ".join(f"{k} {v}" for k, v in r["js_profile_ms_per_move"].items()))
    print(f"\n({results['seconds']:.0f} s) median ms: keydown to the script_finished message of the run it "
          "started, both on the page's clock\n(so it includes time the page's main thread spent drawing "
          "earlier messages). ratio: to the bare page's median\nover the moves made right after this "
          "page's. on wire ms: the run's first message to its script_finished as\nthe browser's network "
          "layer got them (about the server's run). server CPU: ms of CPU of the app's process\nper move "
          "(mean; all threads). browser ms: CPU of the page's main thread per move, drawing included.\n"
          "The last two are costs, barely moved by a busy machine; the first ones are waits, which are.")


if __name__ == "__main__":
    sys.exit(main())
