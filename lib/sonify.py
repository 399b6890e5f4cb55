"""A map and a curve as sound: the notes a Listen button plays (issue 48 item 2).

A sweep walks the map along lines (row by row from the top, or one line the student picks) and plays a
note every few cells: its pitch says how sure the network is there (low: unsure, near the boundary; high:
sure), its timbre which class it picks (a wave shape per class), its place in stereo where it is from
left to right; a click sounds wherever the class changes between two cells of the line, at full
resolution, so a thin strip between two notes is still heard. A curve (the loss) plays the same way:
pitch for its value, on a log scale, first the training curve, then the test curve in another timbre.

Everything is numbers here; the page's JavaScript only schedules them (pages/trainer/listen.py). The
result is a dict of lists: t (s, when each note starts), f (Hz), w (wave: 0..4), p (pan, -1 left .. 1
right), clicks (s), and length (s, when the last sound ends).
"""

from __future__ import annotations

import numpy as np

LOW, HIGH = 220.0, 880.0   # Hz: unsure (or the curve's lowest) .. sure (or the curve's highest), two octaves
NOTE = 0.07                # s per note
GAP = 0.35                 # s of silence between two lines (rows of the map, the two curves)
NOTES = 24                 # notes per line
ROWS = 9                   # rows in a row-by-row sweep
CURVE_NOTES = 40           # notes per curve
LINES = ("rows", "row", "column", "rising", "falling")


def confidence(raw) -> tuple[np.ndarray, np.ndarray]:
    """The class a map picks per cell and how sure it is, 0 (a toss-up) .. 1 (certain).

    raw : (res, res) P(class 1) of a two-class network, or (res, res, k) class probabilities
    Returns cls (res, res) int and sure (res, res) float in [0, 1]; a non-finite cell is class 0, unsure.
    """
    raw = np.asarray(raw, dtype=float)
    if raw.ndim == 2:
        ok = np.isfinite(raw)
        p = np.where(ok, raw, 0.5)
        return (p > 0.5).astype(int), np.where(ok, np.clip(np.abs(2 * p - 1), 0, 1), 0.0)
    k = raw.shape[-1]
    ok = np.isfinite(raw).all(axis=-1)
    P = np.where(ok[..., None], raw, 1.0 / k)
    sure = (P.max(axis=-1) - 1.0 / k) / (1.0 - 1.0 / k)
    return P.argmax(axis=-1).astype(int), np.clip(sure, 0.0, 1.0)


def pitch(level) -> np.ndarray:
    """Level 0..1 as a frequency, evenly in octaves from LOW to HIGH (the ear hears ratios)."""
    return LOW * (HIGH / LOW) ** np.clip(np.asarray(level, dtype=float), 0.0, 1.0)


def lines(res: int, what: str, at: float = 0.5) -> list[tuple[np.ndarray, np.ndarray]]:
    """The cells each line of a sweep visits, in order, as (rows, cols) index arrays. Row 0 is the map's
    bottom (lib.regions.grid).

    what: "rows" (ROWS rows from the top down, each left to right), "row" (one row, left to right, at
    height `at` from 0 bottom to 1 top), "column" (one column, bottom to top, at `at` from 0 left to 1
    right), "rising" (the diagonal from the lower left to the upper right), "falling" (upper left to
    lower right)."""
    full = np.arange(res)
    one = round(float(np.clip(at, 0.0, 1.0)) * (res - 1))
    if what == "rows":
        return [(np.full(res, r), full) for r in np.linspace(res - 1, 0, ROWS).round().astype(int)]
    if what == "row":
        return [(np.full(res, one), full)]
    if what == "column":
        return [(full, np.full(res, one))]
    if what == "rising":
        return [(full, full)]
    if what == "falling":
        return [(full[::-1], full)]
    raise ValueError(f"unknown line {what!r}: one of {', '.join(LINES)}")


def sweep(cls, level, paths, notes: int = NOTES) -> dict:
    """The notes of a map played along `paths` (lines()): every line `notes` notes long, GAP between lines.

    cls : (res, res) int, the class per cell (its wave); level : (res, res) in [0, 1], the pitch's level
    """
    cls, level = np.asarray(cls), np.asarray(level, dtype=float)
    res = cls.shape[1]
    t, f, w, p, clicks = [], [], [], [], []
    start = 0.0
    span = (notes - 1) * NOTE                       # s from a line's first note to its last
    for rows, cols in paths:
        m = len(rows)
        pick = np.linspace(0, m - 1, notes).round().astype(int)                  # (notes,)
        t += (start + pick / (m - 1) * span).tolist()
        f += pitch(level[rows[pick], cols[pick]]).tolist()
        w += cls[rows[pick], cols[pick]].tolist()
        p += (cols[pick] / (res - 1) * 2 - 1).tolist()
        seen = cls[rows, cols]                                                   # (m,) at full resolution
        for j in np.nonzero(seen[1:] != seen[:-1])[0]:
            clicks.append(start + (j + 0.5) / (m - 1) * span)
        start += span + NOTE + GAP
    return _rounded(t, f, w, p, clicks, start - GAP)


def curve(*values, notes: int = CURVE_NOTES) -> dict:
    """Curves (the training loss, then the test loss) as notes: `notes` points per curve evenly along it,
    pitch on one log scale for all of them (the lowest value LOW, the highest HIGH), curve i in wave
    2 * i (sine, then sawtooth), panned left to right as it goes. Non-finite or non-positive values are
    left out."""
    keep = [np.asarray(v, dtype=float) for v in values]
    keep = [v[np.isfinite(v) & (v > 0)] for v in keep]
    logs = np.log(np.concatenate([v for v in keep if len(v)])) if any(len(v) for v in keep) else np.zeros(0)
    lo, hi = (float(logs.min()), float(logs.max())) if len(logs) else (0.0, 1.0)
    t, f, w, p = [], [], [], []
    start = 0.0
    for i, v in enumerate(keep):
        if len(v) < 2:
            continue
        pick = np.linspace(0, len(v) - 1, notes).round().astype(int)             # (notes,)
        level = (np.log(v[pick]) - lo) / (hi - lo) if hi > lo else np.full(notes, 0.5)
        t += (start + np.arange(notes) * NOTE).tolist()
        f += pitch(level).tolist()
        w += [2 * i] * notes
        p += np.linspace(-1, 1, notes).tolist()
        start += notes * NOTE + GAP
    return _rounded(t, f, w, p, [], max(start - GAP, 0.0))


def _rounded(t, f, w, p, clicks, length) -> dict:
    """Short numbers for the browser: ms for times, 0.1 Hz, pans to 0.01."""
    return {"t": [round(v, 3) for v in t], "f": [round(v, 1) for v in f], "w": [int(v) for v in w],
            "p": [round(v, 2) for v in p], "clicks": [round(v, 3) for v in clicks],
            "length": round(length, 3)}
