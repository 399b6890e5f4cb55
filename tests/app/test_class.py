"""/class and /trainer in a class under AppTest: a teacher starts a challenge, a student joins, trains,
submits and is scored on the hidden points; the board shows it; pause holds Play and Submit."""

from __future__ import annotations

import numpy as np

import classroom as cr
from lib.challenge import evaluate
from pages.trainer import run as tr
from tests.app.conftest import decode, figures, open_page

PROBLEM = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.0, "cells": 2,
           "seed": 3, "feat": ["x1", "x2"]}


def _text(at) -> str:
    parts = [at.markdown, at.caption, at.error, at.warning, at.success, at.info]
    return " ".join(el.value for part in parts for el in part)


def test_a_teacher_starts_a_challenge_and_gets_a_code_and_a_link_shown_once():
    at = open_page("class")
    assert not at.exception
    at.number_input[1].set_value(3)
    at.button[1].click().run()   # the start form's submit (the join form's is first)
    assert not at.exception
    code = at.query_params["code"]
    code = code[0] if isinstance(code, list) else code
    assert len(code) == 6
    info = cr.store().get_class(code)
    assert info is not None and info.max_submissions == 3
    links = [c.value for c in at.code if "key=" in c.value]
    assert links and f"code={code}" in links[0]
    key = links[0].split("key=")[1]
    assert cr.store().is_teacher(code, key)
    assert any(code in h.proto.body for h in at.get("html"))           # the join code, large
    assert at.get("imgs") or at.get("image")                           # the QR code
    at.run()
    assert not [c for c in at.code if "key=" in c.value]                # shown only once


def test_the_teachers_key_leaves_the_address_bar_and_a_wrong_one_opens_the_student_view():
    code, key = cr.store().create_class(PROBLEM)
    at = open_page("class", {"code": code, "key": key})
    assert not at.exception and "key" not in at.query_params
    assert any(t.label == "Pause the class" for t in at.toggle)          # the teacher's view
    wrong = open_page("class", {"code": code, "key": "guess"})
    assert not any(t.label == "Pause the class" for t in wrong.toggle)
    assert any(t.label == "Your nickname" for t in wrong.text_input)


def test_a_student_trains_submits_and_is_on_the_board_with_the_servers_score():
    code, key = cr.store().create_class(PROBLEM, max_submissions=2)
    seat = cr.store().join(code, "Ada <b>")
    at = open_page("trainer", {"class": code, "seat": seat, "twin": "false"})
    assert not at.exception
    assert "Class challenge" in _text(at) and "Ada \\<b\\>" in _text(at)     # the nickname, as plain text
    # the class's data, locked
    assert at.selectbox(key="dataset").disabled and at.number_input(key="seed").value == 3
    assert at.slider(key="cells").value == 2 and at.slider(key="noise").value == 0.0
    at.button(key="trainer_step_100").click().run()
    at.button(key="class_submit").click().run()
    assert not at.exception
    assert "Scored: public accuracy" in _text(at) and "1 submission left" in _text(at)
    row = cr.store().leaderboard(code)[0]
    assert row.nickname == "Ada <b>" and row.submissions == 1
    # The score is lib's on the hidden points, recomputed here from the stored weights.
    pub, _, n = evaluate(cr.store().weights(row.submission), PROBLEM, cr.store().test_seed(code))
    assert row.public == pub and row.n_params == n == 33 and pub > 0.6
    board = open_page("class", {"code": code, "key": key})
    table = board.dataframe[0].value
    assert list(table["student"]) == ["Ada <b>"] and np.isclose(table["public accuracy"][0], 100 * pub)
    # the gallery: one map per student, lib's map of the stored weights; the class chart beside it
    figs = figures(board)
    grid = next(f for f in figs if f["layout"].get("uirevision") == "gallery")
    assert [a["text"] for a in grid["layout"]["annotations"]] == ["1. Ada &lt;b&gt;"]   # escaped for plotly
    from lib.challenge import decision_map

    shade, _ = decision_map(cr.store().weights(row.submission), PROBLEM)
    assert np.allclose(decode(grid["data"][0]["z"]).reshape(shade.shape), shade)         # lib's own map
    chart = next(f for f in figs if f["layout"].get("xaxis", {}).get("type") == "log")
    assert chart["data"][0]["x"] == [33] or list(decode(chart["data"][0]["x"])) == [33]


