"""A widget that asks Session State about its own key looks up that key, not the whole state.

Why. Streamlit 1.67's selectbox, number_input, text_input, text_area, radio, slider and the date and
time inputs each begin with `get_session_state().filtered_state`, to ask one thing: is this widget's
key set, and to None? `filtered_state` builds the whole user-visible state for that, presenting every
value in it; a keyed custom component's value (every chart here: ui/inplace.py) is presented by
defining a new class on each call. /trainer draws 11 selectboxes, a number input and 2 text inputs
beside 9 charts, so a data move spent 9 ms of its 60 ms script run building a dict 14 times to read
one key from it each time (py-spy, docs/PROFILE.md round 6).

`install()` hands those widget modules a session state whose `filtered_state` is a read-only view:
`key in view` and `view[key]` go straight to Session State's own lookup of that one key (the same
lookup `st.session_state[key]` does, with its presenter), anything else (iterating, a widget id, an
internal key) reads the full `filtered_state` as before. Everything else the modules ask of the state
is passed through. tests/app/test_keylookup.py checks the view against `filtered_state` key by key on
a drawn /trainer. Idempotent; app.py installs it (LAYERLAB_KEYLOOKUP=0 leaves Streamlit as it is).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from engine import private

# The widget modules whose first look at Session State is `get_session_state().filtered_state`.
MODULES = tuple(private.NAMES[n][0] for n in private.PATCH_NEEDS["keylookup"] if n.startswith("widgets."))
_MARK = "_layer_lab_keylookup"


def _plain_user_key(key: object) -> bool:
    """A key the view answers itself: a user's key (not a widget id, not Streamlit's internal one)."""
    return (isinstance(key, str) and not private.get("is_element_id")(key)
            and not key.startswith(private.get("STREAMLIT_INTERNAL_KEY_PREFIX")))


class OneKey(Mapping):
    """`filtered_state` as a widget reads it: one user key at a time, from Session State itself."""

    __slots__ = ("_state",)

    def __init__(self, state) -> None:
        self._state = state

    def __contains__(self, key: object) -> bool:
        if not _plain_user_key(key):
            return key in self._state.filtered_state
        return key in self._state

    def __getitem__(self, key: str) -> Any:
        if not _plain_user_key(key):
            return self._state.filtered_state[key]
        return self._state[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._state.filtered_state)

    def __len__(self) -> int:
        return len(self._state.filtered_state)


class _ForWidgets:
    """The session state a widget module gets: the real one, with `filtered_state` a OneKey view."""

    __slots__ = ("_state",)

    def __init__(self, state) -> None:
        self._state = state

    @property
    def filtered_state(self) -> OneKey:
        return OneKey(self._state)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def install() -> bool:
    """Give the widget modules the one-key view (once per process). Returns whether every module had
    the `get_session_state` it expects (False: nothing is changed)."""
    if private.missing("keylookup"):
        return False
    mods = [importlib.import_module(name) for name in MODULES]
    for m in mods:
        real = m.get_session_state
        if getattr(real, _MARK, False):
            continue

        def for_widgets(real=real) -> _ForWidgets:
            return _ForWidgets(real())

        setattr(for_widgets, _MARK, True)
        m.get_session_state = for_widgets
    return True
