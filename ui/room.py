"""The view for the back of the room: `big=true` on any page's link (declared in every page's LINKS,
ui/state.py's ROOM).

A projector at 1366 x 900 seen from the back row needs text about twice the size a laptop user reads.
In this view:
- page text is SCALE times its size (the root font size: Streamlit sizes its text in rem);
- every chart's text is SCALE times its size, its theme's defaults included. A chart drawn in place
  gets the factor beside its figure and ui/inplace.js scales it after theming; a chart drawn by
  `st.plotly_chart` (a clickable map, a treemap) is scaled here (`scaled`);
- the page's controls are folded away, as if the link said `hide=all`, unless it names its own `hide`
  list (ui/state.py `Links._link_hidden`), so a teacher can keep one slider for the room;
- the sidebar starts closed; its toggle switches the view off again.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from ui.state import ROOM, ROOM_HELP, ROOM_WIDGET, room_on, shown

SCALE = 1.6   # the smallest chart text (12 px) becomes 19 px; body text 16 -> 26 px
# The text sizes ui/inplace.js's theme gives a chart that names none.
CHART_DEFAULTS = {"font": 12, "tick": 12, "axis_title": 14, "title": 16, "legend": 12}
# Static text only (no user text): the page's text in rem. The main column's top padding is in rem
# too: held near its usual height, so the first screen shows results. A metric's value (2.25rem) would
# outgrow its column and end in an ellipsis: held at 1.4rem, still 36 px; its label at 0.875rem, 22 px.
# Every page, the view on or off (issue 35, WCAG 2.2 AA): Streamlit writes captions in #828180, 3.88:1
# on white where AA needs 4.5:1; in the text's own colour at 80 % they are about 6.5:1, in light and dark
# themes alike. A formula's box is 2 px narrower than KaTeX's content, so the browser made every display
# a scrolling region no keyboard can reach: 2 px of padding each side and it scrolls only when it must.
_READABLE = ('<style>[data-testid="stCaptionContainer"] { color: inherit; opacity: 0.8; }'
             '.katex-display { padding: 0 2px; }'
             # a chart's name for a screen reader only (ui/charts.py's hidden_name): out of sight and of
             # the column's flow, still in the accessibility tree
             '.layerlab-sr { position: absolute; width: 1px; height: 1px; overflow: hidden;'
             ' clip-path: inset(50%); white-space: nowrap; margin: 0; }'
             # (its container keeps it: at 0 px high, a scrolling box no keyboard reaches, axe's
             # scrollable-region-focusable)
             '[data-testid="stElementContainer"]:has(.layerlab-sr) { position: absolute; overflow: hidden; }'
             # a chosen pill writes its words in the primary colour on a 20 % tint of it: 3.9:1 on white
             # (AA needs 4.5); in the text's own colour it is about 10:1, in light and dark themes alike
             '[data-variant="pills"][aria-checked="true"] [data-testid="stMarkdownContainer"] p'
             ' { color: var(--st-text-color, #31333F); }</style>')
# A presenter's first screen (issue 34: 1366 x 768) holds the lesson's one idea: the page's title at
# 1.9rem (about 49 px, not 70), the intro in the sidebar (`intro`), the header (Streamlit's 3.75rem,
# 96 px at this scale, over the page's top) and the column's top padding both at 2.5rem (64 px).
_CSS = (f"<style>html {{ font-size: {round(100 * SCALE)}%; }}"
        '[data-testid="stHeader"] { height: 2.5rem !important; min-height: 0 !important; }'
        '[data-testid="stMainBlockContainer"] { padding-top: 2.5rem; }'
        '[data-testid="stMain"] h1 { font-size: 1.9rem; padding: 0 0 0.4rem; }'
        '[data-testid="stMain"] h2 { font-size: 1.5rem; padding: 0.5rem 0 0.3rem; }'
        # a metric's label wraps instead of ending in an ellipsis ("Train accur…") at this size
        '[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] * { white-space: normal !important;'
        ' overflow: visible !important; text-overflow: clip !important; }'
        '[data-testid="stMetricValue"] { font-size: 1.4rem; }'
        '[data-testid="stMetricLabel"] p { font-size: 0.875rem; }'
        # a Markdown table's cells a little closer (0.75rem each side is 19 px here): the recipe card as
        # a table ran 4 px past a 420 px screen and scrolled sideways
        '[data-testid="stMarkdownContainer"] :is(th, td) { padding-left: 0.5rem; padding-right: 0.5rem; }'
        '</style>')

__all__ = ["ROOM", "SCALE", "intro", "on", "scaled", "sidebar", "style"]


on = room_on   # the view is on: the sidebar toggle's state, else the link's `big=true`


def sidebar() -> None:
    """The sidebar's toggle, bound to `big=` by hand (it is drawn by app.py, around every page)."""
    raw = st.query_params.get(ROOM)
    if ROOM_WIDGET not in st.session_state:
        st.session_state[ROOM_WIDGET] = (raw or "").strip().lower() == "true"
    st.sidebar.toggle("Large text for the room", key=ROOM_WIDGET, help=ROOM_HELP)
    if raw is not None and raw.strip().lower() not in ("true", "false"):
        st.sidebar.caption(f":orange[:material/link_off: Ignored `{ROOM}={shown(raw)}` from the link: use "
                           "true or false.]")
        return
    if st.session_state[ROOM_WIDGET]:
        if raw != "true":
            st.query_params[ROOM] = "true"
    elif raw is not None:
        st.query_params.pop(ROOM, None)


