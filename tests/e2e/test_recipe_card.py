"""/recipe-card in Chromium: sliders and the grid move the numbers, the URL keeps them, bad links open
cleanly, a fragment's slider updates its section and the link, old links open /stacking."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.conftest import assert_clean, main_text, metric, screenshot, wait_ready
from ui.fmt import MINUS


def _arrows(page, slider_name: str, presses: int, key: str = "ArrowRight") -> None:
    """Press an arrow key on a slider `presses` times, one step at a time: each press waits for the slider
    to show its new value, and the slider is focused again first (a rerun that reshapes the card can
    redraw it and drop the focus: a press then went nowhere, 1 run in about 20 in CI)."""
    slider = page.get_by_role("slider", name=slider_name)
    for _ in range(presses):
        before = slider.get_attribute("aria-valuenow")
        slider.focus()
        page.keyboard.press(key)
        expect(slider).not_to_have_attribute("aria-valuenow", before or "", timeout=15_000)


def _param(url: str, param: str) -> int | None:
    found = re.search(rf"[?&]{param}=(\d+)", url)
    return int(found.group(1)) if found else None


def _step_to(page, slider_name: str, param: str, target: int) -> None:
    """Press ArrowRight on a slider until the link says `param=target`, one press per committed value.
    (Pressed back to back, a press that lands while the run of the one before redraws the slider can be
    undone by that run, 1 run in about 10: the page then shows the value before it, consistently.)"""
    slider = page.get_by_role("slider", name=slider_name)
    for _ in range(3 * target):
        before = _param(page.url, param)
        if before == target:
            return
        slider.focus()
        page.keyboard.press("ArrowRight")
        try:
            page.wait_for_url(lambda url, before=before: _param(url, param) != before, timeout=5_000)
        except PlaywrightTimeout:
            continue   # the press was undone: press again
        wait_ready(page)
    raise AssertionError(f"{slider_name} did not reach {target}: {page.url}")


def _grid_cell(page, grid: int, row: int, col: int) -> str:
    """Text of a cell of the n-th data editor's accessible table (row 0 is the header)."""
    table = page.locator("[data-testid='stDataFrame']").nth(grid).locator("table")
    return table.locator("tr").nth(row).locator("td, th").nth(col).inner_text()


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_opens_with_the_seed_numbers_and_is_photographed(view, width):
    page = view("/recipe-card", width)
    assert_clean(page)
    text = main_text(page)
    assert "A layer is a matrix" in text
    assert metric(page, "Sunrise") == "1.65" and metric(page, "Jungle") == f"{MINUS}0.65"
    assert page.locator(".js-plotly-plot").count() >= 3  # network, W, linearity
    screenshot(page, "recipe-card")


def test_a_weight_slider_changes_the_output_and_the_link(open_page):
    page = open_page("/recipe-card")
    _arrows(page, "w₁₁", 2)  # 0.8 -> 1.0
    # Two key presses can mean two reruns: wait for the result, not for a quiet moment.
    page.wait_for_url(re.compile(r"w11=1(\.0)?(&|$)"), timeout=30_000)
    wait_ready(page)
    sunrise = page.locator("[data-testid='stMetric']", has_text="Sunrise").first
    expect(sunrise.locator("[data-testid='stMetricValue']")).to_have_text("1.85", timeout=30_000)
    assert_clean(page)  # 1.85 = 1.65 + 1.0 x 0.2


def test_a_slider_inside_a_fragment_updates_its_section_and_the_link(open_page):
    page = open_page("/recipe-card")
    _arrows(page, "Multiply the input by k", 1)  # 2.0 -> 2.5
    page.wait_for_url(re.compile(r"times=2\.5"), timeout=30_000)
    expect(page.get_by_text("exactly 2.5 times as big")).to_have_count(1, timeout=30_000)
    assert metric(page, "Sunrise") == "1.65"  # the card did not move
    assert_clean(page)


def test_the_diagram_hover_names_the_cell(open_page):
    page = open_page("/recipe-card?mode=plain")
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    line = chart.locator("path.js-line").first  # the first weight: w11
    box = line.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(400)
    hover = page.locator(".hoverlayer").first.text_content() or ""
    assert re.search(r"w₁₁ = 0\.80", hover) and "row 1, column 1" in hover


def test_sizes_from_the_link_reshape_the_card(view):
    page = view("/recipe-card?nin=5&nout=4&mode=plain")
    assert_clean(page)
    # A 5 x 4 card is one grid (inputs and their weights) and a row of biases, not 29 sliders.
    assert page.get_by_role("slider", name="w₅₄").count() == 0
    assert _grid_cell(page, 0, 5, 0) == "x₅" and _grid_cell(page, 0, 0, 5) == "y₄"
    assert metric(page, "weights") == "5 × 4 = 20" and metric(page, "parameters") == "24"


def test_bad_link_values_open_with_defaults_and_a_note(view):
    page = view("/recipe-card?nin=99&w11=abc&x1=50&mode=soup&w77=1.5")
    assert_clean(page)
    text = main_text(page)
    for key in ("nin=99", "w11=abc", "x1=50", "mode=soup"):
        assert f"Ignored {key}" in text, key
    assert metric(page, "Sunrise") == "1.65"


def test_an_old_link_to_the_second_half_opens_stacking(open_page):
    page = open_page("/recipe-card?scale=-4&depth=20")
    page.wait_for_url(re.compile(r"/stacking\?"), timeout=30_000)
    wait_ready(page)
    assert_clean(page)
    text = main_text(page)
    assert "Stacking layers" in text and "Ignored scale=-4" in text
    assert metric(page, "1.5^20") == "3325"


def test_a_hidden_cell_from_the_link_waits_for_the_layer_to_grow(open_page):
    page = open_page("/recipe-card?w77=1.5&mode=plain")
    assert_clean(page)
    assert "w77=1.5" in page.url  # not drawn, not dropped
    _step_to(page, "n_in (inputs)", "nin", 7)  # 3 -> 7
    wait_ready(page)
    _step_to(page, "n_out (outputs)", "nout", 7)  # 2 -> 7
    wait_ready(page)
    expect(page.locator("[data-testid='stDataFrame']").first).to_be_visible(timeout=30_000)
    assert _grid_cell(page, 0, 7, 8) == "1.5"  # row x₇, column y₇ (after the input x column)
    assert "w77=1.5" in page.url


def test_random_weights_land_in_the_link(open_page):
    page = open_page("/recipe-card")
    page.get_by_role("button", name="Random weights").click()
    page.wait_for_url(re.compile(r"[?&]w\d\d="), timeout=30_000)
    wait_ready(page)
    assert metric(page, "Sunrise") != "1.65" or metric(page, "Jungle") != f"{MINUS}0.65"
    assert_clean(page)


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_the_largest_card_is_photographed(view, width):
    page = view("/recipe-card?nin=8&nout=8&mode=plain", width)
    assert_clean(page)
    assert page.get_by_role("slider", name="w₈₈").count() == 0  # one grid, not 81 sliders
    assert _grid_cell(page, 0, 8, 0) == "x₈"
    if width == "laptop":  # a phone shows the grid's first columns and scrolls inside it for the rest
        assert _grid_cell(page, 0, 0, 9) == "y₈"
    screenshot(page, "recipe-card-8x8")
