"""What the class sees, checked on every page in a real browser (issue: one picture first, readable
from the back row, a phone a first-class screen).

- at 420 px nothing runs off the screen sideways: no equation, paragraph or caption overflows;
- no chart text under 12 px, at a laptop's width or a phone's;
- no e-notation (4.73e-04) in any page's visible text;
- the first live picture or number of every lesson within the first 900 px at 1366 px;
- the home cards keep lesson order on a phone.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import assert_clean
from ui.nav import LESSONS

PATHS = ["", *[lesson.url_path for lesson in LESSONS]]

# Elements whose content must fit: text blocks and display equations. Code blocks and tables may
# scroll inside themselves (a student scrolls a table, not the page).
_OVERFLOW = """() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const sel = [".katex-display", "[data-testid='stMarkdownContainer']", "[data-testid='stCaptionContainer']",
               "h1", "h2", "h3", "[data-testid='stMetric']"].map(s => `[data-testid="stMain"] ${s}`).join();
  for (const el of document.querySelectorAll(sel)) {
    if (!el.offsetParent || el.closest('pre, [data-testid="stCode"]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    const sideways = el.scrollWidth > el.clientWidth + 2;
    if (r.right > vw + 1 || sideways) {
      out.push(`${el.tagName}.${el.className}: right ${Math.round(r.right)} of ${vw}, `
               + `scroll ${el.scrollWidth} > ${el.clientWidth}: ${el.innerText.slice(0, 60)}`);
    }
  }
  return out;
}"""

_CHART_TEXT = """() => {
  const out = [];
  for (const t of document.querySelectorAll(".js-plotly-plot svg text")) {
    if (!t.textContent.trim()) continue;
    const box = t.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const size = parseFloat(getComputedStyle(t).fontSize || t.style.fontSize);
    if (size < 12) out.push(`${size}px: ${t.textContent.slice(0, 40)}`);
  }
  return out;
}"""

_VISIBLE_TEXT = """() => {
  const main = document.querySelector("[data-testid='stMain']");
  return main.innerText + "\\n" + Array.from(
    document.querySelectorAll(".js-plotly-plot svg text")).map(t => t.textContent).join("\\n");
}"""

_FIRST_LIVE = """() => {
  const els = document.querySelectorAll(
    ["stPlotlyChart", "stBidiComponentRegular", "stMetric", "stDataFrame", "stGraphVizChart"]
    .map(t => `[data-testid='stMain'] [data-testid='${t}']`).join(","));
  const tops = Array.from(els).filter(e => e.offsetParent).map(e => e.getBoundingClientRect().top);
  return tops.length ? Math.min(...tops) : null;
}"""

E_NOTATION = re.compile(r"(?<![A-Za-z_])\d+(?:\.\d+)?[eE][-+−]?\d+(?![A-Za-z_])")


def _code_free(text: str, page) -> str:
    for code in page.locator("[data-testid='stMain'] pre, [data-testid='stMain'] code").all_inner_texts():
        text = text.replace(code, "")
    return text


@pytest.mark.parametrize("path", PATHS)
def test_nothing_runs_off_a_phone(open_page, path):
    page = open_page(f"/{path}", "phone")
    assert_clean(page)
    assert page.evaluate(_OVERFLOW) == []


@pytest.mark.parametrize("width", ["laptop", "phone"])
@pytest.mark.parametrize("path", PATHS)
def test_chart_text_is_at_least_12_px(open_page, path, width):
    page = open_page(f"/{path}", width)
    small = page.evaluate(_CHART_TEXT)
    assert small == [], small[:10]


@pytest.mark.parametrize("path", PATHS)
def test_no_e_notation_on_screen(open_page, path):
    page = open_page(f"/{path}")
    text = _code_free(page.evaluate(_VISIBLE_TEXT), page)
    found = sorted(set(E_NOTATION.findall(text)))
    assert found == [], found


# /class is a way in (two forms), not a lesson with a picture: its board is tested in test_class.py.
@pytest.mark.parametrize("path", [lesson.url_path for lesson in LESSONS if lesson.url_path != "class"])
def test_the_first_live_picture_is_on_the_first_screen(open_page, path):
    page = open_page(f"/{path}")
    top = page.evaluate(_FIRST_LIVE)
    assert top is not None and top < 900, f"first chart or number at {top} px"


def test_home_cards_keep_lesson_order_on_a_phone(open_page):
    page = open_page("/", "phone")
    links = page.locator("[data-testid='stMain'] [data-testid='stPageLink'] a")
    boxes = [(links.nth(i).bounding_box(), links.nth(i).inner_text()) for i in range(links.count())]
    shown = [text for box, text in sorted(boxes, key=lambda bt: (round(bt[0]["y"]), bt[0]["x"]))]
    titles = [lesson.title for lesson in LESSONS]
    order = [next(t for t in titles if t in s) for s in shown if any(t in s for t in titles)]
    assert order == titles
