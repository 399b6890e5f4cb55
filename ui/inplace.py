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

Sent once. Streamlit sends every element of a run again, unchanged or not (this app has the
forward-message cache off: its misses killed playing tabs, .streamlit/config.toml). A chart's figure
is hundreds of KB on /trainer (a data-slider move re-sent 670 KB, 490 KB of it figures the page
already showed). So each session keeps, per chart key, a digest of the figure its page holds; a run
whose figure has that digest sends `{"same": digest}` instead, and the JavaScript leaves the chart as
it is. If the page does not hold that figure (the chart was mounted afresh, or the message was lost
to a cancelled run), it says so with a trigger (`missing`), whose callback forgets the key, so the
rerun that trigger starts sends the figure whole: a wrong guess costs one rerun, never a wrong or
empty chart. (That rerun can be lost: a chart that got no figure asks again every 2 s, five times.)
A run of another page forgets everything (`new_page`, from app.py).

Painted, not replotted. A playing trainer's live maps change only their shading from one tick to
the next, and Plotly.react redoes every default, axis and trace for that (15-20 ms of the page's main
thread a map). When a figure differs from the one drawn only in the numbers of heatmaps that plotly
draws one pixel per cell (no smoothing, no gaps, fixed zmin/zmax, no hover), ui/inplace.js paints
those numbers into plotly's picture itself, with plotly's colour scale; a browser test checks the
painted picture against plotly's own drawing of the same figure, byte for byte. Anything else goes
through Plotly.react, and so does the next figure after a paint (plotly's numbers are then older
than the picture, so a new width redraws through Plotly.react too).

Tests read a drawn figure with `spec(element_proto)` (AppTest shows the component as `bidi_component`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path

import plotly
import streamlit as st

from ui import room

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"
PLOTLY_JS = STATIC / "plotly.min.js"
NAME = "layerlab_chart"
HELD = "layerlab_charts_held"   # session state: chart key -> digest of the figure its page holds
PAGE = "layerlab_charts_page"   # session state: the page those charts are on

_LOADER = r"""
// The chart's code is a static file (ui/inplace.js, served from static/): an element sends only this.
const CHART = new URL('./app/static/layerlab-chart.js?v=__DIGEST__', document.baseURI).href;
let chart = null;
export default function (component) {
  if (chart) return chart(component);
  let cleanup = null;
  let gone = false;
  import(CHART).then((m) => {
    chart = m.default;
    if (!gone) cleanup = chart(component);
  }).catch((err) => {
    component.parentElement.textContent = 'This chart could not be drawn: ' + err.message +
      '. Reload the page to try again.';
  });
  return () => { gone = true; if (typeof cleanup === 'function') cleanup(); };
}
"""

_CSS = """
div.layerlab-chart { width: 100%; }
"""


CHART_JS = STATIC / "layerlab-chart.js"
_CHART_SRC = Path(__file__).with_name("inplace.js")


@cache
def _chart_js() -> str:
    """The chart's code as served: ui/inplace.js for this plotly version."""
    return _CHART_SRC.read_text().replace("__VERSION__", plotly.__version__)


@cache
def _component():
    digest = hashlib.blake2b(_chart_js().encode(), digest_size=8).hexdigest()
    return st.components.v2.component(NAME, js=_LOADER.replace("__DIGEST__", digest), css=_CSS,
                                      isolate_styles=False)


def _source() -> Path:
    return Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


def _write(path: Path, content: bytes) -> None:
    """Write a static file whole (a browser never reads half of one)."""
    if path.exists() and path.read_bytes() == content:
        return
    STATIC.mkdir(exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(content)
    tmp.replace(path)


def serve(name: str, text: str) -> str | None:
    """A page's own JavaScript module as a static file (static/<name>), so an element sends a one-line
    loader instead of the code on every run: its address relative to the page, with the code's digest
    (a changed file is fetched afresh); None when static serving is off or the file cannot be written."""
    if not st.get_option("server.enableStaticServing"):
        return None
    try:
        _write(STATIC / name, text.encode())
    except OSError:
        return None
    return f"./app/static/{name}?v=" + hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


@cache
def available() -> bool:
    """plotly.js and the chart's code are in static/ (plotly.js copied from the installed plotly
    package once) and static serving is on."""
    if not st.get_option("server.enableStaticServing"):
        return False
    src = _source()
    try:
        _write(PLOTLY_JS, src.read_bytes())   # by content: another version's file can be as long
        _write(CHART_JS, _chart_js().encode())
    except OSError:
        return False
    return True


def draw(spec_json: str, *, key: str, height: int, config: dict, name: str | None = None) -> None:
    """Mount (or update in place) the chart `key` with a figure given as plotly's JSON. Display only:
    a chart that takes clicks (point picking) goes through st.plotly_chart (ui.charts.show).

    A figure this session's page already holds under `key` is not sent again: the chart gets a
    60-byte "same as before" instead (see the module doc).
    name: what the chart shows; the chart's element carries it as its accessible name (role="figure")."""
    scale = f', "scale": {room.SCALE}' if room.on() else ""   # the room view: the page scales the text
    label = ', "name": ' + json.dumps(name) if name else ""
    payload = ('"fig": ' + spec_json + ', "config": ' + json.dumps(config) + scale + label + "}").encode()
    digest = hashlib.blake2b(payload, digest_size=12).hexdigest()
    held = st.session_state.setdefault(HELD, {})
    if held.get(key) == digest:
        data = b'{"same": "' + digest.encode() + b'"}'
    else:
        data = b'{"id": "' + digest.encode() + b'", ' + payload
        held[key] = digest
        _remember(digest, data)
    # Sent as bytes (the JSON's UTF-8), not as a str: Streamlit would JSON-encode a str twice (once
    # to send, once for an identity the key makes moot), escaping every quote of a figure of hundreds
    # of KB, and test whether it is a dataframe first.
    _component()(key=key, data=data, height=height, on_missing_change=functools.partial(_forget, key))


def _forget(key: str) -> None:
    """The page asked for chart `key`'s figure (it did not hold what it was told to keep)."""
    st.session_state.get(HELD, {}).pop(key, None)


def new_page(page: str) -> None:
    """A run of another page than the last: its charts are mounted afresh, so nothing is held."""
    if st.session_state.get(PAGE) != page:
        st.session_state[PAGE] = page
        st.session_state[HELD] = {}


_RECENT: OrderedDict[str, bytes] = OrderedDict()  # digest -> data sent, for spec() of a "same" (tests)
_RECENT_MAX = 64
_lock = threading.Lock()


def _remember(digest: str, data: bytes) -> None:
    with _lock:
        _RECENT[digest] = data
        _RECENT.move_to_end(digest)
        while len(_RECENT) > _RECENT_MAX:
            _RECENT.popitem(last=False)


def spec(proto) -> dict:
    """The figure a drawn chart holds (a BidiComponent proto from AppTest): plotly's dict, also when
    this run sent only "same as before" (then it is the figure sent last under that digest)."""
    data = json.loads(sent(proto))
    if "same" in data:
        with _lock:
            data = json.loads(_RECENT[data["same"]])
    return data["fig"]


def sent(proto) -> bytes:
    """What a drawn chart was given this run, as sent: JSON text in UTF-8 (a BidiComponent proto)."""
    return proto.bytes


def is_same(proto) -> bool:
    """This run sent the chart no figure, only "the one you hold" (a BidiComponent proto)."""
    return proto.bytes.startswith(b'{"same"')
