"""/gpt2-mlp in Chromium: controls change the output, the checker flags the seed's slips,
a bad link opens cleanly, and screenshots at laptop and phone widths."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_clean, main_text, screenshot, wait_ready


@pytest.fixture(autouse=True)
def _app_ran_once(open_page):
    """Load / first: until app.py's st.navigation has run once, a fresh server serves a
    directly visited page file the old pages/ way (no wide layout, a file-name sidebar)."""
    open_page("/")


H = 2   # the page's charts: the block at a glance, z, h = GELU(z), ...


def _chart_text(page, n: int) -> str:
    """The cell texts plotly drew in the n-th chart."""
    chart = page.locator(".js-plotly-plot").nth(n)
    return " ".join(chart.locator("text").all_text_contents())


def test_the_gelu_switch_changes_the_hidden_table(open_page):
    page = open_page("/gpt2-mlp")
    before = _chart_text(page, H)  # h = GELU(z), one number per cell
    assert "h = GELU(z) · shape 5 × 6" in main_text(page)
    assert "0.602" in before  # GELU(0.772), exact
    page.locator("[data-testid='stSelectbox']").first.click()
    page.get_by_role("option", name="tanh approximation").click()
    page.wait_for_url("**act=gelu_tanh**")
    wait_ready(page)
    page.wait_for_function(  # the rerun may still be drawing: wait for the new numbers
        f"(before) => Array.from(document.querySelectorAll(\".js-plotly-plot\")[{H}]"
        ".querySelectorAll('text')).map(t => t.textContent).join(' ') !== before",
        arg=before, timeout=30_000)
    assert _chart_text(page, H) != before
    assert_clean(page)


def test_token_slider_moves_only_that_output_row(open_page):
    """The slider sits in its own fragment: its section and the URL follow, the rest stays as it was."""
    page = open_page("/gpt2-mlp?poke=5")
    main = page.locator("[data-testid='stMain']")
    expect(main).to_contain_text("Token 5 (the coloured bar) got a fresh input row")
    expect(main).to_contain_text("every other output row by 0.")
    before = [_chart_text(page, n) for n in range(6)]  # the block at a glance, z, h, the curve, y, the path
    near = main.locator("[data-testid='stMetric']", has_text="Pushed near zero").inner_text()
    slider = page.get_by_role("slider").last  # "Token to change", the page's last slider
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**poke=6**")
    expect(main).to_contain_text("Token 6 (the coloured bar) got a fresh input row", timeout=30_000)
    expect(main).to_contain_text("every other output row by 0.")
    wait_ready(page)
    assert [_chart_text(page, n) for n in range(6)] == before
    assert main.locator("[data-testid='stMetric']", has_text="Pushed near zero").inner_text() == near
    assert_clean(page)


def test_follow_token_sits_in_its_section_and_moves_it(open_page):
    page = open_page("/gpt2-mlp")
    main = page.locator("[data-testid='stMain']")
    section = page.get_by_role("heading", name="One token's path").bounding_box()
    picker = page.locator("[data-testid='stSelectbox']", has_text="Token to follow").bounding_box()
    assert 0 < picker["y"] - section["y"] < 200  # right under its heading, not three sections above
    box = page.locator("[data-testid='stSelectbox']", has_text="Token to follow").locator("input")
    box.click()
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    page.wait_for_url("**tok=3**")
    expect(main).to_contain_text("Token 3 goes in as", timeout=30_000)
    assert_clean(page)


def test_checker_flags_the_seed_slips(open_page):
    page = open_page("/gpt2-mlp?check=true")
    page.get_by_role("button", name="Load the seed's hand-worked tables").click()
    main = page.locator("[data-testid='stMain']")
    expect(main).to_contain_text("15 of 15 cells off by more than 0.001 (15 new in this step)",
                                 timeout=30_000)
    wait_ready(page)
    text = main_text(page)
    assert "13 of 30 cells off by more than 0.001 (13 new in this step)" in text
    assert "13 of 30 cells off by more than 0.001 (3 new in this step)" in text
    assert "pre=" in page.url
    assert_clean(page)


def test_bad_link_opens_with_defaults_and_notes(open_page):
    page = open_page("/gpt2-mlp?act=relu&tok=9&x=1,2&check=true&pre=1,2;x&init=huge&near=7")
    assert_clean(page)
    text = main_text(page)
    assert "Ignored act=relu" in text
    assert "Ignored tok=9" in text
    assert "Ignored x=1,2" in text
    assert "is not a number" in text
    assert "z, before GELU" in text


@pytest.mark.parametrize("width", ["laptop", "phone"])
def test_screenshots(open_page, width):
    page = open_page("/gpt2-mlp?check=true", width=width)
    page.get_by_role("button", name="Load the seed's hand-worked tables").click()
    expect(page.locator("[data-testid='stMain']")).to_contain_text("15 of 15 cells", timeout=30_000)
    wait_ready(page)
    width_used, width_there = page.evaluate(
        "() => { const m = document.querySelector(\"[data-testid='stMain']\"); "
        "return [m.scrollWidth, m.clientWidth]; }")
    assert width_used <= width_there + 1  # nothing runs off the side, on a phone either
    assert_clean(page)
    screenshot(page, "gpt2-mlp")
