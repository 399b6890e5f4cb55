"""One declared link state per page: every URL key once, with its kind, default, bounds and help.

Like the Playground's state.ts: a page declares its link keys in one table,

    LINKS = Links(
        slider("n", 50, 2000, 400, 50, "Points", "How many points to draw."),
        select("act", ACTIVATIONS, "relu", "Bend", "Applied after every hidden layer.",
               names={k: a.label for k, a in ACTIVATIONS.items()}),
        text("hidden", "8", "Units per hidden layer", "8, or 16,16 for two layers; 0 for none.",
             parse=parse_hidden, fmt=format_hidden),
        matrix("w1", np.eye(2), "W1", "The first layer's weights."),
    )

and draws each control with `LINKS.widget("n")` (`LINKS.matrix("w1")` for an editable matrix).
This piece reads the URL, binds the widget (`bind="query-params"` wherever Streamlit has it), keeps
the last good value of what a student types, shows one line under the control for a link value it
ignored, and hands the page a plain value. `LINKS.value(key)` gives a value before (or without)
its widget being drawn, e.g. a size that a section higher up the page depends on.

How each kind travels in the URL:
- slider, number, toggle, multi, text, and select / radio without display names:
  Streamlit's own binding. Streamlit drops a bound value it cannot use (`?n=abc`); we compare the
  URL before and after the widget call and say what was ignored.
- select / radio *with* display names (`names=`): Streamlit would write the displayed
  name into the URL (a bound widget serialises its formatted option), so the widget is bound by
  hand: the URL keeps the short value (`act=gelu_tanh`) while the student reads "GELU (tanh
  approximation)". The same for a multi with display names: the URL keeps repeated short values
  (`show=relu&show=gelu_tanh`); a value that is not a choice is left out, with a note.
- text with `parse=`: bound by Streamlit as text, then parsed here; a value that does not parse
  keeps the last good one and says why.
- matrix: st.data_editor cannot be bound, so its compact form (`0.5,-1;-1,0`) is kept in
  st.query_params by hand, and dropped when it equals the default.

State that is not a widget's (last good values, notes) is kept per page (`page_id()`), so two
lessons may use the same short key (`w1`, `bend`) without seeing each other's values.

Every whole-page rerun is asked for here, `rerun_page(reason)`: one search finds them all.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import streamlit as st

from ui import fmt

_STORE = "_links"  # session_state: {page id: {"good": {key: value}, "notes": {key: (msg, value)}}}
_OWNER = "_links_owner"  # session_state: {key: id of the page that last drew its hand-bound widget}
_UNSET = object()  # "no per-draw default given" (None is a value)
LARGEST = 2 ** 53  # the largest number a link gives a slider or number box (JavaScript counts exactly)


# --- the declaration -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Link:
    """One URL key of a page: what it is, its default, what it may hold, and the words around it."""

    key: str                 # the URL parameter (short, lowercase) and the widget's key
    kind: str                # slider number toggle select radio select_slider multi text matrix tabs
    default: Any
    label: str
    help: str
    lo: float | None = None  # slider / number bounds
    hi: float | None = None
    step: float | None = None
    choices: tuple = ()      # select, radio, select_slider, multi, tabs
    names: Mapping[Any, str] | None = None  # display name per choice; the URL keeps the choice
    parse: Callable[[str], Any] | None = None  # text / matrix: URL or typed text -> value, ValueError(reason)
    fmt: Callable[[Any], str] | None = None    # value -> URL text (the inverse of parse)
    number_format: str | None = None  # a slider's or number box's printf format ("%.2f")
    meaning: str = ""        # the README's "Meaning" column (the label when empty)
    values: str = ""         # the README's "Values" column, when the generated one would not do
    group: str = ""          # one README row for several keys ("x1 .. x8")
    hand: bool = False       # bind by hand even where Streamlit could: for a control that is not
                             # drawn on every run (a matrix cell shown as a slider or in a grid),
                             # whose URL value Streamlit would drop while it is not drawn
    options: dict = field(default_factory=dict)  # more keyword arguments for the widget

    # -- checking a value the way the widget would -------------------------------------------------
    def from_text(self, raw: str) -> Any:
        """A URL text as this key's value; ValueError with a reason a student can act on."""
        if self.parse is not None:
            value = self.parse(raw)
            if self.kind in ("slider", "number"):
                try:
                    number = float(value)
                except OverflowError:   # a whole number past a float's range
                    raise ValueError("too large a number") from None
                check_number(number, self.lo, self.hi)
            return value
        if self.kind in ("slider", "number"):
            v = parse_number(raw, self.lo, self.hi)
            return int(v) if isinstance(self.default, int) and v == int(v) else v
        if self.kind == "toggle":
            t = raw.strip().lower()
            if t not in ("true", "false"):
                raise ValueError("use true or false")
            return t == "true"
        if self.choices:
            for c in self.choices:
                if str(c) == raw:
                    return c
            raise ValueError("not one of " + ", ".join(map(str, self.choices)))
        return raw

    def from_texts(self, raws: list[str]) -> Any:
        """A link's texts for this key (a multi repeats its key) as its value; ValueError as from_text."""
        return tuple(self.from_text(r) for r in raws) if self.kind == "multi" else self.from_text(raws[-1])

    def to_text(self, value: Any) -> str:
        if self.fmt is not None:
            return self.fmt(value)
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, float):
            return f"{value:g}"
        return str(value)

    def fits(self, value: Any) -> bool:
        """Could this key's control hold `value`? (A session value set by another page that uses
        the same short key may not fit here: `preset=uk-2024` from /tax-bands on /gpt2-params.)"""
        try:
            if self.kind == "multi":
                return all(v in self.choices for v in value)
            if self.choices:
                return value in self.choices
            if self.kind in ("slider", "number"):
                v = float(value)
                return (self.lo is None or v >= self.lo) and (self.hi is None or v <= self.hi)
            if self.kind == "toggle":
                return isinstance(value, bool)
        except (TypeError, ValueError):
            return False
        return True

    @property
    def by_hand(self) -> bool:
        """Bound by this module rather than by Streamlit (see the module's docstring)."""
        named = self.kind in ("select", "radio", "multi") and bool(self.names)
        return self.kind in ("matrix", "tabs") or named or self.hand


