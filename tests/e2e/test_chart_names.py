"""Every chart a screen reader meets has a name that says what it shows (issue 35 item 2).

A chart drawn in place (ui/inplace.js) is a figure to the accessibility tree: role="figure" named by
the figure's title or the name ui.charts.show was given. A chart drawn by st.plotly_chart (it takes no
attributes) follows a line only a screen reader reads: "Chart: <name>" (ui.charts.hidden_name).
Read through Chromium's accessibility tree (Playwright's role queries), not the DOM's attributes. Every
lesson's charts are checked by assert_charts_named, called by tests/e2e/test_every_view.py on the page
load it makes anyway.
"""
from __future__ import annotations

import pytest

from tests.e2e.conftest import axe_findings, wait_ready

pytestmark = pytest.mark.e2e

# Each plotly chart on the page: the accessible name of the role="figure" around it, or the hidden line
# just before its element (st.plotly_chart), or null.
CHART_NAMES = r"""() => Array.from(document.querySelectorAll('.js-plotly-plot')).map((plot) => {
  const fig = plot.closest('[role="figure"]');
  if (fig) return {how: 'figure', name: (fig.getAttribute('aria-label') || '').trim()};
  const box = plot.closest("[data-testid='stElementContainer']");
  const before = box && box.previousElementSibling;
  const sr = before && before.querySelector('.layerlab-sr');
  return {how: 'caption', name: sr ? sr.textContent.replace(/^Chart:\s*/, '').trim() : ''};
})"""


def assert_charts_named(page, path: str) -> None:
    found = page.evaluate(CHART_NAMES)
    assert found, f"{path} drew no chart"
    # "Chart" (inplace.js's last resort) and "chart: heatmap" (ui.charts's, a figure without title or
    # axes) say nothing of what is shown
    nameless = [f for f in found
                if len(f["name"]) < 4 or f["name"] == "Chart" or f["name"].startswith("chart:")]
    assert nameless == [], f"{path}: charts without a name: {nameless}"
    # The same names as Chromium's accessibility tree reads them: one figure per in-place chart.
    names = [f["name"] for f in found if f["how"] == "figure"]
    for name in names:
        assert page.get_by_role("figure", name=name, exact=True).count() >= 1, name


def test_a_chart_that_takes_clicks_is_named_by_a_line_only_a_screen_reader_reads(open_page):
    """Picking points turns the trainer's map into an st.plotly_chart (it reports clicks): that element
    takes no aria-label, so ui.charts.hidden_name puts "Chart: <name>" just before it, out of sight."""
    page = open_page("/trainer?twin=false")
    page.locator("[data-testid='stMain']").get_by_text("class 0 (orange circle)", exact=True).first.click()
    page.wait_for_selector(".layerlab-sr", state="attached", timeout=60_000)
    wait_ready(page)
    found = page.evaluate(CHART_NAMES)
    picked = [f for f in found if f["how"] == "caption"]
    assert picked and all(len(f["name"]) > 4 for f in picked), found
    sr = page.locator(".layerlab-sr").first
    assert sr.bounding_box()["width"] <= 1   # out of sight...
    assert "Chart: " in page.locator("[data-testid='stMain']").aria_snapshot()   # ...not out of the tree
    # The chosen pill (the "class 0" just clicked, focused) wrote primary on a tint of it, 3.9:1 (axe's
    # colour contrast); ui/room.py writes it in the text's colour
    assert axe_findings(page) == []
