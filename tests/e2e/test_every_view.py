"""Every page in every view, as Chromium draws it, from one load of each: a laptop's 1366 px, a phone's
420 px and the room view (big=true at a projector's 1366 x 900). Each load checks all of this, and
photographs the page (artifacts/screenshots/<page>-<width>.png, <page>-big-1366.png):

- clean: no exception box, no 'Page not found'; the address keeps its path and the tab names the
  lesson (so every README link to a bare lesson lands, tests/e2e/test_readme_links.py does the rest);
- accessible: no serious or critical WCAG 2.0-2.2 A/AA violation found by axe-core (issue 35; it comes
  inside axe-playwright-python, nothing is downloaded), and on a laptop every chart named
  (tests/e2e/test_chart_names.py);
- readable from the back row (issues: one picture first, a phone a first-class screen, the projector):
  no chart text under 12 px (18 px in the room view, where page text is at least 22 px, the sidebar
  closed and no slider left); no e-notation (4.73e-04) in any visible text; at 420 px nothing runs off
  the screen sideways; on a laptop and a projector the first live picture or number, and the lesson's
  answer, within the first 900 px;
- no chart text on chart text (issue 34): inside each chart, every pair of texts of different kinds (a
  legend entry against an axis title, a title against a legend...) and the tick labels of one axis
  against each other (every subplot's axes included) keep their own room, by their bounding boxes.

One load per page and view does every check: a load costs seconds, and CI loads each page three times,
not ten.
"""
from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import assert_clean, axe_findings, first_screen, screenshot, wait_ready
from tests.e2e.test_answer_text import CASES as _ANSWER_TEXT
from tests.minus import HYPHEN_NUMBER, minus_problems, sent_tables
from ui.nav import LESSONS as NAV

pytestmark = pytest.mark.e2e

PATHS = ["", *[lesson.url_path for lesson in NAV]]
LESSONS = [f"/{lesson.url_path}" for lesson in NAV if lesson.url_path != "class"]

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

