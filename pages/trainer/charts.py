"""Chart builders for the live trainer: arrays in, plotly figures out, in the colours of ui.colors.

Colours: the classes are CLASSES (class 0 orange, class 1 green), the shading behind them is their
tints (P(class 1) from orange through white to green); unit maps and weights are SIGNED (blue
positive, vermillion negative); the two runs' curves are CATEGORY colours (they are different
things, not signs or classes); train and test differ by filled / hollow squares and solid / dotted
lines, never by colour.

The live figures (boundary, curves, unit maps, regions) are built once per shape and then only get
new numbers (`live_*`, a dict in the student's session holds them); how they are kept and sent cheaply
is ui.light's. The probabilities travel as one uint8 heatmap (0..LIVE_TOP, ui.light.u8) and each class
of each split is ONE path shape, so a redraw is a few SVG nodes however many points there are. Every
text is at least 12 px.
"""

from __future__ import annotations

import time

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ui import charts, colors, fmt
from ui.boundary import (  # noqa: F401  (the trainer's sections and tests name the map's pieces here)
    FONT,
    SHADING,
    TICK_FONT,
    VALUE_MARKS,
    VALUE_SHADING,
    boundary_figure,
    dots_path,
    points_shapes,
    shading_for,
    tint,
    value_band,
)
from ui.light import LIVE_TEMPLATE, Light, built_dict, f32, u8
from ui.plotly_private import has_frames

TRAIN_DASH, TEST_DASH = "solid", "dot"
MAIN_COLOR, TWIN_COLOR = colors.INDIGO, colors.TEAL
# Each class's shape (ui.colors.CLASS_SYMBOLS) as characters, (filled, hollow), for the legends in HTML.
CLASS_GLYPHS = (("&#9679;", "&#9675;"), ("&#9632;", "&#9633;"), ("&#9670;", "&#9671;"),
                ("&#9650;", "&#9651;"), ("&#10010;", "&#10011;"))


class _Sent(go.Figure):
    """A go.Figure whose to_dict() (what st.plotly_chart sends) is ui.light's built_dict: the same dict as
    go.Figure.to_dict without its deep copy. The figure stays a go.Figure in every other way."""

    def to_dict(self) -> dict:
        return super().to_dict() if has_frames(self) else built_dict(self)


def sent_quickly(fig: go.Figure) -> go.Figure:
    """The same figure, sent through _Sent.to_dict."""
    fig.__class__ = _Sent
    return fig


def class_label(c: int) -> str:
    """Class c in words, colour and shape: "class 0 (orange circle)"."""
    return f"class {c} ({colors.CLASS_NAMES[c]} {colors.CLASS_SHAPES[c]})"


def log_ticks(fig: go.Figure, **where) -> go.Figure:
    """A log axis labelled at the powers of ten only (1, 10, 100, 1,000), with short unlabelled ticks
    between them: plotly's "D2" wrote '1 2 5 10 2 5 100 2', which a room reads as nonsense (issue 34)."""
    fig.update_xaxes(type="log", dtick=1, tickformat=",d", minor=dict(dtick="D1", ticks="outside", ticklen=3),
                     **where)
    return fig


def _bar(stops: list, width: int = 110) -> str:
    return (f'<span style="display:inline-block;width:{width}px;height:12px;vertical-align:middle;'
            'border:1px solid #ccc;background:linear-gradient(to right,' + ",".join(stops) + ')"></span>')


