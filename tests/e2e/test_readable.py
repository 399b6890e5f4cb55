"""What the class sees, checked on every page in a real browser (issue: one picture first, readable
from the back row, a phone a first-class screen).

- at 420 px nothing runs off the screen sideways: no equation, paragraph or caption overflows;
- no chart text under 12 px, at a laptop's width or a phone's; in the room view (`big=true`) none under
  18 px, page text at least 22 px, the sidebar closed and the controls folded away;
- no e-notation (4.73e-04) in any page's visible text;
- the first live picture or number of every lesson within the first 900 px at 1366 px;
- the home cards keep lesson order on a phone;
- and a screenshot of every page at both widths (artifacts/screenshots/).
"""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import assert_clean, screenshot
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

# Chart text as drawn: its font size times any scale plotly put on it (a treemap shrinks a label to fit
# its box with a transform), below `min` px.
_CHART_TEXT = """(min) => {
  const out = [];
  for (const t of document.querySelectorAll(".js-plotly-plot svg text")) {
    if (!t.textContent.trim()) continue;
    const box = t.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize || t.style.fontSize);
    const size = px * (m ? Math.hypot(m.a, m.b) : 1);
    if (size < min) out.push(`${size.toFixed(1)}px: ${t.textContent.slice(0, 40)}`);
  }
  return out;
}"""

_VISIBLE_TEXT = """() => {
  const main = document.querySelector("[data-testid='stMain']");
  return main.innerText + "\\n" + Array.from(
    document.querySelectorAll(".js-plotly-plot svg text")).map(t => t.textContent).join("\\n");
}"""

# Tables that scroll sideways: the grid's scroller wider than its box (the n-th table on the page).
_TABLES_SCROLL = """() => Array.from(
  document.querySelectorAll("[data-testid='stMain'] [data-testid='stDataFrame']"))
  .filter(t => t.offsetParent).map((t, n) => [t.querySelector('.dvn-scroller'), n])
  .filter(([s]) => s && s.scrollWidth > s.clientWidth + 2)
  .map(([s, n]) => `table ${n}: ${s.scrollWidth} px in ${s.clientWidth}`)"""
# On a phone some tables must scroll: every GPT-2 tensor and model has more numbers than 390 px hold, and
# /stacking's neuron table writes out its sums (its answer, the value after the bend, is its second column).
SCROLL_ON_A_PHONE = {"gpt2-params", "stacking"}

# Each lesson's answer, by its metric's label: it must end within a projector's first 900 px.
ANSWER = {"recipe-card": "Sunrise", "stacking": "prediction", "trainer": "Epoch", "gpt2-params": "Parameters",
          "tax-bands": "Tax at this income"}
_METRIC_BOTTOM = """(label) => { const m = Array.from(document.querySelectorAll(
  "[data-testid='stMain'] [data-testid='stMetric']"))
  .find(e => e.offsetParent && e.innerText.startsWith(label));
  return m ? m.getBoundingClientRect().bottom : null; }"""

_FIRST_LIVE = """() => {
  const els = document.querySelectorAll(
    ["stPlotlyChart", "stBidiComponentRegular", "stMetric", "stDataFrame", "stGraphVizChart"]
    .map(t => `[data-testid='stMain'] [data-testid='${t}']`).join(","));
  const tops = Array.from(els).filter(e => e.offsetParent).map(e => e.getBoundingClientRect().top);
  return tops.length ? Math.min(...tops) : null;
}"""

def _first_live(page) -> float | None:
    """The top of the first chart or number, once there is one. (A fragment's rerun can take the live part
    off the page for a moment while the browser still reports 'notRunning': /trainer showed only its
    buttons once in a few loads. A page with nothing live after 15 s fails.)"""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => ({_FIRST_LIVE})() !== null", timeout=15_000)
    return page.evaluate(_FIRST_LIVE)


E_NOTATION = re.compile(r"(?<![A-Za-z_])\d+(?:\.\d+)?[eE][-+−]?\d+(?![A-Za-z_])")


