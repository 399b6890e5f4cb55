"""/activations in Chromium: a control changes the chart; a bad link opens cleanly."""

from __future__ import annotations

from tests.e2e.conftest import assert_clean, main_text, wait_ready


def _first_chart_paths(page) -> str:
    chart = page.locator("[data-testid='stPlotlyChart']").first
    return chart.locator("path.js-line").first.get_attribute("d") or ""


def test_a_control_changes_the_chart(open_page):
    page = open_page("/activations")
    before = _first_chart_paths(page)
    slider = page.get_by_role("slider").first  # "Range ±"
    slider.focus()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    wait_ready(page)
    page.wait_for_timeout(500)
    assert "xmax=" in page.url
    assert _first_chart_paths(page) != before
    assert_clean(page)


def test_the_bend_switch_collapses_the_network(open_page):
    page = open_page("/activations?bend=identity")
    assert "Identical" in main_text(page)
    assert_clean(page)


def test_bad_link_values_open_with_defaults_and_a_note(open_page):
    page = open_page("/activations?xmax=abc&bend=nonsense&w1=1,2&show=relu&show=bogus")
    assert_clean(page)
    text = main_text(page)
    assert "Ignored xmax=abc" in text
    assert "Ignored bend=nonsense" in text
    assert "Ignored w1=1,2" in text
