"""Listen: the trainer's map, or its loss curves, as sound (issue 48 item 2).

A closed disclosure under the controls ("Listen to the map", a fragment of its own: a control's move above
and a playing trainer's ticks do not send it again) holds what to play (the map row by row,
one row or column, a diagonal, the loss curves), the key to the sound, and a Listen button
(pages/trainer/listen.js, Web Audio). Nothing sounds until the button is pressed: the press makes the
browser's AudioContext and asks the page for the notes (a trigger), and the live part's next run sends
them, computed by lib/sonify.py from the map the page draws (pages/trainer/live.py's raw_map). Every other
run sends an empty message. Escape or Stop ends it.

Why not a library: PyPI's `maidr` (1.28) draws its own copy of a chart in an iframe and needs matplotlib,
seaborn, mplfinance and lxml; npm's `chart2music` (1.20, MIT, one 338 KB bundle that could be served from
static/) plays a matrix as pitch alone, with no timbre per class and no click where the class changes.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import streamlit as st

from lib.maps import RES, value_shade
from lib.sonify import NOTE, confidence, curve, lines, sweep
from pages.trainer import live as lv
from pages.trainer import run as tr
from ui import fmt, inplace

NAME = "layerlab_listen"
WANT = "trainer_listen_want"     # session: Listen was pressed, the next run sends the notes
SENT = "trainer_listen_sent"     # session: how many times the notes were sent (each sending plays once)
WHAT, AT = "trainer_listen_what", "trainer_listen_at"
CHOICES = {"rows": "the map, row by row from the top", "row": "one row, left to right",
           "column": "one column, bottom to top", "rising": "the diagonal from the lower left to the upper right",
           "falling": "the diagonal from the upper left to the lower right",
           "loss": "the loss curves, training then test"}
TIMBRES = ("a pure tone", "a buzzy tone", "a bright, brassy tone", "a soft, hollow tone", "an organ-like tone")

_LOADER = """const SRC = new URL('__URL__', document.baseURI).href;
let listen = null;
export default function (component) {
  if (listen) return listen(component);
  import(SRC).then((m) => { listen = m.default; listen(component); });
}"""

@cache
def _component():
    src = Path(__file__).with_name("listen.js").read_text()
    url = inplace.serve("layerlab-listen.js", src)   # the code once per browser, not on every tick
    return st.components.v2.component(NAME, js=_LOADER.replace("__URL__", url) if url else src,
                                      isolate_styles=False)


def _asked() -> None:
    st.session_state[WANT] = True


def notes(spec: tr.Spec, run: tr.Run, what: str, at: float = 0.0) -> dict:
    """What Listen plays (lib.sonify's notes): the loss curves, or the map along the lines chosen; `at` is
    the row's x₂ or the column's x₁."""
    t, d = run.trainer, run.data
    if what == "loss":
        sound = curve(t.history["train_loss"], t.history["test_loss"])
    else:
        raw = lv.raw_map(spec, t, spec.act, d)
        if spec.head == "linear":   # values: pitch for the value, one timbre, no boundary
            cls, level = np.zeros(raw.shape, dtype=int), value_shade(raw, lv.span(d))
        else:
            cls, level = confidence(raw)
        sound = sweep(cls, level, lines(RES, what, (at + d.limit) / (2 * d.limit)))
    line = CHOICES[what] + (f" at {'x₂' if what == 'row' else 'x₁'} = {fmt.fixed(at, 1)}"
                            if what in ("row", "column") else "")
    return {**sound, "note": NOTE, "what": line}


def key_words(spec: tr.Spec, curve_only: bool) -> str:
    """The key to the sound, in words."""
    if curve_only:
        return ("Each note is a point of a curve, left to right: higher notes for a higher loss. The training "
                "curve plays first as a pure tone, then the test curve as a bright one.")
    if spec.head == "linear":
        return ("Each note is one place on the map, left to right in your headphones: the higher the note, the "
                "higher the network's value there.")
    k = spec.k if spec.head == "softmax" else 2
    tones = ", ".join(f"class {c} {TIMBRES[c]}" for c in range(k))
    return ("Each note is one place on the map, left to right in your headphones. A high note: the network is "
            f"sure there; a low one: unsure, near the boundary. {tones[0].upper() + tones[1:]}. A click: the "
            "line crosses the boundary.")


def control(spec: tr.Spec) -> None:
    """The Listen disclosure: what to play, the key, the button. Sends the notes only after a press, from
    the network as it is then (the session's run: Play may have moved it since the page was drawn)."""
    run: tr.Run = st.session_state[tr.RUN]
    curve_only = lv.is_curve(run)
    with st.expander("Listen to the map"):
        st.caption(key_words(spec, curve_only) + " Nothing plays until you press **Listen**; Escape stops it.")
        options = ["loss"] if curve_only else list(CHOICES)
        left, right = st.columns([3, 2])
        what = left.selectbox("What to play", options, format_func=lambda v: CHOICES[v], key=WHAT)
        at = 0.0
        if what in ("row", "column"):
            lim = float(run.data.limit)
            at = right.slider(f"At {'x₂' if what == 'row' else 'x₁'} =", -lim, lim, 0.0, 0.1, key=AT,
                              format="%.1f")
        data: dict = {}
        if st.session_state.pop(WANT, False):
            st.session_state[SENT] = st.session_state.get(SENT, 0) + 1
            data = {"play": st.session_state[SENT], "sound": notes(spec, run, what, at)}
        _component()(key="trainer_listen", data=data, on_listen_change=_asked)