def legend_html(problem: str = "classify", k: int = 2, span: float = 1.0, discrete: bool = False) -> str:
    """The points' legend and the shading's colour key as one line of HTML (no user text in it):
    the same shapes as the marks (each class its own, ui.colors.CLASS_SYMBOLS; values squares), and
    the shading's classes named in words.

    Outside the live figure, which then redraws without a legend of its own (a plotly legend is
    re-laid out on every redraw).
    """
    sq = '<span style="color:{};font-size:1.2em">{}</span>'
    if problem == "regress":
        items = [sq.format(c, "&#9632;") for c in VALUE_MARKS]
        lo, hi = fmt.num(-span, 3), fmt.num(span, 3)
        key = [VALUE_SHADING[0][1], VALUE_SHADING[1][1], VALUE_SHADING[2][1]]
        return ('<div style="font-size:0.875rem;line-height:1.8">points by value, ' + "".join(items)
                + f" from {lo} to {hi}; filled train, hollow test &nbsp; shading: the network's value {lo} "
                + _bar(key) + f" {hi}</div>")
    if problem == "classes":
        items = []
        for c in range(k):
            filled, hollow = CLASS_GLYPHS[c]
            items.append(sq.format(colors.CLASSES[c], filled) + sq.format(colors.CLASSES[c], hollow)
                         + f" {class_label(c)}")
        items.append("filled train, hollow test")
        sure = "" if discrete else ", paler where it is unsure"
        bars = " ".join(f"{_bar([tint(col, 0.08), tint(col, 0.55)], 40)} {colors.CLASS_NAMES[c]}: class {c}"
                        for c, col in enumerate(colors.CLASSES[:k]))
        items.append(f"shading: the class the network picks{sure}, {bars}")
        return '<div style="font-size:0.875rem;line-height:1.8">' + " &nbsp; ".join(items) + "</div>"
    items = []
    for c in (0, 1):
        color, (filled, hollow) = colors.CLASSES[c], CLASS_GLYPHS[c]
        items.append(f'<span style="color:{color};font-size:1.2em">{filled}</span> {class_label(c)}, train')
        items.append(f'<span style="color:{color};font-size:1.2em">{hollow}</span> class {c}, test')
    items.append(f"shading P(class 1): 0 ({colors.CLASS_NAMES[0]}, class 0) {_bar([c for _, c in SHADING])} "
                 f"1 ({colors.CLASS_NAMES[1]}, class 1)")
    return '<div style="font-size:0.875rem;line-height:1.8">' + " &nbsp; ".join(items) + "</div>"


def _thin(frame, limit: int = 400):
    """At most `limit` rows (always the last) so the live payload stays small."""
    if len(frame) <= limit:
        return frame
    idx = np.unique(np.linspace(0, len(frame) - 1, limit).round().astype(int))
    return frame.iloc[idx]


def _second(hist) -> str:
    """The lower chart's number: accuracy for classes, R² for values."""
    return "acc" if "train_acc" in hist else "r2"


def _curve_arrays(hist, twin=None, twin_name: str = "no hidden layer"):
    """(name, row, split, colour, x (k,), y (k,)) for every line of the curves figure, in order.

    A split without finite numbers (no test points) has no line. Accuracy is in percent; R² is
    drawn from -1 up (a worse fit than the mean is clipped there, never lost).
    """
    runs = [("your network", hist, MAIN_COLOR)]
    if twin is not None:
        runs.insert(0, (twin_name, twin, TWIN_COLOR))
    out = []
    second = _second(hist)
    for name, frame, color in runs:
        frame = _thin(frame)
        x = f32(frame["epoch"])
        for row, what in ((1, "loss"), (2, second)):
            for split in ("train", "test"):
                y = frame[f"{split}_{what}"].to_numpy(dtype=float)
                if not np.isfinite(y).all():
                    continue
                y = 100 * y if what == "acc" else (np.maximum(y, -1.0) if what == "r2" else y)
                out.append((name, row, split, color, x, f32(y)))
    return out


