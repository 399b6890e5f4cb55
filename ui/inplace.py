"""Charts that change in place: a plotly figure redrawn with Plotly.react in the chart already on the
page, not a new chart mounted for every change.

Why. In Streamlit 1.67 `st.plotly_chart`'s element id hashes the figure, so every changed figure is a
new element: the browser unmounts the old chart and mounts a new one (Plotly.newPlot plus Streamlit's
wrapper), 50-65 ms of the page's main thread per chart whatever its size, which is most of what a
slider move costs a lesson page in the browser (docs/PROFILE.md). With a stable id (`key=`) the 1.67
frontend keeps showing the first figure (upstream's fix, streamlit/streamlit#16052, is not released).
A Streamlit custom component (`st.components.v2`, no iframe, no build step) keyed by the chart's key
keeps its element across reruns and hands each new figure to the same JavaScript function, which calls
`Plotly.react` on the plot it drew before: only what changed is redrawn. A one-chart page measured with
bench/latency.py: 125 -> 64-81 ms of browser main thread a move, 2.4-2.9x -> 1.5-1.6x the bare page.

What it needs. plotly.js itself: the copy the installed `plotly` package ships (the same version its
figures are written for) is copied once into `static/` beside app.py and served by Streamlit's static
file serving (`server.enableStaticServing`, on in .streamlit/config.toml), so it is fetched once per
browser and cached. If that file cannot be written, or the page is not app.py's (AppTest of a page file
on its own), `available()` is False and ui.charts.show falls back to `st.plotly_chart`.

The look. The figures carry Streamlit's plotly template, whose colours are placeholders
(`#000001`...) that `st.plotly_chart`'s page swaps for the theme's; the JavaScript below does the same
from the theme's CSS variables (`--st-text-color`, `--st-chart-categorical-colors`, ...), so a chart
reads the same in light and dark mode, and follows a theme change.

Tests read a drawn figure with `spec(element_proto)` (AppTest shows the component as `bidi_component`).
"""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import plotly
import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"
PLOTLY_JS = STATIC / "plotly.min.js"
NAME = "layerlab_chart"

