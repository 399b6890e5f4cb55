"""/gpt2-params under AppTest: presets, sliders, the table, and bad configurations or links."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lib.transformer import PRESET_NAMES, PRESETS, count_params, param_table
from tests.app.conftest import figures, open_page


def _metric(at, label_start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def _table(at):
    return at.dataframe[0].value


def _text(at) -> str:
    return " ".join(x.value for x in [*at.markdown, *at.caption, *at.warning])


def test_defaults_are_gpt2_small():
    at = open_page("gpt2-params")
    assert not at.exception
    assert _metric(at, "Parameters") == "124,439,808"
    assert _metric(at, "In one block") == "7,087,872"
    t = _table(at).set_index("name")
    # The seed's per-block rows, grown into the full table.
    assert t.loc["c_attn", "one copy"] == 1_771_776
    assert t.loc["c_proj", "one copy"] == 590_592
    assert t.loc["c_fc", "one copy"] == 2_362_368
    assert t.loc["mlp c_proj", "one copy"] == 2_360_064
    assert t.loc["c_attn", "W as in y = xW (in × out)"] == "768 × 2,304"
    assert t.loc["c_attn", "nn.Linear stores (out × in)"] == "2,304 × 768"
    assert t["all copies"].sum() == 124_439_808
    assert list(t.index) == ["wte", "wpe", "ln_1", "c_attn", "c_proj", "ln_2", "c_fc", "mlp c_proj",
                             "ln_f", "lm_head"]
    text = _text(at)
    assert "as published" in text
    assert "68.3 %" in text and "more than two thirds" in text
    assert "589,824" in text and "4,718,592" in text


def test_llama_3_8b_link_says_8030261248_and_every_row_adds_up():
    at = open_page("gpt2-params", {"preset": "llama-3-8b"})
    assert _metric(at, "Parameters") == "8,030,261,248"
    t = _table(at)
    assert t["all copies"].sum() == 8_030_261_248
    assert {"embed_tokens", "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj",
            "input_layernorm", "post_attention_layernorm", "norm", "lm_head"} == set(t["name"])
    assert t.set_index("name").loc["k_proj", "nn.Linear stores (out × in)"] == "1,024 × 4,096"
    assert at.slider(key="layers").value == 32 and at.slider(key="kv").value == 8
    assert at.number_input(key="vocab").value == 128256
    # The sum in the formula uses the same numbers.
    text = _text(at).replace("\\_", "_")
    assert ("**8,030,261,248** = 525,336,576 (embed_tokens) + 32 × 218,112,000 (one block) + 4,096 (norm) "
            "+ 525,336,576 (lm_head)") in text
    assert "SwiGLU does not collapse" in _text(at)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_total(name):
    at = open_page("gpt2-params", {"preset": name})
    assert _metric(at, "Parameters") == f"{count_params(PRESETS[name]):,}"


def test_picking_a_preset_sets_every_control():
    at = open_page("gpt2-params")
    at.selectbox(key="preset").set_value("qwen2.5-0.5b").run()
    assert _metric(at, "Parameters") == "494,032,768"
    assert at.slider(key="d").value == 896 and at.slider(key="heads").value == 14
    assert at.toggle(key="qkvbias").value is True and at.toggle(key="bias").value is False
    assert at.radio(key="norm").value == "rmsnorm"


def test_a_slider_makes_a_custom_config_and_back():
    at = open_page("gpt2-params")
    at.slider(key="layers").set_value(24).run()
    want = count_params(replace(PRESETS["gpt2"], n_layer=24))
    assert _metric(at, "Parameters") == f"{want:,}"
    text = _text(at)
    assert "custom" in text and "layers 12 → 24" in text
    assert _table(at).set_index("name").loc["c_fc", "copies"] == 24
    at.button[0].click().run()  # Back to gpt2
    assert at.slider(key="layers").value == 12
    assert _metric(at, "Parameters") == "124,439,808"


def test_each_switch_changes_the_table():
    at = open_page("gpt2-params")
    at.toggle(key="tie").set_value(False).run()
    t = _table(at).set_index("name")
    assert t.loc["lm_head", "all copies"] == 50257 * 768
    at.radio(key="mlp").set_value("swiglu").run()
    assert "gate_proj" in set(_table(at)["name"])
    at.radio(key="norm").set_value("rmsnorm").run()
    at.number_input(key="pos").set_value(0).run()
    want = count_params(replace(PRESETS["gpt2"], tie_embeddings=False, mlp="swiglu", norm="rmsnorm",
                                n_positions=0))
    assert _metric(at, "Parameters") == f"{want:,}"
    assert "embed_positions" not in set(_table(at)["name"])


def test_custom_link_reproduces_the_view():
    at = open_page("gpt2-params", {"preset": "llama-3-8b", "layers": "16", "tie": "true"})
    want = count_params(replace(PRESETS["llama-3-8b"], n_layer=16, tie_embeddings=True))
    assert _metric(at, "Parameters") == f"{want:,}"
    assert "layers 32 → 16" in _text(at)


def test_a_custom_config_equal_to_another_preset_says_so():
    at = open_page("gpt2-params", {"preset": "llama-3-8b", "vocab": "32000"})
    assert "(that is **Mistral 7B**)" in _text(at)


def test_inconsistent_config_names_the_field_and_shows_the_presets_numbers_as_a_link_would():
    at = open_page("gpt2-params")
    preset = _table(at)
    at.slider(key="layers").set_value(6).run()
    at.slider(key="heads").set_value(10).run()  # 768 is not divisible by 10 (kv follows: 10)
    assert not at.exception
    errors = [c.value for c in at.caption if ":red[" in c.value]
    assert any("Attention heads" in e and "10 heads" in e for e in errors)
    assert "the preset it starts from" in at.warning[0].value
    assert _table(at).equals(preset)                       # the same numbers the same link shows afresh
    fresh = open_page("gpt2-params", {"layers": "6", "heads": "10", "kv": "10"})
    assert _metric(fresh, "Parameters") == _metric(at, "Parameters") == "124,439,808"
    at.slider(key="layers").set_value(0).run()
    errors = [c.value for c in at.caption if ":red[" in c.value]
    assert any("Blocks (layers)" in e and "at least one block" in e for e in errors)
    at.slider(key="heads").set_value(12).run()
    at.slider(key="layers").set_value(3).run()
    assert not at.warning
    assert _metric(at, "Parameters") == f"{count_params(replace(PRESETS['gpt2'], n_layer=3)):,}"


def test_the_kv_heads_follow_the_heads_unless_set_apart():
    at = open_page("gpt2-params")
    at.slider(key="heads").set_value(16).run()           # GPT-2 does not group its heads: kv follows
    assert at.slider(key="kv").value == 16 and not at.warning
    assert _metric(at, "Parameters") == f"{count_params(replace(PRESETS['gpt2'], n_head=16, n_kv_head=16)):,}"
    llama = open_page("gpt2-params", {"preset": "llama-3-8b"})   # grouped (32 heads, 8 kv): kv stays
    llama.slider(key="heads").set_value(64).run()
    assert llama.slider(key="kv").value == 8


def test_absurd_vocabulary_is_refused_with_a_message():
    at = open_page("gpt2-params")
    at.number_input(key="vocab").set_value(10**9).run()
    errors = [c.value for c in at.caption if ":red[" in c.value]
    assert any("Vocabulary" in e and "beyond any real model" in e for e in errors)
    assert _metric(at, "Parameters") == "124,439,808"


def test_bad_link_values_open_cleanly_with_notes():
    at = open_page("gpt2-params", {"preset": "gpt5", "d": "abc", "vocab": "-4", "kv": "5"})
    assert not at.exception
    notes = " ".join(c.value for c in at.caption)
    assert "Ignored `preset=gpt5`" in notes and "Ignored `d=abc`" in notes
    assert "Key/value heads" in notes  # 12 heads cannot share 5 kv heads
    assert _metric(at, "Parameters") == "124,439,808"  # not a model: the preset's numbers, GPT-2 small


def test_a_fraction_in_a_link_is_rounded_with_a_note():
    at = open_page("gpt2-params", {"pos": "1.5"})
    notes = " ".join(c.value for c in at.caption)
    assert "Ignored `pos=1.5` from the link: not a whole number; using 1." in notes
    assert _metric(at, "Parameters") == f"{count_params(replace(PRESETS['gpt2'], n_positions=1)):,}"
    at.slider(key="layers").set_value(6).run()  # the note stays until the field itself changes
    assert "Ignored `pos=1.5`" in " ".join(c.value for c in at.caption)
    at.number_input(key="pos").set_value(2).run()
    assert "Ignored `pos=1.5`" not in " ".join(c.value for c in at.caption)


def test_treemap_and_presets_chart():
    at = open_page("gpt2-params")
    tree, bars = figures(at)
    tm = tree["data"][0]
    assert tm["type"] == "treemap"
    values = dict(zip(tm["ids"], tm["values"], strict=True))
    assert values["model"] == 124_439_808
    assert values["block/mlp/c_fc"] == 12 * 2_362_368
    assert "final/lm_head" not in values  # tied: no numbers of its own
    labels = dict(zip(tm["ids"], tm["labels"], strict=True))   # plain words first, then the checkpoint's
    assert labels["block/mlp/c_fc"] == "MLP up (c_fc)"
    assert labels["block/mlp/mlp c_proj"] == "MLP down (c_proj)"
    assert labels["embeddings/wte"] == "token table (wte)"
    assert labels["block/attention/c_attn"] == "Q, K, V (c_attn)"
    assert [t["name"] for t in bars["data"]] == ["embeddings", "attention", "MLP", "norms", "output head"]
    at.toggle(key="tie").set_value(False).run()
    values = dict(zip(*(figures(at)[0]["data"][0][k] for k in ("ids", "values")), strict=True))
    assert values["final/lm_head"] == 50257 * 768


def test_memory_table():
    at = open_page("gpt2-params", {"preset": "llama-3-8b"})
    mem = at.dataframe[2].value.set_index("dtype")
    assert mem.loc["bf16", "bytes"] == 2 * 8_030_261_248
    assert mem.loc["int4", "bytes"] == 8_030_261_248 // 2


def test_presets_side_by_side():
    at = open_page("gpt2-params")
    p = at.dataframe[4].value.set_index("preset")   # the counts view
    assert list(p.index) == [PRESET_NAMES[k] for k in PRESETS]
    for name, cfg in PRESETS.items():
        assert p.loc[PRESET_NAMES[name], "params"] == int(param_table(cfg)["params"].sum())


def test_a_custom_model_joins_the_presets_table():
    at = open_page("gpt2-params", {"layers": "6"})
    p = at.dataframe[4].value.set_index("preset")   # the counts view
    assert list(p.index) == ["your model", *PRESET_NAMES.values()]
    assert p.loc["your model", "params"] == count_params(replace(PRESETS["gpt2"], n_layer=6))
    bars = figures(at)[1]["data"][0]
    assert bars["y"][0] == "your model"


def test_the_title_names_the_chosen_model():
    at = open_page("gpt2-params", {"preset": "llama-3-8b"})
    assert at.title[0].value.startswith("Llama 3 8B:")
    at.slider(key="layers").set_value(16).run()
    assert at.title[0].value.startswith("Your model (from Llama 3 8B):")
    at.selectbox(key="preset").set_value("mistral-7b").run()
    assert at.title[0].value.startswith("Mistral 7B:")
    assert at.selectbox(key="preset").format_func("qwen2.5-0.5b") == "Qwen2.5 0.5B"


def test_one_precision_per_share_and_the_blocks_visibly_add_up():
    from lib.transformer import totals
    from ui import fmt

    at = open_page("gpt2-params")
    shares = [_table(at)["share"], at.dataframe[4].value["embedding_share"],
              at.dataframe[4].value["linear_share"]]
    for s in shares:  # percent with one decimal, in the data itself (a copied cell pastes this)
        assert (s == s.round(1)).all()
    tot = totals(PRESETS["gpt2"])
    text = _text(at)
    # 85,054,464 in the blocks = 85,017,600 in their linear layers + 36,864 in their norms
    for n in (tot.linear, tot.block_norms, tot.blocks):
        assert fmt.count(n) in text
    assert "68.3 %" in text and "68.33" not in text
    for df in at.dataframe:  # no e-notation, no negative zero in any table's data
        shown = df.value.to_string()
        assert "e-0" not in shown and "e+" not in shown and "-0.0" not in shown


@pytest.mark.parametrize("cfg", [PRESETS["gpt2"], PRESETS["llama-3-8b"], replace(PRESETS["gpt2"], n_layer=6),
                                 replace(PRESETS["qwen2.5-0.5b"], tie_embeddings=False, qkv_bias=False)])
def test_the_unvalidated_figures_validate_and_the_custom_row_is_presets_table_s(cfg):
    """pages/gpt2_params/views.py builds its figures without plotly's validation and the custom row from
    the page's totals: here plotly validates every figure dict, and lib's presets_table gives the same row."""
    import plotly.graph_objects as go

    from lib.transformer import presets_table
    from pages.gpt2_params import views as params

    go.Figure(params.treemap_spec(cfg))  # raises on a typo in a property name
    go.Figure(params.presets_spec(cfg))
    go.Figure(params.presets_spec(None))
    lib_row = params._readable(presets_table({"your model": cfg})).iloc[0].to_dict()
    assert params.custom_row(cfg) == lib_row
    assert params.presets_frame(cfg).dtypes.equals(params.presets_frame(None).dtypes)


def test_frozen_spec_sends_what_a_frozen_validated_figure_sends():
    """ui.frozen.frozen_spec: the same JSON as frozen(go.Figure(d)), NumPy arrays and template included."""
    import json

    import numpy as np
    import plotly.graph_objects as go
    import plotly.io as pio
    import plotly.tools

    from ui.frozen import frozen, frozen_spec

    def spec():
        return {"data": [{"type": "bar", "y": ["a", "b"], "x": np.array([0.25, 0.75]),
                          "customdata": np.array([3, 9]), "marker": {"color": "#332288"}}],
                "layout": {"height": 200, "xaxis": {"range": [0, 1.0]}}}

    def sent(fig) -> dict:  # what Streamlit 1.67's st.plotly_chart serialises
        d = plotly.tools.return_figure_from_figure_or_data(fig, True)
        return json.loads(pio.to_json(d, validate=False))

    assert sent(frozen_spec(spec())) == sent(frozen(go.Figure(spec())))
    assert sent(frozen_spec(spec()))["layout"]["template"] == sent(go.Figure())["layout"]["template"]


def test_each_wide_table_is_two_views_that_together_show_every_column():
    """At 1366 px one view of the parameter table (11 columns) or the models table (16) scrolled sideways:
    each is drawn as two narrower views of the same data, and no column is left out of both."""
    from lib.transformer import PRESETS
    from pages.gpt2_params import views as params

    at = open_page("gpt2-params")
    frames = list(at.dataframe)
    views = [list(df.value.columns) for df in frames]   # each view sends only its own columns
    whole = {0: params._table_frame(PRESETS["gpt2"]).column_names,
             3: params._presets_arrow(None).column_names}
    for first, second in ((0, 1), (3, 4)):
        key = views[first][0]
        assert frames[first].value[key].equals(frames[second].value[key])   # the same rows, in one order
        shown = set(views[first]) | set(views[second])
        assert shown == set(whole[first]), set(whole[first]) - shown
        assert max(len(views[first]), len(views[second])) <= 11 and views[first][0] == views[second][0]