def curves_figure(hist, twin=None, *, height: int = 440, live: bool = True,
                  twin_name: str = "no hidden layer") -> go.Figure:
    """Loss above accuracy (or R² for values) against epoch (log axis), train solid and test dotted, one
    colour per run.

    hist, twin : DataFrames with epoch, train_loss, test_loss and train_acc, test_acc (or train_r2, test_r2)
    """
    second = _second(hist)
    titles = (("Loss (cross-entropy) by epoch", "Accuracy by epoch") if second == "acc" else
              ("Loss (mean squared error) by epoch", "R² by epoch (1 is a perfect fit)"))
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.16, subplot_titles=titles)
    at = {1: dict(row=1, col=1), 2: dict(row=2, col=1)}
    for name, row, split, color, x, y in _curve_arrays(hist, twin, twin_name):
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines",
            line=dict(color=color, width=2.5, dash=TRAIN_DASH if split == "train" else TEST_DASH),
            name=f"{name} · {split}", legendgroup=f"{name}{split}", showlegend=row == 2,
            hoverinfo="skip" if live else None,
        ), **at[row])
    fig.update_layout(height=height, margin=dict(l=8, r=8, t=34, b=8), uirevision="curves",
                      font=dict(size=FONT),
                      hovermode="x unified" if not live else False)
    charts.legend_under(fig, font=dict(size=12))   # under "epoch (log scale)", never on it
    if live:
        fig.layout.template = LIVE_TEMPLATE
    # Epochs on a log axis: the whole run keeps its shape (the first 100 epochs, where most of the learning
    # is, get as much width as the next 900), instead of an L squashed against the left edge by epoch 2,000.
    # Epoch 0 (the start) has no place on it: the lines begin at epoch 1.
    log_ticks(fig)
    fig.update_xaxes(tickfont=dict(size=TICK_FONT))
    # At most about four labels up each row: in big=true the labels grow 1.5 times and plotly's own
    # spacing (fixed in pixels) drew 0, 2, 4, 6 and 8 on top of each other (R², regress mode).
    fig.update_yaxes(nticks=4)
    fig.update_xaxes(title=dict(text="epoch (log scale)", font=dict(size=TICK_FONT)), row=2, col=1)
    fig.update_yaxes(rangemode="tozero", tickfont=dict(size=TICK_FONT), **at[1])
    if second == "acc":
        fig.update_yaxes(range=[0, 101], ticksuffix=" %", tickfont=dict(size=TICK_FONT), **at[2])
    else:
        fig.update_yaxes(range=[-1.02, 1.02], tickfont=dict(size=TICK_FONT), **at[2])
    fig.update_annotations(font_size=15, xanchor="left", x=0.0)
    return sent_quickly(fig)


# --- live figures: built once per shape, then only their numbers change ------------------------
def live_boundary(cache: dict, key: str, sig, xs, ys, P, data, *, title: str, height: int = 420, edge=None,
                  **look):
    """The live boundary of one network: rebuilt only when `sig` (the run), the title or the look
    (boundary_figure's scale, k, span, hover) change; otherwise only the shading is replaced.

    P : ndarray of shape (res, res)
    """
    want = (sig, title, height, repr(sorted(look.items())))
    entry = cache.get(key)
    if entry is None or entry[0] != want:
        fig = boundary_figure(xs, ys, P, data, title=title, live=True, height=height, edge=edge, **look)
        cache[key] = (want, fig)
        return fig
    fig = entry[1]
    fig.set_trace(0, z=u8(P, edge))
    return fig


def held_curves(cache: dict, key: str, hold: float, shape) -> go.Figure | None:
    """The curves figure kept under `key`, if it was drawn for `shape` less than `hold` seconds ago: the
    page then shows it again without making the history's frame at all."""
    entry = cache.get(key)
    if hold <= 0 or entry is None or cache.get(key + ".shape") != shape:
        return None
    return entry[1] if time.perf_counter() - cache.get(key + ".t", 0.0) < hold else None


def live_curves(cache: dict, key: str, hist, twin=None, *, height: int = 440, hold: float = 0.0,
                twin_name: str = "no hidden layer", shape=None):
    """curves_figure, rebuilt only when its set of lines or its shape changes; else new numbers.

    hold : seconds to keep showing the same numbers. An unchanged figure is an unchanged element,
        which the browser does not redraw at all: while playing, the curves move about once a second
        and the maps take the rest of the browser's time.
    shape : what held_curves compares (the page's twin, head and height): stored with the figure.
    The figure is a Light one made from curves_figure's dict once per set of lines; new numbers are
    assigned to its traces without plotly's validation.
    """
    lines = _curve_arrays(hist, twin, twin_name)
    sig = (height, _second(hist), *((name, row, split) for name, row, split, *_ in lines))
    entry = cache.get(key)
    now = time.perf_counter()
    cache[key + ".shape"] = shape
    if entry is None or entry[0] != sig:
        fig = Light(curves_figure(hist, twin, height=height, twin_name=twin_name).to_dict())
        cache[key] = (sig, fig)
    else:
        fig = entry[1]
        if now - cache.get(key + ".t", 0.0) < hold:
            return fig
    cache[key + ".t"] = now
    # The numbers as arrays (not the sent dict's base64), so ui.charts.show can check them.
    for i, (*_, x, y) in enumerate(lines):
        fig.set_trace(i, x=x, y=y)
    return fig


