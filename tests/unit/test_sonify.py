"""lib.sonify: the notes a Listen button plays, on maps and curves whose sound is known (issue 48 item 2)."""

from __future__ import annotations

import numpy as np
import pytest

from lib.regions import grid
from lib.sonify import GAP, HIGH, LOW, NOTE, NOTES, ROWS, confidence, curve, lines, pitch, sweep

RES, LIMIT = 100, 3.6


def plane():
    _, _, XY = grid(LIMIT, RES)
    return XY[:, 0].reshape(RES, RES), XY[:, 1].reshape(RES, RES)


def test_confidence_is_zero_on_the_boundary_and_one_where_certain():
    cls, sure = confidence(np.array([[0.5, 1.0], [0.0, 0.75]]))
    assert cls.tolist() == [[0, 1], [0, 1]]
    assert sure.tolist() == [[0.0, 1.0], [1.0, 0.5]]
    P = np.array([[[1 / 3, 1 / 3, 1 / 3], [0.0, 0.0, 1.0]]])          # k = 3: a toss-up, then certain
    cls, sure = confidence(P)
    assert cls.tolist() == [[0, 2]] and np.allclose(sure, [[0.0, 1.0]])
    cls, sure = confidence(np.array([[np.nan]]))
    assert cls.tolist() == [[0]] and sure.tolist() == [[0.0]]


def test_pitch_spans_two_octaves_evenly():
    assert pitch([0.0, 0.5, 1.0]).tolist() == pytest.approx([LOW, 2 * LOW, HIGH])


def test_a_row_across_a_vertical_boundary_changes_timbre_and_clicks_once_where_it_crosses():
    x, _ = plane()
    p1 = 1 / (1 + np.exp(-3 * x))                     # P(class 1): 0.5 on x = 0, sure far from it
    cls, sure = confidence(p1)
    s = sweep(cls, sure, lines(RES, "row", 0.5))
    assert len(s["t"]) == NOTES and s["t"][0] == 0 and s["t"][-1] == pytest.approx((NOTES - 1) * NOTE)
    assert s["w"] == [0] * (NOTES // 2) + [1] * (NOTES // 2)   # class 0 left, class 1 right
    assert len(s["clicks"]) == 1 and s["clicks"][0] == pytest.approx((NOTES - 1) * NOTE / 2, abs=0.01)
    f = np.array(s["f"])
    assert f[0] > 800 and f[-1] > 800                      # sure at both sides
    assert f.argmin() in (NOTES // 2 - 1, NOTES // 2) and f.min() < 330   # unsure in the middle
    assert s["p"][0] == -1 and s["p"][-1] == 1


def test_the_map_row_by_row_goes_from_the_top_down_with_a_gap_between_rows():
    x, y = plane()
    cls = ((x < 0) ^ (y < 0)).astype(int)             # the checkerboard: class 1 upper left, lower right
    s = sweep(cls, np.ones_like(x), lines(RES, "rows"))
    assert len(s["t"]) == ROWS * NOTES
    row = (NOTES - 1) * NOTE + NOTE + GAP
    assert s["t"][NOTES] == pytest.approx(row)
    assert s["w"][:NOTES] == [1] * 12 + [0] * 12      # the top row: class 1 on the left
    assert s["w"][-NOTES:] == [0] * 12 + [1] * 12     # the bottom row: class 0 on the left
    assert len(s["clicks"]) == ROWS                   # one crossing per row, at x = 0
    assert s["length"] == pytest.approx(ROWS * row - GAP)


def test_a_ring_heard_down_the_middle_column_clicks_twice_and_a_diagonal_too():
    x, y = plane()
    cls = (x ** 2 + y ** 2 < 1.5 ** 2).astype(int)
    for what in ("column", "rising", "falling"):
        s = sweep(cls, np.ones_like(x), lines(RES, what))
        assert len(s["clicks"]) == 2, what
        assert s["w"][0] == 0 and s["w"][NOTES // 2] == 1 and s["w"][-1] == 0


def test_a_thin_strip_between_two_notes_is_still_clicked():
    cls = np.zeros((RES, RES), dtype=int)
    cls[:, 50] = 1                                    # one column wide: no note lands on it
    s = sweep(cls, np.ones((RES, RES)), lines(RES, "row"))
    assert set(s["w"]) == {0} and len(s["clicks"]) == 2


def test_a_loss_curve_falls_in_pitch_and_the_test_curve_follows_in_another_wave():
    train = np.geomspace(0.7, 0.05, 200)
    test = np.geomspace(0.7, 0.1, 200)
    s = curve(train, test, notes=10)
    assert s["w"] == [0] * 10 + [2] * 10
    f = np.array(s["f"])
    assert f[0] == pytest.approx(HIGH) and f[9] == pytest.approx(LOW)      # the highest and lowest losses
    assert np.all(np.diff(f[:10]) < 0) and np.all(np.diff(f[10:]) < 0)
    assert s["t"][10] == pytest.approx(10 * NOTE + GAP) and s["clicks"] == []
    assert curve([np.nan, 0.0]) == {"t": [], "f": [], "w": [], "p": [], "clicks": [], "length": 0.0}


def test_an_unknown_line_says_which_there_are():
    with pytest.raises(ValueError, match="rows, row, column"):
        lines(RES, "spiral")
