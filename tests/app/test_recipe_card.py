"""/recipe-card under AppTest: seed numbers on screen, sliders move them, bad links are survived."""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.conftest import decode, figures, open_page


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _notes(at) -> str:
    return " ".join(c.value for c in at.caption)


def _weight_lines(fig) -> list[tuple[int, int, float]]:
    """(row, column, value) of every weight line in a network diagram."""
    out = []
    for tr in fig["data"]:
        if "customdata" in tr:
            rows = decode(tr["customdata"]).reshape(-1, 3)
            assert (rows == rows[0]).all()  # every hover point along a line says the same
            out.append((int(rows[0, 0]), int(rows[0, 1]), float(rows[0, 2])))
    return out


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def test_defaults_show_the_seed_examples():
    at = open_page("recipe-card")
    assert not at.exception
    m = _metrics(at)
    assert m["Sunrise"] == "1.65" and m["Jungle"] == "-0.65"
    assert m["weights"] == "3 × 2 = 6" and m["biases"] == "2" and m["parameters"] == "8"
    assert m["prediction ŷ"] == "0.1" and m["loss (ŷ − y)²"] == "0.81"
    assert m["1.5^10"] == "57.67"
    text = " ".join(x.value for x in at.markdown)
    assert "gives **57.67×**; 0.7 (shrinks a little) gives **0.0282×**" in text
    assert "**Sunrise** = 1.0 × 0.8 + 0.5 × 0.3 + (-1.0) × (-0.6) + 0.1 = **1.65**" in text
    assert "layer 1's output row is **[0.1, 0.0]**" in text


def test_the_diagram_and_the_matrix_hold_the_same_numbers():
    at = open_page("recipe-card")
    lines = _weight_lines(figures(at)[0])
    W = [[at.slider(key=f"w{i}{j}").value for j in (1, 2)] for i in (1, 2, 3)]
    assert len(lines) == 6
    for i, j, w in lines:
        assert w == pytest.approx(W[i - 1][j - 1])
    cells = decode(figures(at)[1]["data"][0]["z"])  # the W heatmap beside the diagram
    np.testing.assert_allclose(cells, W)


def test_moving_a_weight_moves_y_the_diagram_and_the_arithmetic():
    at = open_page("recipe-card")
    at.slider(key="w11").set_value(1.0).run()
    assert _metrics(at)["Sunrise"] == "1.85"  # 1.65 + 1.0 x 0.2
    assert _metrics(at)["Jungle"] == "-0.65"  # column 2 does not use w11
    assert (1, 1, 1.0) in _weight_lines(figures(at)[0])
    text = " ".join(x.value for x in at.markdown)
    assert "1.0 × 1.0 + 0.5 × 0.3" in text
    torch_code = at.code[3].value  # the storage tabs: GPT-2, then PyTorch
    assert "[[1.0, 0.3, -0.6]," in torch_code and "# [1.85, -0.65]" in torch_code


def test_moving_an_input_and_a_bias():
    at = open_page("recipe-card")
    at.slider(key="x2").set_value(1.5).run()   # + 1.0 x 0.3 and + 1.0 x 0.9
    at.slider(key="b2").set_value(0.8).run()   # + 1.0
    m = _metrics(at)
    assert m["Sunrise"] == "1.95" and m["Jungle"] == "1.25"


def test_plain_mode_relabels():
    at = open_page("recipe-card", {"mode": "plain"})
    m = _metrics(at)
    assert m["y₁"] == "1.65" and "Sunrise" not in m
    assert "yoghurt" not in " ".join(x.value for x in at.markdown)


def test_doubling_the_fruit_doubles_the_fruit_part_only():
    at = open_page("recipe-card")
    table = at.dataframe[0].value
    np.testing.assert_allclose(table["fruit part with 2.0x"], 2 * table["fruit part xW"])
    np.testing.assert_allclose(table["y with 2.0x"], [3.2, -1.1])
    at.slider(key="times").set_value(3.0).run()
    table = at.dataframe[0].value
    np.testing.assert_allclose(table["fruit part with 3.0x"], [4.65, -1.35])
    np.testing.assert_allclose(table["bias b"], [0.1, -0.2])


def test_sizes_from_the_link_reshape_everything():
    at = open_page("recipe-card", {"nin": "5", "nout": "4"})
    assert not at.exception
    assert at.slider(key="w54") is not None
    m = _metrics(at)
    assert m["weights"] == "5 × 4 = 20" and m["parameters"] == "24"
    assert len(_weight_lines(figures(at)[0])) == 20
    assert at.dataframe[1].value.shape == (5, 5)  # the batch X: 5 tokens x 5 inputs


