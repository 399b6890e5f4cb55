"""A classifier's map in words, for a student who cannot see it (issue 48 item 1).

From the map the trainer already draws (each grid cell's class, lib.maps.labels_of) this writes what a
sighted student reads off the picture: which part of the square each class holds ("class 1 holds the
upper-left and lower-right quarters"), where the boundary meets the square's edges, how many separate
regions there are, and where the points the network gets wrong sit.

The grid is lib.regions.grid's: labels (res, res) indexed [y, x], row 0 at the bottom (y = -limit), so
"upper" is the last rows. Regions are 4-connected (scipy.ndimage.label's default): two cells that touch
only at a corner are two regions, as the eye sees the checkerboard's four squares.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import ndimage

FULL, EMPTY = 0.85, 0.15  # a part of the square a class covers this much is "held", this little "not held"
FIT = 0.06                # ...and the quarters held are the class's share of the square to within this
SPECK = 0.005            # a region under this share of the square is a speck (counted, not described)
NOTABLE = 0.01           # a region described by where it is: at least this share of the square
MAX_CROSSINGS = 6        # crossings listed one by one; more are counted
MINUS = "\u2212"

QUARTERS = ("upper-left", "upper-right", "lower-left", "lower-right")   # reading order
_HALVES = {frozenset({"upper-left", "upper-right"}): "the upper half",
           frozenset({"lower-left", "lower-right"}): "the lower half",
           frozenset({"upper-left", "lower-left"}): "the left half",
           frozenset({"upper-right", "lower-right"}): "the right half"}
# 3 x 3 zones of the square, [row third][column third], row 0 at the bottom
ZONES = (("in the lower left", "at the bottom", "in the lower right"),
         ("on the left", "in the centre", "on the right"),
         ("in the upper left", "at the top", "in the upper right"))


def number(v: float) -> str:
    """One decimal, with the typographic minus (as ui.fmt writes numbers)."""
    s = f"{v:.1f}"
    s = "0.0" if s == "-0.0" else s
    return s.replace("-", MINUS)


def _quarter_cover(mask: np.ndarray) -> dict[str, float]:
    """Share of each quarter of the square the mask covers (res, res) -> {quarter: share}."""
    h = mask.shape[0] // 2
    w = mask.shape[1] // 2
    parts = {"lower-left": mask[:h, :w], "lower-right": mask[:h, w:],
             "upper-left": mask[h:, :w], "upper-right": mask[h:, w:]}
    return {q: float(p.mean()) for q, p in parts.items()}


def quarters_held(mask: np.ndarray) -> frozenset | None:
    """The quarters a class holds when its part of the square is a set of whole quarters (each quarter
    covered at least FULL or at most EMPTY, one at least held, not all four, and the class's share of the
    square within FIT of theirs); else None."""
    cover = _quarter_cover(mask)
    if any(EMPTY < c < FULL for c in cover.values()):
        return None
    held = frozenset(q for q, c in cover.items() if c >= FULL)
    if not 0 < len(held) < 4 or abs(mask.mean() - len(held) / 4) > FIT:
        return None
    return held


def quarters_words(held: frozenset) -> str:
    """"the upper half", "the upper-left and lower-right quarters", "every quarter but the lower-right"."""
    if len(held) == 1:
        return f"the {next(iter(held))} quarter"
    if len(held) == 2:
        a, b = (q for q in QUARTERS if q in held)
        return _HALVES.get(held) or f"the {a} and {b} quarters"
    missing = next(q for q in QUARTERS if q not in held)
    return f"every quarter but the {missing}"


def zone(x: float, y: float, limit: float) -> str:
    """Where a point sits in the square, in words ("in the upper left", "in the centre")."""
    def third(v: float) -> int:
        return int(np.clip(np.floor((v + limit) / (2 * limit) * 3), 0, 2))
    return ZONES[third(y)][third(x)]


def _regions(mask: np.ndarray):
    """The 4-connected regions of a mask: (labels, sizes as shares of the square, touches an edge)."""
    lab, n = ndimage.label(mask)
    if n == 0:
        return lab, np.zeros(0), np.zeros(0, dtype=bool)
    sizes = np.bincount(lab.ravel(), minlength=n + 1)[1:] / mask.size               # (n,)
    border = np.unique(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]))
    edge = np.isin(np.arange(1, n + 1), border)                                    # (n,)
    return lab, sizes, edge


def _region_words(lab, sizes, edge, xs, ys, limit) -> list[str]:
    """Each notable region of one class by where its middle is and how much of the square it takes."""
    words = []
    for i in np.argsort(-sizes):
        if sizes[i] < NOTABLE:
            continue
        rows, cols = np.nonzero(lab == i + 1)
        where = zone(float(xs[cols].mean()), float(ys[rows].mean()), limit)
        kind = "a region" if edge[i] else "an island"
        words.append(f"{kind} {where}, about {round(100 * sizes[i])} % of the square")
    return words


def class_parts(labels, xs, ys, limit: float, k: int) -> list[dict]:
    """Per class: its share of the square, its regions and how they read.

    Returns one dict per class: share (float), regions (int, specks included), specks (int),
    quarters (frozenset or None), islands (bool: every notable region is enclosed), words (str: what it
    holds, "" for a class the square does not hold)."""
    labels = np.asarray(labels)
    out = []
    for c in range(k):
        mask = labels == c
        lab, sizes, edge = _regions(mask)
        held = quarters_held(mask)
        notable = sizes >= NOTABLE
        if mask.mean() >= 0.995:
            words = "the whole square"
        elif held is not None:
            words = quarters_words(held)
        else:
            words = " and ".join(_region_words(lab, sizes, edge, xs, ys, limit))
        out.append(dict(share=float(mask.mean()), regions=len(sizes), specks=int((sizes < SPECK).sum()),
                        quarters=held, islands=bool(notable.any() and not edge[notable].any()), words=words))
    return out


def holds(parts: list[dict], names: list[str]) -> str:
    """"Class 1 holds the upper-left and lower-right quarters; class 0 the rest." The largest class that is
    not a set of whole quarters is "the rest" (all around, when the others are islands)."""
    present = [c for c, p in enumerate(parts) if p["words"]]
    if len(present) == 1:
        return f"The network gives the whole square to {names[present[0]]}: there is no boundary."
    loose = [c for c in present if parts[c]["quarters"] is None]
    rest = max(loose, key=lambda c: parts[c]["share"]) if loose else None
    said = [c for c in present if c != rest]
    bits = [f"{names[c]} holds {parts[c]['words']}" if i == 0 else f"{names[c]} {parts[c]['words']}"
            for i, c in enumerate(said)]
    if rest is not None:
        around = all(parts[c]["islands"] for c in said)
        where = f": {parts[rest]['words']}" if len(present) > 2 and not around else ""
        bits.append(f"{names[rest]} the rest" + (", all around" if around else where))
    text = "; ".join(bits) + "."
    return text[0].upper() + text[1:]


def edge_crossings(labels, xs, ys) -> list[tuple[str, str, float]]:
    """Where the boundary meets the square's edges, walking around it anticlockwise from the lower-left
    corner: (edge, axis, position) each, e.g. ("bottom", "x₁", -0.1)."""
    labels = np.asarray(labels)
    walk = [("bottom", "x₁", labels[0, :], xs),
            ("right", "x₂", labels[:, -1], ys),
            ("top", "x₁", labels[-1, ::-1], xs[::-1]),
            ("left", "x₂", labels[::-1, 0], ys[::-1])]
    out = []
    for name, axis, line, at in walk:
        for j in np.nonzero(line[1:] != line[:-1])[0]:
            out.append((name, axis, float((at[j] + at[j + 1]) / 2)))
    return out


def straight(labels) -> bool:
    """The boundary is one straight line: two classes, its cells all within about a cell of one line."""
    from lib.maps import boundary_cells

    labels = np.asarray(labels)
    if len(np.unique(labels)) != 2:
        return False
    rows, cols = np.nonzero(boundary_cells(labels))
    if len(rows) < 3:
        return False
    P = np.column_stack([cols, rows]).astype(float)                                # (m, 2)
    P -= P.mean(axis=0)
    spread = np.linalg.svd(P, compute_uv=False)                                    # (2,)
    return bool(spread[1] / np.sqrt(len(P)) < 1.0)   # rms distance from the line, in cells


def crossings_words(labels, xs, ys, num: Callable[[float], str] = number) -> str:
    """"The boundary meets the square's edges 2 times: the left edge at x₂ = 0.4, the top edge at ..."."""
    cross = edge_crossings(labels, xs, ys)
    if not cross:
        return "The boundary does not reach the square's edges: it closes on itself."
    if len(cross) > MAX_CROSSINGS:
        return f"The boundary meets the square's edges {len(cross)} times."
    where = ", ".join(f"the {e} edge at {a} = {num(v)}" for e, a, v in cross)
    line = " It is a straight line." if len(cross) == 2 and straight(labels) else ""
    times = {1: "once", 2: "twice"}.get(len(cross), f"{len(cross)} times")
    return f"The boundary meets the square's edges {times}: {where}.{line}"


def regions_words(parts: list[dict]) -> str:
    """"4 separate regions." (with the specks counted apart)."""
    specks = sum(p["specks"] for p in parts)
    big = sum(p["regions"] for p in parts) - specks
    text = f"{big} separate region{'s' if big != 1 else ''}"
    if specks:
        text += f" (and {specks} speck{'s' if specks != 1 else ''} under {100 * SPECK:g} % of the square)"
    return text + "."


def wrong_words(X, y, predicted, limit: float, what: str, names: list[str], most: int = 3) -> str:
    """Where the points the network gets wrong sit: "2 of 150 training points are on the wrong side: class 0
    in the upper left (1), class 1 in the centre (1)." (the `most` commonest places)."""
    X, y, predicted = np.asarray(X, dtype=float), np.asarray(y).astype(int), np.asarray(predicted).astype(int)
    n = len(y)
    if n == 0:
        return ""
    wrong = np.nonzero(y != predicted)[0]
    if len(wrong) == 0:
        return f"All {n} {what} points are on their class's side."
    places: dict[tuple[str, str], int] = {}
    for i in wrong:
        key = (names[y[i]], zone(float(X[i, 0]), float(X[i, 1]), limit))
        places[key] = places.get(key, 0) + 1
    top = sorted(places.items(), key=lambda kv: (-kv[1], kv[0]))[:most]
    listed = ", ".join(f"{who} {where} ({count})" for (who, where), count in top)
    more = ", and elsewhere" if len(places) > most else ""
    side = "is on the wrong side" if len(wrong) == 1 else "are on the wrong side"
    return f"{len(wrong)} of {n} {what} points {side}: {listed}{more}."


def describe(labels, limit: float, k: int = 2, names: list[str] | None = None, *, brief: bool = False,
             points=(), num: Callable[[float], str] = number) -> str:
    """The map in words. labels (res, res): each grid cell's class (lib.maps.labels_of), on
    lib.regions.grid(limit, res). brief: only what each class holds (for a live region while training
    plays); else also the edge crossings, the count of regions and `points`: (what, X (n, 2), y (n,),
    predicted (n,)) per set, e.g. ("training", ...)."""
    labels = np.asarray(labels)
    res = labels.shape[0]
    xs = ys = np.linspace(-limit, limit, res)
    names = names or [f"class {c}" for c in range(k)]
    parts = class_parts(labels, xs, ys, limit, k)
    text = [holds(parts, names)]
    if brief or sum(1 for p in parts if p["words"]) < 2:
        return text[0]
    text.append(crossings_words(labels, xs, ys, num))
    text.append(regions_words(parts))
    for what, X, y, predicted in points:
        said = wrong_words(X, y, predicted, limit, what, names)
        if said:
            text.append(said)
    return " ".join(text)
