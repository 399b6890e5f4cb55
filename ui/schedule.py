"""An editable tax schedule: bands added and removed in a table, checked by lib, kept in the link.

st.data_editor cannot be bound to the URL, so the schedule keeps a compact form in
st.query_params by hand (`bands=0:0,12570:20,50270:40,125140:45`, threshold:rate% per band)
and drops it when the schedule equals the chosen preset. A schedule lib.tax.validate_schedule
refuses gets one line under the table, and the page keeps the last good schedule.
Choosing another preset replaces the edits with that preset.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from lib.tax import Schedule, ScheduleError, format_bands, parse_bands, validate_schedule
from ui import links

_GOOD, _BASE, _PRESET, _VERSION = "_bands_good", "_bands_base", "_bands_preset", "_bands_version"


def _restart(start: tuple[np.ndarray, np.ndarray], preset_key: str) -> None:
    st.session_state[_GOOD] = st.session_state[_BASE] = start
    st.session_state[_PRESET] = preset_key
    st.session_state[_VERSION] = st.session_state.get(_VERSION, 0) + 1  # a fresh editor


def reset_schedule(preset: Schedule, key: str = "bands") -> None:
    """Back to the preset's bands (call from a button's on_click, before the editor is drawn)."""
    _restart((np.asarray(preset.thresholds, dtype=float), preset.rates), preset.key)
    st.query_params.pop(key, None)


def schedule_input(preset: Schedule, *, key: str = "bands") -> tuple[np.ndarray, np.ndarray, bool]:
    """Draw the schedule editor; return the last good (thresholds (k,), rates (k,) as fractions)
    and whether it differs from the preset."""
    preset_bands = (np.asarray(preset.thresholds, dtype=float), preset.rates)
    if _PRESET not in st.session_state:
        start, raw = preset_bands, st.query_params.get(key)
        if raw is not None:
            try:
                start = parse_bands(raw)
            except ScheduleError as err:
                links.note(key, links.ignored(key, raw, f"{err}; using the {preset.key} preset"),
                           format_bands(*preset_bands))
        _restart(start, preset.key)
    elif st.session_state[_PRESET] != preset.key:
        reset_schedule(preset, key)  # another preset was chosen: its bands replace the edits

    t, r = st.session_state[_BASE]
    frame = pd.DataFrame({"threshold": t, "rate": 100.0 * np.asarray(r)})
    edited = st.data_editor(
        frame, key=f"bands_editor_{st.session_state[_VERSION]}", num_rows="dynamic",
        hide_index=True, width="stretch",
        column_config={
            "threshold": st.column_config.NumberColumn(
                f"threshold ({preset.currency or 'income'})", format="localized", step=1.0,
                help="Income above this amount (and below the next threshold) is taxed at this row's rate."),
            "rate": st.column_config.NumberColumn(
                "rate (%)", format="%.2f", step=0.5,
                help="Percent taken from each extra unit of income in this band, 0 to 100."),
        },
    )
    # A row just added and not yet typed into means nothing yet: skip it without a message.
    typed = edited.dropna(how="all")
    try:
        good = validate_schedule(typed["threshold"].tolist(), typed["rate"].tolist())
    except ScheduleError as err:
        st.error(f"Schedule: {err}. Still using the last good schedule.", icon=":material/error:")
    else:
        st.session_state[_GOOD] = good
        if _same(good, preset_bands):
            st.query_params.pop(key, None)
        else:
            st.query_params[key] = format_bands(*good)
    t, r = st.session_state[_GOOD]
    links.show_note(key, format_bands(t, r))  # the note goes once the schedule is edited
    return np.array(t), np.array(r), not _same((t, r), preset_bands)


def _same(a, b) -> bool:
    return (len(a[0]) == len(b[0]) and np.allclose(a[0], b[0], rtol=0, atol=1e-9)
            and np.allclose(a[1], b[1], rtol=0, atol=1e-12))


def money(v: float, currency: str, decimals: int | None = None) -> str:
    """An amount for the page: '£12,570', '$17,053.00'; whole numbers without decimals unless asked."""
    v = float(v) + 0.0  # no '-0'
    if decimals is None:
        decimals = 0 if v == round(v) else 2
    sign = "−" if v < 0 else ""
    return f"{sign}{currency}{abs(v):,.{decimals}f}"
