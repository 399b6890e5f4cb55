"""/stacking in Chromium: opens at both widths, a fragment's slider updates its section and the URL."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_clean, main_text, metric, screenshot, wait_ready


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_opens_with_the_seed_numbers_and_is_photographed(view, width):
    page = view("/stacking", width)
    assert_clean(page)
    assert "Stacking layers" in main_text(page)
    assert metric(page, "prediction ŷ") == "0.1" and metric(page, "1.5^10") == "57.67"
    screenshot(page, "stacking")


def test_the_depth_slider_updates_its_section_and_the_link(open_page):
    page = open_page("/stacking")
    slider = page.get_by_role("slider", name="Depth (layers)")
    slider.focus()
    page.keyboard.press("ArrowRight")  # 10 -> 11
    page.wait_for_url(re.compile(r"depth=11"), timeout=30_000)
    box = page.locator("[data-testid='stMetric']", has_text="1.5^11").first
    expect(box.locator("[data-testid='stMetricValue']")).to_have_text("86.5", timeout=30_000)
    assert metric(page, "prediction ŷ") == "0.1"
    assert_clean(page)


def test_the_link_back_carries_the_card(open_page):
    page = open_page("/stacking?w11=1.5&nin=4")
    link = page.get_by_role("link", name=re.compile("Change the layer used below"))
    href = link.get_attribute("href") or ""
    assert "w11=1.5" in href and "nin=4" in href
    link.click()
    page.wait_for_url(re.compile(r"/recipe-card\?"), timeout=30_000)
    wait_ready(page)
    assert page.get_by_role("slider", name="w₁₁").input_value() == "1.5"


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_one_step_lowers_the_loss_and_the_equations_fit_the_width(open_page, width):
    page = open_page("/stacking", width)
    assert metric(page, "loss now") == "0.81"
    page.locator("[data-testid='stMain']").get_by_role("button", name="One step", exact=True).click()
    page.wait_for_url(re.compile(r"steps=1"), timeout=30_000)
    box = page.locator("[data-testid='stMetric']", has_text="loss now").first
    expect(box.locator("[data-testid='stMetricValue']")).not_to_have_text("0.81", timeout=30_000)
    wait_ready(page)
    assert float(metric(page, "loss now")) < 0.81
    # the chain rule's lines are readable without sideways scrolling of the page
    overflow = page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollWidth"
                             " - document.querySelector(\"[data-testid='stMain']\").clientWidth")
    assert overflow <= 1
    # issue 34: the loss's fall is drawn as a fall, and the check table shows its last row (no inner scroll)
    expect(box.locator("[data-testid='stMetricDelta'] svg")).to_have_count(1)
    assert box.locator("[data-testid='stMetricDelta']").inner_text().strip().startswith("-")
    grid = page.locator("[data-testid='stDataFrame']", has_text="central difference")
    expect(grid).to_contain_text("b′")
    fits = grid.evaluate("g => [...g.querySelectorAll('*')].every(e => e.scrollHeight <= e.clientHeight + 2"
                         " || getComputedStyle(e).overflowY === 'visible')")
    assert fits, "the central-difference table scrolls inside itself"
    assert_clean(page)
    screenshot(page, "stacking-one-step")
