"""/tax-bands under AppTest: every control changes what is shown, edits to the schedule are
checked and kept in the link, and bad links open the page with the defaults and a note."""

from __future__ import annotations

import numpy as np
import pytest

from lib import ring, tax
from lib.layers import collapse
from tests.app.conftest import ROOT, chart_elements, decode, figures, open_page, spec_text
from ui import fmt, state

EDITOR = "bands_editor"  # the schedule editor's widget key


def _metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label))


def _latex(at, start: str) -> str:
    """The first formula on the page that begins with `start` (st.latex wraps it in $$; a formula of
    several lines is an aligned block, whose start is read after its \\begin{aligned})."""
    return next(v for v in (x.value.strip("$\n").removeprefix(r"\begin{aligned}") for x in at.latex)
                if v.startswith(start))


def _money(text: str) -> float:
    """A money string from the page ('£48,675.00', '−$5') as a number."""
    sign = -1.0 if text[0] in "-\u2212" else 1.0
    return sign * float(text.lstrip("-\u2212£$").replace(",", ""))


def _num(text: str) -> float:
    """A number as ui.fmt writes it: '0.145', '3.6 × 10⁻⁵', 'below rounding error' (0)."""
    if "rounding error" in text:
        return 0.0
    text = text.replace("\u2212", "-")
    if "× 10" in text:
        mant, _, exp = text.partition(" × 10")
        return float(mant) * 10.0 ** int(exp.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")))
    return float(text)


def _notes(at) -> str:
    return " ".join(c.value for c in at.caption)


def _title(fig: dict) -> str:
    return ((fig.get("layout") or {}).get("title") or {}).get("text") or ""


def _figure(at, title_or_trace: str) -> dict:
    """The first figure whose title or one of whose trace names contains the text."""
    for fig in figures(at):
        title = _title(fig)
        names = " ".join(t.get("name") or "" for t in fig["data"])
        if title_or_trace in title or title_or_trace in names:
            return fig
    raise AssertionError(f"no figure with {title_or_trace!r}")


def _edit(at, edits: dict | None = None, added: list | None = None, deleted: list | None = None):
    at.session_state[EDITOR] = {"edited_rows": edits or {}, "added_rows": added or [],
                                "deleted_rows": deleted or []}
    return at.run()


@pytest.fixture(scope="module")
def default_page():
    return open_page("tax-bands")


def test_renders_with_the_uk_preset(default_page):
    at = default_page
    assert not at.exception
    assert at.title[0].value == "Sums of ReLUs"
    assert len(figures(at)) >= 9
    text = " ".join(m.value for m in at.markdown)
    assert "HMRC" in text and "2024/25" in text and "taper" in text
    # £60,000 under 2024/25 bands, both ways: 0.2 * 37,700 + 0.4 * 9,730 = 11,432
    assert _metric(at, "Tax, band by band") == _metric(at, "Tax, sum of ramps") == "£11,432.00"
    assert _metric(at, "Marginal rate") == "40.00 %"


def test_formula_shows_the_current_ramps(default_page):
    formula = _latex(default_page, r"\text{tax}(I) = {}& 0.2")
    assert r"0.2\,\operatorname{ReLU}(I - 12{,}570)" in formula
    assert r"+ 0.05\,\operatorname{ReLU}(I - 125{,}140)" in formula


def test_ramp_lines_add_up_to_the_tax_line(default_page):
    fig = _figure(default_page, "tax = sum of ramps")
    ys = {t["name"]: decode(t["y"]) for t in fig["data"]}
    total = ys.pop("tax = sum of ramps")
    assert len(ys) == 3  # the 0 % first band draws no ramp
    np.testing.assert_allclose(sum(ys.values()), total, atol=1e-9)
    x = decode(fig["data"][0]["x"])
    s = tax.PRESETS["uk-2024"]
    np.testing.assert_allclose(total, [sum(r * max(0.0, xi - t) for t, r in
                                          zip(s.thresholds, np.diff(s.rates, prepend=0), strict=True))
                                      for xi in x], atol=1e-6)


def test_changing_the_income_changes_the_breakdown():
    at = open_page("tax-bands")
    at.number_input(key="income").set_value(150_000.0).run()
    # 7,540 + 0.4 * (125,140 - 50,270) + 0.45 * (150,000 - 125,140) = 7,540 + 29,948 + 11,187
    assert _metric(at, "Tax, band by band") == _metric(at, "Tax, sum of ramps") == "£48,675.00"
    # The tables' totals are the metrics right under them ("Tax, band by band", "Tax, sum of ramps").
    bands = at.dataframe[1].value  # [0] is the schedule editor
    assert sum(map(_money, bands["income in band"])) == pytest.approx(150_000.0)
    assert sum(map(_money, bands["tax"])) == pytest.approx(48_675.0)
    assert _money(_metric(at, "Tax, band by band")) == pytest.approx(48_675.0)
    ramp = at.dataframe[2].value["ramp"]
    assert sum(map(_money, ramp)) == pytest.approx(48_675.0)
    assert _money(_metric(at, "Tax, sum of ramps")) == pytest.approx(48_675.0)


def test_a_preset_replaces_the_schedule_and_its_facts():
    at = open_page("tax-bands")
    at.selectbox(key="preset").set_value("us-2024").run()
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "Revenue Procedure 2023-34" in text and "HMRC" not in text
    fig = _figure(at, "tax = sum of ramps")
    assert len(fig["data"]) == 7 + 1  # seven brackets, each a ramp, plus the total
    # $60,000 taxable: 1,160 + 0.12 * 35,550 + 0.22 * 12,850 = 1,160 + 4,266 + 2,827
    assert _metric(at, "Tax, sum of ramps") == "$8,253.00"


def test_the_income_survives_a_preset_change():
    at = open_page("tax-bands")
    at.number_input(key="income").set_value(150_000.0).run()
    at.selectbox(key="preset").set_value("simple").run()
    assert at.number_input(key="income").value == 150_000.0
    # 0.2 * 30,000 + 0.4 * 110,000 = 6,000 + 44,000
    assert _metric(at, "Tax, sum of ramps") == "50,000.00"  # a made-up schedule has no currency


def test_an_edit_is_used_and_kept_in_the_link():
    at = open_page("tax-bands")
    at = _edit(at, edits={"3": {"rate": 50.0}})  # the top band at 50 % instead of 45 %
    assert not at.error
    assert at.query_params["bands"] == "0:0,12570:20,50270:40,125140:50"
    at.number_input(key="income").set_value(200_000.0).run()
    # 7,540 + 29,948 + 0.5 * 74,860 = 74,918
    assert _metric(at, "Tax, sum of ramps") == "£74,918.00"
    assert any("You have edited the bands" in i.value for i in at.info)


def test_adding_a_band_and_an_empty_new_row():
    at = open_page("tax-bands")
    at = _edit(at, added=[{"threshold": 200_000.0, "rate": 60.0}, {}])  # the empty row is skipped
    assert not at.error
    assert at.query_params["bands"] == "0:0,12570:20,50270:40,125140:45,200000:60"


@pytest.mark.parametrize(("edits", "added", "words"), [
    ({"1": {"threshold": 60_000.0}}, None, "thresholds must go up: row 3 is below row 2"),
    ({"2": {"threshold": 12_570.0}}, None, "rows 2 and 3 have the same threshold"),
    ({"1": {"rate": 120.0}}, None, "row 2: a rate must be between 0 and 100"),
    ({"1": {"rate": -3.0}}, None, "row 2: a rate must be between 0 and 100"),
    ({"1": {"threshold": None}}, None, "row 2: the threshold is empty"),
    (None, [{"threshold": 300_000.0}], "row 5: the rate is empty"),
])
def test_a_bad_edit_gets_one_line_and_the_last_good_schedule_stays(edits, added, words):
    at = open_page("tax-bands")
    at = _edit(at, edits=edits, added=added)
    assert not at.exception
    assert len(at.error) == 1 and words in at.error[0].value
    assert "last good schedule" in at.error[0].value
    assert _metric(at, "Tax, sum of ramps") == "£11,432.00"  # the preset is still in use
    assert "bands" not in at.query_params


def test_bands_from_the_link_and_back_to_the_preset():
    at = open_page("tax-bands", {"bands": "0:0,10000:50", "income": "30000"})
    assert _metric(at, "Tax, band by band") == "£10,000.00"   # 0.5 * (30,000 - 10,000)
    at.button[0].click().run()                                   # "Back to the preset"
    assert "bands" not in at.query_params
    assert _metric(at, "Tax, band by band") == "£3,486.00"    # 0.2 * (30,000 - 12,570)


def test_bands_equal_to_the_preset_stay_out_of_the_link():
    at = open_page("tax-bands", {"bands": "0:0,12570:20,50270:40,125140:45"})
    assert "bands" not in at.query_params
    assert not at.info or not any("You have edited" in i.value for i in at.info)


def test_units_and_knots_change_the_fit():
    at = open_page("tax-bands")
    before = _metric(at, "Root-mean-square error")
    at.slider(key="units").set_value(12).run()
    after = _metric(at, "Root-mean-square error")
    assert _num(after) < _num(before)
    fig = _figure(at, "12 ramps")
    path = next(t for t in fig["data"] if t.get("legendgroup") == "ramps")  # every ramp, one path
    assert (len(decode(path["x"])) - 2) // 3 == 12
    at.radio(key="knots").set_value("learned").run()
    assert _num(_metric(at, "Root-mean-square error")) < _num(after)
    err = _figure(at, "learned knots")  # drawn for every number of ramps, computed once per curve
    learned = decode(err["data"][1]["y"])
    assert len(learned) == 20
    assert fmt.fixed(learned[11], 3) == _metric(at, "Root-mean-square error")


def test_target_choice_is_drawn():
    at = open_page("tax-bands", {"target": "abs", "units": "2"})
    assert _num(_metric(at, "Root-mean-square error")) < 1e-10  # knots at -3 and 0: exact
    assert _figure(at, "target: |x|")


def test_bend_off_collapses_the_ring_network():
    at = open_page("tax-bands")
    assert _metric(at, "Points classified correctly") == "100.0 %"
    at.radio(key="bend").set_value("identity").run()
    assert not at.exception
    acc = float(_metric(at, "Points classified correctly").rstrip(" %"))
    assert acc <= 75.0
    assert "one straight line" in at.warning[0].value
    # the W shown is W1 @ W2 of the same trained weights, computed here independently
    X, y = ring.make_ring(300, seed=0)
    net, _ = ring.train_ring(X, y, seed=0)
    W = net.W1 @ net.W2
    shown = _latex(at, "W = W_1W_2")
    assert f"{W[0, 0]:.3f}" in shown and f"{W[1, 0]:.3f}" in shown
    units = [f for f in figures(at) if _title(f).startswith("unit")]
    assert len(units) == 3
    assert all(decode(f["data"][0]["z"]).min() < 0 for f in units)  # nothing is switched off


def test_hand_made_weights_cancel_without_the_bend():
    at = open_page("tax-bands", {"weights": "hand", "bend": "identity"})
    assert "W is zero" in at.warning[0].value
    W, b = collapse(ring.HAND.W1, ring.HAND.b1, ring.HAND.W2, ring.HAND.b2)
    assert _metric(at, "Points classified correctly") == "50.0 %"
    assert f"{b[0]:.3f}" in _latex(at, "W = W_1W_2")
    assert np.allclose(W, 0)
    assert at.number_input(key="seed").disabled


def test_training_seed_changes_the_weights():
    a = open_page("tax-bands")
    b = open_page("tax-bands", {"seed": "3"})
    wa = _latex(a, "W_1 =")
    wb = _latex(b, "W_1 =")
    assert wa != wb
    assert _metric(b, "Points classified correctly") == "100.0 %"


def test_bad_links_open_with_defaults_and_notes():
    at = open_page("tax-bands", {"bands": "0:0,5000:x", "preset": "atlantis", "units": "abc",
                                 "bend": "sideways", "knots": "random", "income": "-5", "seed": "1000"})
    assert not at.exception
    notes = _notes(at)
    assert "Ignored `bands=0:0,5000:x`" in notes and "row 2: the rate is empty or not a number" in notes
    for key in ("preset", "units", "bend", "knots", "income", "seed"):
        assert f"Ignored `{key}=" in notes, key
    assert _metric(at, "Tax, band by band") == "£11,432.00"
    assert at.slider(key="units").value == 6
    assert _metric(at, "Points classified correctly") == "100.0 %"


@pytest.mark.parametrize("bands", ["", "0:0,100", "100:10,50:20", "0:101", "0:10,0:20", "0:nan", "0:1e999",
                                   "-5:10", "0:0," + ",".join(f"{i}:x" for i in range(1, 80))])
def test_any_bad_bands_link_is_refused_with_a_note(bands):
    at = open_page("tax-bands", {"bands": bands})
    assert not at.exception
    assert "Ignored `bands=" in _notes(at)
    assert _metric(at, "Tax, sum of ramps") == "£11,432.00"


# --- sections rerun alone; links reproduce the page ---------------------------------------------------
def _section_snapshot(at) -> dict:
    """What each section shows: its figures' JSON and its metrics, keyed by section."""
    figs = [spec_text(el) for el in chart_elements(at)]
    metrics = {m.label: m.value for m in at.metric}
    return {
        "tax": (figs[:3], [metrics[k] for k in ("Tax at this income", "Tax, band by band",
                                                  "Tax, sum of ramps")]),
        "curve": (figs[3:5], [metrics["Root-mean-square error"], metrics["Largest error on the range"]]),
        "ring": (figs[5:], [metrics["Points classified correctly"]]),
    }


@pytest.mark.parametrize(("section", "move"), [
    ("curve", lambda at: at.slider(key="units").set_value(9)),
    ("tax", lambda at: at.number_input(key="income").set_value(90_000.0)),
    ("ring", lambda at: at.radio(key="bend").set_value("identity")),
])
def test_a_control_changes_its_section_and_leaves_the_others_untouched(section, move):
    at = open_page("tax-bands")
    before = _section_snapshot(at)
    move(at).run()
    assert not at.exception
    after = _section_snapshot(at)
    assert after[section] != before[section]
    for other in set(before) - {section}:
        assert after[other] == before[other], other


def test_the_taper_pile_tops_out_at_the_tax():
    """Issue 12: the falling 45 % ramp comes off the top of the pile, so the pile reaches the tax."""
    at = open_page("tax-bands", {"preset": "uk-2024-taper"})
    fig = _figure(at, "tax: the top of the pile")
    line = next(t for t in fig["data"] if t.get("name") == "tax: the top of the pile")
    x, total = decode(line["x"]), decode(line["y"])
    falling = [t for t in fig["data"] if "taken off" in (t.get("name") or "")]
    filled = [t for t in fig["data"] if t.get("fill") == "tonexty" and t not in falling]
    assert len(filled) == 3 and len(falling) == 1
    pile = np.max([decode(t["y"]) for t in filled], axis=0)
    s = tax.PRESETS["uk-2024-taper"]
    np.testing.assert_allclose(pile, total, atol=1e-6)
    np.testing.assert_allclose(total, tax.relu_tax(x, s.thresholds, s.rates), atol=1e-6)
    top = float(pile[np.searchsorted(x, 200_000.0)])
    assert top == pytest.approx(76_203.0, abs=1.0)  # not the 87k of the falling ramp piled on top


def test_hand_weights_are_set_in_their_editors_and_kept_in_the_link():
    at = open_page("tax-bands", {"weights": "hand"})
    assert _metric(at, "Points classified correctly") == "100.0 %"
    # the output bias down from 3 to -1: every point is below 0, so every point is called ring
    at.session_state["b2_editor"] = {"edited_rows": {0: {"output": -1.0}}, "added_rows": [],
                                     "deleted_rows": []}
    at.run()
    assert not at.exception
    assert _metric(at, "Points classified correctly") == "50.0 %"
    assert at.query_params["b2"] == "-1"
    assert r"b_2 = \begin{bmatrix}-1.00\end{bmatrix}" in [x.value.strip("$\n") for x in at.latex]
    again = open_page("tax-bands", {"weights": "hand", "b2": "-1"})
    assert _metric(again, "Points classified correctly") == "50.0 %"


def test_a_bad_hand_weight_keeps_the_last_good_one():
    at = open_page("tax-bands", {"weights": "hand"})
    at.session_state["w2_editor"] = {"edited_rows": {0: {"unit 2": None}}, "added_rows": [],
                                     "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("still using the last good values" in e.value for e in at.error)
    assert _metric(at, "Points classified correctly") == "100.0 %"


def test_the_page_reproduces_from_its_link():
    at = open_page("tax-bands")
    at.selectbox(key="preset").set_value("us-2024").run()
    at.number_input(key="income").set_value(80_000.0).run()
    at.selectbox(key="target").set_value("bump").run()
    at.slider(key="units").set_value(4).run()
    at.radio(key="bend").set_value("identity").run()
    at.number_input(key="seed").set_value(2).run()
    link = {"preset": "us-2024", "income": "80000", "target": "bump", "units": "4", "bend": "identity",
            "seed": "2"}
    again = open_page("tax-bands", link)
    assert not again.exception
    assert _section_snapshot(again) == _section_snapshot(at)


def test_another_preset_replaces_the_edits():
    at = open_page("tax-bands")
    at = _edit(at, edits={"3": {"rate": 50.0}})
    assert "bands" in at.query_params
    at.selectbox(key="preset").set_value("simple").run()
    assert "bands" not in at.query_params
    assert _metric(at, "Tax, sum of ramps") == "14,000.00"  # 0.2 * 30,000 + 0.4 * 20,000 at 60,000
    assert not any("You have edited" in i.value for i in at.info)


def test_every_declared_key_round_trips_through_its_link_text():
    links = state.page_links(str(ROOT / "pages" / "tax-bands.py"))
    assert [link.key for link in links] == ["preset", "income", "bands", "target", "units", "knots",
                                            "weights", "bend", "seed", "w1", "b1", "w2", "b2", "big", "hide"]
    for link in links:
        value = link.default if link.key != "bands" else tax.parse_bands("0:0,10000:12.5,40000:40")
        back = link.from_text(link.to_text(value))
        if link.key == "bands":  # (thresholds, rates)
            assert all(np.array_equal(a, b) for a, b in zip(back, value, strict=True))
        else:
            assert state._equal(back, value), link.key
    from tools.readme import table

    assert "| `bands` |" in table(links) and "| `w1`, `b1`, `w2`, `b2` |" in table(links)


def test_the_ramps_are_named_by_their_rate_step_and_their_bands_rate():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "_tax_page", Path(__file__).resolve().parents[2] / "pages" / "tax-bands.py")
    page = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(page)
    assert page.band_label(50_270, 0.20, 0.40, "£") == "£50,270: +20 points (band rate 40 %)"
    assert page.band_label(125_140, -0.15, 0.45, "£") == "£125,140: −15 points (band rate 45 %)"
    at = open_page("tax-bands")
    names = [tr_.get("name", "") for f in figures(at) for tr_ in f["data"]]
    assert "£50,270: +20 points (band rate 40 %)" in names
    assert "uk-2024-taper" not in " ".join([c.value for c in at.caption] + [m.value for m in at.markdown])


def test_the_pile_says_its_answer_in_words_and_a_table():
    """Issue 35 item 2: under the pile, the tax at the income followed as a line, and its numbers at each
    threshold and that income behind "The numbers behind this chart" (every number lib's, by ui.fmt)."""
    from ui.charts import NUMBERS

    at = open_page("tax-bands")
    at.number_input(key="income").set_value(150_000.0).run()
    s = tax.PRESETS["uk-2024"]
    want = fmt.money(float(tax.relu_tax(150_000.0, s.thresholds, s.rates)), s.currency, 2)
    line = next(c.value for c in at.caption if c.value.startswith("At an income of"))
    assert want in line and fmt.pct(tax.effective_rate(150_000.0, s.thresholds, s.rates), 2) in line
    box = next(e for e in at.expander if e.label == NUMBERS)
    table = box.markdown[0].value
    assert "(followed)" in table and want in table
    assert table.count("\n") == 1 + len(s.thresholds) + 1   # header, rule, a row per threshold and the income


def test_the_ring_output_is_shaded_in_the_classes_colours_and_its_units_by_sign():
    """Issue 34 item 7: the ring's orange points sat on vermillion 'negative' shading. With points on it,
    the output's sign is a class: orange tint (ring) through white to green tint (disc), as /trainer's
    map; the three units' maps, numbers without classes, keep blue and vermillion."""
    from ui import boundary, charts

    at = open_page("tax-bands")
    figs = figures(at)
    out = next(f for f in figs if f["layout"].get("title", {}).get("text", "").startswith("output: above 0"))
    heat = next(t for t in out["data"] if t["type"] == "heatmap")
    assert [list(c) for c in heat["colorscale"]] == [list(c) for c in boundary.SHADING]
    assert "(green)" in out["layout"]["title"]["text"]
    unit = next(f for f in figs if f["layout"].get("title", {}).get("text", "").startswith("unit 1"))
    assert [list(c) for c in unit["data"][0]["colorscale"]] == [list(c) for c in charts.DIVERGING]
