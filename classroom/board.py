"""The class's board, as every viewer of this process shares it: settings, counts and the leaderboard read
once a second per class (at once after a change made here: `changed`), the board's table and the class
charts built once from that read, every submission read the same way; a stored row as the board may draw
it (`readable`); the teacher's downloads; and the challenge's data, from a trainer view and in words.
"""

from __future__ import annotations

import itertools
import json

import streamlit as st

from classroom import connection
from classroom.pictures import bend_name, class_chart, class_chart_words, reveal_chart
from classroom.text import BAD, cell, name_text
from lib.challenge import read_submission
from store import ClassInfo, Counts, Row, Store, normal_code
from ui import fmt

BOARD_TTL = 1.0   # seconds a class's board is shared by every viewer of this process
SUBMITTED = "submitted"   # the board's time column: a moment in the shared table, words on each screen


_GENERATION: dict[str, int] = {}   # class code -> the last change this process made to it
_CHANGES = itertools.count(1)


def board_now(code: str) -> tuple[ClassInfo | None, Counts, list[Row]]:
    """A class's settings, counts and leaderboard as one read shared by every viewer of this process for
    a second: thirty boards refreshing every 3 s cost about one set of queries a second, not ten. A
    change made in this process (changed()) is read at once; another replica's within BOARD_TTL."""
    code = normal_code(code)
    return _board_read(code, _GENERATION.get(code, 0))


def board_table(code: str):
    """The board as every viewer sees it: (settings, counts, an Arrow table or None before the first
    submission), built once a second per class and shared read-only. Building a DataFrame and converting
    it to Arrow was three quarters of a viewer's refresh (py-spy of bench/classroom.py --viewers)."""
    code = normal_code(code)
    return _board_built(code, _GENERATION.get(code, 0))


def changed(code: str) -> None:
    """This process changed the class (a teacher's action, a submission): its boards read it again."""
    _GENERATION[normal_code(code)] = next(_CHANGES)


def submissions_now(code: str) -> list[dict]:
    """Every submission of the class (id, nickname, size, scores, settings; never the weights), read as the
    board is: once a second per class, shared, at once after a change made here."""
    code = normal_code(code)
    return _submissions_read(code, _GENERATION.get(code, 0))


@st.cache_data(ttl=BOARD_TTL, max_entries=256, show_spinner=False)
def _submissions_read(code: str, generation: int) -> list[dict]:
    """Every submission of the class (the class chart), shared like the board: one read a second."""
    return connection.store().submissions(code)


@st.cache_data(ttl=BOARD_TTL, max_entries=256, show_spinner=False)
def _board_read(code: str, generation: int) -> tuple[ClassInfo | None, Counts, list[Row]]:
    s = connection.store()
    info = s.get_class(code)
    if info is None:
        return None, Counts(0, 0, 0, 0), []
    return info, s.counts(code), s.leaderboard(code)


def score_name(info: ClassInfo) -> str:
    return "R²" if info.problem.get("problem") == "regress" else "accuracy"


@st.cache_resource(ttl=BOARD_TTL, max_entries=256, show_spinner=False)
def _board_built(code: str, generation: int):
    import pyarrow as pa

    info, counts, rows = _board_read(code, generation)
    if info is None or not rows:
        return info, counts, None
    what = score_name(info)
    scale = 1.0 if what == "R²" else 100.0      # accuracy in percent, as everywhere in the app
    read = [readable(r.public, r.private, r.n_params, r.spec, info) for r in rows]
    columns = {
        "rank": [r.rank for r in rows],
        "student": [f"Student {i + 1}" if info.hide_names else name_text(r.nickname)
                    for i, r in enumerate(rows)],
        f"public {what}": [None if g is None else scale * g[0] for g in read],
        **({f"private {what}": [None if g is None or g[1] is None else scale * g[1] for g in read]}
           if info.revealed else {}),
        "parameters": [None if g is None else g[2] for g in read],
        "network": [BAD if g is None else layers_text(g[3]) for g in read],
        "bend": [None if g is None else bend_name(g[3].get("act")) for g in read],
        "epochs": [None if g is None else g[3].get("epoch") for g in read],
        SUBMITTED: [_moment(r.at) for r in rows],   # a moment: board() writes it on each viewer's clock
        "submissions": [r.submissions for r in rows],
    }
    types = {"rank": pa.int64(), "student": pa.string(), f"public {what}": pa.float64(),
             f"private {what}": pa.float64(), "parameters": pa.int64(), "network": pa.string(),
             "bend": pa.string(), "epochs": pa.int64(), SUBMITTED: pa.timestamp("us", tz="UTC"),
             "submissions": pa.int64()}
    return info, counts, pa.table({k: pa.array(v, type=types[k]) for k, v in columns.items()})


def readable(public, private, n_params, spec, info: ClassInfo):
    """A stored submission's (public, private, parameters, settings) as the board may draw them
    (lib.challenge.read_submission), or None for one that is not what Submit keeps: drawn as BAD."""
    head = "linear" if info.problem.get("problem") == "regress" else "sigmoid"
    try:
        return read_submission(public, private, n_params, spec, head)
    except (ValueError, TypeError, OverflowError):
        return None


def layers_text(spec: dict) -> str:
    """A submission's hidden layers as the trainer writes them ('1 hidden layer of 8'), or BAD."""
    try:
        return fmt.layers(spec.get("hidden") or ())
    except (TypeError, ValueError):
        return BAD


