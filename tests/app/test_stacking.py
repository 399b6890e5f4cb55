"""/stacking under AppTest (the second half of the old recipe card): the mini network, depth, many
tokens, storage; sections leave each other alone; the page reproduces from its link."""

from __future__ import annotations

import numpy as np
import pytest

from tests.app.conftest import decode, figures, numbers, open_page
from ui import fmt
from ui.fmt import MINUS as M


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _notes(at) -> str:
    return " ".join(c.value for c in at.caption)


def _text(at) -> str:
    return " ".join(x.value for x in at.markdown)


def _storage(at) -> tuple[str, str]:
    """The two storage tabs' code: GPT-2 style, then PyTorch."""
    codes = [c.value for c in at.code]
    return (next(c for c in codes if c.startswith("# weight stored (n_in")),
            next(c for c in codes if c.startswith("# weight stored (n_out")))


def test_defaults_show_the_seed_examples():
    at = open_page("stacking")
    assert not at.exception
    m = _metrics(at)
    assert m["prediction ŷ"] == "0.1" and m["loss (ŷ − y)²"] == "0.81" and m["slope 2(ŷ − y)"] == f"{M}1.8"
    assert m["1.5^10"] == "57.67"
    text = _text(at)
    assert "gives **57.67×**; 0.7 (shrinks a little) gives **0.0282×**" in text
    assert "layer 1's output row is **[0.1, 0.0]**" in text


def test_the_batch_uses_the_same_weights():
    at = open_page("stacking", {"tokens": "8"})
    X, Y = numbers(at.dataframe[2].value), numbers(at.dataframe[3].value)  # after the neurons, the gradients
    assert X.shape == (8, 3) and Y.shape == (8, 2)
    W = np.array([[0.8, -0.5], [0.3, 0.9], [-0.6, 0.4]])
    np.testing.assert_allclose(Y.to_numpy(), X.to_numpy() @ W + [0.1, -0.2], atol=1e-3)  # rounded to 3
    shapes = at.dataframe[4].value
    assert list(shapes["8 tokens"]) == ["[8, 3]", "[3, 2]", "[8, 2]"]


def test_the_batch_and_storage_use_the_cards_layer_from_the_link():
    at = open_page("stacking", {"nin": "5", "nout": "4", "w11": "1.5"})
    assert numbers(at.dataframe[2].value).shape == (5, 5)  # the batch X: 5 tokens x 5 inputs
    gpt2, torch = _storage(at)
    assert "(n_in, n_out) = (5, 4)" in gpt2 and "W = np.array([[1.5, " in gpt2
    assert "nn.Linear(5, 4)" in torch
    cells = decode(figures(at)[-2]["data"][0]["z"])
    assert cells.shape == (5, 4) and cells[0, 0] == 1.5


def test_storage_code_keeps_pythons_minus():
    at = open_page("stacking")
    torch_code = _storage(at)[1]
    assert "[[0.8, 0.3, -0.6]," in torch_code and "# [1.65, -0.65]" in torch_code


def test_relu_off_changes_the_mini_network_where_it_should():
    at = open_page("stacking")
    assert _metrics(at)["prediction ŷ"] == "0.1"
    at.toggle(key="relu").set_value(False).run()
    m = _metrics(at)
    assert m["prediction ŷ"] == f"{M}4.9"        # 1 x 0.1 + 2 x (-2.5): neuron 2 no longer zeroed
    assert m["loss (ŷ − y)²"] == "34.81"        # (-4.9 - 1)^2
    assert "one** layer" in at.info[0].value
    # With a positive neuron 2 the bend does nothing: ReLU on and off agree.
    at.slider(key="mb2").set_value(3.0).run()     # neuron 2: -2.5 + 3 = 0.5
    off = _metrics(at)["prediction ŷ"]
    at.toggle(key="relu").set_value(True).run()
    assert _metrics(at)["prediction ŷ"] == off == "1.1"  # 0.1 + 2 x 0.5


def test_depth_controls_move_the_curve():
    at = open_page("stacking", {"scale": "0.7"})
    assert _metrics(at)["0.7^10"] == "0.02825"
    at.slider(key="depth").set_value(20).run()
    fig = next(f for f in figures(at) if f["layout"].get("yaxis", {}).get("type") == "log")
    arith = decode(fig["data"][0]["y"])
    assert arith.shape == (21,) and arith[-1] == pytest.approx(0.7**20)


def test_deep_stacks_are_written_without_e_notation():
    at = open_page("stacking", {"depth": "40", "scale": "2"})
    m = _metrics(at)
    assert m["2^40"] == "1.1 × 10¹²" or m["2^40"].endswith("10¹²")
    assert "e+" not in " ".join(m.values()) and "e-" not in _text(at)