def test_pause_holds_play_and_submit_and_resume_gives_them_back():
    code, key = cr.store().create_class(PROBLEM)
    seat = cr.store().join(code, "Bo")
    cr.store().set_flag(code, key, "paused", True)
    at = open_page("trainer", {"class": code, "seat": seat, "twin": "false"})
    assert "Eyes up" in _text(at)
    assert at.button(key="trainer_play").disabled and at.button(key="class_submit").disabled
    cr.store().set_flag(code, key, "paused", False)
    at.session_state["class_pause_seen"] = None
    at.run()
    assert "Eyes up" not in _text(at) and not at.button(key="trainer_play").disabled


def test_a_bad_seat_or_class_trains_alone_with_one_line():
    at = open_page("trainer", {"class": "ZZZZZZ", "seat": "nope", "twin": "false"})
    assert not at.exception and "open the class link again" in _text(at)
    assert not at.selectbox(key="dataset").disabled
    bad = open_page("class", {"code": "ZZZZZZ"})
    assert not bad.exception and "No class has the code ZZZZZZ" in _text(bad)


def _count(at, kind: str) -> int:
    def walk(node) -> int:
        kids = getattr(node, "children", {}).values()
        return sum((getattr(c, "type", None) == kind) + walk(c) for c in kids)

    return walk(at._tree)


def test_the_teacher_closes_removes_downloads_and_ends_the_class():
    code, key = cr.store().create_class(PROBLEM)
    seat = cr.store().join(code, "Ada")
    cr.store().submit(code, seat, spec={"hidden": [8]}, weights={"w": [1]}, n_params=33, public=0.9,
                      private=0.8)
    at = open_page("class", {"code": code, "key": key})
    assert not at.exception
    assert _count(at, "download_button") == 2                        # the JSON of every network, the CSV
    at.button(key="class_close").click().run()
    assert cr.store().get_class(code).closed() and at.button(key="class_close").label == "Reopen submissions"
    at.button(key="class_close").click().run()
    assert not cr.store().get_class(code).closed()
    seat_bo = cr.store().join(code, "Bo")
    sub = cr.store().submit(code, seat_bo, spec={"hidden": [8]}, weights={"w": [2]}, n_params=33, public=0.5,
                            private=0.5)
    at.run()
    at.selectbox(key="class_remove_sub").select(sub.submission).run()
    at.button(key="class_remove_one").click().run()
    assert [r.nickname for r in cr.store().leaderboard(code)] == ["Ada"] and cr.store().seat(code, seat_bo)
    at.selectbox(key="class_remove_who").select("Ada").run()
    at.button(key="class_remove").click().run()
    assert cr.store().leaderboard(code) == []
    assert at.button(key="class_end").disabled
    at.checkbox(key="class_end_sure").check().run()
    at.button(key="class_end").click().run()
    assert cr.store().get_class(code) is None and not at.exception


def test_submit_says_so_in_one_line_when_the_store_is_away(monkeypatch):
    from sqlalchemy.exc import OperationalError

    code, _ = cr.store().create_class(PROBLEM)
    seat = cr.store().join(code, "Bo")
    at = open_page("trainer", {"class": code, "seat": seat, "twin": "false"})

    def away(*args, **kwargs):
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(type(cr.store()), "submit", away)
    at.button(key="class_submit").click().run()
    assert not at.exception
    assert any("cannot be reached" in e.value for e in at.error)
    assert at.session_state[tr.RUN] is not None                         # the network is still there


def test_a_link_cannot_unlock_the_challenges_data():
    code, _ = cr.store().create_class(PROBLEM)
    seat = cr.store().join(code, "Cy")
    at = open_page("trainer", {"class": code, "seat": seat, "twin": "false", "dataset": "ring", "seed": "9"})
    assert not at.exception
    assert at.selectbox(key="dataset").value == "checkerboard" and at.number_input(key="seed").value == 3
    spec = at.session_state["trainer_spec"]
    assert (spec.dataset, spec.seed, spec.cells) == ("checkerboard", 3, 2)


def test_the_hidden_points_seed_is_never_a_links_seed_and_csv_cells_are_not_formulas():
    from store import LINK_SEEDS

    code, _ = cr.store().create_class(PROBLEM)
    assert cr.store().test_seed(code) >= LINK_SEEDS > 99_999
    assert cr.cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and cr.cell("Ada") == "Ada" and cr.cell(3) == 3


