"""The whole site in a real browser: every URL, the navigation, the links."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_clean, screenshot, wait_ready
from ui.nav import LESSONS


# The trap came from pages/ discovery, the same for every page: the home page, a lesson and /class.
# (Each visit needs a server of its own, so not all nine: test_readable opens every page.)
@pytest.mark.parametrize("path", ["", "tax-bands", "class"])
def test_direct_visit_on_a_fresh_server(browser, fresh_server, path):
    """The first visit after a start is the one where the old pages/ discovery used to
    show 'Page not found' over the right page (HOUSE.md's trap)."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    page.goto(f"{fresh_server.url}/{path}")
    wait_ready(page)
    page.wait_for_timeout(1000)  # the dialog, when it came, came after the first paint
    assert_clean(page)
    assert page.url.rstrip("/").endswith(path) and "pages" not in page.url
    # app.py ran: the sidebar lists the lessons by title (the old mode listed file names,
    # "app" among them) and the layout is wide.
    nav = page.inner_text(".st-key-layerlab_nav")
    assert all(lesson.title in nav for lesson in LESSONS), nav
    assert "app" not in nav.split("\n")
    width = page.evaluate("document.querySelector('[data-testid=\"stMainBlockContainer\"]').clientWidth")
    assert width > 900, f"not the wide layout: {width}px"
    ctx.close()


def test_every_navigation_link_opens_its_page(open_page):
    page = open_page("/")
    for lesson in LESSONS:
        page.locator(".st-key-layerlab_nav a", has_text=lesson.title).first.click()
        page.wait_for_url(f"**/{lesson.url_path}*")
        wait_ready(page)
        assert_clean(page)


def test_every_home_card_opens_its_lesson(open_page):
    """Each card links to its lesson's own path, and a card clicked opens it (one click is enough to
    prove the cards are live links: the rest differ only in the address, read off each card)."""
    page = open_page("/")
    cards = page.locator("[data-testid='stMain'] [data-testid='stPageLink'] a")
    for lesson in LESSONS:
        card = cards.filter(has_text=lesson.title)
        assert card.count() == 1, lesson.title
        assert card.get_attribute("href").strip("/").split("/")[-1] == lesson.url_path, lesson.title
    last = LESSONS[-1]
    cards.filter(has_text=last.title).click()
    page.wait_for_url(f"**/{last.url_path}*")
    wait_ready(page)
    assert_clean(page)
    assert last.title in page.title()


def test_a_short_link_off_a_slide_opens_the_teachers_view(open_page):
    """The teacher makes a short link in the sidebar's box; a student types it (any case) and lands on
    the same view, controls hidden as ticked."""
    page = open_page("/recipe-card?w11=1.5")
    page.get_by_text("A link for the class").click()
    page.get_by_role("button", name="Short link for a slide").click()
    code_box = page.locator("[data-testid='stSidebar'] [data-testid='stCode']", has_text="?s=")
    code_box.wait_for(timeout=15_000)
    short = code_box.inner_text().strip()
    screenshot(page, "short-link")
    code = short.rsplit("=", 1)[1]
    assert len(code) == 6 and short.split("?")[0].endswith("/")
    student = open_page(f"/?s={code.lower()}")
    student.wait_for_url("**/recipe-card?*w11=1.5*", timeout=15_000)
    wait_ready(student)
    assert_clean(student)
    assert student.get_by_role("slider", name="w₁₁").count() == 1
