"""/activations under AppTest: the controls change what is shown, each section on its own."""

from __future__ import annotations

import re

import numpy as np

from lib import bends
from lib.activations import ACTIVATIONS
from tests.app.conftest import decode, figures, open_page
from ui import fmt

DEFAULT_SHOW = ["relu", "gelu", "silu"]


def _fig(at, meta):
    """The figure a section draws, found by its layout.meta tag (the page's order may change)."""
    found = [f for f in figures(at) if f["layout"].get("meta") == meta]
    assert len(found) == 1, [f["layout"].get("meta") for f in figures(at)]
    return found[0]


def _gallery(at):
    return _fig(at, "gallery")


def _trace(fig, name):
    return next(t for t in fig["data"] if t["name"] == name)


def _steps(at) -> str:
    """The LaTeX of 'x through the network' (z, h, y)."""
    return next(x.value for x in at.latex if "z &=" in x.value)


def _sections(at) -> dict[str, str]:
    """Each section's output as text, to tell which sections a control changed."""
    specs = {f["layout"]["meta"]: repr(f) for f in figures(at)}
    cards = " ".join(x.value for x in at.latex if "z &=" not in x.value and "W &=" not in x.value)
    steps = " ".join(x.value for x in at.latex if "z &=" in x.value or "W &=" in x.value)
    said = " ".join(m.value for m in (*at.info, *at.success))
    return {"depth": specs["depth"] + steps + said, "gallery": specs["gallery"] + cards,
            "gelu": specs["gelu"], "swiglu": specs["swiglu"]}


def test_defaults_draw_relu_gelu_silu():
    at = open_page("activations")
    names = [t["name"] for t in _gallery(at)["data"]]
    # ["ReLU", "GELU (exact)", "SiLU (Swish)"]: the table's labels, whatever they become
    assert names == [ACTIVATIONS[n].label for n in DEFAULT_SHOW]


def test_derivative_toggle_adds_dashed_slopes():
    at = open_page("activations")
    at.toggle(key="deriv").set_value(True).run()
    data = _gallery(at)["data"]
    assert len(data) == 6
    slope = next(t for t in data if t["name"] == f"{ACTIVATIONS['relu'].label}: slope")  # "ReLU: slope"
    assert set(np.unique(decode(slope["y"]))) == {0.0, 1.0}
    assert slope["line"]["dash"] == "dash"


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
    net = _fig(at, "depth")["data"]
    np.testing.assert_allclose(decode(net[0]["y"]), decode(net[1]["y"]), atol=1e-12)
    # the gap is written as a teacher would: no e-notation
    assert not re.search(r"\de[-+]?\d", at.success[0].value), at.success[0].value


def test_formulas_carry_the_current_numbers():
    at = open_page("activations")
    before = [x.value for x in at.latex]
    at.slider(key="x").set_value(-2.0).run()
    after = [x.value for x in at.latex]
    assert before != after
    # x = -2: z = x W1 + b1 = [-2.5, 1.5, 0.0] with the default weights
    assert r"-2.500 & 1.500 & 0.000" in _steps(at)


def test_the_followed_x_is_marked_on_the_chart():
    at = open_page("activations", {"x": "-2"})
    mark = next(t for t in _fig(at, "depth")["data"] if t["name"].startswith("x = "))
    assert mark["name"] == "x = −2, followed below"
    f = bends.follow(-2.0, *(np.array(v) for v in ([[1.0, -1.0, 0.5]], [-0.5, -0.5, 1.0],
                                                    [[1.0], [1.0], [-1.0]], [0.5])), ACTIVATIONS["relu"])
    np.testing.assert_allclose(decode(mark["x"]), [-2.0, -2.0])
    np.testing.assert_allclose(decode(mark["y"]), [f.y, f.y_one])  # on the network, on the single layer


