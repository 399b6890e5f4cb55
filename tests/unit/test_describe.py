"""lib.describe: a map's boundary in words, checked on maps whose answer is known (issue 48 item 1)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from lib.describe import describe, edge_crossings, quarters_held, straight, wrong_words, zone
from lib.regions import grid

LIMIT, RES = 3.6, 100


def plane():
    _, _, XY = grid(LIMIT, RES)
    return XY[:, 0].reshape(RES, RES), XY[:, 1].reshape(RES, RES)   # x, y: (res, res), rows = y


def test_a_straight_line_is_a_straight_line_meeting_two_edges_where_it_does():
    x, y = plane()
    labels = (y > 0.5 * x + 0.3).astype(int)    # class 1 above y = x / 2 + 0.3
    text = describe(labels, LIMIT)
    assert text.startswith("Class 1 holds a region at the top, about 4"), text
    assert "class 0 the rest." in text
    # x = -3.6: y = -1.5; x = 3.6: y = 2.1 (the grid's cells put each within half a cell, 0.04)
    assert "the right edge at x₂ = 2.1" in text and "the left edge at x₂ = −1.5" in text, text
    assert "It is a straight line." in text and "2 separate regions." in text
    assert "twice" in text


def test_a_vertical_line_off_centre_is_not_called_a_half():
    x, _ = plane()
    text = describe((x > 0.6).astype(int), LIMIT)
    assert "half" not in text and "Class 1 holds a region on the right" in text, text
    assert "the bottom edge at x₁ = 0.6, the top edge at x₁ = 0.6" in text


def test_the_checkerboard_names_its_four_quarters_and_four_crossings():
    x, y = plane()
    labels = ((x < 0) ^ (y < 0)).astype(int)    # class 1 upper-left and lower-right, as lib.datasets' board
    text = describe(labels, LIMIT)
    assert "class 1 the upper-left and lower-right quarters" in text, text
    assert "Class 0 holds the upper-right and lower-left quarters" in text
    assert "4 times" in text and "4 separate regions." in text
    assert quarters_held(labels == 1) == {"upper-left", "lower-right"}


def test_a_trained_looking_checkerboard_still_reads_as_quarters():
    """A network's map is not exact: the boundary bends near the centre and the corners. Within a few
    percent of each quarter the words stay the quarters."""
    x, y = plane()
    labels = (x * y + 0.4 * np.sin(2 * x) < 0).astype(int)
    assert "upper-left and lower-right quarters" in describe(labels, LIMIT)


def test_the_ring_is_an_island_in_the_centre_and_the_boundary_closes_on_itself():
    x, y = plane()
    labels = (x ** 2 + y ** 2 < 1.5 ** 2).astype(int)
    text = describe(labels, LIMIT)
    share = 100 * np.pi * 1.5 ** 2 / (2 * LIMIT) ** 2   # 13.6 %: the grid's cells give 13 or 14
    said = re.match(r"Class 1 holds an island in the centre, about (\d+) % of the square; "
                    r"class 0 the rest, all around\.", text)
    assert said and abs(int(said[1]) - share) < 1, text
    assert "does not reach the square's edges: it closes on itself" in text
    assert "2 separate regions." in text


def test_three_blobs_give_three_regions_each_where_its_cloud_is():
    x, y = plane()
    a = np.degrees(np.arctan2(y, x))    # lib.datasets.blobs: centres at 90°, 210° and 330°
    labels = np.where((a > 30) & (a <= 150), 0, np.where((a > 150) | (a <= -90), 1, 2))
    text = describe(labels, LIMIT, k=3)
    assert "Class 1 holds a region in the lower left" in text, text
    assert "class 2 a region in the lower right" in text
    assert "class 0 the rest: a region at the top" in text
    assert "3 times" in text and "3 separate regions." in text
    assert describe(labels, LIMIT, k=3, brief=True) == text.split(". The boundary")[0] + "."


def test_one_class_everywhere_has_no_boundary():
    assert describe(np.zeros((RES, RES), dtype=int), LIMIT) == \
        "The network gives the whole square to class 0: there is no boundary."


def test_specks_are_counted_apart():
    x, _ = plane()
    labels = (x > 0).astype(int)
    labels[10:13, 10:13] = 1   # 9 cells: a speck of class 1 in class 0's half
    text = describe(labels, LIMIT)
    assert "2 separate regions (and 1 speck under 0.5 % of the square)." in text, text
    assert "It is a straight line." not in text


def test_crossings_walk_the_edges_anticlockwise_from_the_lower_left():
    x, y = plane()
    xs = np.linspace(-LIMIT, LIMIT, RES)
    got = edge_crossings(((x < 0) ^ (y < 0)).astype(int), xs, xs)
    assert [e for e, _, _ in got] == ["bottom", "right", "top", "left"]
    assert all(abs(v) < 0.05 for _, _, v in got)
    assert not straight(((x < 0) ^ (y < 0)).astype(int))


def test_wrong_points_are_counted_and_placed():
    X = np.array([[-3.0, 3.0], [-2.5, 2.8], [0.0, 0.0], [3.0, -3.0]])
    y = np.array([0, 0, 1, 1])
    names = ["class 0", "class 1"]
    text = wrong_words(X, y, np.array([1, 1, 0, 1]), LIMIT, "training", names)
    assert text == ("3 of 4 training points are on the wrong side: class 0 in the upper left (2), "
                    "class 1 in the centre (1)."), text
    assert wrong_words(X, y, y, LIMIT, "test", names) == "All 4 test points are on their class's side."
    assert zone(3.0, -3.0, LIMIT) == "in the lower right" and zone(0, 3.5, LIMIT) == "at the top"


@pytest.mark.parametrize("k", [2, 3])
def test_the_words_change_when_the_boundary_does(k):
    x, y = plane()
    a, b = (x > 0).astype(int), (y > 0).astype(int)
    assert describe(a, LIMIT, k) != describe(b, LIMIT, k)
