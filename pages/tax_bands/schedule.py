"""The tax schedule's editor: bands added and removed in a table, checked by lib, kept by ui.state.

st.data_editor cannot be bound to the URL, so the page declares `bands` with `link()`: a key that
ui.state keeps in the URL by hand in lib.tax's compact form (`bands=0:0,12570:20,50270:40,125140:45`,
threshold:rate% per band), reads back with lib.tax.parse_bands (a bad one gets ui.state's one-line
note) and keeps the last good value of. Its value is None while the schedule is the chosen
preset's, so the link carries bands only when they were edited away from the preset.
The editor hands every edit that lib.tax.validate_schedule accepts to `LINKS.accept`; a refused
edit gets one line under the table and the page keeps the last good schedule. Choosing another
preset, or "Back to the preset", calls `LINKS.forget`, which also gives the editor a fresh start.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from lib.tax import Schedule, ScheduleError, format_bands, parse_bands, validate_schedule
from ui import state

PRESET_BANDS = "the preset's bands"


def _fmt(bands) -> str:
    return PRESET_BANDS if bands is None else format_bands(*bands)


def link(key: str = "bands") -> state.Link:
    """The declaration of the schedule's link key.

    Kind "matrix" is ui.state's by-hand URL form (parse / fmt, dropped when equal to the default,
    last good value, note); the page draws the editor itself and hands its rows to `accept`.
    """
    return state.Link(
        key, "matrix", None, "Tax schedule",
        "Each row is a band: income above its threshold (and below the next) is taxed at its rate.",
        parse=parse_bands, fmt=_fmt,
        meaning="the tax schedule, when edited away from the preset: threshold:rate% per band",
        values="e.g. `0:0,12570:20,50270:40,125140:45` (the preset's bands)")


def same(a, b) -> bool:
    return (len(a[0]) == len(b[0]) and np.allclose(a[0], b[0], rtol=0, atol=1e-9)
            and np.allclose(a[1], b[1], rtol=0, atol=1e-12))


def editor(links: state.Links, preset: Schedule, key: str = "bands") -> tuple[np.ndarray, np.ndarray]:
    """Draw the schedule editor; return the last good (thresholds (k,), rates (k,) as fractions)."""
    preset_bands = (np.asarray(preset.thresholds, dtype=float), preset.rates)
    good = links.value(key)
    widget = f"{key}_editor"
    base = st.session_state.get(links.editor_base(key))
    if widget not in st.session_state or base is None:
        # A fresh editor starts from the schedule in force; while it lives its frame stays put,
        # because the editor's edits are kept relative to the frame it was first given.
        base = st.session_state[links.editor_base(key)] = preset_bands if good is None else good
    t, r = base
    edited = st.data_editor(
        pd.DataFrame({"threshold": t, "rate": np.round(100.0 * np.asarray(r), 6)}), key=widget,
        num_rows="dynamic", hide_index=True, width="stretch",
        column_config={
            "threshold": st.column_config.NumberColumn(
                f"threshold ({preset.currency or 'income'})", format="localized", step=1.0,
                help="Income above this amount (and below the next threshold) is taxed at this row's rate."),
            "rate": st.column_config.NumberColumn(
                "rate (%)", format="%.2f", step=0.5,
                help="Percent taken from each extra unit of income in this band, 0 to 100."),
        },
    )
    typed = edited.dropna(how="all")  # a row just added and not yet typed into means nothing yet
    try:
        bands = validate_schedule(typed["threshold"].tolist(), typed["rate"].tolist())
    except ScheduleError as err:
        st.error(f"Schedule: {err}. Still using the last good schedule.", icon=":material/error:")
    else:
        links.accept(key, None if same(bands, preset_bands) else bands)
    links.show_note(key)
    good = links.good(key)
    return preset_bands if good is None else (np.array(good[0]), np.array(good[1]))


def forget_edits(links: state.Links, key: str = "bands") -> None:
    """Back to the preset's bands (an on_click / on_change callback): the editor starts afresh (forget
    drops the editor and the frame it was given)."""
    links.forget(key)
