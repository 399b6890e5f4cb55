"""Where the parameters live: the treemap of /gpt2-params, at a laptop's size and in the room view.

On a laptop every box carries its plain words, the checkpoint's name, its count and its share; a box too
small for 12 px text names itself on hover. Projected (`big=true`, issue 43 item 9), nobody hovers and
text is 1.6 times larger: the attention boxes went blank. There each box says less (its plain words and
its share: the counts are the metrics beside it), and a box too small to carry them at that size is not
drawn but named in one line under the chart (`boxes`).
"""

from __future__ import annotations

from lib.transformer import TransformerConfig
from ui import colors

# Where the parameters live: one category colour each (ui.colors: never a sign or class colour).
GROUP_COLORS = {"embedding": colors.INDIGO, "attention": colors.TEAL, "mlp": colors.WINE,
                "norm": colors.SAND, "head": colors.MAUVE}
# Text on the boxes: white on the dark colours, ink on the light ones.
_TEXT_ON = {colors.INDIGO: "white", colors.TEAL: colors.ON, colors.WINE: "white",
            colors.SAND: colors.ON, colors.MAUVE: "white", colors.OFF: colors.ON}
GROUP_LABELS = {"embedding": "embeddings", "attention": "attention", "mlp": "MLP", "norm": "norms",
                "head": "output head"}
FONT = dict(size=14)  # chart text readable from the back row (>= 12 px everywhere)

# Plain words beside each checkpoint name in the treemap: a student reads "MLP up", the checkpoint says c_fc.
PLAIN = {"wte": "token table", "embed_tokens": "token table", "wpe": "positions", "ln_1": "norm",
         "ln_2": "norm", "ln_f": "final norm", "input_layernorm": "norm", "post_attention_layernorm": "norm",
         "norm": "final norm", "c_attn": "Q, K, V", "q_proj": "queries", "k_proj": "keys", "v_proj": "values",
         "c_proj": "attention out", "o_proj": "attention out", "c_fc": "MLP up", "up_proj": "MLP up",
         "gate_proj": "MLP gate", "mlp c_proj": "MLP down", "down_proj": "MLP down", "lm_head": "output"}

# The room view: a box under this share of the model is not drawn (at 1366 x 768 the chart is about
# 650 x 400 px, and 1 % of it cannot hold "keys" and "1.7 %" in 19 px text); its words go under the chart.
ROOM_SMALLEST = 0.01
ROOM_HEIGHT = 400   # px: the chart, the metrics beside it and the totals under it on a 1366 x 768 screen


def plain_label(name: str) -> str:
    """'MLP up (c_fc)': the plain words first, the checkpoint's name after them."""
    words = PLAIN.get(name)
    return f"{words} ({name.removeprefix('mlp ')})" if words else name


def _room_text(name: str) -> str:
    """A box's words in the room: the plain words only ("attention out", not "attention out (c_proj)")."""
    return PLAIN.get(name) or name.removeprefix("mlp ")


def boxes(rows: tuple[dict, ...]) -> list[tuple[str, int, bool]]:
    """The room's treemap in words (rows: the weight groups, pages/gpt2_params/views.py `rows`): each
    box's plain words, its parameters and whether it is drawn, in the treemap's order; the rows of one
    name (the two norms of a block) as one."""
    rs = [r for r in rows if r["params"] > 0]
    total = sum(r["params"] for r in rs)
    said: dict[str, int] = {}
    for r in rs:
        words = _room_text(r["name"])
        said[words] = said.get(words, 0) + r["params"]
    return [(w, n, n > ROOM_SMALLEST * total) for w, n in said.items()]


def treemap_spec(cfg: TransformerConfig, rows: tuple[dict, ...], room: bool = False) -> dict:
    """The treemap as one dict, from the weight groups (`rows`: pages/gpt2_params/views.py's)."""
    total = sum(r["params"] for r in rows)
    # In the room a box too small to read is not drawn (`boxes` names it); its parent keeps its size.
    rs = [r for r in rows if r["params"] > (ROOM_SMALLEST * total if room else 0)]
    ids, labels, parents, values, fills, text = [], [], [], [], [], []

    def add(i, label, parent, value, color, words=""):
        ids.append(i)
        labels.append(label)
        parents.append(parent)
        values.append(int(value))
        fills.append(color)
        text.append(words or label)

    add("model", "the model", "", total, "rgba(0,0,0,0)")
    sections = {"embeddings": "embeddings", "block": f"{cfg.n_layer} blocks", "final": "after the blocks"}
    every = rows
    for sec, label in sections.items():
        here = [r for r in rs if r["section"] == sec]
        if not here:
            continue
        # In the room what comes after the blocks (an untied output layer; its norm is too small to draw)
        # stands alone: "after the blocks" over a narrow box was wider than the box.
        alone = room and sec == "final"
        if not alone:
            add(sec, label, "model", sum(r["params"] for r in every if r["section"] == sec), colors.OFF)
        if sec == "block":
            for g in dict.fromkeys(r["group"] for r in here):  # groups in checkpoint order
                grows = [r for r in here if r["group"] == g]
                whole = sum(r["params"] for r in every if r["section"] == sec and r["group"] == g)
                if not room:   # (in the room a box's colour says its group: one header less in each)
                    add(f"block/{g}", GROUP_LABELS[g], sec, whole, GROUP_COLORS[g])
                for r in grows:
                    add(f"block/{g}/{r['name']}", plain_label(r["name"]), sec if room else f"block/{g}",
                        r["params"], GROUP_COLORS[g], _room_text(r["name"]))
        else:
            for r in here:
                add(f"{sec}/{r['name']}", plain_label(r["name"]), "model" if alone else sec, r["params"],
                    GROUP_COLORS[r["group"]], _room_text(r["name"]))
    return _spec(ids, labels, parents, values, fills, text, room)


def _spec(ids, labels, parents, values, fills, text, room: bool) -> dict:
    ink = [_TEXT_ON.get(c, colors.ON) for c in fills]
    trace = {
        "type": "treemap", "ids": ids, "labels": labels, "parents": parents, "values": values,
        "branchvalues": "total",
        "marker": {"colors": fills, "line": {"width": 1, "color": "white"}},
        "texttemplate": "%{label}<br>%{value:,}<br>%{percentRoot:.1%}",
        "hovertemplate": ("%{label}<br>%{value:,} parameters<br>%{percentRoot:.1%} of the model"
                          "<extra></extra>"),
        "tiling": {"pad": 2}, "pathbar": {"visible": True, "textfont": {"size": 13}},
        "root": {"color": "rgba(0,0,0,0)"},
        "textfont": {"size": 15}, "insidetextfont": {"size": 15, "color": ink},
    }
    if room:   # plain words and the share (the counts are the metrics beside it); nobody zooms there
        trace.update(text=text, texttemplate="%{text}<br>%{percentRoot:.1%}", pathbar={"visible": False})
    # One dict, sent without plotly's per-property validation (ui.frozen.frozen_spec): every new
    # slider value is a new configuration, so this runs on nearly every move of a class.
    return {
        "data": [trace],
        # A box too small for 12 px text shows its name on hover only (plotly would shrink it).
        "layout": {"height": ROOM_HEIGHT if room else 440, "margin": {"l": 0, "r": 0, "t": 0 if room else 30, "b": 0},
                   "font": FONT, "uniformtext": {"minsize": 12, "mode": "hide"}},
    }