def parse_number(raw: str, lo: float | None = None, hi: float | None = None) -> float:
    """A number typed or carried by a link: finite and within [lo, hi] (a bound None: open), else a
    ValueError whose reason a student can act on. The one number parser behind every link value."""
    try:
        v = float(raw)
    except ValueError:
        raise ValueError("not a number") from None
    except OverflowError:   # a whole number past a float's range
        raise ValueError("too large a number") from None
    check_number(v, lo, hi)
    return v


def check_number(v: float, lo: float | None = None, hi: float | None = None) -> None:
    """A number a slider or a number box can hold: finite, inside the bounds, and no larger than the
    browser counts exactly (a 400-digit `?vocab=` is not a vocabulary, and JavaScript's numbers stop
    being whole numbers past 2**53)."""
    if not math.isfinite(v):
        raise ValueError("not a finite number")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        if hi is None:
            raise ValueError(f"below {fmt.num(lo, 6)}")
        if lo is None:
            raise ValueError(f"above {fmt.num(hi, 6)}")
        raise ValueError(f"outside {fmt.num(lo, 6)} to {fmt.num(hi, 6)}")
    if abs(v) > LARGEST:
        raise ValueError("too large a number")


def slider(key, lo, hi, default, step, label, help, **kw) -> Link:
    return _link(key, "slider", default, label, help, lo=lo, hi=hi, step=step, **kw)


def number(key, lo, hi, default, step, label, help, **kw) -> Link:
    return _link(key, "number", default, label, help, lo=lo, hi=hi, step=step, **kw)


