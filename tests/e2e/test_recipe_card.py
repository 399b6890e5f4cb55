"""/recipe-card in Chromium: sliders move the numbers, the URL keeps them, bad links open cleanly."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_clean, main_text, metric, screenshot, wait_ready


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_opens_with_the_seed_numbers_and_is_photographed(open_page, width):
    page = open_page("/recipe-card", width)
    assert_clean(page)
    text = main_text(page)
    assert "A layer is a matrix" in text
    assert metric(page, "Sunrise") == "1.65" and metric(page, "Jungle") == "-0.65"
    assert page.locator("[data-testid='stPlotlyChart']").count() >= 6
    screenshot(page, "recipe-card")


def test_a_weight_slider_changes_the_output_and_the_link(open_page):
    page = open_page("/recipe-card")
    w11 = page.get_by_role("slider", name="w₁₁")
    w11.focus()
    for _ in range(2):  # 0.8 -> 1.0
        page.keyboard.press("ArrowRight")
    # Two key presses can mean two reruns: wait for the result, not for a quiet moment.
    page.wait_for_url(re.compile(r"w11=1(\.0)?(&|$)"), timeout=30_000)
    wait_ready(page)
    sunrise = page.locator("[data-testid='stMetric']", has_text="Sunrise").first
    expect(sunrise.locator("[data-testid='stMetricValue']")).to_have_text("1.85", timeout=30_000)
    assert_clean(page)  # 1.85 = 1.65 + 1.0 x 0.2


def test_the_diagram_hover_names_the_cell(open_page):
    page = open_page("/recipe-card?mode=plain")
    chart = page.locator("[data-testid='stPlotlyChart']").first
    chart.scroll_into_view_if_needed()
    line = chart.locator("path.js-line").first  # the first weight: w11
    box = line.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(400)
    hover = page.locator(".hoverlayer").first.text_content() or ""
    assert re.search(r"w₁₁ = 0\.80", hover) and "row 1, column 1" in hover


def test_sizes_from_the_link_reshape_the_card(open_page):
    page = open_page("/recipe-card?nin=5&nout=4&mode=plain")
    assert_clean(page)
    assert page.get_by_role("slider", name="w₅₄").count() == 1
    assert metric(page, "weights") == "5 × 4 = 20" and metric(page, "parameters") == "24"


def test_bad_link_values_open_with_defaults_and_a_note(open_page):
    page = open_page("/recipe-card?nin=99&w11=abc&x1=50&mode=soup&w77=1.5&scale=-4")
    assert_clean(page)
    text = main_text(page)
    for key in ("nin=99", "w11=abc", "x1=50", "mode=soup", "scale=-4"):
        assert f"Ignored {key}" in text, key
    assert metric(page, "Sunrise") == "1.65"


def test_a_hidden_cell_from_the_link_waits_for_the_layer_to_grow(open_page):
    page = open_page("/recipe-card?w77=1.5&mode=plain")
    assert_clean(page)
    assert "w77=1.5" in page.url  # not drawn, not dropped
    slider = page.get_by_role("slider", name="Inputs n_in (inputs)")
    slider.focus()
    for _ in range(4):  # 3 -> 7
        page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"nin=7"), timeout=30_000)
    wait_ready(page)
    slider = page.get_by_role("slider", name="Outputs n_out (outputs, neurons)")
    slider.focus()
    for _ in range(5):  # 2 -> 7
        page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"nout=7"), timeout=30_000)
    wait_ready(page)
    expect(page.get_by_role("slider", name="w₇₇")).to_have_count(1, timeout=30_000)
    assert page.get_by_role("slider", name="w₇₇").input_value() == "1.5"


def test_random_weights_land_in_the_link(open_page):
    page = open_page("/recipe-card")
    page.get_by_role("button", name="Random weights").click()
    page.wait_for_url(re.compile(r"[?&]w\d\d="), timeout=30_000)
    wait_ready(page)
    assert metric(page, "Sunrise") != "1.65" or metric(page, "Jungle") != "-0.65"
    assert_clean(page)


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_the_largest_card_is_photographed(open_page, width):
    page = open_page("/recipe-card?nin=8&nout=8&mode=plain", width)
    assert_clean(page)
    assert page.get_by_role("slider", name="w₈₈").count() == 1
    screenshot(page, "recipe-card-8x8")
