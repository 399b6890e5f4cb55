"""lib.points: a student's CSV of points, read back exactly or refused with a one-line reason."""

from __future__ import annotations

import numpy as np
import pytest

from lib.points import points_csv, read_points, template_csv


def test_template_and_a_written_csv_read_back():
    X, y = read_points(template_csv())
    assert X.shape == (40, 2) and sorted(set(y)) == [0, 1]
    X2, y2 = read_points(points_csv(X, y))
    np.testing.assert_allclose(X2, X, atol=5e-5)
    np.testing.assert_array_equal(y2, y)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_every_problem_has_a_template_it_reads_back(k):
    X, y = read_points(template_csv("classes", k), problem="classes", k=k)
    assert sorted(set(y)) == list(range(k)) and len(X) >= 40
    X, v = read_points(template_csv("regress"), problem="regress")
    assert X.shape == (40, 2) and np.allclose(v, (X[:, 0] + X[:, 1]) / 2, atol=2e-3)
    with pytest.raises(ValueError, match="holds values"):
        read_points(template_csv("regress"), problem="classify")


def test_columns_in_any_order_and_case():
    X, y = read_points(b"Label, X2 ,x1\n0,2,1\n1,4,3\n")
    np.testing.assert_array_equal(X, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(y, [0, 1])


@pytest.mark.parametrize("data, why", [
    (b"a,b,c\n1,2,0\n", "exactly the columns x1, x2, label"),
    (b"x1,x2,label\n1,two,0\n2,3,1\n", "row 2: x2 is not a number"),
    (b"x1,x2,label\n1,nan,0\n2,3,1\n", "row 2: x2 is not a number"),
    (b"x1,x2,label\n1,2,0\n2,3,0\n", "same label"),
    (b"x1,x2,label\n1,2,0\n2,3,5\n", "label must be 0 or 1"),
    (b"x1,x2,label\n" + b"1,2,0\n2,3,1\n" * 1001, "more than the limit"),
    (b"x1,x2,label\n" + b"1.000000000,2.000000000,0\n" * 5000, "the limit is 100 KB"),
    (b"", "not a CSV"),
])
def test_bad_files_say_why(data, why):
    with pytest.raises(ValueError, match=why):
        read_points(data)


def test_csv_for_each_problem_type_round_trips_and_refuses_the_others():
    X = np.array([[0.5, -1.0], [1.0, 2.0], [-2.0, 0.25]])
    X3, y3 = read_points(points_csv(X, [0, 2, 1]), problem="classes", k=3)
    np.testing.assert_allclose(X3, X)
    assert y3.tolist() == [0, 2, 1]
    with pytest.raises(ValueError, match="0 to 2"):
        read_points(points_csv(X, [0, 3, 1]), problem="classes", k=3)
    _, yv = read_points(points_csv(X, [0.5, -1.25, 3.0], problem="regress"), problem="regress")
    assert yv.dtype == float and yv.tolist() == [0.5, -1.25, 3.0]
    Xc, _ = read_points(b"x1,value\n0.5,1\n-1,0.25\n", problem="regress")
    assert Xc.shape == (2, 1)
    with pytest.raises(ValueError, match="holds class labels"):
        read_points(points_csv(X, [0, 1, 1]), problem="regress")
    with pytest.raises(ValueError, match="holds values"):
        read_points(points_csv(X, [0.5, 1.0, 2.0], problem="regress"))
    with pytest.raises(ValueError, match="between"):
        read_points(b"x1,value\n0.5,11\n-1,0.25\n", problem="regress")


# --- points placed by hand ---------------------------------------------------------------------
from lib.points import (  # noqa: E402
    HAND_LINK_CHARS,
    HAND_MAX,
    add_hand,
    check_hand,
    decode_hand,
    encode_hand,
    hand_grid,
    remove_hand,
)


def test_hand_points_round_trip_through_the_link_exactly():
    P = np.array([[1.234, -0.5, 1], [0.0, -0.004, 0], [-3.6, 3.6, 1]])
    text = encode_hand(P)
    assert text == "1.23_-0.5_1~0_0_0~-3.6_3.6_1"          # 2 decimals, no trailing zeros, no -0
    np.testing.assert_array_equal(decode_hand(text), np.round(P, 2))
    curve = np.array([[0.5, -1.25], [2, 3]])
    assert encode_hand(curve) == "0.5_-1.25~2_3"
    np.testing.assert_array_equal(decode_hand("0.5_-1.25~2_3", "regress", curve=True), curve)
    assert decode_hand("", "classes", 4).shape == (0, 3)


def test_the_most_points_fit_the_stated_link_size():
    gx, gy = hand_grid(3.6)
    assert gx.shape == (31 * 31,) and gx.min() == -3.6 and gy.max() == 3.6
    worst = np.column_stack([np.full(HAND_MAX, gx[1]), np.full(HAND_MAX, -gx[1]), np.full(HAND_MAX, -9.9)])
    assert len(encode_hand(worst)) <= HAND_LINK_CHARS
    decode_hand(encode_hand(worst), "regress")               # the longest link still reads back


@pytest.mark.parametrize("text, problem, k, curve, why", [
    ("1_2_7", "classify", None, False, "class 7, but there are only 2"),
    ("1_2_3", "classes", 3, False, "class 3, but there are only 3"),
    ("1_2_0.5", "classes", 3, False, "class 0.5"),
    ("1_2", "classify", None, False, "points for the plane have 3"),
    ("1_2_0", "regress", None, True, "points for a curve have 2"),
    ("1_9_1", "classify", None, False, "outside the plane"),
    ("a_b_c", "classify", None, False, "is not numbers"),
    ("1_2_1~~", "classify", None, False, "point 2"),
    ("1_2_40", "regress", None, False, "a value lies outside"),
    ("nan_1_1", "classify", None, False, "a number is missing"),
    ("~".join(["1_1_1"] * (HAND_MAX + 1)), "classify", None, False, "more than the 150"),
    ("1" * (HAND_LINK_CHARS + 1), "classify", None, False, "characters"),
])
def test_a_link_whose_points_do_not_fit_is_refused_with_a_reason(text, problem, k, curve, why):
    with pytest.raises(ValueError, match=why):
        decode_hand(text, problem, k, curve=curve)


def test_adding_and_removing_by_hand():
    P = np.zeros((0, 3))
    P = add_hand(P, (0.24000001, -1.2, 1))
    P = add_hand(P, (1, 1, 0))
    np.testing.assert_array_equal(P, [[0.24, -1.2, 1], [1, 1, 0]])
    P2, removed = remove_hand(P, 1.0000002, 0.9999998)         # a click lands on float32 coordinates
    assert removed and P2.tolist() == [[0.24, -1.2, 1]]
    P3, removed = remove_hand(P, 2.0, 2.0)                      # nothing there: nothing removed
    assert not removed and P3 is P
    with pytest.raises(ValueError, match="that click lies outside the plane"):
        add_hand(P, (4.0, 0, 1))
    with pytest.raises(ValueError, match="class 5"):
        add_hand(P, (0, 0, 5), "classes", 3)
    full = np.tile([[0.0, 0.0, 1.0]], (HAND_MAX, 1))
    with pytest.raises(ValueError, match=f"{HAND_MAX} points is the most"):
        add_hand(full, (1, 1, 0))
    assert check_hand(full) is None and check_hand(np.zeros((0, 3))) is None


@pytest.mark.parametrize("big", ["1e308", "-1.7e308", "1" + "0" * 300, "1e7"])
def test_coordinates_too_large_for_the_map_are_refused_where_they_enter(big):
    """A CSV with values near 1e308 broke the live map (its plane grows to fit the points, and x1² of such a
    point is inf): coordinates are bounded when the file is read, with one line naming the row."""
    data = f"x1,x2,label\n1,2,0\n2,{big},1\n3,1,0\n".encode()
    with pytest.raises(ValueError, match=r"row 3: x2 .* lies outside -1,000,000 to 1,000,000"):
        read_points(data)
    with pytest.raises(ValueError, match=r"row 3: x1 .* lies outside"):
        read_points(f"x1,value\n1,2\n{big},1\n".encode(), problem="regress")


def test_the_largest_coordinates_a_file_may_hold_draw_a_finite_map():
    from lib.maps import limit_for, probability_map
    from lib.mlp import init_params
    from lib.points import COORD_LIMIT

    X, _ = read_points(f"x1,x2,label\n{COORD_LIMIT:g},-{COORD_LIMIT:g},0\n0,1,1\n".encode())
    names = ["x1", "x2", "x1sq", "x2sq", "x1x2", "sin1", "sin2"]
    p = probability_map(init_params([len(names), 8, 1], seed=0), names, limit_for(X), "relu")
    assert np.isfinite(p).all()