def toggle(key, default, label, help, **kw) -> Link:
    return _link(key, "toggle", bool(default), label, help, **kw)


def select(key, choices, default, label, help, *, kind="select", **kw) -> Link:
    """A choice among `choices` (a dict's keys are fine); kind select or radio."""
    return _link(key, kind, default, label, help, choices=tuple(choices), **kw)


def select_slider(key, choices, default, label, help, **kw) -> Link:
    return _link(key, "select_slider", default, label, help, choices=tuple(choices), **kw)


def multi(key, choices, default, label, help, **kw) -> Link:
    return _link(key, "multi", tuple(default), label, help, choices=tuple(choices), **kw)


def text(key, default, label, help, *, parse, fmt, **kw) -> Link:
    """Typed text parsed by `parse` (str -> value or ValueError); `default` is the value, not text."""
    return _link(key, "text", default, label, help, parse=parse, fmt=fmt, **kw)


def matrix(key, default, label, help, **kw) -> Link:
    default = np.asarray(default, dtype=float)
    return _link(key, "matrix", default, label, help,
                 parse=lambda raw: parse_matrix(raw, default.shape), fmt=format_matrix, **kw)


_LINK_FIELDS = set(Link.__dataclass_fields__)


def _link(key, kind, default, label, help, **kw) -> Link:
    own = {k: v for k, v in kw.items() if k in _LINK_FIELDS}
    widget_options = {k: v for k, v in kw.items() if k not in _LINK_FIELDS}
    return Link(key, kind, default, label, help, options={**own.pop("options", {}), **widget_options}, **own)


