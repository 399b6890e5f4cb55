"""/activations in Chromium: a control changes the chart; a bad link opens cleanly; a slider inside a
section's fragment reruns that section alone and keeps the URL in step."""

from __future__ import annotations

import contextlib

from lib.activations import ACTIVATIONS
from tests.e2e.conftest import assert_clean, main_text, screenshot, wait_ready


def _chart_paths(page, section: str) -> str:
    """The first line's path in the chart of a section (its keyed container)."""
    chart = page.locator(f".st-key-{section} .js-plotly-plot").first
    return chart.locator("path.js-line").first.get_attribute("d") or ""


def _slider(page, label: str):
    return page.locator("[data-testid='stSlider']", has_text=label).get_by_role("slider")


def test_a_control_changes_the_chart(open_page):
    page = open_page("/activations")
    before = _chart_paths(page, "gallery_chart")
    # ui.inplace: the chart is redrawn in place (Plotly.react), not replaced by a new one
    page.locator(".st-key-gallery_chart .js-plotly-plot").first.evaluate("e => { e.dataset.mark = 'kept'; }")
    slider = _slider(page, "Range ±")
    slider.focus()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    wait_ready(page)
    page.wait_for_timeout(500)
    assert "xmax=" in page.url
    assert _chart_paths(page, "gallery_chart") != before
    assert page.locator(".st-key-gallery_chart .js-plotly-plot").first.get_attribute("data-mark") == "kept"
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
    assert "Ignored show=bogus" in text


def _open_tapped(browser, server, path: str, width: int = 1366):
    """A page whose websocket messages are decoded: the list gets each run's script_finished status."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    finished: list[int] = []

    def on_socket(ws):
        def on_frame(payload):
            if isinstance(payload, (bytes, bytearray)):
                msg = ForwardMsg()
                with contextlib.suppress(Exception):
                    msg.ParseFromString(bytes(payload))
                    if msg.WhichOneof("type") == "script_finished":
                        finished.append(msg.script_finished)
        ws.on("framereceived", on_frame)

    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    page.on("websocket", on_socket)
    page.goto(server.url + path)
    wait_ready(page)
    return ctx, page, finished


def test_a_slider_in_a_fragment_reruns_its_section_alone_and_updates_the_url(browser, server):
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    ctx, page, finished = _open_tapped(browser, server, "/activations")
    try:
        gallery = _chart_paths(page, "gallery_chart")
        steps = page.inner_text(".st-key-depth_live")
        assert "x = 1 through the network" in steps
        runs = len(finished)
        _slider(page, "Input x to follow").focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.location.search.includes('x=1.1')", timeout=30_000)
        wait_ready(page)
        page.wait_for_timeout(500)
        assert "x = 1.1 through the network" in page.inner_text(".st-key-depth_live")
        new = finished[runs:]
        assert new and set(new) == {ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}, new
        assert _chart_paths(page, "gallery_chart") == gallery  # the other section did not rerun
        # a slider in the gallery's fragment: the same, and its key joins the URL beside x
        _slider(page, "Range ±").focus()
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("document.location.search.includes('xmax=3.5')", timeout=30_000)
        wait_ready(page)
        assert "x=1.1" in page.url
        assert set(finished[runs:]) == {ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
        assert_clean(page)
    finally:
        ctx.close()


def test_screenshots_of_a_chosen_view_and_of_every_bend(open_page):
    """The page as it opens is checked and photographed at both widths by test_every_view.py; here the
    identity bend with GELU's two forms on a laptop, and the table's newest bends on a phone, where
    they could run off the side."""
    page = open_page("/activations?bend=identity&deriv=true&show=gelu&show=gelu_tanh&x=-2")
    assert_clean(page)
    screenshot(page, "activations-identity")
    every = "&".join(f"show={name}" for name in list(ACTIVATIONS)[-7:])  # the table's newest bends
    page = open_page(f"/activations?{every}&deriv=true", "phone")
    assert_clean(page)
    assert "Ignored" not in main_text(page)
    overflow = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return m.scrollWidth - m.clientWidth; }")
    assert overflow <= 0, f"every bend: {overflow}px of horizontal overflow on a phone"
    screenshot(page, "activations-every-bend")


def test_a_hand_bound_choice_in_a_fragment_keeps_the_url_in_step(browser, server):
    """The bend select is bound by ui.state by hand (its menu shows names, the URL keeps the key)
    and sits in the depth fragment: picking a bend reruns the fragment and writes bend= to the URL."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    ctx, page, finished = _open_tapped(browser, server, "/activations")
    try:
        runs = len(finished)
        box = page.locator(".st-key-depth_live [data-testid='stSelectbox']")
        box.click()
        page.get_by_role("option", name=ACTIVATIONS["tanh"].label, exact=True).click()
        page.wait_for_function("document.location.search.includes('bend=tanh')", timeout=30_000)
        wait_ready(page)
        steps = page.inner_text(".st-key-depth_live")
        assert f"through the network with {ACTIVATIONS['tanh'].label}" in steps
        assert set(finished[runs:]) == {ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}, finished[runs:]
        assert_clean(page)
    finally:
        ctx.close()