def test_bad_link_values_fall_back_with_a_note():
    at = open_page("stacking", {"scale": "-4", "relu": "maybe", "tokens": "0", "w11": "abc"})
    assert not at.exception
    notes = _notes(at)
    for key in ("scale=-4", "relu=maybe", "tokens=0"):
        assert f"Ignored `{key}`" in notes, key
    assert _metrics(at)["1.5^10"] == "57.67"
    assert "# [1.65, -0.65]" in _storage(at)[1]  # a bad card value: the card's default layer


def _mini_expander(at):
    return next(e for e in at.expander if e.label.startswith("Change the mini network"))


def test_mini_network_values_from_a_link_open_their_sliders():
    assert not _mini_expander(open_page("stacking")).proto.expanded
    at = open_page("stacking", {"mw11": "abc", "pw21": "-1"})
    assert _mini_expander(at).proto.expanded  # a bad or changed value is shown, not hidden
    assert "Ignored `mw11=abc`" in _notes(at)
    # w'21 = -1: y_hat = ReLU(1 x 0.1 + (-1) x 0) = 0.1, and the network still runs.
    assert _metrics(at)["prediction ŷ"] == "0.1"
    at = open_page("stacking", {"mb2": "3"})  # neuron 2: -2.5 + 3 = 0.5 -> y_hat 1.1
    assert _metrics(at)["prediction ŷ"] == "1.1"


def _section(at, keys):
    figs = {f["layout"].get("meta", i): f for i, f in enumerate(figures(at))}
    return figs, {k: v for k, v in _metrics(at).items() if any(s in k for s in keys)}


def test_moving_depth_changes_its_section_only():
    at = open_page("stacking")
    figs, mets, frames = figures(at), _metrics(at), [d.value.copy() for d in at.dataframe]
    at.slider(key="depth").set_value(20).run()
    after = figures(at)
    assert after[2] != figs[2]                         # the depth chart moved
    assert after[:2] == figs[:2] and after[3:] == figs[3:]  # the mini network, its steps and storage did not
    m = _metrics(at)
    assert m["prediction ŷ"] == mets["prediction ŷ"] and "1.5^20" in m and "1.5^10" not in m
    assert all(a.equals(b) for a, b in zip(frames, [d.value for d in at.dataframe], strict=True))


def test_moving_a_mini_weight_changes_its_section_only():
    at = open_page("stacking")
    figs, frames = figures(at), [d.value.copy() for d in at.dataframe]
    at.slider(key="mw11").set_value(1.5).run()
    after = figures(at)
    assert after[0] != figs[0] and after[2:] == figs[2:]  # only the mini diagram (and its loss by step)
    assert not at.dataframe[0].value.equals(frames[0])    # its neurons table (and its gradients)
    assert all(a.equals(b) for a, b in zip(frames[2:], [d.value for d in at.dataframe][2:], strict=True))


def test_the_page_reproduces_from_its_link():
    q = {"relu": "false", "target": "2", "mx2": "1", "scale": "0.9", "depth": "15", "width": "16",
         "seed": "3", "tokens": "3"}
    at = open_page("stacking", q)
    assert not at.exception
    assert at.toggle(key="relu").value is False and at.slider(key="depth").value == 15
    assert at.select_slider(key="width").value == 16 and at.slider(key="tokens").value == 3
    again = open_page("stacking", q)
    assert _metrics(again) == _metrics(at) and figures(again) == figures(at)


def _text(at) -> str:
    return " ".join(el.value for part in (at.markdown, at.caption, at.warning, at.latex) for el in part)


def test_one_step_written_out_at_the_seeds_numbers_and_the_dead_neuron_named():
    at = open_page("stacking")
    text = _text(at)
    assert r"\delta' w'_{11}\,\operatorname{ReLU}'(z_1)\,x_3" in text   # the chain rule, by name and number
    grads = at.dataframe[1].value
    row = grads.set_index("parameter")
    assert row.loc["W₃₁", "chain rule"] == "−5.4" and row.loc["b′", "chain rule"] == "−1.8"
    assert (row.loc[["W₁₂", "W₂₂", "W₃₂", "b₂"], "chain rule"] == "0.0").all()
    assert all(h.startswith("agrees to 10⁻") or h == "exactly" for h in grads["how close"])
    assert "Neuron 2 is switched off" in text and "−2.5" in text
    assert "0.81" in " ".join(m.value for m in at.metric)