def test_bad_link_values_fall_back_with_a_note():
    at = open_page("activations", {"xmax": "abc", "w1": "1,nope,3", "b2": "1;2"})
    assert not at.exception
    notes = " ".join(c.value for c in at.caption)
    assert "Ignored `w1=1,nope,3`" in notes and "column 2 is not a number" in notes
    assert "Ignored `b2=1;2`" in notes
    assert "Ignored `xmax=abc`" in notes


def test_matrix_from_the_link_is_used():
    at = open_page("activations", {"b2": "10"})
    z = decode(_fig(at, "depth")["data"][1]["y"])  # the collapsed line moves up by 9.5
    at2 = open_page("activations")
    z2 = decode(_fig(at2, "depth")["data"][1]["y"])
    np.testing.assert_allclose(z - z2, 9.5)


def test_every_bend_in_the_table_is_offered_by_its_name():
    """Choices come from lib.activations.ACTIVATIONS, so a bend added there appears here."""
    at = open_page("activations")
    assert at.selectbox(key="bend").options == [a.label for a in ACTIVATIONS.values()]
    assert at.multiselect(key="show").options == [a.label for a in ACTIVATIONS.values()]
    assert at.selectbox(key="bend").format_func("gelu_tanh") == ACTIVATIONS["gelu_tanh"].label


def test_picked_bends_travel_as_short_names():
    at = open_page("activations")
    at.multiselect(key="show").select("gelu_tanh").run()
    assert at.query_params["show"] == ["relu", "gelu", "silu", "gelu_tanh"]
    assert [t["name"] for t in _gallery(at)["data"]][-1] == ACTIVATIONS["gelu_tanh"].label
    at.selectbox(key="bend").set_value("tanh").run()
    assert at.query_params["bend"] == "tanh"


def test_a_link_reproduces_the_page():
    q = {"bend": "gelu_tanh", "x": "-1.5", "show": ["tanh", "sigmoid"], "xmax": "6", "deriv": "true",
         "wg": "2", "wu": "-0.5", "w2": "2;0;-1"}
    at = open_page("activations", q)
    assert not at.exception and not [c.value for c in at.caption if "Ignored" in c.value]
    assert at.selectbox(key="bend").value == "gelu_tanh"
    assert at.slider(key="x").value == -1.5
    assert [t["name"] for t in _gallery(at)["data"]] == [
        f"{ACTIVATIONS[n].label}{s}" for n in ("sigmoid", "tanh") for s in ("", ": slope")]
    assert decode(_gallery(at)["data"][0]["x"]).max() == 6.0
    *_, out = bends.swiglu_curves(2.0, -0.5)
    np.testing.assert_allclose(decode(_trace(_fig(at, "swiglu"), "product (W_down = 1)")["y"]), out)
    net = decode(_fig(at, "depth")["data"][0]["y"])
    d = bends.depth(np.array([[1.0, -1.0, 0.5]]), np.array([-0.5, -0.5, 1.0]),
                    np.array([[2.0], [0.0], [-1.0]]), np.array([0.5]), ACTIVATIONS["gelu_tanh"])
    np.testing.assert_allclose(net, d.net)
    # the same link opened twice gives the same page
    assert _sections(open_page("activations", q)) == _sections(at)


def test_a_bad_bend_in_the_link_is_left_out_with_a_note():
    at = open_page("activations", {"show": ["relu", "bogus"], "bend": "nonsense"})
    assert not at.exception
    notes = " ".join(c.value for c in at.caption)
    assert "Ignored `show=bogus`" in notes and "Ignored `bend=nonsense`" in notes
    assert [t["name"] for t in _gallery(at)["data"]] == [ACTIVATIONS["relu"].label]


def _edit(at, editor: str, rows: dict):
    at.session_state[editor] = {"edited_rows": rows, "added_rows": [], "deleted_rows": []}
    return at


