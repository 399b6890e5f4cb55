"""Where a page's rerun time goes: AppTest reruns after a slider move, sampled, in one process.

    python bench/profile_pages.py                      # every lesson, 3 sliders x 6 moves each
    python bench/profile_pages.py --pages trainer --moves 10 --top 15
    python bench/profile_pages.py --figures            # only the plotly construction comparison
    python bench/profile_pages.py --json out.json

Two parts.

1. Pages. Each lesson (ui.nav.LESSONS) is opened through app.py in AppTest, warmed up, then up
   to three of its sliders (spread over the page) are moved one step back and forth. While a
   rerun runs, a sampler thread reads the script thread's stack every ~0.5 ms and files the
   sample under the first matching bucket (see BUCKETS): plotly serialisation, the copy and
   re-validation st.plotly_chart does, figure building (go.Figure, add_trace, update_*),
   lib maths, other st element marshalling, st.cache_data, page/ui code, and the rest of
   Streamlit's runtime. It prints the median rerun time (CPU time of the script thread, so a
   neighbour on this shared machine does not count) and the share of each bucket, plus every
   chart's time inside st.plotly_chart and its spec size.

   AppTest reruns the whole script even for a widget inside an st.fragment, so for pages
   built of fragments these numbers are the cost of a full rerun, not of one section: the
   browser benchmark (bench/latency.py) measures what a student waits for.

2. Figures (--figures, also run after the pages). The same line chart and matrix chart built
   four ways, and what st.plotly_chart then spends on each: the house builder (go.Figure()
   then add_trace / update_layout / update_xaxes), one go.Figure(dict) (validated once), a
   plain dict handed to st.plotly_chart, and go.Figure(dict, _validate=False).
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The checkout whose app is profiled (--app; this one by default): its lib/, ui/ and pages/.
if "--app" in sys.argv[:-1]:
    ROOT = Path(sys.argv[sys.argv.index("--app") + 1]).resolve()
sys.path.insert(0, str(ROOT))

# (name, test on the stack's file names), first match wins. Stacks are innermost first.
LIB = str(ROOT / "lib") + "/"
PAGES = (str(ROOT / "pages") + "/", str(ROOT / "ui") + "/", str(ROOT / "classroom") + "/",
         str(ROOT / "app.py"))


def _has(files, *parts):
    return any(p in f for f in files for p in parts)


BUCKETS = [
    ("plotly to_json (serialise)", lambda fs: _has(fs, "plotly/io/_json.py")),
    ("st.plotly_chart copy/validate", lambda fs: _has(fs, "streamlit/elements/plotly_chart.py")),
    ("figure building (go.Figure, update_*)", lambda fs: _has(fs, "/plotly/", "/_plotly_utils/")),
    ("lib maths", lambda fs: any(f.startswith(LIB) for f in fs)),
    ("st.cache_data / cache_resource", lambda fs: _has(fs, "streamlit/runtime/caching/")),
    ("st elements (other) marshalling", lambda fs: _has(fs, "streamlit/elements/",
                                                          "streamlit/delta_generator", "pyarrow")),
    ("page/ui code (incl. numpy, pandas)", lambda fs: any(f.startswith(PAGES) for f in fs[:6])),
    ("streamlit runtime (runner, widgets, state)", lambda fs: True),
]


class Sampler:
    """Samples the stacks of every thread that is running a page script."""

    def __init__(self, interval: float = 0.0005):
        self.interval = interval
        self.counts: Counter[str] = Counter()
        self.funcs: Counter[str] = Counter()  # innermost frame in our code or a library
        # for plotly samples: the innermost function of ours that called plotly (the builder)
        self.builders: Counter[str] = Counter()
        self.active = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join()

    def _run(self):
        me = threading.get_ident()
        main = threading.main_thread().ident
        while not self._stop.is_set():
            if self.active:
                for tid, frame in sys._current_frames().items():
                    if tid in (me, main):
                        continue
                    files, names, lines = [], [], []
                    f = frame
                    while f is not None:
                        files.append(f.f_code.co_filename)
                        names.append(f.f_code.co_name)
                        lines.append(f.f_lineno)
                        f = f.f_back
                    if not any(x.startswith(PAGES) for x in files):
                        continue  # not a script thread (or idle between runs)
                    for name, test in BUCKETS:
                        if test(files):
                            self.counts[name] += 1
                            break
                    if name.startswith(("figure", "st.plotly", "plotly")):
                        for fn, nm, line in zip(files, names, lines, strict=True):
                            if fn.startswith(PAGES):
                                where = nm if nm != "<module>" else f"line {line}"
                                self.builders[f"{_short(fn)}:{where}"] += 1
                                break
                    self.funcs[f"{_short(files[0])}:{names[0]}"] += 1
            time.sleep(self.interval)


def _short(path: str) -> str:
    for marker in ("site-packages/", str(ROOT) + "/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


class ChartTimer:
    """Wraps st.plotly_chart (module function and container method): CPU time per chart."""

    def __init__(self):
        import streamlit as st
        from streamlit.delta_generator import DeltaGenerator

        self.calls: list[float] = []
        self._orig_method, self._orig_st = DeltaGenerator.plotly_chart, st.plotly_chart
        timer = self

        def timed(call):
            def plotly_chart(*args, **kwargs):
                t0 = time.thread_time()
                try:
                    return call(*args, **kwargs)
                finally:
                    timer.calls.append(time.thread_time() - t0)
            return plotly_chart

        DeltaGenerator.plotly_chart = timed(self._orig_method)
        st.plotly_chart = timed(self._orig_st)  # bound to the main container at import time

    def restore(self):
        import streamlit as st
        from streamlit.delta_generator import DeltaGenerator

        DeltaGenerator.plotly_chart, st.plotly_chart = self._orig_method, self._orig_st


def _open(url_path: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page(f"pages/{url_path}.py").run()
    return at


def _pick_sliders(at, k: int = 3):
    """Up to k plain sliders spread over the page (first, middle, last): their keys."""
    found = [w.key for w in at.slider
             if w.key is not None and not isinstance(w.value, (tuple, list)) and not w.disabled]
    if len(found) <= k:
        return found
    step = (len(found) - 1) / (k - 1)
    return [found[round(i * step)] for i in range(k)]


def _spread(n: int, k: int) -> set[int]:
    return set(range(n)) if n <= k else {round(i * (n - 1) / (k - 1)) for i in range(k)}


def _next_value(w, direction: int):
    """One step along the slider, turning back at its ends."""
    lo, hi, step = w.min, w.max, w.step or 1
    v = w.value + direction * step
    if v > hi or v < lo:
        v = w.value - direction * step
    return round(v, 10) if isinstance(w.value, float) else type(w.value)(v)


def _snapshot(at) -> tuple[list[bytes], list[str]]:
    """Every element's proto bytes (document order) and every chart's spec."""
    elements = [node.proto.SerializeToString(deterministic=True)
                for node in at.main if getattr(node, "proto", None) is not None]
    return elements, [el.proto.spec for el in at.get("plotly_chart")]


def _chart_name(spec: str, i: int) -> str:
    layout = json.loads(spec).get("layout", {})
    title = layout.get("title", {})
    text = title.get("text") if isinstance(title, dict) else title
    return f"#{i + 1}" + (f" '{text[:30]}'" if text else "")


def _changes(before, after) -> dict:
    (e0, c0), (e1, c1) = before, after
    same = sum(1 for a, b in zip(e0, e1, strict=False) if a == b)
    changed = [i for i, (a, b) in enumerate(zip(c0, c1, strict=False)) if a != b]
    return {"elements": len(e1), "elements_changed": len(e1) - same,
            "charts": len(c1), "charts_changed": [_chart_name(c1[i], i) for i in changed]}


def profile_page(url_path: str, moves: int, sampler: Sampler, charts: ChartTimer,
                 all_sliders: bool = False) -> dict:
    at = _open(url_path)
    if at.exception:
        return {"page": url_path, "error": [e.value for e in at.exception][:1]}
    picked = _pick_sliders(at, k=1000 if all_sliders else 3)
    run_times, n_charts, chart_time = [], [], []
    base = sampler.counts.copy()
    base_funcs, base_builders = sampler.funcs.copy(), sampler.builders.copy()
    changes = {}
    for n_slider, key in enumerate(picked):
        # with --all-sliders: every slider is moved twice to see what it changes; three are timed
        timed = not all_sliders or n_slider in _spread(len(picked), 3)
        for i in range(moves + 1 if timed else 2):
            w = at.slider(key=key)
            w.set_value(_next_value(w, 1 if i % 2 == 0 else -1))
            if i == 1:
                snap = _snapshot(at)
            charts.calls.clear()
            sampler.active = i > 0 and timed  # the first move is a warm-up
            t0 = time.perf_counter()
            at.run()
            wall = time.perf_counter() - t0
            sampler.active = False
            if i == 1:
                changes[key] = _changes(snap, _snapshot(at))
            if i > 0 and timed:
                run_times.append(wall)
                n_charts.append(len(charts.calls))
                chart_time.append(sum(charts.calls))
    counts = sampler.counts - base
    funcs, builders = sampler.funcs - base_funcs, sampler.builders - base_builders
    total = sum(counts.values()) or 1
    spec_json = [el.proto.spec for el in at.get("plotly_chart")]
    specs = [len(j) for j in spec_json]
    rerun_ms = 1000 * statistics.median(run_times) if run_times else 0.0
    return {
        "page": url_path,
        "sliders": picked,
        "median_rerun_ms": 1000 * statistics.median(run_times) if run_times else None,
        "charts": statistics.median(n_charts) if n_charts else 0,
        "median_ms_in_plotly_chart": 1000 * statistics.median(chart_time) if chart_time else 0,
        "spec_kb": round(sum(specs) / 1024, 1),
        "elements": len(list(at.main)) if hasattr(at, "main") else None,
        "changed_by_slider": changes,
        "buckets": {name: round(100 * counts[name] / total, 1) for name, _ in BUCKETS},
        "top_functions": [(f, round(100 * n / total, 1)) for f, n in funcs.most_common(12)],
        # estimated ms per rerun spent in plotly (building, copying, serialising) per builder of ours
        "builders_ms": [(f, round(rerun_ms * n / total, 1)) for f, n in builders.most_common(10)],
        "same_figures_from_dicts_ms": _dict_path_ms(spec_json),
        "samples": total,
    }


# ---------------------------------------------------------------- figure construction paths

def _dict_path_ms(spec_json: list[str]) -> dict:
    """The page's own figures (as sent) rebuilt from plain dicts: what they would cost per rerun.

    Each spec minus Streamlit's template (applied again by go.Figure, as today) is built as
    go.Figure(dict) and handed to st.plotly_chart; also with _validate=False; also as a dict.
    """
    import plotly.graph_objects as go
    import streamlit as st

    _quiet_streamlit()
    dicts = []
    for j in spec_json:
        d = json.loads(j)
        d.get("layout", {}).pop("template", None)
        dicts.append(d)

    def run(make):
        def all_figures():
            for d in dicts:
                st.plotly_chart(make(d))
        return round(_median_ms(all_figures, n=9), 1)

    return {"go.Figure(dict) + st.plotly_chart": run(go.Figure),
            "go.Figure(dict, _validate=False) + st.plotly_chart":
                run(lambda d: go.Figure(d, _validate=False)),
            "dict to st.plotly_chart": run(lambda d: d)}


def _median_ms(fn, n: int = 40) -> float:
    times = []
    for _ in range(n):
        t0 = time.thread_time()
        fn()
        times.append(time.thread_time() - t0)
    return 1000 * statistics.median(times)


def _quiet_streamlit() -> None:
    """No "missing ScriptRunContext" warnings for st calls made outside a run."""
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("streamlit"):
            logging.getLogger(name).setLevel(logging.ERROR)


def figure_paths() -> list[dict]:
    """The same two charts built four ways; build time, st.plotly_chart time, spec bytes."""
    import numpy as np
    import plotly.graph_objects as go
    import plotly.io as pio
    import streamlit as st

    from ui import charts

    x = np.linspace(-4, 4, 401)
    series = {"relu": np.maximum(x, 0), "gelu": 0.5 * x * (1 + np.tanh(x)), "silu": x / (1 + np.exp(-x))}
    M = np.random.default_rng(0).normal(size=(3, 4))
    house_layout = {
        "height": 360, "margin": {"l": 10, "r": 10, "t": 40, "b": 10}, "hovermode": "closest",
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "left", "x": 0.0},
    }

    def line_dict():
        return {"data": [{"type": "scatter", "x": x, "y": y, "name": n, "mode": "lines",
                          "line": {"color": charts.SERIES[i], "width": 2.5},
                          "hovertemplate": f"{n}<br>x = %{{x:.3g}}<br>y = %{{y:.4g}}<extra></extra>"}
                         for i, (n, y) in enumerate(series.items())],
                "layout": {**house_layout, "title": {"text": "bends"},
                           "xaxis": {"title": {"text": "x"}, "zeroline": True},
                           "yaxis": {"title": {"text": "y"}, "zeroline": True}}}

    def matrix_dict():
        lim = float(np.abs(M).max())
        return {"data": [{"type": "heatmap", "z": M, "x": ["1", "2", "3", "4"], "y": ["1", "2", "3"],
                          "colorscale": charts.DIVERGING, "zmid": 0.0, "zmin": -lim, "zmax": lim,
                          "showscale": False, "texttemplate": "%{z:.2f}", "xgap": 2, "ygap": 2,
                          "hovertemplate": "row %{y}, column %{x}: %{z:.4g}<extra></extra>"}],
                "layout": {**house_layout, "height": 162, "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
                           "xaxis": {"side": "top", "zeroline": False, "showgrid": False},
                           "yaxis": {"autorange": "reversed", "zeroline": False, "showgrid": False}}}

    cases = [
        ("line: 3 series x 401 points",
         lambda: charts.line_figure(x, series, title="bends", x_title="x", y_title="y"), line_dict),
        ("matrix: 3 x 4 heatmap", lambda: charts.matrix_figure(M), matrix_dict),
    ]
    st.plotly_chart(charts.matrix_figure(M))  # creates the loggers that warn outside a run
    _quiet_streamlit()
    out = []
    for name, house, as_dict in cases:
        fig_house, d = house(), as_dict()
        fig_once, fig_raw = go.Figure(as_dict()), go.Figure(as_dict(), _validate=False)
        paths = {
            "house: go.Figure() + add_trace + update_*": (house, lambda f=fig_house: st.plotly_chart(f)),
            "go.Figure(dict) (validated once)": (lambda a=as_dict: go.Figure(a()),
                                                 lambda f=fig_once: st.plotly_chart(f)),
            "plain dict to st.plotly_chart": (as_dict, lambda d=d: st.plotly_chart(d)),
            "go.Figure(dict, _validate=False)": (lambda a=as_dict: go.Figure(a(), _validate=False),
                                                 lambda f=fig_raw: st.plotly_chart(f)),
        }
        rows = []
        for label, (build, draw) in paths.items():
            b, c = _median_ms(build), _median_ms(draw)
            rows.append({"path": label, "build_ms": round(b, 2), "plotly_chart_ms": round(c, 2),
                         "total_ms": round(b + c, 2)})
        out.append({"chart": name, "rows": rows,
                    "spec_bytes": len(pio.to_json(fig_house, validate=False)),
                    "template_bytes": len(pio.json.to_json_plotly(
                        fig_house.layout.template.to_plotly_json())),
                    "to_json_ms": round(_median_ms(lambda f=fig_house: pio.to_json(f.to_dict(),
                                                                                    validate=False)), 2)})
    return out


def _print_figures(results: list[dict]) -> None:
    print("\nThe same chart built four ways (median ms of CPU time; st.plotly_chart outside a run)")
    for r in results:
        print(f"\n{r['chart']}: spec {r['spec_bytes'] / 1024:.1f} KB, of which Streamlit's plotly "
              f"template {r['template_bytes'] / 1024:.1f} KB; to_json alone {r['to_json_ms']:.2f} ms")
        print(f"  {'path':44s} {'build':>7s} {'plotly_chart':>13s} {'total':>7s}")
        for row in r["rows"]:
            print(f"  {row['path']:44s} {row['build_ms']:7.2f} {row['plotly_chart_ms']:13.2f} "
                  f"{row['total_ms']:7.2f}")


def main() -> int:
    from ui.nav import LESSONS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", help="comma separated URL paths (default: every lesson)")
    ap.add_argument("--moves", type=int, default=6, help="moves per slider after a warm-up")
    ap.add_argument("--top", type=int, default=8, help="innermost functions to list per page")
    ap.add_argument("--all-sliders", action="store_true",
                    help="also move every slider once to list what each one changes")
    ap.add_argument("--figures", action="store_true", help="only the figure construction comparison")
    ap.add_argument("--py-spy", type=Path, metavar="DIR",
                    help="instead of AppTest, read the server profiles bench/latency.py --py-spy DIR wrote")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--app", help="profile the app in this checkout, e.g. an older commit unpacked with "
                                  "`git archive <commit> | tar -x -C DIR` (default: this one)")
    args = ap.parse_args()
    print(f"app from {ROOT}")

    _quiet_streamlit()
    sys.setswitchinterval(0.0005)  # let the sampler in often while the script thread holds the GIL

    results: dict = {"pages": [], "figures": []}
    if args.py_spy:
        results["py_spy"] = [read_py_spy(f) for f in sorted(args.py_spy.glob("*.txt"))]
        for r in results["py_spy"]:
            _print_py_spy(r, args.top)
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=1))
        return 0
    if not args.figures:
        paths = args.pages.split(",") if args.pages else [lesson.url_path for lesson in LESSONS]
        sampler, charts = Sampler(), ChartTimer()
        sampler.start()
        try:
            for path in paths:
                r = profile_page(path.strip("/"), args.moves, sampler, charts, args.all_sliders)
                results["pages"].append(r)
                _print_page(r, args.top)
        finally:
            sampler.stop()
            charts.restore()
    results["figures"] = figure_paths()
    _print_figures(results["figures"])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


def read_py_spy(path: Path) -> dict:
    """A py-spy raw profile of the server (bench/latency.py --py-spy): the same buckets, per thread kind.

    Lines are `thread (id);outermost (file:line);...;innermost (file:line) count`. Stacks
    holding Streamlit's script runner are the script thread; the rest is the event loop that
    sends messages (and any other thread), shown by innermost frame.
    """
    import re

    frame_re = re.compile(r"^(.*) \((.*):(\d+)\)$")
    kinds: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    builders: Counter[str] = Counter()
    loop_funcs: Counter[str] = Counter()
    script_funcs: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, n_text = line.rpartition(" ")
        if not n_text.isdigit():
            continue
        n = int(n_text)
        parsed = []
        for fr in reversed(stack.split(";")[1:]):  # innermost first
            m = frame_re.match(fr)
            parsed.append((m[2], m[1], m[3]) if m else (fr, fr, "0"))
        files = [f for f, _, _ in parsed]
        if parsed and _waiting(parsed[0]):
            continue  # py-spy --nonblocking reports some waits as work
        if not any("scriptrunner" in f for f in files):
            kinds["event loop / other threads"] += n
            if parsed:
                loop_funcs[f"{_short(parsed[0][0])}:{parsed[0][1]}"] += n
            continue
        kinds["script thread"] += n
        script_funcs[f"{_short(parsed[0][0])}:{parsed[0][1]}"] += n
        for name, test in BUCKETS:
            if test(files):
                counts[name] += n
                break
        if name.startswith(("figure", "st.plotly", "plotly")):
            for fn, nm, line_no in parsed:
                if fn.startswith(PAGES):
                    builders[f"{_short(fn)}:{nm if nm != '<module>' else 'line ' + line_no}"] += n
                    break
    total = sum(kinds.values()) or 1
    script = kinds["script thread"] or 1
    return {
        "page": path.stem, "samples": total,
        "threads": {k: round(100 * v / total, 1) for k, v in kinds.items()},
        "buckets": {name: round(100 * counts[name] / script, 1) for name, _ in BUCKETS},
        "builders": [(f, round(100 * v / script, 1)) for f, v in builders.most_common(10)],
        "event_loop_top": [(f, round(100 * v / total, 1)) for f, v in loop_funcs.most_common(6)],
        "script_top": [(f, round(100 * v / script, 1)) for f, v in script_funcs.most_common(10)],
    }


def _waiting(frame: tuple[str, str, str]) -> bool:
    """An innermost frame that is a thread waiting: epoll, a sleeping poller, an idle pool worker."""
    file, func, _ = frame
    return ((file.endswith("selectors.py") and func.endswith("select"))
            or ("polling_path_watcher.py" in file and func.endswith("task"))
            or (file.endswith("concurrent/futures/thread.py") and func == "_worker")
            or (file.endswith("threading.py") and func in ("wait", "Condition.wait", "Event.wait")))


def _print_py_spy(r: dict, top: int) -> None:
    print(f"\n/{r['page']} (py-spy of the server, {r['samples']} samples): "
          + ", ".join(f"{k} {v} %" for k, v in r["threads"].items()))
    print("  script thread:")
    for name, share in r["buckets"].items():
        if share:
            print(f"  {share:5.1f} %  {name}")
    print("  plotly work by the function of ours that called it (% of the script thread):")
    for f, share in r["builders"][:top]:
        print(f"  {share:5.1f} %  {f}")
    print("  script thread, innermost frames:")
    for f, share in r["script_top"][:top]:
        print(f"  {share:5.1f} %  {f}")
    print("  event loop / other threads, innermost frames (% of all samples):")
    for f, share in r["event_loop_top"]:
        print(f"  {share:5.1f} %  {f}")


def _print_page(r: dict, top: int) -> None:
    if "error" in r:
        print(f"\n/{r['page']}: exception {r['error']}")
        return
    print(f"\n/{r['page']}: full rerun {r['median_rerun_ms']:.0f} ms (AppTest wall, median), "
          f"{r['charts']:.0f} charts, {r['median_ms_in_plotly_chart']:.0f} ms inside st.plotly_chart, "
          f"specs {r['spec_kb']} KB; sliders {', '.join(r['sliders'])}; {r['samples']} samples")
    for name, share in r["buckets"].items():
        if share:
            print(f"  {share:5.1f} %  {name}")
    for key, c in r["changed_by_slider"].items():
        names = ", ".join(c["charts_changed"]) or "none"
        print(f"  moving '{key}' changes {c['elements_changed']} of {c['elements']} elements; "
              f"charts changed {len(c['charts_changed'])} of {c['charts']}: {names}")
    print("  ms per rerun in plotly, by the function of ours that called it:")
    for f, ms in r["builders_ms"][:top]:
        print(f"  {ms:6.1f} ms  {f}")
    print("  the same figures built from dicts (ms per rerun, CPU): " + ", ".join(
        f"{k} {v}" for k, v in r["same_figures_from_dicts_ms"].items()))
    print("  innermost frames:")
    for f, share in r["top_functions"][:top]:
        print(f"  {share:5.1f} %  {f}")


if __name__ == "__main__":
    sys.exit(main())