_DIAGRAM_TEXT = _CHART_TEXT.replace(".js-plotly-plot svg text", "[data-testid='stGraphVizChart'] svg text")

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
# On a phone some tables must scroll: every GPT-2 tensor and model has more numbers than 390 px hold (the
# lesson's answers are its metrics above them). No other table may: a lesson's answer is read from them.
SCROLL_ON_A_PHONE = {"gpt2-params"}

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
  const tops = Array.from(els).filter(e => e.offsetParent && !e.querySelector('.layerlab-live'))
    .map(e => e.getBoundingClientRect().top);
  return tops.length ? Math.min(...tops) : null;
}"""

def _first_live(page) -> float | None:
    """The top of the first chart or number, once there is one. (A fragment's rerun can take the live part
    off the page for a moment while the browser still reports 'notRunning': /trainer showed only its
    buttons once in a few loads. A page with nothing live after 15 s fails.)"""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => ({_FIRST_LIVE})() !== null", timeout=15_000)
    return page.evaluate(_FIRST_LIVE)


# Text as the page draws it for reading, controls and code left out (a slider's value and an editable
# table's cell show what a keyboard types; KaTeX's hidden MathML holds its TeX source): one minus sign,
# "−0.65", in words, numbers, tables and charts alike (issue 34, item 7).
_READ_TEXT = """() => {
  const skip = ["stSlider", "stNumberInput", "stTextInput", "stTextArea", "stDataFrame", "stCode"]
    .map(t => `[data-testid='${t}']`).concat([".katex-mathml", "pre", "code", "input", "textarea"]).join();
  const main = document.querySelector("[data-testid='stMain']");
  const walk = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const out = [];
  while (walk.nextNode()) {
    const p = walk.currentNode.parentElement;
    if (p && !p.closest(skip) && p.getClientRects().length) out.push(walk.currentNode.textContent);
  }
  return out.join("\\n");
}"""

E_NOTATION = re.compile(r"(?<![A-Za-z_])\d+(?:\.\d+)?[eE][-+−]?\d+(?![A-Za-z_])")


def _code_free(text: str, page) -> str:
    for code in page.locator("[data-testid='stMain'] pre, [data-testid='stMain'] code").all_inner_texts():
        text = text.replace(code, "")
    return text


CHART_TEXT = r"""() => {
  const out = [];
  const box = e => {
    const r = e.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom};
  };
  const hit = (a, b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 1
    && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 1;
  document.querySelectorAll('.js-plotly-plot').forEach((plot, i) => {
    const items = [];
    const add_one = (e, kind) => {
      const r = box(e), text = (e.textContent || '').trim();
      if (r.x1 - r.x0 > 0 && r.y1 - r.y0 > 0 && text) items.push({kind, text: text.slice(0, 40), r});
    };
    const add = (sel, kind) => plot.querySelectorAll(sel).forEach(e => add_one(e, kind));
    add('.gtitle', 'title'); add('.legend .legendtext', 'legend'); add('.legend .legendtitletext', 'legend');
    add('.annotation-text', 'title');   // make_subplots' row titles are annotations
    // every axis of every subplot: g.g-xtitle, g.g-x2title ...; g.xtick, g.x2tick ... (one kind per axis)
    plot.querySelectorAll('[class^="g-x"][class$="title"] text, [class^="g-y"][class$="title"] text')
      .forEach(e => add_one(e, 'axis title'));
    plot.querySelectorAll('.xaxislayer-above > g, .yaxislayer-above > g')
      .forEach(g => g.querySelectorAll('text').forEach(t => add_one(t, g.getAttribute('class') + ' label')));
    const name = plot.querySelector('.gtitle')?.textContent || `chart ${i + 1}`;
    for (let a = 0; a < items.length; a++) for (let b = a + 1; b < items.length; b++) {
      const A = items[a], B = items[b];
      const ticks = A.kind.endsWith('label') && B.kind.endsWith('label');
      if (ticks ? A.kind !== B.kind : A.kind === B.kind) continue;   // ticks: one axis's labels only
      if (hit(A.r, B.r)) out.push(`${name}: ${A.kind} "${A.text}" over ${B.kind} "${B.text}"`);
    }
  });
  return out;
}"""

_BODY_TEXT = """() => Math.min(...Array.from(document.querySelectorAll(
    "[data-testid='stMain'] [data-testid='stMarkdownContainer'] p")).filter(p => p.offsetParent)
    .map(p => parseFloat(getComputedStyle(p).fontSize)))"""



# The room view is a presenter's view (issue 34 item 1): at a projector's 1366 x 768 each lesson's one idea
# is on the first screen, whole: its answer (ANSWER) and these, by CSS selector.
PROJECTOR = 768
IDEA = {"trainer": [".st-key-trainer_boundary", ".st-key-trainer_boundary_twin"],
        "tax-bands": ['[role="figure"][aria-label^="The tax as a pile"]'],
        "recipe-card": ["[data-testid='stMain'] table"]}   # the room's card: a table, outputs in its last row
ROOM_ANSWER = {k: v for k, v in ANSWER.items() if k != "recipe-card"}
_BOTTOM = """(sel) => { const e = document.querySelector(sel);
  return e && e.offsetParent ? e.getBoundingClientRect().bottom : null; }"""
# A metric's label cut short with an ellipsis ("Train accur…"): its text wider than its box.
_CUT_LABELS = """() => Array.from(
  document.querySelectorAll("[data-testid='stMain'] [data-testid='stMetricLabel']"))
  .filter(l => l.offsetParent).flatMap(l => Array.from(l.querySelectorAll('*')).concat([l]))
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText.slice(0, 40))"""


# Each lesson's answer as a screen reader meets it (issue 35: Chromium's accessibility tree of the main
# part, Playwright's aria snapshot): a line of words or a named number.
ARIA_ANSWER = {**{k.strip("/"): v for k, v in _ANSWER_TEXT.items()},
               "stacking": r"paragraph: prediction ŷ\n\s*- paragraph: \"?[−\d.]+",
               "activations": r"up to [\d.]+ apart",
               "gpt2-params": r"paragraph: Parameters\n(\s*- button .*\n)?\s*- paragraph: [\d,]+",
               "gpt2-mlp": r"\d+ of \d+ hidden values are on \(z > 0\)"}
# The focus follows the page's order (its reading order) only if no element jumps the queue.
_POSITIVE_TABINDEX = """() => Array.from(document.querySelectorAll('[tabindex]'))
  .filter(e => e.tabIndex > 0).map(e => e.outerHTML.slice(0, 80))"""


def _charts(page) -> int:
    return page.locator(".js-plotly-plot").count()


def _title_and_path(page, path: str) -> None:
    """The address keeps its path and the tab names the page (st.navigation names it; app.py calls the
    home page "Home")."""
    shown = page.url.split("://", 1)[1].split("/", 1)[1].split("?")[0].strip("/")
    assert shown == path, page.url
    title = next((lesson.title for lesson in NAV if lesson.url_path == path), "Home")
    assert title in page.title(), (page.url, page.title())


@pytest.mark.parametrize("view", ["laptop", "phone", "big"])
@pytest.mark.parametrize("path", PATHS)
def test_every_view_is_clean_accessible_readable_and_photographed(open_page, path, view):
    big = view == "big"
    frames = [] if view == "laptop" else None
    page = open_page(f"/{path}" + ("?big=true" if big else ""), "phone" if view == "phone" else "laptop",
                     height=PROJECTOR if big else 900, frames=frames)
    lesson = path not in ("", "class")   # /class is a way in (two forms): its board is in test_class.py
    if lesson:
        _first_live(page)   # every check below reads the whole page
    assert_clean(page)
    _title_and_path(page, path)
    assert axe_findings(page) == []
    assert not lesson or _charts(page) > 0, f"/{path} drew no chart to check"
    assert page.evaluate(CHART_TEXT) == []
    small = page.evaluate(_CHART_TEXT, 18 if big else 12)
    assert small == [], small[:10]
    small = page.evaluate(_DIAGRAM_TEXT, 12)   # Graphviz diagrams shrink to fit a phone
    assert small == [], small[:10]
    text = _code_free(page.evaluate(_VISIBLE_TEXT), page)
    found = sorted(set(E_NOTATION.findall(text)))
    assert found == [], found
    if view == "phone":
        assert page.evaluate(_OVERFLOW) == []
        if path not in SCROLL_ON_A_PHONE:
            assert page.evaluate(_TABLES_SCROLL) == []
    elif lesson:
        top = _first_live(page)
        screen = PROJECTOR if big else 900
        assert top is not None and top < screen, f"first chart or number at {top} px"
    assert page.evaluate(_POSITIVE_TABINDEX) == []
    if view == "laptop":
        assert page.evaluate(_TABLES_SCROLL) == []
        hyphens = sorted({m.group() for m in re.finditer(r".{0,30}" + HYPHEN_NUMBER.pattern + r"[\d.]*",
                                                          page.evaluate(_READ_TEXT))})
        assert hyphens == [], hyphens
        tables = sent_tables(frames)
        assert [p for t in tables for p in minus_problems(t)[0]] == []
        if path in ARIA_ANSWER:   # (the trainer's, after training too: test_answer_text.py)
            tree = page.locator("[data-testid='stMain']").aria_snapshot()
            assert re.search(ARIA_ANSWER[path], tree), tree[:3000]
        if lesson:
            from tests.e2e.test_chart_names import assert_charts_named

            assert_charts_named(page, path)
            if path in ANSWER:   # the lesson's answer itself, whole, beside what changes it
                bottom = page.evaluate(_METRIC_BOTTOM, ANSWER[path])
                assert bottom is not None and bottom <= 900, f"{ANSWER[path]} ends at {bottom} px"
    if big:
        assert page.evaluate(_CUT_LABELS) == []
        if path in ROOM_ANSWER:
            bottom = page.evaluate(_METRIC_BOTTOM, ROOM_ANSWER[path])
            assert bottom is not None and bottom <= PROJECTOR, f"{ROOM_ANSWER[path]} ends at {bottom} px"
        for sel in IDEA.get(path, ()):
            bottom = page.evaluate(_BOTTOM, sel)
            assert bottom is not None and bottom <= PROJECTOR, f"{sel} ends at {bottom} px"
        assert page.evaluate(_BODY_TEXT) >= 22   # captions included (14 px in the normal view)
        assert page.locator("[data-testid='stSidebar'][aria-expanded='true']").count() == 0
        if lesson:
            assert page.locator("[data-testid='stMain'] [data-testid='stSlider']").count() == 0
    if big:   # what the room sees, as it sees it: the first screen of a 1366 x 768 projector
        first_screen(page, f"{path or 'home'}-big")
    screenshot(page, f"{path or 'home'}-big" if big else (path or "home"))


@pytest.mark.parametrize("query, width", [("", "laptop"), ("problem=regress&big=true", "laptop"),
                                          ("problem=regress", "phone")])
def test_the_trainer_curves_keep_their_text_apart_after_training(open_page, query, width):
    page = open_page("/trainer" + ("?" + query if query else ""), width)
    main = page.locator("[data-testid='stMain']")
    main.get_by_role("button", name="+100", exact=True).click()
    epoch_100 = "() => /\\b100\\b/.test(document.querySelector(\"[data-testid='stMain']\").innerText)"
    page.wait_for_function(epoch_100, timeout=60_000)
    wait_ready(page)
    assert _charts(page) >= 2
    assert page.evaluate(CHART_TEXT) == []
    assert axe_findings(page) == []   # after Play's work: the metrics, curves and maps it drew
    # the log epoch axis is labelled at powers of ten only, never '1 2 5 10 2 5'
    ticks = page.evaluate("""() => Array.from(document.querySelectorAll('.js-plotly-plot')).filter(
        p => /by epoch/.test(p.textContent)).flatMap(
        p => Array.from(p.querySelectorAll('.xaxislayer-above text'), t => t.textContent.trim()))""")
    assert ticks and all(re.fullmatch(r"1(0|,000)*", t) for t in ticks), ticks