def _moment(at):
    """A row's time as an aware UTC datetime, or None for one that is not a time."""
    from datetime import UTC, datetime

    if not isinstance(at, datetime):
        return None
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def viewer_zone() -> str | None:
    """The viewer's time zone as their browser names it (None when the browser did not say)."""
    try:
        return st.context.timezone
    except Exception:   # no browser context (a bare script run): no zone, times say "N min ago"
        return None


def for_viewer(table):
    """The shared board with its times written for this viewer: '14:03, 2 min ago' on their own clock, or
    '2 min ago' when their zone is unknown (fmt.when); never UTC. Only this one column is built per viewer."""
    from datetime import UTC, datetime

    import pyarrow as pa

    i = table.schema.get_field_index(SUBMITTED)
    if i < 0:
        return table
    now, zone = datetime.now(UTC), viewer_zone()
    said = [fmt.when(at, now, zone) for at in table.column(i).to_pylist()]
    return table.set_column(i, SUBMITTED, pa.array(said, type=pa.string()))


@st.cache_resource(max_entries=256, show_spinner=False)
def _charts_built(code: str, submissions: int, generation: int, what: str, hide: bool, revealed: bool):
    from ui.frozen import frozen

    subs = readable_subs(_submissions_read(code, generation), what)
    reveal = frozen(reveal_chart(subs, what, hide)) if revealed else None
    return frozen(class_chart(subs, what, hide)), reveal, class_chart_words(subs, what, hide)


def readable_subs(subs: list[dict], what: str) -> list[dict]:
    """The class's submissions the charts can draw (readable), each with its checked numbers and settings."""
    head = "linear" if what == "R²" else "sigmoid"
    out = []
    for s in subs:
        try:
            pub, priv, n, spec = read_submission(s["public"], s["private"], s["n_params"], s["spec"], head)
        except (ValueError, TypeError, OverflowError, KeyError):
            continue
        out.append({**s, "public": pub, "private": priv, "n_params": n, "spec": spec,
                    "nickname": name_text(s.get("nickname"))})
    return out


def class_charts(code: str, info: ClassInfo, submissions: int):
    """The class chart (and after the reveal, public against private) as frozen figures, and the class
    chart's answer as text (pictures.class_chart_words: its line, columns, rows), built again only
    when the class's number of submissions (or a teacher's switch) changed: a refresh sends them again
    without building or copying them."""
    code = normal_code(code)
    return _charts_built(code, submissions, _GENERATION.get(code, 0), score_name(info), info.hide_names,
                         info.revealed)


# --- the teacher's downloads, the challenge's data ------------------------------------------------------
def export_json(s: Store, code: str, key: str) -> str:
    """Every submission of the class for the teacher's download (built when the button is pressed)."""
    return dumps({"code": code, "submissions": s.export(code, key)})


def export_csv(s: Store, code: str, key: str) -> str:
    """The scores, one row per submission, for the teacher's download (built when the button is pressed)."""
    import pandas as pd

    cols = ("nickname", "submitted", "parameters", "public", "private")
    return pd.DataFrame([{k: cell(r.get(k)) for k in cols} for r in s.export(code, key)],
                        columns=list(cols)).to_csv(index=False)


def dumps(d: dict) -> str:
    return json.dumps(d, sort_keys=True)


def problem_from_spec(spec) -> dict:
    """'Use this trainer view': the challenge's data from a trainer Spec."""
    return {"problem": spec.problem, "dataset": spec.dataset, "k": int(spec.k), "n": int(spec.n),
            "noise": float(spec.noise), "cells": spec.cells, "seed": int(spec.seed), "feat": list(spec.feat)}


def describe_problem(p: dict) -> str:
    kind = {"classify": "two classes", "classes": f"{p.get('k')} classes", "regress": "a value per point"}
    cells = f", {p['cells']} × {p['cells']} cells" if p.get("cells") else ""
    return (f"{kind.get(p.get('problem'), p.get('problem'))}: {p.get('dataset')}{cells}, "
            f"{p.get('n')} points, noise {p.get('noise')}, seed {p.get('seed')}, "
            f"inputs {', '.join(p.get('feat') or [])}")



ROOM_ROWS = 15   # the room view's board: the top of the class, large enough for the back row


def room_table(table, what: str):
    """The board for the room view (big=true) as text, for st.table: st.dataframe draws on a canvas that
    keeps its 14 px whatever the page's text size, so the projected board stayed small under large text.
    The top ROOM_ROWS rows, the columns a class reads from the back, scores with the app's minus sign."""
    from ui import fmt

    df = table.slice(0, ROOM_ROWS).to_pandas()
    scores = [f"public {what}", f"private {what}"]
    # (four columns: more overflowed a phone's 420 px in a region no keyboard could scroll, axe's
    # scrollable-region-focusable; sizes and bends are on the class chart under it)
    df = df[[c for c in ("rank", "student", *scores, "network") if c in df.columns]]
    df = df.astype(object)

    def score(v) -> str:
        return fmt.fixed(v, 3) if what == "R²" else fmt.fixed(v, 1) + " %"

    for c, write in ((scores[0], score), (scores[1], score)):
        if c in df:
            df[c] = ["–" if v is None or v != v else write(v) for v in df[c]]   # (v != v: NaN)
    return df.fillna("–")