def test_each_control_changes_its_own_section_only():
    """Moving a control inside a section changes that section's output and leaves the others'
    elements untouched (in the browser those controls sit in fragments and rerun alone)."""
    at = open_page("activations")
    moves = [
        ("depth", lambda a: a.slider(key="x").set_value(-2.0)),
        ("depth", lambda a: a.selectbox(key="bend").set_value("silu")),
        ("gallery", lambda a: a.slider(key="xmax").set_value(7.0)),
        ("gallery", lambda a: a.toggle(key="deriv").set_value(True)),
        ("swiglu", lambda a: a.slider(key="wg").set_value(-1.0)),
        ("swiglu", lambda a: a.slider(key="wu").set_value(2.5)),
        ("depth", lambda a: _edit(a, "w1_editor", {0: {"h1": 2.0}})),  # a weight typed into W1
    ]
    for section, move in moves:
        before = _sections(at)
        move(at).run()
        assert not at.exception
        after = _sections(at)
        assert after[section] != before[section], section
        for other in before.keys() - {section}:
            assert after[other] == before[other], (section, other)
    assert at.query_params["w1"] == "2,-1,0.5"


def test_no_engineers_notation_in_the_words():
    at = open_page("activations")
    at.selectbox(key="bend").set_value("identity").run()
    words = [m.value for m in (*at.markdown, *at.caption, *at.info, *at.success)]
    for w in words:
        assert not re.search(r"\d\.?\d*e[-+]?\d", w), w
    gelu = next(m.value for m in at.markdown if "never differ by more than" in m.value)
    g = bends.approximation_gap("gelu", "gelu_tanh")
    assert fmt.power(g.gap) in gelu and "× 10⁻" in fmt.power(g.gap)


def test_more_bends_than_colours_draws_the_first_ones_and_says_so():
    from ui import colors

    at = open_page("activations", {"show": list(ACTIVATIONS)})
    most = len(colors.CATEGORY)
    drawn = [t["name"] for t in _gallery(at)["data"]]
    assert drawn == [a.label for a in list(ACTIVATIONS.values())[:most]]
    assert len({t["line"]["color"] for t in _gallery(at)["data"]}) == len(drawn)  # no two alike
    assert any(f"Drawing the first {most}" in c.value for c in at.caption)


def test_each_bend_keeps_one_colour_in_every_chart():
    """SiLU was wine in the gallery and indigo, dashed, as SwiGLU's gate: a bend is one colour wherever it
    is drawn, whichever other bends share the gallery."""
    def colour(fig, name):
        return next(t["line"]["color"] for t in fig["data"] if t.get("name") == name)

    at = open_page("activations", {"bend": "silu"})
    gallery, swiglu, depth = _fig(at, "gallery"), _fig(at, "swiglu"), _fig(at, "depth")
    silu = colour(gallery, ACTIVATIONS["silu"].label)
    assert colour(swiglu, "SiLU(x·W_gate)") == silu
    assert colour(depth, f"network with {ACTIVATIONS['silu'].label}") == silu
    other = open_page("activations", {"show": ["tanh", "silu"]})
    assert colour(_gallery(other), ACTIVATIONS["silu"].label) == silu          # not by its place
    assert colour(_gallery(other), ACTIVATIONS["tanh"].label) != silu


def test_the_room_view_folds_the_weights_away_with_their_heading_and_reset():
    """Issue 43, item 9: with big=true (or a lesson step hiding w1,b1,w2,b2) the matrices are not drawn,
    and neither are their heading and Reset beside an empty column; their link values still apply."""
    for link in ({"big": "true", "b2": "10"}, {"hide": "w1,b1,w2,b2", "b2": "10"}):
        at = open_page("activations", link)
        assert not at.exception
        assert not [m for m in at.markdown if "The weights" in m.value]
        assert not [b for b in at.button if b.label == "Reset weights"]
        z = decode(_fig(at, "depth")["data"][1]["y"])
        np.testing.assert_allclose(z - decode(_fig(open_page("activations"), "depth")["data"][1]["y"]), 9.5)
    at = open_page("activations")
    assert [b for b in at.button if b.label == "Reset weights"]   # drawn where the weights are