def _submit_as(code: str, nickname: str, epochs: int) -> float:
    """A student joins, trains `epochs` on /trainer and presses Submit; returns the public score."""
    seat = cr.store().join(code, nickname)
    at = open_page("trainer", {"class": code, "seat": seat, "twin": "false"})
    for _ in range(epochs // 100):
        at.button(key="trainer_step_100").click().run()
    at.button(key="class_submit").click().run()
    assert not at.exception and "Scored: public accuracy" in _text(at)
    return next(r.public for r in cr.store().leaderboard(code) if r.nickname == nickname)


def test_two_students_on_the_board_in_order_a_students_view_has_no_teacher_control_and_reveal_reranks():
    code, key = cr.store().create_class(PROBLEM)
    scores = {"Ada": _submit_as(code, "Ada", 100), "Bo": _submit_as(code, "Bo", 300)}
    # Cy tuned to the public half: first on it, last once the private half is revealed.
    seat = cr.store().join(code, "Cy")
    cr.store().submit(code, seat, spec={"hidden": [8], "epoch": 7}, weights={"w": [1]}, n_params=33,
                      public=1.0, private=0.0)
    scores["Cy"] = 1.0
    order = sorted(scores, key=lambda n: -scores[n])
    teacher = open_page("class", {"code": code, "key": key})
    table = teacher.dataframe[0].value
    assert list(table["student"]) == order and list(table["rank"]) == [1, 2, 3]
    assert list(table["epochs"]) == [{"Ada": 100, "Bo": 300, "Cy": 7}[n] for n in order]   # as trained
    assert all(len(t) == 8 for t in table["submitted (UTC)"])                       # hh:mm:ss
    assert "private accuracy" not in table.columns
    # A student's /class: the same board, live, and no teacher control (no toggle, no manage expander).
    student = open_page("class", {"code": code})
    assert not student.exception and not student.toggle
    assert [e.label for e in student.expander] == ["Start a challenge of your own (for a teacher)",
                                                   "The code that scores every network, on the server"]
    assert "**3** joined" in _text(student)                                  # one line on a phone
    assert list(student.dataframe[0].value["student"]) == order
    # The teacher reveals: the board shows the private half and ranks by it, at once.
    teacher.toggle(key="class_reveal").set_value(True).run()
    table = teacher.dataframe[0].value
    private = {r.nickname: r.private for r in cr.store().leaderboard(code, reveal=True)}
    assert list(table["student"]) == sorted(private, key=lambda n: -private[n])
    assert table["student"].iloc[0] != "Cy" == table["student"].iloc[-1] == order[0]
    assert np.allclose(table["private accuracy"], [100 * private[n] for n in table["student"]])


def test_thirty_viewers_share_one_read_of_the_board_and_a_teachers_change_reads_again(monkeypatch):
    code, key = cr.store().create_class(PROBLEM)
    calls = []
    real = type(cr.store()).leaderboard
    monkeypatch.setattr(type(cr.store()), "leaderboard",
                        lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    cr.changed(code)
    boards = [cr.board_now(code) for _ in range(30)]      # thirty viewers' refreshes within a second
    assert len(calls) == 1 and all(b == boards[0] for b in boards)
    cr.store().set_flag(code, key, "revealed", True)
    cr.changed(code)                                      # what /class calls after the teacher's toggle
    assert cr.board_now(code)[0].revealed and len(calls) == 2


def test_starred_snapshots_show_in_order_with_settings_and_rings_and_reveal_adds_public_against_private():
    code, key = cr.store().create_class(PROBLEM)
    _submit_as(code, "Ada", 100)
    _submit_as(code, "Bo", 300)
    teacher = open_page("class", {"code": code, "key": key})
    stars = teacher.multiselect(key="class_stars")
    assert len(stars.options) == 2 and figures(teacher)
    rows = {r.nickname: r for r in cr.store().leaderboard(code)}
    stars.set_value([rows["Bo"].submission, rows["Ada"].submission]).run()
    assert not teacher.exception
    figs = figures(teacher)
    snaps = [f["layout"]["title"]["text"] for f in figs if f["layout"].get("height") == 420]
    assert snaps == [f"{rows['Bo'].rank}. Bo", f"{rows['Ada'].rank}. Ada"]          # in the teacher's order
    text = _text(teacher)
    assert "layers **8**" in text and "epochs **300**" in text and "public test points wrong (ringed)" in text
    # The rings are lib's: the public points this network gets wrong.
    from lib.challenge import public_mistakes

    ada_net = cr.store().weights(rows["Ada"].submission)
    _, _, wrong = public_mistakes(ada_net, PROBLEM, cr.store().test_seed(code))
    ada = next(f for f in figs if f["layout"].get("title", {}).get("text", "").endswith("Ada")
               and f["layout"].get("height") == 420)
    rings = [t for t in ada["data"] if t.get("marker", {}).get("symbol") == "circle-open"]
    assert len(decode(rings[0]["x"]) if rings else []) == int(wrong.sum())
    # Hidden names hide them in the snapshots too; the reveal adds public against private.
    teacher.toggle(key="class_hide").set_value(True).run()
    teacher.toggle(key="class_reveal").set_value(True).run()
    figs = figures(teacher)
    titles = [f["layout"].get("title", {}).get("text", "") for f in figs]
    assert not any("Ada" in t or "Bo" in t for t in titles)
    assert any(t.startswith("Public against private") for t in titles)


def test_a_challenges_hide_list_opens_every_students_trainer_without_those_controls():
    at = open_page("class")
    at.multiselect(key="class_start_hide").set_value(["lr", "act"])
    at.button[1].click().run()   # the start form's submit (the join form's is first)
    code = at.query_params["code"]
    code = code[0] if isinstance(code, list) else code
    assert cr.store().get_class(code).problem["hide"] == ["act", "lr"]
    seat = cr.store().join(code, "Di")
    student = open_page("trainer", {"class": code, "seat": seat, "twin": "false"})
    assert not student.exception

    def keys(at) -> set[str]:
        kinds = ("selectbox", "select_slider", "slider", "number_input")
        return {w.key for kind in kinds for w in at.get(kind)}

    assert "act" not in keys(student) and "lr" not in keys(student) and "opt" in keys(student)   # only those
    alone = open_page("trainer", {"twin": "false"})                  # outside the class: all there
    assert {"act", "lr"} <= keys(alone)
    mine, theirs = student.session_state["trainer_spec"], alone.session_state["trainer_spec"]
    assert (mine.act, mine.lr) == (theirs.act, theirs.lr)                         # hidden values still apply


def test_pause_stops_a_playing_trainer_and_resume_lets_it_play_again():
    code, key = cr.store().create_class(PROBLEM)
    seat = cr.store().join(code, "Ed")
    at = open_page("trainer", {"class": code, "seat": seat, "twin": "false"})
    at.button(key="trainer_play").click().run()
    assert at.session_state[tr.PLAYING] and at.button(key="trainer_pause").label == "Pause"
    cr.store().set_flag(code, key, "paused", True)
    at.session_state["class_pause_seen"] = None          # what the 3 s watch does: a fresh look
    at.run()
    assert not at.session_state[tr.PLAYING] and "Eyes up" in _text(at)
    assert at.button(key="trainer_play").disabled and at.button(key="class_submit").disabled
    assert all(at.button(key=k).disabled for k in ("trainer_step_1", "trainer_step_100", "trainer_reset"))
    epoch = at.session_state[tr.RUN].trainer.epoch
    at.run()
    assert at.session_state[tr.RUN].trainer.epoch == epoch                       # stopped, and kept
    cr.store().set_flag(code, key, "paused", False)
    at.session_state["class_pause_seen"] = None
    at.run()
    assert not at.button(key="trainer_play").disabled
    at.button(key="trainer_play").click().run()
    assert at.session_state[tr.PLAYING]


def test_a_hide_list_with_keys_the_trainer_does_not_have_hides_only_the_real_ones():
    code, _ = cr.store().create_class({**PROBLEM, "hide": ["act", "bogus", "w", "dataset"]})
    student = open_page("trainer", {"class": code, "seat": cr.store().join(code, "Flo"), "twin": "false"})
    assert not student.exception
    shown = {w.key for kind in ("selectbox", "select_slider", "slider") for w in student.get(kind)}
    assert "act" not in shown and "opt" in shown
    assert student.selectbox(key="dataset").disabled            # the data stays shown, locked
