"""/recipe-card under AppTest: seed numbers on screen, sliders and the grid move them, bad links are
survived, sections leave each other alone, and old links to the moved half open /stacking."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.app.conftest import decode, figures, numbers, open_page
from ui import state
from ui.fmt import MINUS as M


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


def _text(at) -> str:
    return " ".join(x.value for x in at.markdown)


def test_defaults_show_the_seed_example():
    at = open_page("recipe-card")
    assert not at.exception
    m = _metrics(at)
    assert m["Sunrise"] == "1.65" and m["Jungle"] == f"{M}0.65"
    assert m["weights"] == "3 × 2 = 6" and m["biases"] == "2" and m["parameters"] == "8"
    assert f"**Sunrise** = 1.0 × 0.8 + 0.5 × 0.3 + ({M}1.0) × ({M}0.6) + 0.1 = **1.65**" in _text(at)


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
    assert _metrics(at)["Jungle"] == f"{M}0.65"  # column 2 does not use w11
    assert (1, 1, 1.0) in _weight_lines(figures(at)[0])
    assert "1.0 × 1.0 + 0.5 × 0.3" in _text(at)
    assert at.query_params["w11"] == "1"  # the card's cells are in the link


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
    assert "yoghurt" not in _text(at)


def test_doubling_the_fruit_doubles_the_fruit_part_only():
    at = open_page("recipe-card")
    table = numbers(at.dataframe[0].value)
    np.testing.assert_allclose(table["fruit part with 2.0x"], 2 * table["fruit part xW"])
    np.testing.assert_allclose(table["y with 2.0x"], [3.2, -1.1])
    at.slider(key="times").set_value(3.0).run()
    table = numbers(at.dataframe[0].value)
    np.testing.assert_allclose(table["fruit part with 3.0x"], [4.65, -1.35])
    np.testing.assert_allclose(table["bias b"], [0.1, -0.2])


def test_tables_hold_rounded_numbers():
    """st.dataframe's hidden table and a copied cell hold what the screen shows: no 2.4299999999999997,
    and the card's minus sign."""
    at = open_page("recipe-card", {"times": "1.5"})
    table = at.dataframe[0].value
    for c in table.columns[1:]:
        for text in table[c]:
            assert re.fullmatch(r"\u2212?\d+(\.\d{1,3})?", text), (c, text)
    assert any(t.startswith("\u2212") for t in table["y with x"])


def test_moving_k_changes_its_section_only():
    at = open_page("recipe-card")
    before = (figures(at)[:2], _metrics(at), _text(at))
    bars = figures(at)[2]
    at.slider(key="times").set_value(3.0).run()
    assert figures(at)[2] != bars                               # its chart moved
    assert (figures(at)[:2], _metrics(at), _text(at)) == before  # the card, network and sums did not


def test_moving_a_card_number_changes_every_section_that_shows_it():
    at = open_page("recipe-card")
    table = at.dataframe[0].value.copy()
    at.slider(key="w11").set_value(1.0).run()
    assert not at.dataframe[0].value.equals(table)  # linearity uses the card


def test_sizes_from_the_link_reshape_everything():
    at = open_page("recipe-card", {"nin": "5", "nout": "4"})
    assert not at.exception
    m = _metrics(at)
    assert m["weights"] == "5 × 4 = 20" and m["parameters"] == "24"
    assert len(_weight_lines(figures(at)[0])) == 20
    # A 5 x 4 card is one grid, not 29 sliders: the input x and one column per output.
    assert not [s for s in at.slider if s.key and s.key[0] in "wxb" and s.key[1:].isdigit()]
    grid = next(d for d in at.dataframe if d.key == "card_story_5x4_editor")
    assert list(grid.value.columns) == ["input x", "Sunrise", "Jungle", "Berry", "Tropic"]
    assert grid.value.shape == (5, 5) and grid.value.loc["apple", "Sunrise"] == 0.8


def _grid_edit(at, name: str, row: int, column: str, value) -> None:
    edits = {"edited_rows": {row: {column: value}}, "added_rows": [], "deleted_rows": []}
    at.session_state[f"{name}_editor"] = edits
    at.run()


def test_the_grid_edits_a_cell_keeps_it_in_the_link_and_refuses_a_bad_one():
    at = open_page("recipe-card", {"nin": "5", "nout": "4", "mode": "plain"})
    assert (1, 1, 0.8) in _weight_lines(figures(at)[0])
    _grid_edit(at, "card_plain_5x4", 0, "y₁", 1.5)
    assert not at.exception
    assert (1, 1, 1.5) in _weight_lines(figures(at)[0])
    assert at.query_params["w11"] == "1.5"
    _grid_edit(at, "card_plain_5x4", 0, "y₁", 9.0)  # beyond the weights' range
    assert (1, 1, 1.5) in _weight_lines(figures(at)[0])  # the last good value
    assert any("outside" in e.value and "last good" in e.value for e in at.error)
    # Back to the small card: its slider shows what the grid set.
    at.slider(key="nin").set_value(3).run()
    at.slider(key="nout").set_value(2).run()
    assert at.slider(key="w11").value == 1.5


def test_a_value_beyond_the_current_size_waits_for_its_cell():
    at = open_page("recipe-card", {"w77": "1.5"})
    assert not at.exception and "Ignored" not in _notes(at)
    at.slider(key="nin").set_value(7).run()
    at.slider(key="nout").set_value(7).run()
    assert (7, 7, 1.5) in _weight_lines(figures(at)[0])  # a 7 x 7 card is a grid: the diagram shows it
    assert at.query_params["w77"] == "1.5"