def test_steps_lower_the_loss_travel_in_the_link_and_go_back():
    from lib.onestep import steps
    from lib.recipe import MINI_B1, MINI_B2, MINI_W1, MINI_W2, MINI_X

    at = open_page("stacking")
    at.button(key="st_ten_steps").click().run()
    at.button(key="st_one_step").click().run()
    assert at.number_input(key="steps").value == 11
    _, losses = steps({"W1": MINI_W1, "b1": MINI_B1, "W2": MINI_W2, "b2": MINI_B2}, MINI_X, 1.0, 0.05, 11)
    loss = next(m for m in at.metric if m.label == "loss now")
    assert loss.value == fmt.num(losses[-1], 4, keep=1) and losses[-1] < losses[0]
    # issue 34: a fall in loss reads as a fall, and as good (a green arrow down, not a red rise)
    from streamlit.proto.Metric_pb2 import Metric
    assert loss.proto.delta == "-" + fmt.num(losses[0] - losses[-1], 4, keep=1)
    assert loss.proto.direction == Metric.MetricDirection.DOWN
    assert loss.proto.color == Metric.MetricColor.GREEN
    # the link reproduces the view after 11 steps
    again = open_page("stacking", {"steps": "11"})
    assert next(m for m in again.metric if m.label == "loss now").value == loss.value
    assert again.dataframe[0].value.equals(at.dataframe[0].value)
    at.button(key="st_step_reset").click().run()
    assert at.number_input(key="steps").value == 0
    assert next(m for m in at.metric if m.label == "loss now").value == "0.81"
    bad = open_page("stacking", {"steps": "9999"})
    assert not bad.exception and bad.number_input(key="steps").value == 0


def test_the_step_chart_runs_0_to_10_before_any_step_and_the_check_table_shows_every_row():
    from pages.stacking.figures import loss_figure

    lo, hi = loss_figure((0.81,)).layout.xaxis.range
    assert lo < 0 < 10 < hi                      # not plotly's -1 … 1 around one point
    assert loss_figure(tuple(range(30))).layout.xaxis.range[1] >= 29
    at = open_page("stacking")
    table = next(d for d in at.dataframe if "central difference" in d.value.columns)
    assert len(table.value) == 11


def test_the_neuron_table_holds_short_numbers_and_each_sum_is_written_out_as_text():
    """Issue 47 item 5: the table fits a phone (its answer, the value after the bend, right after the
    neuron, and no written-out sums in a cell, which does not wrap); each sum is written out below it, as
    text a screen reader reads, ending in the sum the table holds."""
    at = open_page("stacking")
    table = next(d for d in at.dataframe if "sum" in d.value.columns)
    assert list(table.proto.column_order) == ["neuron", "after ReLU", "sum", "weights", "bias"]
    assert max(len(str(v)) for col in table.value.columns for v in table.value[col]) <= 20
    lines = next(m.value for m in at.markdown if m.value.startswith("Neuron 1:")).split("  \n")
    assert [line.split(" = ")[-1].strip("*") for line in lines] == list(table.value["sum"])
    assert all("+" in line for line in lines)


def test_the_dead_neuron_line_goes_when_its_sum_turns_positive():
    at = open_page("stacking", {"mb2": "3.0"})      # neuron 2's bias: its sum -2.5 + 3 = 0.5 > 0
    assert "switched off" not in _text(at)
    assert at.dataframe[1].value.set_index("parameter").loc["W₃₂", "chain rule"] != "0.0"


def test_a_rate_too_large_stops_the_steps_with_one_line_and_no_nan():
    at = open_page("stacking", {"relu": "false", "target": "5.0", "lr": "0.5", "steps": "200"})
    assert not at.exception
    assert any("blew up" in e.value for e in at.error)
    assert "nan" not in " ".join(m.value for m in at.metric).lower()


def test_the_chain_rule_is_well_formed_latex_one_line_per_parameter():
    at = open_page("stacking")
    bodies = [el.value for el in at.latex]
    assert all(ch.isprintable() or ch == "\n" for body in bodies for ch in body)   # no control characters
    rule = next(b for b in bodies if "partial W_{31}" in b).strip("$\n")
    assert rule.startswith(r"\begin{aligned}") and rule.endswith(r"\end{aligned}")
    assert rule.count(r"\tfrac{\partial L}") == 11                     # one line per parameter,
    assert rule.count(r" \\ ") == 20                                   # its numbers on a row of their own
    assert rule.count("{") == rule.count("}")


def test_change_writes_a_fall_with_the_ascii_minus_streamlit_reads_as_a_fall():
    from streamlit.elements.metric import _is_negative_delta

    from pages.stacking.code import change
    from ui import fmt

    assert change(-0.81, 4, keep=1) == "-0.81" and _is_negative_delta(change(-0.81, 4))
    assert change(0.5) == "0.5" and not _is_negative_delta(change(0.5))
    assert not _is_negative_delta(fmt.num(-0.81))   # why: Streamlit takes num's '−' for a rise
