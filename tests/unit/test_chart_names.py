"""A chart's accessible name from its figure (ui.charts.title_text, issue 35 item 2): the title without
plotly's markup, else its axes and named lines, else only the kind of chart (which the browser test
refuses, so every such chart is given a name by its page)."""
from __future__ import annotations

from ui.charts import line_figure, title_text


def test_the_title_in_plain_words():
    assert title_text({"layout": {"title": {"text": "<b>Loss</b> against<br>step &amp; more"}}}) == \
        "Loss against step & more"


def test_without_a_title_the_axes_and_the_named_lines():
    fig = line_figure([0, 1], {"ReLU": [0, 1], "GELU": [0, 1]}, x_title="x", y_title="f(x)")
    assert title_text(fig.to_dict()) == "f(x) against x: ReLU, GELU"


def test_without_title_or_axes_only_the_kind():
    assert title_text({"data": [{"type": "heatmap"}], "layout": {}}) == "chart: heatmap"
