"""The whole site in a real browser: every URL, the navigation, the links."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_clean, wait_ready
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
    nav = page.inner_text("[data-testid='stSidebarNav']")
    assert all(lesson.title in nav for lesson in LESSONS), nav
    assert "app" not in nav.split("\n")
    width = page.evaluate("document.querySelector('[data-testid=\"stMainBlockContainer\"]').clientWidth")
    assert width > 900, f"not the wide layout: {width}px"
    ctx.close()


def test_every_navigation_link_opens_its_page(open_page):
    page = open_page("/")
    for lesson in LESSONS:
        page.locator("[data-testid='stSidebarNav'] a", has_text=lesson.title).first.click()
        page.wait_for_url(f"**/{lesson.url_path}*")
        wait_ready(page)
        assert_clean(page)


def test_every_home_card_opens_its_lesson(open_page):
    page = open_page("/")
    home = page.url
    for lesson in LESSONS:
        page.goto(home)
        wait_ready(page)
        page.locator("[data-testid='stMain'] [data-testid='stPageLink'] a",
                     has_text=lesson.title).click()
        page.wait_for_url(f"**/{lesson.url_path}*")
        wait_ready(page)
        assert_clean(page)
