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
