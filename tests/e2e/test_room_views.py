"""Issue 43 item 9, the room view's leftovers (`big=true`, what a teacher projects), in Chromium at a
projector's 1366 x 768 and a phone's 420 px: each screen clean, 0 serious or critical axe findings, and
photographed (artifacts/screenshots/room-*.png). What each page sends is tests/app/test_room_views.py."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_clean, axe_findings, screenshot

SCREEN = 768   # a projector's 1366 x 768

# Every box plotly drew in a treemap with its text as drawn: [words, box width, box height, text width,
# text size in px (its font size times any scale plotly put on it)].
_TREEMAP_BOXES = """() => Array.from(document.querySelectorAll('.js-plotly-plot g.slice')).map(s => {
  const box = s.querySelector('path').getBoundingClientRect(), t = s.querySelector('text');
  const r = t ? t.getBoundingClientRect() : {width: 0};
  const m = t ? t.getScreenCTM() : null;
  const size = t ? parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1) : 0;
  return [t ? t.textContent : '', Math.round(box.width), Math.round(box.height), Math.round(r.width), size];
}).filter(([words, w, h]) => w > 0 && h > 0 && words.trim())"""

_METRIC_BOTTOM = """(label) => { const m = Array.from(document.querySelectorAll(
  "[data-testid='stMain'] [data-testid='stMetric']")).find(e => e.innerText.startsWith(label));
  return m ? m.getBoundingClientRect().bottom : null; }"""

TOTALS = ["Parameters", "In one block", "In all 12 blocks", "In the embeddings", "After the blocks"]


@pytest.mark.parametrize("preset", ["gpt2", "llama-3-8b"])
def test_the_treemap_labels_every_box_and_the_totals_sit_above_the_fold(view, preset):
    """/gpt2-params?big=true: the attention boxes were blank (their words hidden at 19 px) and the totals
    under the treemap started below 768 px."""
    page = view(f"/gpt2-params?big=true&preset={preset}", "laptop", SCREEN)
    assert_clean(page)
    boxes = page.evaluate(_TREEMAP_BOXES)
    assert len(boxes) >= 6, boxes
    unlabelled = [b for b in boxes if b[3] == 0 or b[4] < 18]
    assert unlabelled == [], unlabelled
    layers = 32 if preset != "gpt2" else 12
    for label in [t.replace("12", str(layers)) for t in TOTALS]:
        bottom = page.evaluate(_METRIC_BOTTOM, label)
        assert bottom is not None and bottom <= SCREEN, f"{label} ends at {bottom} px"
    tree = page.locator(".js-plotly-plot").first.bounding_box()
    assert tree["y"] + tree["height"] <= SCREEN + 1, tree   # the whole picture on the first screen
    assert axe_findings(page) == []
    screenshot(page, f"room-gpt2-params-{preset}")


def test_the_room_treemap_says_every_box_in_words_on_a_phone(view):
    page = view("/gpt2-params?big=true", "phone")
    assert_clean(page)
    line = page.get_by_text("The boxes:").first.inner_text()
    for words in ("MLP up", "MLP down", "Q, K, V", "attention out", "token table", "positions"):
        assert words in line, line
    assert axe_findings(page) == []
    screenshot(page, "room-gpt2-params")


# A chart's subplots (each drawing area's top and height) and its titles' right edges against its own.
_SUBPLOTS = """(sel) => { const p = document.querySelector(sel); const box = p.getBoundingClientRect();
  return {bottom: box.bottom, right: box.right,
          plots: Array.from(p.querySelectorAll('.nsewdrag')).map(e => e.getBoundingClientRect().height),
          titles: Array.from(p.querySelectorAll('.annotation-text, .gtitle'))
            .map(t => [t.textContent, t.getBoundingClientRect().right])}; }"""
CURVE = ".st-key-trainer_curvefit .js-plotly-plot"


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_a_curve_fit_in_the_room_has_a_proper_height(view, width):
    """A curve fit's chart in the room view had 171 px for its points and curve (its legend took four
    rows of 19 px text): now at least 250 px, the whole chart on a 1366 x 768 screen, every title whole."""
    page = view("/trainer?problem=regress&big=true", width, SCREEN if width == "laptop" else 900)
    assert_clean(page)
    chart = page.evaluate(_SUBPLOTS, CURVE)
    curve, ramps = chart["plots"]
    assert curve >= 250 and ramps >= 90, chart
    assert [t for t in chart["titles"] if t[1] > chart["right"] + 1] == [], chart
    if width == "laptop":
        assert chart["bottom"] <= SCREEN, chart
    assert axe_findings(page) == []
    screenshot(page, "room-trainer-curve")


_SHORT = """() => /\\?s=[A-Z2-9]{6}/.test(document.querySelector("[data-testid='stMain']").innerText)"""


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_the_room_offers_a_three_class_link_as_a_short_link_with_a_copy_button(open_page, width):
    """The 3-class trainer printed its whole share link (about 2,000 characters) in the room view: now
    'Short link' shows /?s=CODE in a box with its copy button, and no long link is on the page."""
    from tests.e2e.conftest import wait_ready

    page = open_page("/trainer?problem=classes&big=true", width, height=SCREEN)
    assert "w=" not in page.inner_text("[data-testid='stMain']")
    button = page.locator("[data-testid='stMain']").get_by_role("button", name="Short link", exact=True)
    button.scroll_into_view_if_needed()
    button.click()
    page.wait_for_function(_SHORT, timeout=30_000)
    wait_ready(page)
    assert_clean(page)
    box = page.locator("[data-testid='stCode']", has_text="?s=").first
    assert len(box.inner_text().strip()) < 60, box.inner_text()
    box.hover()   # Streamlit shows a code box's copy button under the pointer
    box.get_by_role("button", name="Copy to clipboard").wait_for(timeout=5_000)
    assert "w=" not in page.inner_text("[data-testid='stMain']")
    assert axe_findings(page) == []
    screenshot(page, "room-trainer-short-link")


# The first ready lesson's first step as the projector frames it (classroom/lead.py `view`): the recipe
# card in the room view, embedded, in a 1000 x 940 frame.
CARD_STEP = ("/recipe-card?mode=plain&nin=2&nout=2&x1=1&x2=2&w11=0.5&w12=-1&w21=1&w22=0.5&b1=0&b2=0.5"
             "&hide=mode,nin,nout&big=true&embed=true")
# What the eye cannot read whole: a button's words cut with an ellipsis, a row of columns scrolled sideways,
# an element past the right edge (a table for a screen reader only, ui/tables.py, is out of sight anyway).
_CUT = """() => {
  const main = document.querySelector("[data-testid='stMain']"), vw = document.documentElement.clientWidth;
  const cut = Array.from(main.querySelectorAll('button')).filter(b => b.offsetParent).flatMap(
    b => [b, ...b.querySelectorAll('*')].filter(e => e.scrollWidth > e.clientWidth + 1)
      .map(() => 'button ' + b.innerText.trim()));
  const sideways = Array.from(main.querySelectorAll("[data-testid='stHorizontalBlock']"))
    .filter(r => r.offsetParent && r.scrollWidth > r.clientWidth + 2)
    .map(r => 'row ' + r.innerText.slice(0, 40));
  const out = Array.from(main.querySelectorAll("[data-testid='stElementContainer']"))
    .filter(e => e.offsetParent && !e.querySelector('.layerlab-sr'))
    .filter(e => e.getBoundingClientRect().right > vw + 1)
    .map(e => 'off ' + e.innerText.slice(0, 40));
  return [...new Set(cut), ...sideways, ...out];
}"""


@pytest.mark.parametrize("size", [(1000, 940), (1366, SCREEN), (420, 900)])
def test_the_projectors_recipe_card_frame_cuts_nothing(view, size):
    """The projector embeds the card's page (embed=true, big=true): its fill buttons were cut to
    'R…/A…/S…' and its sliders' second column scrolled out of the frame. Embedded, the card is a table to
    read and the buttons (for a hand on the page, not a frame in the room) are not drawn."""
    page = view(CARD_STEP, *size)
    assert_clean(page)
    assert page.evaluate(_CUT) == []
    text = page.inner_text("[data-testid='stMain']")
    assert "y₁" in text and "y₂" in text and "2.5" in text and "0.5" in text   # both outputs, whole
    assert axe_findings(page) == []
    screenshot(page, "room-recipe-card-embedded")


_TRACES = """(sel) => Array.from(document.querySelector(sel + ' .js-plotly-plot').data)
  .map(t => t.name || t.type)"""
_EPOCH_100 = "() => /\\b100\\b/.test(document.querySelector(\"[data-testid='stMain']\").innerText)"


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_the_bend_views_relu_map_draws_its_boundary_in_the_room(open_page, width):
    """Trained, the Bend view's ReLU map drew shading only while its identity twin had its line: both
    maps now draw the cells where the class changes (tests/app/test_room_views.py checks which cells)."""
    from tests.e2e.conftest import wait_ready

    page = open_page("/trainer?big=true", width, height=SCREEN)
    page.locator("[data-testid='stMain']").get_by_role("button", name="+100", exact=True).click()
    page.wait_for_function(_EPOCH_100, timeout=60_000)
    wait_ready(page)
    assert_clean(page)
    for key in ("trainer_bend_before", "trainer_bend_after"):
        assert "the boundary" in page.evaluate(_TRACES, f".st-key-{key}"), key
    page.locator(".st-key-trainer_bend_before").scroll_into_view_if_needed()
    assert axe_findings(page) == []
    screenshot(page, "room-trainer-bend")
