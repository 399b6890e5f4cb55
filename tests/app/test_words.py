"""Issue 34 item 6: jargon gets a one-line meaning where it first appears on a student's screen."""

from __future__ import annotations

import pytest

from tests.app.conftest import open_page


def _text(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [w.help or "" for kind in ("selectbox", "metric") for w in getattr(at, kind)]
    return " ".join(parts)


@pytest.mark.parametrize("page, query, word, meaning", [
    ("trainer", {"problem": "classes", "twin": "false"}, "softmax", "shares that add up to 1"),
    ("trainer", {"twin": "false"}, "Adam", "scaled by how large its gradients have been lately"),
    ("trainer", {"twin": "false", "view": "step"}, "δ = ∂loss/∂sum", "how much the loss would change"),
    ("gpt2-mlp", {}, "residual stream", "running vector of numbers"),
    ("gpt2-params", {}, "checkpoint", "the file of trained weights"),
    ("tax-bands", {}, "RMSE", "root of the mean squared gap"),
])
def test_a_word_of_jargon_comes_with_its_meaning(page, query, word, meaning):
    at = open_page(page, query)
    assert not at.exception
    text = _text(at)
    assert word in text and meaning in text, (word, text[:400])


def test_a_curve_fit_offers_no_shading_switch_and_names_the_pill_it_has():
    """Issue 34 item 6: 'Discretise the shading' where nothing is shaded; a hint naming 'value' where the
    pill says 'add points'."""
    at = open_page("trainer", {"problem": "regress", "dataset": "sine", "twin": "false"})
    assert not at.exception
    assert "Discretise the shading" not in [t.label for t in at.toggle]
    hint = next(c.value for c in at.caption if "placed by hand" in c.value)
    assert "“add points”" in hint and "“value”" not in hint
    plane = open_page("trainer", {"twin": "false"})
    assert "Discretise the shading" in [t.label for t in plane.toggle]
