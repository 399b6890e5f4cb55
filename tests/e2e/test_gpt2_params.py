"""/gpt2-params in Chromium: presets and sliders change the count, links reproduce it, bad links are safe."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from lib.transformer import PRESETS, count_params
from tests.e2e.conftest import assert_clean, main_text, screenshot, wait_ready


def _settle(page):
    wait_ready(page)
    page.wait_for_timeout(600)


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_opens_with_gpt2_small_and_screenshots(view, width):
    page = view("/gpt2-params", width)
    assert_clean(page)
    text = main_text(page)
    assert "124,439,808" in text and "7,087,872" in text
    # two views of the parameter table, the memory table, two views of the models
    assert page.locator("[data-testid='stDataFrame']").count() == 5
    assert page.locator(".js-plotly-plot").count() == 2
    width_used, width_there = page.evaluate(
        "() => { const m = document.querySelector(\"[data-testid='stMain']\"); "
        "return [m.scrollWidth, m.clientWidth]; }")
    assert width_used <= width_there + 1  # nothing runs off the side, on a phone either
    screenshot(page, "gpt2-params")


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_llama_3_8b_link(view, width):
    page = view("/gpt2-params?preset=llama-3-8b", width)
    assert_clean(page)
    text = main_text(page)
    assert "8,030,261,248" in text and "218,112,000" in text
    screenshot(page, "gpt2-params-llama-3-8b")


def test_a_slider_makes_a_custom_model(open_page):
    page = open_page("/gpt2-params")
    slider = page.get_by_role("slider").nth(1)  # Blocks (layers)
    slider.focus()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    _settle(page)
    assert "layers=16" in page.url
    text = main_text(page)
    assert f"{count_params(replace(PRESETS['gpt2'], n_layer=16)):,}" in text
    assert "custom" in text and "layers 12 → 16" in text
    assert_clean(page)
    # Back to the preset: the link is clean again.
    page.get_by_role("button", name=re.compile("Back to GPT-2 small")).click()
    _settle(page)
    assert "layers=" not in page.url
    assert "124,439,808" in main_text(page)


def test_picking_a_preset_replaces_custom_values(open_page):
    page = open_page("/gpt2-params?layers=16")
    page.locator("[data-testid='stSelectbox']").first.click()
    page.get_by_role("option", name="Mistral 7B").click()
    _settle(page)
    assert "preset=mistral-7b" in page.url and "layers=" not in page.url
    text = main_text(page)
    assert "7,241,732,096" in text and "custom" not in text.split("Change the architecture")[0]
    assert text.startswith("Mistral 7B: where every parameter lives")  # the title names the model
    assert_clean(page)


def test_inconsistent_config_and_bad_link_open_cleanly(view):
    page = view("/gpt2-params?preset=gpt5&heads=10&kv=10&vocab=abc&layers=6")
    assert_clean(page)
    text = main_text(page)
    assert "Ignored preset=gpt5" in text and "Ignored vocab=abc" in text
    assert "cannot be split evenly into 10 heads" in text
    assert "the preset it starts from" in text
    assert "124,439,808" in text  # not a model: the preset's numbers, as anyone opening this link sees
    screenshot(page, "gpt2-params-invalid")


def test_the_total_and_the_picture_come_first(view):
    """At 1366 px the total and the treemap sit in the first screen, above every field."""
    page = view("/gpt2-params")
    total = page.locator("[data-testid='stMetric']", has_text="Parameters").first.bounding_box()
    tree = page.locator(".js-plotly-plot").first.bounding_box()
    first_slider = page.get_by_role("slider").first.bounding_box()
    assert total["y"] < 900 and tree["y"] < 900, (total, tree)
    assert first_slider["y"] > tree["y"]
