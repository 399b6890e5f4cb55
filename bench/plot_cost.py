"""The browser's CPU to draw one live trainer figure, as Streamlit does on every changed tick.

Builds the live boundary figure of the default /trainer (checkerboard, 400 points) with the
pages/trainer/charts.py of one or more checkouts (--app, this one by default), writes each as Streamlit
would send it (plotly.io.to_json), and in Debian's Chromium draws it --repeat times with the
plotly.js that ships with the plotly package (Plotly.newPlot into a fresh 380 x 450 div each time:
Streamlit remounts a chart whose figure changed). Prints, per checkout, the spec's size and the
page main thread's CPU per draw (CDP ThreadTime, which a busy machine barely moves).

    python bench/plot_cost.py
    git archive <commit> | tar -x -C /tmp/old && python bench/plot_cost.py --app /tmp/old --app .
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

BUILD = r"""
import sys, numpy as np, plotly.io as pio
sys.path.insert(0, sys.argv[1])
import streamlit.elements.plotly_chart  # noqa: F401  (Streamlit's plotly template, as the app sends it)
from types import SimpleNamespace
from lib.datasets import make_dataset
from lib.maps import RES
from pages.trainer import charts as tc
X, y = make_dataset("checkerboard", 400, 0.0, 0)
lim = float(np.abs(X).max()) * 1.05
d = SimpleNamespace(Xtr=X[:320], ytr=y[:320], Xte=X[320:], yte=y[320:], limit=lim)
xs = np.linspace(-lim, lim, RES)
gx, gy = np.meshgrid(xs, xs)
P = 1 / (1 + np.exp(-4 * np.sin(gx) * np.sin(gy)))   # a smooth two-class picture, saturated in places
fig = tc.boundary_figure(xs, xs, P, d, title="1 hidden layer of 8 · ReLU", live=True, height=450)
sys.stdout.write(pio.to_json(fig, validate=False))
"""

PAGE = """<!doctype html><html><head><meta charset="utf-8"><script>{js}</script></head>
<body style="margin:0"><div id="host" style="width:380px;height:450px"></div></body></html>"""

DRAW = """async ([spec, repeat]) => {
    const fig = JSON.parse(spec);
    const host = document.getElementById('host');
    for (let i = 0; i < repeat; i++) {
        const div = document.createElement('div');
        div.style.width = '380px'; div.style.height = '450px';
        host.replaceChildren(div);
        await Plotly.newPlot(div, JSON.parse(spec).data, fig.layout, {displayModeBar: false});
        await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return true;
}"""


def spec_of(app: Path) -> str:
    return subprocess.run([sys.executable, "-c", BUILD, str(app)], check=True, capture_output=True,
                          text=True, cwd=app).stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--app", action="append", default=[], help="a checkout (default: this one)")
    ap.add_argument("--repeat", type=int, default=40, help="draws per figure")
    args = ap.parse_args()
    apps = [Path(a).resolve() for a in args.app] or [ROOT]
    import plotly
    from playwright.sync_api import sync_playwright

    js = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text()
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "draw.html"
        html.write_text(PAGE.format(js=js))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"),
                                         args=ARGS)
            page = browser.new_page(viewport={"width": 800, "height": 600})
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            page.goto(html.as_uri())

            def cpu() -> float:
                m = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
                return 1000 * m.get("ThreadTime", 0.0)

            for app in apps:
                spec = spec_of(app)
                page.evaluate(DRAW, [spec, 5])  # warm-up
                c0 = cpu()
                page.evaluate(DRAW, [spec, args.repeat])
                per = (cpu() - c0) / args.repeat
                print(f"{app}: spec {len(spec) / 1000:.1f} KB, {per:.1f} ms CPU per draw "
                      f"(plotly.js {plotly.__version__}'s bundle; load {os.getloadavg()[0]:.2f})")
            browser.close()


if __name__ == "__main__":
    main()
