"""The class store hands back any row it holds without failing: settings that are not JSON come back as None
and a score that is not a number ranks last (issue 32: one bad row stopped every board)."""

from __future__ import annotations

from sqlalchemy import text

from store import Store

PROBLEM = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.0, "cells": 2,
           "seed": 0, "feat": ["x1", "x2"]}


def test_rows_no_check_would_write_come_back_and_rank_last(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    code, key = s.create_class(PROBLEM)
    ids = {}
    for name, public in (("Ada", 0.9), ("Junk", 0.95), ("Nan", 0.99), ("Inf", 0.5)):
        ids[name] = s.submit(code, s.join(code, name), spec={"epoch": 2**63}, weights={"w": [name]},
                             n_params=33, public=public, private=0.5).submission
    with s.engine.begin() as conn:
        conn.execute(text("UPDATE submissions SET spec = '{not json', weights = '[[[' WHERE id = :i"),
                     {"i": ids["Junk"]})
        conn.execute(text("UPDATE submissions SET public = 'NaN' WHERE id = :i"), {"i": ids["Nan"]})
        conn.execute(text("UPDATE submissions SET public = :p WHERE id = :i"),
                     {"p": float("inf"), "i": ids["Inf"]})
    board = s.leaderboard(code)
    assert [r.nickname for r in board][:2] == ["Junk", "Ada"]                 # scores that are numbers first
    assert {r.nickname for r in board[2:]} == {"Inf", "Nan"}
    assert {r.nickname: r.spec for r in board}["Junk"] is None
    assert {r.nickname: r.spec for r in board}["Ada"] == {"epoch": 2**63}      # as kept; the board checks
    assert {d["nickname"]: d["spec"] for d in s.submissions(code)}["Junk"] is None
    assert {d["nickname"]: d["weights"] for d in s.export(code, key)}["Junk"] is None
    assert len(s.leaderboard(code, reveal=True)) == 4
    s.engine.dispose()