def _code_free(text: str, page) -> str:
    for code in page.locator("[data-testid='stMain'] pre, [data-testid='stMain'] code").all_inner_texts():
        text = text.replace(code, "")
    return text


# One load per page and width does every check (a load costs seconds; CI runs each page twice, not ten times).
@pytest.mark.parametrize("width", ["laptop", "phone"])
@pytest.mark.parametrize("path", PATHS)
def test_every_page_is_clean_readable_and_photographed(open_page, path, width):
    page = open_page(f"/{path}", width)
    if path not in ("", "class"):
        _first_live(page)   # every check below reads the whole page
    assert_clean(page)
    small = page.evaluate(_CHART_TEXT, 12)
    assert small == [], small[:10]
    text = _code_free(page.evaluate(_VISIBLE_TEXT), page)
    found = sorted(set(E_NOTATION.findall(text)))
    assert found == [], found
    if width == "laptop" or path not in SCROLL_ON_A_PHONE:
        assert page.evaluate(_TABLES_SCROLL) == []
    if width == "phone":
        assert page.evaluate(_OVERFLOW) == []
    # /class is a way in (two forms), not a lesson with a picture: its board is tested in test_class.py.
    elif path not in ("", "class"):
        top = _first_live(page)
        assert top is not None and top < 900, f"first chart or number at {top} px"
        if path in ANSWER:   # the lesson's answer itself, whole, beside what changes it
            bottom = page.evaluate(_METRIC_BOTTOM, ANSWER[path])
            assert bottom is not None and bottom <= 900, f"{ANSWER[path]} ends at {bottom} px"
    screenshot(page, path or "home")


_BODY_TEXT = """() => Math.min(...Array.from(document.querySelectorAll(
    "[data-testid='stMain'] [data-testid='stMarkdownContainer'] p")).filter(p => p.offsetParent)
    .map(p => parseFloat(getComputedStyle(p).fontSize)))"""


@pytest.mark.parametrize("path", PATHS)
def test_the_room_view_reads_from_the_back_row(open_page, path):
    """`big=true` at a projector's 1366 x 900: chart text >= 18 px, text >= 22 px, the sidebar closed,
    no slider left on a lesson, its first result on the first screen; photographed."""
    page = open_page(f"/{path}?big=true", "laptop")
    if path not in ("", "class"):
        _first_live(page)
    assert_clean(page)
    small = page.evaluate(_CHART_TEXT, 18)
    assert small == [], small[:10]
    assert page.evaluate(_BODY_TEXT) >= 22   # captions included (14 px in the normal view)
    assert page.locator("[data-testid='stSidebar'][aria-expanded='true']").count() == 0
    if path not in ("", "class"):
        assert page.locator("[data-testid='stMain'] [data-testid='stSlider']").count() == 0
        top = _first_live(page)
        assert top is not None and top < 900, f"first chart or number at {top} px"
    screenshot(page, f"{path or 'home'}-big")


def test_home_cards_keep_lesson_order_on_a_phone(open_page):
    page = open_page("/", "phone")
    links = page.locator("[data-testid='stMain'] [data-testid='stPageLink'] a")
    boxes = [(links.nth(i).bounding_box(), links.nth(i).inner_text()) for i in range(links.count())]
    shown = [text for box, text in sorted(boxes, key=lambda bt: (round(bt[0]["y"]), bt[0]["x"]))]
    titles = [lesson.title for lesson in LESSONS]
    order = [next(t for t in titles if t in s) for s in shown if any(t in s for t in titles)]
    assert order == titles


@pytest.mark.parametrize("query", ["problem=classes&k=5", "problem=regress"])
def test_the_trainer_fits_a_phone_in_every_problem_mode(open_page, query):
    """Five classes make five 'class c (colour)' choices under the map: one segmented row ran off a phone
    (class 2 (purple) cut at its right edge); they wrap now. Values bring their own words and controls."""
    page = open_page(f"/trainer?{query}", "phone")
    _first_live(page)
    assert_clean(page)
    assert page.evaluate(_OVERFLOW) == []
    last = "class 4" if "k=5" in query else "add points"
    assert page.locator(".st-key-trainer_pick").get_by_text(last).count() == 1
