"""/gpt2-params by keyboard: a slider keeps the focus while the shape is not a model (issue 47, item 4)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from tests.e2e.conftest import assert_clean, main_text, wait_ready

FOCUSED_LABEL = """() => { const a = document.activeElement;
  const w = a && a.closest("[data-testid='stSlider']");
  return w ? w.querySelector("label").innerText : null; }"""


def _link(page) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def test_an_arrow_that_makes_no_model_keeps_the_focus(open_page):
    page = open_page("/gpt2-params")
    page.get_by_role("slider", name=re.compile("Width")).focus()
    page.keyboard.press("ArrowRight")  # d 768 -> 832, which 12 heads do not divide
    wait_ready(page)
    assert _link(page).get("d") == "832"
    assert "Not a model yet" in main_text(page)
    assert page.evaluate(FOCUSED_LABEL) == "Width (d_model)", "the Width slider lost the focus"
    page.keyboard.press("ArrowRight")  # the next arrow still moves Width
    wait_ready(page)
    assert _link(page).get("d") == "896"
    assert page.evaluate(FOCUSED_LABEL) == "Width (d_model)"
    assert_clean(page)