# --- matrices in a URL ---------------------------------------------------------------------------
def format_matrix(M) -> str:
    """Compact URL form: '0.5,-1;-1,0' (rows split by ';', numbers by ',')."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    return ";".join(",".join(f"{v:.6g}" for v in row) for row in M)


def parse_matrix(raw: str, shape: tuple[int, ...]) -> np.ndarray:
    """The compact form back, checked against `shape`; ValueError with a reason."""
    cells = [r.split(",") for r in str(raw).strip().split(";")]
    want_rows, want_cols = (1, shape[0]) if len(shape) == 1 else shape
    if len(cells) != want_rows or any(len(r) != want_cols for r in cells):
        got = f"{len(cells)} × {max(len(r) for r in cells)}"
        raise ValueError(f"expected {want_rows} × {want_cols} numbers, got {got}")
    out = np.empty((want_rows, want_cols))
    for i, row in enumerate(cells):
        for j, cell in enumerate(row):
            try:
                v = float(cell)
            except ValueError:
                raise ValueError(f"row {i + 1}, column {j + 1} is not a number") from None
            if not math.isfinite(v):
                raise ValueError(f"row {i + 1}, column {j + 1} is not a finite number")
            out[i, j] = v
    return out.reshape(shape)


# --- per-page store -------------------------------------------------------------------------------
def watcher(body: Callable[..., None], every: float, *args) -> None:
    """A fragment that draws nothing and runs the whole page again when something changed (a lesson's
    watch, a challenge's pause, the store's return), every `every` s, in a container of its own.

    Why the container. The whole-page run that such a fragment's rerun asks for now and then leaves the
    fragment's own (empty) block out of what it sends (Streamlit 1.67; 2 of 40 follows of a lesson's Next
    in Chromium here). The browser then closes the gap, the element after the fragment moves into its
    place, and the fragment's next tick writes its empty block over it: a student saw the question with
    no answer form under it, until the teacher moved again (CI, twice). In a container of its own, the
    tick writes inside that container, and nothing of the page can move into its place."""
    with st.container():
        st.fragment(body, run_every=every)(*args)


def rerun_page(reason: str) -> NoReturn:
    """Run the whole page again now, from app.py down (a fragment's run included): the one way the app
    asks for it. `reason` says why, for the reader of the call (the whole page shows what changed)."""
    del reason
    st.rerun(scope="app")


def page_id() -> str:
    """The running page's id (its script hash)."""
    from engine import private

    return private.page_hash()


def _store() -> dict:
    return st.session_state.setdefault(_STORE, {}).setdefault(page_id(), {"good": {}, "notes": {}})


def shown(raw: Any, limit: int = 40) -> str:
    """Text from a link or a box, for a message: shortened, and unable to break out of inline code."""
    raw = str(raw).replace("`", "'").replace("\n", " ")
    return raw if len(raw) <= limit else raw[: limit - 1] + "…"


def _equal(a: Any, b: Any) -> bool:
    try:
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return np.shape(a) == np.shape(b) and bool(np.array_equal(a, b))
        return bool(a == b)
    except (TypeError, ValueError):
        return False


class Links:
    """A page's link keys (see the module's docstring)."""

    def __init__(self, *links: Link | Iterable[Link], page: str | Path | None = None):
        flat: list[Link] = []
        for item in links:
            flat.extend([item] if isinstance(item, Link) else item)
        flat.append(toggle(ROOM, False, "Large text for the room", ROOM_HELP, hand=True,
                           meaning="the view for a projector: page and chart text about 1.6 times as "
                                   "large, the controls folded away (all, or those `hide` names), the "
                                   "sidebar closed"))
        flat.append(text(HIDE, "", "Controls this link hides", "Written by the box 'A link for the class'.",
                         parse=str, fmt=str, hand=True,
                         meaning="this page's link keys whose controls are not drawn (their values still "
                                 "apply), comma separated, or `all`",
                         values="keys of this page's table, or `all`; unknown ones are ignored with a note"))
        self.links: dict[str, Link] = {}
        for link in flat:
            if link.key in self.links:
                raise ValueError(f"link key {link.key!r} declared twice")
            self.links[link.key] = link
        # The page that declared it (app.py's box for the class reads it): the calling file, or `page` for a
        # table declared once in a module (pages/trainer/links.py) rather than by the page on every run.
        self.file = str(Path(page).resolve()) if page is not None else _caller_file()
        _DECLARED[self.file] = self
        self._varies = False   # some key's choices vary by session (vary()): look them up first

    def __getitem__(self, key: str) -> Link:
        if self._varies:
            varied = _store().get("varied")
            if varied and key in varied:
                return varied[key]
        return self.links[key]

    def vary(self, key: str, **changes) -> Link:
        """This session's version of a key's declaration (its choices, default or names for what the page
        shows now), kept in the session: a table declared once per process is shared by every session,
        so it is never changed in place."""
        self._varies = True
        link = replace(self.links[key], **changes)
        _store().setdefault("varied", {})[key] = link
        return link

    def __iter__(self):
        return iter(self.links.values())

    # -- notes --------------------------------------------------------------------------------
    def note(self, key: str, message: str, value: Any = None) -> None:
        """Remember a one-line note for `key`; it shows under the control until its value changes."""
        _store()["notes"][key] = (message, value)

    def ignored(self, key: str, raw: Any, why: str, using: Any) -> None:
        self.note(key, f"Ignored `{key}={shown(raw)}` from the link: {why}; using {self._say(key, using)}.",
                  using)

    def show_note(self, key: str, current: Any = None) -> None:
        notes = _store()["notes"]
        if key not in notes:
            return
        message, value = notes[key]
        if current is not None and value is not None and not _equal(current, value):
            del notes[key]
            return
        st.caption(f":orange[:material/link_off: {message}]")

    def _say(self, key: str, value: Any) -> str:
        link = self[key]
        if link.names and value in link.names:
            return link.names[value]
        if isinstance(value, (list, tuple)) and link.kind == "multi":
            return ", ".join((link.names or {}).get(v, str(v)) for v in value) or "none"
        if isinstance(value, np.ndarray):
            return "the default" if _equal(value, link.default) else "the last good values"
        return link.to_text(value)

    # -- last good values -----------------------------------------------------------------------
    def good(self, key: str) -> Any:
        """The last good value of a typed key (text, matrix, or anything kept through `accept`)."""
        store = _store()["good"]
        link = self[key]
        if key not in store:
            store[key] = link.default
            raw = st.query_params.get(key)
            if link.kind == "multi" and raw is not None:
                store[key] = self._multi_from_link(link)
            elif raw is not None:
                try:
                    store[key] = link.from_text(raw)
                except ValueError as err:
                    if link.kind != "text":  # a text box says it itself, under what it shows
                        self.ignored(key, raw, str(err), link.default)
        return store[key]

    def _multi_from_link(self, link: Link) -> tuple:
        """A hand-bound multi's repeated URL values: the usable ones, and a note for the rest."""
        raws = st.query_params.get_all(link.key)
        good = tuple(c for c in link.choices if str(c) in raws)  # in the table's order
        bad = [r for r in raws if r not in {str(c) for c in link.choices}]
        if bad:
            self.ignored(link.key, "&".join(bad), "not one of " + ", ".join(map(str, link.choices)), good)
        return good

    def accept(self, key: str, candidate: Any, *, text: str | None = None) -> tuple[Any, str | None]:
        """Take a typed value if it parses (text) or checks (a value): store it as the last good value
        and keep the URL in step. Returns (the value in force, the reason it was refused or None)."""
        link = self[key]
        self.good(key)
        try:
            value = link.from_text(candidate) if isinstance(candidate, str) and link.parse else candidate
        except ValueError as err:
            return _store()["good"][key], str(err)
        _store()["good"][key] = value
        if link.by_hand:
            # Every write to st.query_params sends the browser a message with the whole query, on
            # every run: write only what changed (a card of 64 cells would send 64 a run).
            if _equal(value, link.default):
                if key in st.query_params:
                    st.query_params.pop(key, None)
                return value, None
            want = ([link.to_text(c) for c in value] if link.kind == "multi"   # repeated parameters
                    else [text if text is not None else link.to_text(value)])
            if st.query_params.get_all(key) != want:
                st.query_params[key] = want if link.kind == "multi" else want[0]
        return value, None

    def forget(self, key: str) -> None:
        """Back to the default (call from a button's on_click, before the control is drawn)."""
        _store()["good"].pop(key, None)
        _store()["notes"].pop(key, None)
        self._fresh_editor(key)
        if self[key].by_hand:
            st.session_state.pop(key, None)
            st.query_params.pop(key, None)

    @staticmethod
    def editor_base(key: str) -> str:
        """The session key of the frame `key`'s editor (`key + "_editor"`) was first given: a matrix's,
        or a page's own table editor's (the tax schedule); forget() drops both."""
        return f"_{key}_editor_base_{page_id()}"

    def _fresh_editor(self, key: str) -> None:
        st.session_state.pop(f"{key}_editor", None)
        st.session_state.pop(self.editor_base(key), None)

    # -- values before their widget is drawn -------------------------------------------------------
    def value(self, key: str, *, default: Any = _UNSET) -> Any:
        """The value in force for `key` without drawing its control: the widget's state, else the
        link's value if usable, else the default.

        `default=` stands in for the declared default on this run (Streamlit-bound kinds only), for a
        default that depends on another control (a preset's value): pass the same to `widget`.
        """
        link = self._link(key, default)
        if link.kind in ("text", "matrix"):
            return self.good(key)
        if link.kind == "tabs":  # the open tab, also before its tabs are drawn on this run
            open_tab = self.open_tab(link)
            return self.good(key) if open_tab is None else open_tab
        if link.by_hand:
            mine = st.session_state.get(_OWNER, {}).get(key) == page_id()
            if mine and key in st.session_state and link.fits(st.session_state[key]):
                v = st.session_state[key]
                return tuple(v) if link.kind == "multi" else v
            return self.good(key)
        if key in st.session_state and link.fits(st.session_state[key]):
            return st.session_state[key]
        raws = st.query_params.get_all(key)
        with contextlib.suppress(ValueError):
            return link.from_texts(raws) if raws else link.default
        return link.default

    def set(self, key: str, value: Any) -> None:
        """Give a control a new value from code (a button's on_click): it shows and travels in the link."""
        link = self[key]
        if link.kind in ("text", "matrix"):
            if link.kind == "text":
                st.session_state[key] = link.to_text(value)
            else:
                self._fresh_editor(key)
            self.accept(key, value)
        else:
            st.session_state[key] = value
            if link.hand:  # its widget may not be drawn on this run: keep the link in step now
                self.accept(key, value)

    # -- drawing ----------------------------------------------------------------------------------
    def _link(self, key: str, default: Any = _UNSET) -> Link:
        link = self[key]
        if default is _UNSET:
            return link
        if link.by_hand or link.kind in ("text", "matrix"):
            raise ValueError(f"{key}: a per-draw default is for Streamlit-bound kinds only")
        return replace(link, default=default)

    def hideable(self) -> list[str]:
        """The keys a teacher may hide: every control but hand-bound ones and view tabs."""
        return [k for k, link in self.links.items() if k != HIDE and not link.hand and link.kind != "tabs"]

    def hide_also(self, keys) -> None:
        """Hide these keys' controls in this session too, whatever the link says (a class challenge's own
        hide list, chosen by the teacher). Call on every run: an empty list clears it."""
        st.session_state[f"_hide_also:{self.file}"] = frozenset(keys) & set(self.hideable())

    def hidden(self) -> set[str]:
        """The keys whose controls the link hides (`hide=lr,act` or `hide=all`), and those hide_also()
        set for this session; unknown ones in the link get a note."""
        also = set(st.session_state.get(f"_hide_also:{self.file}", ()))
        return self._link_hidden() | also

    def _link_hidden(self) -> set[str]:
        raw = st.query_params.get(HIDE) or ""
        if not raw.strip() and room_on():   # the room sees results, not controls (unless `hide` says which)
            raw = "all"
        names = {k.strip().lower() for k in raw.split(",") if k.strip()}
        if "all" in names:
            return set(self.links) - {HIDE, ROOM}
        unknown = sorted(names - set(self.links))
        if unknown:
            self.note(HIDE, f"Ignored {', '.join(f'`{k}`' for k in unknown)} in `hide=`: no such control on "
                            "this page.")
        return names & set(self.links) - {HIDE}

    def widget(self, key: str, *, label: str | None = None, help: str | None = None,
               default: Any = _UNSET, **kw) -> Any:
        """Draw `key`'s control and return its value (see the module's docstring for how it travels).

        `default=` replaces the declared default on this draw (see `value`): Streamlit leaves a value
        equal to it out of the URL, so a link holds only what was moved away from it. A key the link
        hides (`hide=`) is not drawn: its value (from the link, or the default) still applies.
        """
        if key in self.hidden():
            return self.value(key, default=default)
        link = self._link(key, default)
        label = link.label if label is None else label
        options = {**link.options, **kw, "help": help or link.help}
        if link.kind == "matrix":
            return self.matrix(key, label=label, **options)
        if link.by_hand:
            return self._by_hand(link, label, options)
        raws = st.query_params.get_all(key)
        why = self._unusable(link, raws)
        value = self._draw(link, label, options, bind="query-params")
        if link.kind == "text":
            return self._parsed(link, value)
        dropped = key not in st.query_params or isinstance(value, (list, tuple))
        if raws and (why or (dropped and not _same(raws, value))):
            self.ignored(key, "&".join(raws), why or "it cannot be used here", value)
        self.show_note(key, value)
        return value

    @staticmethod
    def _unusable(link: Link, raws: list[str]) -> str | None:
        """Why a number a link gives a Streamlit-bound slider or box cannot be used (None: it can, or
        Streamlit checks it itself). Such a value is taken out of the link before the widget is drawn:
        Streamlit would try it first, and `?seed=inf` or a 400-digit number on a whole-number box raised
        OverflowError out of its URL seeding (a traceback instead of the page)."""
        if not raws or link.kind not in ("slider", "number"):
            return None
        try:
            link.from_text(raws[-1])
        except (ValueError, OverflowError) as err:
            from engine import private

            private.drop_link_value(link.key)
            return str(err) or "not a number"
        return None

    def _draw(self, link: Link, label: str, options: dict, **bind) -> Any:
        k, d = link.key, link.default
        if link.kind in ("slider", "number"):
            draw = st.slider if link.kind == "slider" else st.number_input
            return draw(label, link.lo, link.hi, d, link.step, key=k, format=link.number_format,
                        **bind, **options)
        if link.kind == "toggle":
            return st.toggle(label, d, key=k, **bind, **options)
        if link.kind == "multi":
            if link.names and not bind:
                names = link.names
                options.setdefault("format_func", lambda c: names.get(c, str(c)))
            return tuple(st.multiselect(label, list(link.choices), default=list(d), key=k, **bind, **options))
        if link.kind == "select_slider":
            return st.select_slider(label, list(link.choices), d, key=k, **bind, **options)
        if link.kind == "text":
            return st.text_input(label, link.to_text(d), key=k, **bind, **options)
        choices = list(link.choices)
        names = link.names
        if names:
            options.setdefault("format_func", lambda c: names.get(c, str(c)))
        index = choices.index(d)
        if link.kind == "radio":
            return st.radio(label, choices, index=index, key=k, **bind, **options)
        return st.selectbox(label, choices, index=index, key=k, **bind, **options)

    def _parsed(self, link: Link, typed: str) -> Any:
        """A bound text box: parse what it holds; keep the last good value when it does not parse."""
        key = link.key
        value, why = self.accept(key, typed)
        if why is not None:
            self.note(key, f"Ignored `{key}={shown(typed)}`: {why}; using {self._say(key, value)}.", typed)
        self.show_note(key, typed)
        return value

    def _by_hand(self, link: Link, label: str, options: dict) -> Any:
        """A choice bound by hand, so that the URL keeps the short value while the widget shows a name."""
        key = link.key
        here = st.session_state.get(_OWNER, {}).get(key) == page_id()
        if key not in st.session_state or not here or not link.fits(st.session_state[key]):
            # First draw here, or the value belongs to another page that uses the same short key:
            # start from this page's last good value (its link, else its default).
            good = self.good(key)
            st.session_state[key] = list(good) if link.kind == "multi" else good
        self.own(key)
        value = self._draw(link, label, options)
        self.accept(key, value)
        self.show_note(key, value)
        return value

    @staticmethod
    def own(key: str) -> None:
        """This page now holds the session's widget state of hand-bound `key` (a short key another page
        may use too): value() and the next draw read it as this page's."""
        st.session_state.setdefault(_OWNER, {})[key] = page_id()

    @staticmethod
    def open_tab(link: Link) -> Any:
        """The choice whose tab this page's tabs (`link.key + "_tab"`, a tabs kind's widget: the trainer's
        view, pages/trainer/links.py) have open, or None if they hold none of this page's."""
        if st.session_state.get(_OWNER, {}).get(link.key) != page_id():
            return None
        label = st.session_state.get(f"{link.key}_tab")
        return next((c for c, name in (link.names or {}).items() if name == label), None)

    def matrix(self, key: str, *, label: str | None = None, help: str | None = None,
               row_labels=None, col_labels=None, number_format: str = "%.2f", show_label: bool = True,
               **_ignored) -> np.ndarray:
        """An editable matrix (or vector) in the link; returns the last good value, shape of the default.

        The editor's own widget key is `key + "_editor"`. A cell left empty or holding no number gets
        one line under the matrix, and the page keeps computing with the last good matrix.
        """
        import pandas as pd

        link = self[key]
        label = link.label if label is None else label
        good = np.asarray(self.good(key), dtype=float)
        base = st.session_state.get(self.editor_base(key))
        if f"{key}_editor" not in st.session_state or base is None or np.shape(base) != good.shape:
            # A fresh editor (first draw, or not drawn on the last run so Streamlit dropped its
            # edits): start it from the last good values. While it lives its base stays put, since
            # the editor's edits are kept relative to the frame it was first given.
            base = good
            st.session_state[self.editor_base(key)] = base
        shown_m = np.atleast_2d(base)
        rows = list(row_labels) if row_labels is not None else [str(i + 1) for i in range(shown_m.shape[0])]
        cols = list(col_labels) if col_labels is not None else [str(j + 1) for j in range(shown_m.shape[1])]
        if label and show_label:
            st.caption(f"**{label}**: {help or link.help}")
        edited = st.data_editor(
            pd.DataFrame(shown_m, index=rows, columns=cols), key=f"{key}_editor", num_rows="fixed",
            width="content",
            # Six columns or more: narrow ones, so a phone's 390 px hold the whole matrix.
            column_config={c: st.column_config.NumberColumn(c, format=number_format, step=0.01,
                                                            width=52 if len(cols) >= 6 else None)
                           for c in cols},
        )
        values = edited.to_numpy(dtype=float).reshape(link.default.shape)
        bad = np.argwhere(~np.isfinite(np.atleast_2d(values)))
        if bad.size:
            i, j = bad[0]
            st.error(f"{label or key}: row {rows[i]}, column {cols[j]} is empty or not a number; "
                     "still using the last good values.", icon=":material/error:")
        else:
            self.accept(key, values)
        value = np.array(self.good(key))
        self.show_note(key, value)
        return value



def _same(raws: list[str], value: Any) -> bool:
    """Do the raw URL texts mean the widget's value (Streamlit drops values equal to defaults)?"""
    if isinstance(value, (list, tuple)):
        return sorted(raws) == sorted(str(v) for v in value)
    raw = raws[-1]
    if isinstance(value, bool):
        return raw.strip().lower() == str(value).lower()
    if isinstance(value, (int, float)):
        try:
            return float(raw) == float(value)
        except ValueError:
            return False
    return raw == str(value)


HIDE = "hide"
ROOM = "big"            # every page: the large-text view for the room (ui/room.py draws its toggle)
ROOM_WIDGET = "_room"   # that toggle's widget key
ROOM_HELP = ("For a projector: text and charts large enough for the back row, controls folded away, the "
             "sidebar closed. Switch off to see the controls again.")


def room_on() -> bool:
    """The large-text view is on: the sidebar toggle's state, else the link's `big=true`."""
    if ROOM_WIDGET in st.session_state:
        return bool(st.session_state[ROOM_WIDGET])
    return (st.query_params.get(ROOM) or "").strip().lower() == "true"

_DECLARED: dict[str, Links] = {}   # absolute page file -> the Links it declared on its last run


def _caller_file() -> str:
    import sys

    frame = sys._getframe(2)
    return str(Path(frame.f_code.co_filename).resolve())


def declared(path) -> Links | None:
    """The Links a page file declared on its last run in this process (None: it declares none)."""
    return _DECLARED.get(str(Path(path).resolve()))


def page_links(path: str) -> Links | None:
    """The LINKS table declared by a page file, read without running the page (pages guard their
    body with `if __name__ == "__main__":`, which is how Streamlit runs them)."""
    return getattr(page_top(path, "page"), "LINKS", None)


def page_top(path: str, what: str):
    """A page file's top run as a module of its own (its body waits for `__main__`)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"_layerlab_{what}_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module