def line_across(seg):
    """A (2, 2) segment from lib (lib.regions.line_in_box) as the (x (2,), y (2,)) a line trace takes."""
    return None if seg is None else (seg[:, 0], seg[:, 1])


# A curve fit's two titles; in the room (text 1.6 times larger) short enough for a phone's 320 px chart.
CURVE_TITLES = {False: ("Points and the network's curve", "Each unit's ramp (its share of the curve)"),
                True: ("The curve, ■ train, □ test", "Each unit's ramp")}


def curve_figure(x, fits, data, *, parts=None, title: str | None = None,
                 height: int = 460, room: bool = False) -> go.Figure:
    """A 1-D fit: the points and the network's curve above, each hidden unit's ramp under it.

    x : ndarray of shape (m,), positions along the axis
    fits : list of (name, y (m,), colour): the curves drawn (the network, and its twin)
    data : pages/trainer/run.Data with Xtr (n, 1), ytr (n,) values, Xte, yte
    parts : ndarray of shape (m, units) or None: each last-hidden unit's share of the first fit
        (lib.maps.curve_fit); the fit is their sum plus its output bias
    room : the room view (text 1.6 times larger): the curve takes more of the height, and the points
        are named in its title, not in two more rows of legend under it
    """
    rows = 2 if parts is not None else 1
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=True, vertical_spacing=0.07 if room else 0.1,
                        row_heights=([0.7, 0.3] if room else [0.6, 0.4]) if rows == 2 else None,
                        subplot_titles=CURVE_TITLES[room][:rows])
    for split, X, y in (("train", data.Xtr, data.ytr), ("test", data.Xte, data.yte)):
        if len(y):
            fig.add_trace(go.Scatter(
                x=f32(X[:, 0]), y=f32(y), mode="markers", name=f"{split} points", showlegend=not room,
                marker=dict(symbol="square" if split == "train" else "square-open", size=6,
                            color=colors.ON if split == "train" else colors.OFF),
                hovertemplate="x = %{x:.2f}<br>y = %{y:.2f}<extra></extra>"), row=1, col=1)
    for name, y, color in fits:
        fig.add_trace(go.Scatter(x=f32(x), y=f32(y), mode="lines", name=name,
                                 line=dict(color=color, width=3), hoverinfo="skip"), row=1, col=1)
    if parts is not None:
        for j in range(parts.shape[1]):
            fig.add_trace(go.Scatter(x=f32(x), y=f32(parts[:, j]), mode="lines", name=f"h{j + 1}",
                                     showlegend=False, line=dict(color=colors.category(j), width=1.8),
                                     hovertemplate=f"h{j + 1}: " + "%{y:.2f}<extra></extra>"), row=2, col=1)
    fig.update_layout(height=height, margin=dict(l=8, r=8, t=40 if title else 30, b=8), font=dict(size=FONT),
                      uirevision="curvefit")
    charts.legend_under(fig, font=dict(size=12))
    if title:
        fig.update_layout(title=dict(text=title, x=0.0, xanchor="left", font=dict(size=16)))
    fig.update_xaxes(tickfont=dict(size=TICK_FONT), showgrid=False, fixedrange=True,
                     range=[float(x[0]), float(x[-1])])
    fig.update_yaxes(tickfont=dict(size=TICK_FONT), zeroline=True, zerolinecolor="#bbbbbb", fixedrange=True)
    fig.update_annotations(font_size=14, xanchor="left", x=0.0)
    return sent_quickly(fig)