def test_a_cell_keeps_its_value_while_the_layer_is_smaller():
    at = open_page("recipe-card")
    at.slider(key="w32").set_value(1.5).run()
    at.slider(key="nin").set_value(2).run()
    assert _metrics(at)["Sunrise"] == "1.05"  # 1.0 x 0.8 + 0.5 x 0.3 + 0.1
    assert at.query_params["w32"] == "1.5"    # still in the link while it is not drawn
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


def test_random_fill_reaches_the_grid():
    at = open_page("recipe-card", {"nin": "6", "nout": "6"})
    before = _weight_lines(figures(at)[0])
    _button(at, "Random weights").click().run()
    after = _weight_lines(figures(at)[0])
    assert after != before and len(after) == 36
    assert any(k.startswith("w") for k in at.query_params)


def test_bad_link_values_fall_back_with_a_note():
    at = open_page("recipe-card", {"nin": "99", "w11": "abc", "x1": "50", "mode": "soup"})
    assert not at.exception
    notes = _notes(at)
    for key in ("nin=99", "w11=abc", "x1=50", "mode=soup"):
        assert f"Ignored `{key}`" in notes, key
    m = _metrics(at)
    assert m["Sunrise"] == "1.65" and m["parameters"] == "8"


def test_the_page_reproduces_from_its_link():
    q = {"mode": "plain", "nin": "2", "nout": "2", "w11": "1.2", "x2": "-0.5", "b1": "0.3", "times": "3"}
    at = open_page("recipe-card", q)
    m = _metrics(at)
    assert m["y₁"] == "1.35"  # 1.0 x 1.2 + (-0.5) x 0.3 + 0.3
    assert at.slider(key="times").value == 3.0
    again = open_page("recipe-card", q)
    assert _metrics(again) == m and figures(again) == figures(at)


def test_old_links_to_the_second_half_open_stacking():
    """/recipe-card?depth=20 (and any key that moved) forwards to /stacking with the whole query."""
    at = open_page("recipe-card", {"depth": "20"})
    assert not at.exception and at.title[0].value == "Stacking layers"
    assert "1.5^20" in _metrics(at)
    at = open_page("recipe-card", {"mw11": "abc"})
    assert "Ignored `mw11=abc`" in _notes(at)  # read there, as it was here
    at = open_page("recipe-card", {"tokens": "8", "w11": "1"})
    assert at.query_params["w11"] == "1"  # the card's keys travel too: the batch uses this W
    X, Y = numbers(at.dataframe[2].value), numbers(at.dataframe[3].value)   # after the neurons, the gradients
    assert X.shape == (8, 3)
    np.testing.assert_allclose(Y.to_numpy()[0], [1.85, -0.65], atol=1e-9)


def test_the_link_to_stacking_carries_the_card():
    at = open_page("recipe-card")
    at.slider(key="w11").set_value(1.0).run()
    link = next(el for el in at.get("page_link") if "stacking" in el.proto.page)
    assert "w11=1" in str(link.proto)


def test_the_keys_that_moved_are_stackings_and_not_the_cards():
    from pages.recipe_card.card import MOVED

    stacking, card = state.page_links("pages/stacking.py"), state.page_links("pages/recipe-card.py")
    assert set(stacking.links) >= MOVED and not MOVED & set(card.links)


def test_a_frozen_figure_sends_the_same_spec_without_the_copy():
    """ui.frozen: st.plotly_chart gets the spec it got before (same JSON), and the bars chart, built
    without validation, is a valid figure (plotly would raise on a typo)."""
    import importlib.util
    import json

    import plotly.graph_objects as go
    import plotly.io as pio
    import plotly.tools

    from lib.recipe import default_layer
    from ui.diagram import network_figure
    from ui.frozen import frozen

    def sent(fig) -> dict:  # what Streamlit 1.67's st.plotly_chart serialises
        d = plotly.tools.return_figure_from_figure_or_data(fig, True)
        return json.loads(pio.to_json(d, validate=False))

    x0, w0, _ = default_layer()
    fig = network_figure([w0[:3, :2]], [list("abc"), list("yz")], node_values=[x0[:3], x0[:3] @ w0[:3, :2]])
    before = sent(fig)
    assert frozen(fig) is fig and sent(fig) == before and len(fig.data) == len(before["data"])
    fig.to_dict()["layout"]["height"] = 1  # what a caller does to the dict handed out stays out of the next
    assert sent(fig) == before

    spec = importlib.util.spec_from_file_location("recipe_card_page", "pages/recipe-card.py")
    page = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(page)
    bars = page._bars(("Sunrise · x", "Sunrise · 2x"), (1.25, 2.5), (0.5, 0.5), "fruit", "yoghurt")
    go.Figure(bars.to_dict())  # validated: raises on an unknown property
    assert sent(bars)["layout"]["barmode"] == "relative" and len(sent(bars)["data"]) == 2


def test_double_the_fruit_draws_each_part_in_its_sign_colour():
    """Jungle's fruit part is negative at the start (−0.45, −0.9 doubled): vermillion, Sunrise's blue, as
    every signed number on the page."""
    from ui import colors

    at = open_page("recipe-card")
    part = figures(at)[2]["data"][0]
    values = decode(part["y"])
    assert (values < 0).any() and (values > 0).any()
    assert part["marker"]["color"] == [colors.NEGATIVE if v < 0 else colors.POSITIVE for v in values]