def intro(text: str) -> None:
    """A page's opening paragraph (Markdown of the app's own words): in the room view it moves to the
    sidebar (closed there) under "What this page shows", so the first screen holds the lesson itself
    while the teacher speaks."""
    if on():
        with st.sidebar.expander("What this page shows"):
            st.markdown(text)
    else:
        st.markdown(text)


def style() -> None:
    """Text every reader can read on this page, and the room's sizes when the view is on."""
    st.html(_READABLE + (_CSS if on() else ""))


def scaled(fig: go.Figure) -> go.Figure:
    """`fig` with every text SCALE times larger, for a chart st.plotly_chart draws (the figure unchanged
    when the view is off). What inplace.js does for charts drawn in place."""
    if not on():
        return fig
    spec = fig.to_dict()
    layout = spec.setdefault("layout", {})
    size = (layout.get("font") or {}).get("size") or CHART_DEFAULTS["font"]
    _bigger(spec)
    layout.setdefault("font", {})["size"] = round(size * SCALE)
    for name in [k for k in layout if k.startswith(("xaxis", "yaxis"))] or ["xaxis", "yaxis"]:
        axis = layout.setdefault(name, {})
        axis.setdefault("tickfont", {}).setdefault("size", round(CHART_DEFAULTS["tick"] * SCALE))
        axis.setdefault("title", {}).setdefault("font", {}).setdefault(
            "size", round(CHART_DEFAULTS["axis_title"] * SCALE))
    layout.setdefault("legend", {}).setdefault("font", {}).setdefault(
        "size", round(CHART_DEFAULTS["legend"] * SCALE))
    uniform = layout.get("uniformtext") or {}
    if isinstance(uniform.get("minsize"), (int, float)):   # text a box cannot hold at this size is hidden
        uniform["minsize"] = round(uniform["minsize"] * SCALE)
    if isinstance(layout.get("title"), dict):
        layout["title"].setdefault("font", {}).setdefault("size", round(CHART_DEFAULTS["title"] * SCALE))
    return go.Figure(spec, skip_invalid=True)   # to_dict() gave a fresh dict: nothing shared to copy


def _bigger(node) -> None:
    """Every explicit font size under `node` times SCALE (plotly's fonts: font, tickfont, textfont, ...)."""
    if isinstance(node, list):
        for item in node:
            _bigger(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key.lower().endswith("font") and isinstance(value, dict) and "size" in value:
                size = value["size"]
                if isinstance(size, (int, float)):
                    value["size"] = round(size * SCALE)
                elif isinstance(size, list):
                    value["size"] = [round(s * SCALE) if isinstance(s, (int, float)) else s for s in size]
            _bigger(value)