_JS = r"""
const SRC = './app/static/plotly.min.js?v=__VERSION__';

function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__layerLabPlotly) {
    window.__layerLabPlotly = new Promise((ok, bad) => {
      const s = document.createElement('script');
      s.src = SRC; s.async = true;
      s.onload = () => ok(window.Plotly);
      s.onerror = () => { window.__layerLabPlotly = null; bad(new Error('plotly.js did not load')); };
      document.head.appendChild(s);
    });
  }
  return window.__layerLabPlotly;
}

function theme(el) {
  const cs = getComputedStyle(el);
  const v = (n, d) => (cs.getPropertyValue(n) || '').trim() || d;
  const list = (n) => v(n, '').split(',').map((c) => c.trim()).filter(Boolean);
  const text = v('--st-text-color', '#31333F');
  return {
    text, heading: v('--st-heading-color', text), gray: v('--st-gray-text-color', text),
    bg: v('--st-background-color', '#ffffff'), bg2: v('--st-secondary-background-color', '#f0f2f6'),
    grid: v('--st-border-color-light', 'rgba(49, 51, 63, 0.1)'),
    line: v('--st-border-color', 'rgba(49, 51, 63, 0.2)'),
    font: v('--st-font', '"Source Sans", sans-serif'),
    green: v('--st-green-color', '#21c354'), red: v('--st-red-color', '#ff2b2b'),
    blue: v('--st-blue-color', '#1c83e1'),
    cat: list('--st-chart-categorical-colors'), seq: list('--st-chart-sequential-colors'),
    div: list('--st-chart-diverging-colors'),
  };
}

// Streamlit's plotly template writes placeholder colours #000001-#000040; swap in the theme's.
function recolor(json, t) {
  const fixed = {32: t.green, 33: t.red, 34: t.blue, 35: t.grid, 36: t.gray, 37: t.text, 38: t.bg,
                 39: t.grid, 40: t.bg2};
  return json.replace(/#0000([0-4][0-9])/g, (m, d) => {
    const i = Number(d);
    if (fixed[i]) return fixed[i];
    const pick = (arr, j) => (arr.length ? arr[Math.min(j, arr.length - 1)] : m);
    if (i >= 1 && i <= 10) return pick(t.cat, i - 1);
    if (i >= 11 && i <= 20) return pick(t.seq, i - 11);
    if (i >= 21 && i <= 31) return pick(t.div, i - 21);
    return m;
  }).replaceAll('"Source Sans Pro", sans-serif', t.font.replaceAll('"', '\\"'));
}

function deepDefaults(target, defaults) {
  for (const [k, d] of Object.entries(defaults)) {
    const have = target[k];
    if (d && typeof d === 'object' && !Array.isArray(d)) {
      if (!have || typeof have !== 'object') target[k] = {};
      deepDefaults(target[k], d);
    } else if (have === undefined) {
      target[k] = d;
    }
  }
  return target;
}

// What st.plotly_chart's page adds to every figure's layout (its theme), under what the figure says.
function themed(fig, t) {
  const layout = fig.layout || (fig.layout = {});
  const axis = (x) => ({
    gridcolor: t.grid, zerolinecolor: t.grid, tickcolor: t.grid, linecolor: t.line,
    tickfont: {color: t.gray, size: 12}, title: {font: {color: t.gray, size: 14}},
    automargin: true, ...(x ? {showgrid: false, zeroline: false} : {}),
  });
  const base = {
    font: {color: t.gray, family: t.font, size: 12},
    title: {font: {family: t.font, size: 16, color: t.heading}, x: 0, xanchor: 'left'},
    legend: {font: {size: 12, color: t.text}, title: {font: {size: 12, color: t.gray}},
             bordercolor: 'rgba(0,0,0,0)'},
    paper_bgcolor: t.bg, plot_bgcolor: t.bg,
    hoverlabel: {bgcolor: t.bg, bordercolor: t.line, font: {color: t.text, family: t.font, size: 12}},
  };
  for (const k of Object.keys(layout)) {
    if (/^xaxis\d*$/.test(k)) deepDefaults(layout[k], axis(true));
    if (/^yaxis\d*$/.test(k)) deepDefaults(layout[k], axis(false));
  }
  if (!Object.keys(layout).some((k) => /^xaxis\d*$/.test(k))) layout.xaxis = axis(true);
  if (!Object.keys(layout).some((k) => /^yaxis\d*$/.test(k))) layout.yaxis = axis(false);
  if (typeof layout.title === 'string') layout.title = {text: layout.title};
  if (layout.title && layout.title.text && !String(layout.title.text).startsWith('<b>')) {
    layout.title.text = '<b>' + layout.title.text + '</b>';
  }
  deepDefaults(layout, base);
  return fig;
}

export default function (component) {
  const { data, parentElement } = component;
  if (!data) return;
  let div = parentElement.querySelector('div.layerlab-chart');
  if (!div) {
    div = document.createElement('div');
    div.className = 'layerlab-chart';
    parentElement.appendChild(div);
  }
  const sent = typeof data === 'string' ? data : JSON.stringify(data);
  const t = theme(parentElement);
  const look = JSON.stringify(t);
  if (div.__sent === sent && div.__look === look) return;  // the same figure in the same theme
  div.__sent = sent;
  div.__look = look;
  div.dataset.pending = '1';  // until this figure is on screen (the browser tests wait for it)
  const { fig, config } = JSON.parse(recolor(sent, t));
  themed(fig, t);
  loadPlotly().then((Plotly) => {
    if (div.__sent !== sent) return;  // a newer figure came while plotly.js loaded
    const first = !div.__drawn;
    div.__drawn = true;
    return Plotly.react(div, fig.data || [], fig.layout, {responsive: true, ...config}).then(() => {
      if (div.__sent === sent) delete div.dataset.pending;
      if (!first) return;
      if (window.ResizeObserver) {
        // Only a new width redraws (a sidebar opened, a phone turned): a page's reruns change heights
        // around the chart, and a redraw of every chart for each would cost more than the change.
        let width = div.clientWidth;
        const ro = new ResizeObserver(() => {
          const w = div.clientWidth;
          if (!div.isConnected || !w || Math.abs(w - width) < 1) return;
          width = w;
          Plotly.Plots.resize(div);
        });
        ro.observe(parentElement instanceof Element ? parentElement : div);
        div.__ro = ro;
      }
    });
  }).catch((err) => {
    delete div.dataset.pending;
    div.textContent = 'This chart could not be drawn: ' + err.message + '. Reload the page to try again.';
  });
  return () => { if (div.__ro) div.__ro.disconnect(); };
}
"""

_CSS = """
div.layerlab-chart { width: 100%; }
"""


@cache
def _component():
    js = _JS.replace("__VERSION__", plotly.__version__)
    return st.components.v2.component(NAME, js=js, css=_CSS, isolate_styles=False)


def _source() -> Path:
    return Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


@cache
def available() -> bool:
    """plotly.js is in static/ (copied from the installed plotly package once) and static serving is on."""
    if not st.get_option("server.enableStaticServing"):
        return False
    src = _source()
    try:
        if not PLOTLY_JS.exists() or PLOTLY_JS.stat().st_size != src.stat().st_size:
            STATIC.mkdir(exist_ok=True)
            tmp = PLOTLY_JS.with_suffix(".tmp")
            shutil.copyfile(src, tmp)
            tmp.replace(PLOTLY_JS)
    except OSError:
        return False
    return True


def draw(spec_json: str, *, key: str, height: int, config: dict) -> None:
    """Mount (or update in place) the chart `key` with a figure given as plotly's JSON. Display only:
    a chart that takes clicks (point picking) goes through st.plotly_chart (ui.charts.show)."""
    payload = '{"fig": ' + spec_json + ', "config": ' + json.dumps(config) + "}"
    _component()(key=key, data=payload, height=height)


def spec(proto) -> dict:
    """The figure a drawn chart holds (a BidiComponent proto from AppTest): plotly's dict."""
    data = json.loads(proto.json)
    if isinstance(data, str):
        data = json.loads(data)
    return data["fig"]
