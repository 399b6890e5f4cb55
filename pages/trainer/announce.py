"""A polite live region: what a screen reader says of a live part while it changes (issue 35 item 2).

While Play runs, the trainer's numbers change several times a second; a screen reader told of each
change would say nothing else. `say(text, key)` keeps one `role="status"` region (polite: read when the
reader is idle, never interrupting) and changes its words at most once every `every` seconds, so the
reader hears "Epoch 1,200: test accuracy 94 %" now and then, never every tick.

Why a component and not st.html: st.html replaces its whole markup when its text changes, and a live
region put into the page afresh is not announced by every screen reader (they watch regions that were
there before the change). The component keeps one element across reruns and changes only its text.
The region is out of sight (ui/room.py's `layerlab-sr`): the eye reads the same numbers beside the maps.

With the numbers it says the boundary's shape in words (issue 48 item 1, lib/describe.py): while Play runs
what each class holds ("Class 1 holds the upper-left and lower-right quarters; class 0 ..."), at the same
pace; when training stops, also where the boundary meets the square's edges, how many separate regions
there are and where the wrong points sit. The words are made only when the region may change them.

The same component keeps the keyboard's place where a button is swapped for its partner (`swaps`: Play
and Pause are two buttons, each with its own key, so the focus on one would fall to the page's top).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

import numpy as np
import streamlit as st

from lib.describe import describe
from lib.maps import labels_of
from ui import fmt

NAME = "layerlab_announce"
CLASS = "layerlab-live"
EVERY = 5.0   # seconds: at most one new announcement this often

_JS = f"""export default function ({{ data, parentElement }}) {{
  let box = parentElement.querySelector('div.{CLASS}');
  if (!box) {{
    box = document.createElement('div');
    box.className = '{CLASS} layerlab-sr';
    box.setAttribute('role', 'status');        // a polite live region
    box.setAttribute('aria-live', 'polite');
    box.setAttribute('aria-atomic', 'true');   // read whole, not the changed word
    parentElement.appendChild(box);
  }}
  const said = data && typeof data.text === 'string' ? data.text : '';
  if (box.textContent !== said) box.textContent = said;
  window.__layerLabSwaps = data && data.swaps || [];
  if (window.__layerLabKeeper) return;
  // The keyboard's place across a swap: a button worked by a key (Enter, Space) whose rerun draws its
  // partner in its place (Play -> Pause) would leave the focus on the page's top; give it the partner,
  // however long the rerun takes (a busy school laptop took over 1.5 s). A click, or the focus moved on by
  // the user, forgets it.
  window.__layerLabKeeper = true;
  let want = null;
  const swapOf = (el) => {{
    for (const [a, b] of window.__layerLabSwaps) if (el && el.closest && el.closest('.st-key-' + a)) return b;
    return null;
  }};
  document.addEventListener('keydown', (e) => {{
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const b = swapOf(e.target);
    want = b ? {{key: b, at: Date.now()}} : null;
  }}, true);
  document.addEventListener('pointerdown', () => {{ want = null; }}, true);
  document.addEventListener('focusin', (e) => {{
    if (want && !swapOf(e.target) && !(e.target.closest && e.target.closest('.st-key-' + want.key))) want = null;
  }}, true);
  new MutationObserver(() => {{
    if (!want || Date.now() - want.at > 30000) {{ want = null; return; }}
    const active = document.activeElement;
    if (active && active !== document.body && !active.matches('main, [data-testid=stMain]')) return;
    const next = document.querySelector('.st-key-' + want.key + ' button');
    if (next && !next.disabled) {{ want = null; next.focus(); }}
  }}).observe(document.body, {{childList: true, subtree: true}});
}}"""


@cache
def _component():
    return st.components.v2.component(NAME, js=_JS, isolate_styles=False)


def held(memory, key: str, text: str | Callable[[], str], every: float = EVERY, now: float | None = None) -> str:
    """The words region `key` shows: `text` when its last change is at least `every` seconds old (or it
    has none), else the words it shows already. `memory` (the session's state) keeps (words, since).
    A callable `text` is called only then: words that cost something are made only when they may be said."""
    now = time.monotonic() if now is None else now
    slot = f"_announce_{key}"
    last = memory.get(slot)
    if last is None or now - last[1] >= every:
        said = text() if callable(text) else text
        if last is None or last[0] != said:
            memory[slot] = last = (said, now)
    return last[0]


def boundary(raw, d, predict, brief: bool) -> str:
    """The map `raw` (lib.maps.prediction_map of a classifier: (res, res) or (res, res, k)) in words, with
    the wrong training and test points of data `d` (pages/trainer/run.Data) unless `brief`. predict: the
    network's prediction at feature rows (the trainer's `predict`)."""
    raw = np.asarray(raw)
    k = raw.shape[-1] if raw.ndim == 3 else 2
    points = ()
    if not brief:
        def guess(F):
            p = np.asarray(predict(F)) if len(F) else np.zeros((0, k))
            return p.argmax(axis=1) if p.ndim == 2 else (p > 0.5).astype(int)
        points = [(what, X, y, guess(F)) for what, X, y, F in
                  (("training", d.Xtr, d.ytr, d.Ftr), ("test", d.Xte, d.yte, d.Fte)) if len(y)]
    return describe(labels_of(raw), d.limit, k, brief=brief, points=points, num=lambda v: fmt.fixed(v, 1))


def say(text: str | Callable[[], str], key: str, every: float = EVERY, swaps: tuple[tuple[str, str], ...] = ()) -> None:
    """The live region `key`, saying `text` (or, within `every` seconds of its last change, what it said;
    a callable is called only when its words may be said).

    swaps: pairs of button keys (a, b) where working a by keyboard redraws b in its place (Play, Pause):
    the focus goes to b, not to the top of the page."""
    data = {"text": held(st.session_state, key, text, every), "swaps": [list(p) for p in swaps]}
    _component()(key=key, data=data, height=0)