def test_a_value_beyond_the_current_size_waits_for_its_cell():
    at = open_page("recipe-card", {"w77": "1.5"})
    assert not at.exception and "Ignored" not in _notes(at)
    at.slider(key="nin").set_value(7).run()
    at.slider(key="nout").set_value(7).run()
    assert at.slider(key="w77").value == 1.5


def test_a_cell_keeps_its_value_while_the_layer_is_smaller():
    at = open_page("recipe-card")
    at.slider(key="w32").set_value(1.5).run()
    at.slider(key="nin").set_value(2).run()
    assert _metrics(at)["Sunrise"] == "1.05"  # 1.0 x 0.8 + 0.5 x 0.3 + 0.1
    at.slider(key="nin").set_value(3).run()
    assert at.slider(key="w32").value == 1.5


def test_zero_and_random_fills():
    at = open_page("recipe-card")
    _button(at, "All zeros").click().run()
    m = _metrics(at)
    assert m["Sunrise"] == "0.0" and m["Jungle"] == "0.0"
    assert at.slider(key="x1").value == 1.0  # the inputs are kept
    _button(at, "Random weights").click().run()
    W = np.array([[at.slider(key=f"w{i}{j}").value for j in (1, 2)] for i in (1, 2, 3)])
    assert W.any() and np.abs(W).max() <= 1.0
    _button(at, "Starting numbers").click().run()
    assert _metrics(at)["Sunrise"] == "1.65"


def test_the_batch_uses_the_same_weights():
    at = open_page("recipe-card", {"tokens": "8"})
    X, Y = at.dataframe[1].value, at.dataframe[2].value
    assert X.shape == (8, 3) and Y.shape == (8, 2)
    W = np.array([[0.8, -0.5], [0.3, 0.9], [-0.6, 0.4]])
    np.testing.assert_allclose(Y.to_numpy(), X.to_numpy() @ W + [0.1, -0.2], atol=1e-12)
    shapes = at.dataframe[3].value
    assert list(shapes["8 tokens"]) == ["[8, 3]", "[3, 2]", "[8, 2]"]


def test_relu_off_changes_the_mini_network_where_it_should():
    at = open_page("recipe-card")
    assert _metrics(at)["prediction ŷ"] == "0.1"
    at.toggle(key="relu").set_value(False).run()
    m = _metrics(at)
    assert m["prediction ŷ"] == "-4.9"          # 1 x 0.1 + 2 x (-2.5): neuron 2 no longer zeroed
    assert m["loss (ŷ − y)²"] == "34.81"        # (-4.9 - 1)^2
    assert "one** layer" in at.info[0].value
    # With a positive neuron 2 the bend does nothing: ReLU on and off agree.
    at.slider(key="mb2").set_value(3.0).run()     # neuron 2: -2.5 + 3 = 0.5
    off = _metrics(at)["prediction ŷ"]
    at.toggle(key="relu").set_value(True).run()
    assert _metrics(at)["prediction ŷ"] == off == "1.1"  # 0.1 + 2 x 0.5


def test_depth_controls_move_the_curve():
    at = open_page("recipe-card", {"scale": "0.7"})
    assert _metrics(at)["0.7^10"] == "0.02825"
    at.slider(key="depth").set_value(20).run()
    fig = figures(at)[-1]
    assert fig["layout"]["yaxis"]["type"] == "log"
    arith = decode(fig["data"][0]["y"])
    assert arith.shape == (21,) and arith[-1] == pytest.approx(0.7**20)


def test_bad_link_values_fall_back_with_a_note():
    at = open_page("recipe-card", {"nin": "99", "w11": "abc", "x1": "50", "mode": "soup",
                                   "scale": "-4", "relu": "maybe", "tokens": "0"})
    assert not at.exception
    notes = _notes(at)
    for key in ("nin=99", "w11=abc", "x1=50", "mode=soup", "scale=-4", "relu=maybe", "tokens=0"):
        assert f"Ignored `{key}`" in notes, key
    m = _metrics(at)
    assert m["Sunrise"] == "1.65" and m["parameters"] == "8"


def _mini_expander(at):
    return next(e for e in at.expander if e.label.startswith("Change the mini network"))


def test_mini_network_values_from_a_link_open_their_sliders():
    assert not _mini_expander(open_page("recipe-card")).proto.expanded
    at = open_page("recipe-card", {"mw11": "abc", "pw21": "-1"})
    assert _mini_expander(at).proto.expanded  # a bad or changed value is shown, not hidden
    assert "Ignored `mw11=abc`" in _notes(at)
    # w'21 = -1: y_hat = ReLU(1 x 0.1 + (-1) x 0) = 0.1, and the network still runs.
    assert _metrics(at)["prediction ŷ"] == "0.1"
    at = open_page("recipe-card", {"mb2": "3"})  # neuron 2: -2.5 + 3 = 0.5 -> y_hat 1.1
    assert _metrics(at)["prediction ŷ"] == "1.1"
