"""/activations under AppTest: the controls change what is shown."""

from __future__ import annotations

import numpy as np

from tests.app.conftest import decode, figures, open_page


def _gallery(at):
    return figures(at)[0]


def test_defaults_draw_relu_gelu_silu():
    at = open_page("activations")
    names = [t["name"] for t in _gallery(at)["data"]]
    assert names == ["ReLU", "GELU (exact)", "SiLU (Swish)"]


def test_derivative_toggle_adds_dashed_slopes():
    at = open_page("activations")
    at.toggle(key="deriv").set_value(True).run()
    data = _gallery(at)["data"]
    assert len(data) == 6
    slope = next(t for t in data if t["name"] == "ReLU: slope")
    assert set(np.unique(decode(slope["y"]))) == {0.0, 1.0}


def test_range_slider_changes_the_x_axis():
    at = open_page("activations")
    at.slider(key="xmax").set_value(8.0).run()
    x = decode(_gallery(at)["data"][0]["x"])
    assert x.min() == -8.0 and x.max() == 8.0


def test_identity_bend_makes_network_and_collapsed_layer_identical():
    at = open_page("activations")
    assert not at.success and at.info  # with ReLU they differ
    at.selectbox(key="bend").set_value("identity").run()
    assert "Identical" in at.success[0].value
    net = figures(at)[2]["data"]
    np.testing.assert_allclose(decode(net[0]["y"]), decode(net[1]["y"]), atol=1e-12)


def test_formulas_carry_the_current_numbers():
    at = open_page("activations")
    before = [x.value for x in at.latex]
    at.slider(key="x").set_value(-2.0).run()
    after = [x.value for x in at.latex]
    assert before != after
    # x = -2: z = x W1 + b1 = [-2.5, 1.5, 0.0] with the default weights
    assert r"-2.500 & 1.500 & 0.000" in after[-2]


def test_bad_link_values_fall_back_with_a_note():
    at = open_page("activations", {"xmax": "abc", "w1": "1,nope,3", "b2": "1;2"})
    assert not at.exception
    notes = " ".join(c.value for c in at.caption)
    assert "Ignored `w1=1,nope,3`" in notes and "column 2 is not a number" in notes
    assert "Ignored `b2=1;2`" in notes


def test_matrix_from_the_link_is_used():
    at = open_page("activations", {"b2": "10"})
    z = decode(figures(at)[2]["data"][1]["y"])  # the collapsed line moves up by 9.5
    at2 = open_page("activations")
    z2 = decode(figures(at2)[2]["data"][1]["y"])
    np.testing.assert_allclose(z - z2, 9.5)
