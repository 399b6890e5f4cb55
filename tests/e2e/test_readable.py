"""What the class sees beyond each page as it opens (every page in every view is checked, from one load
each, by tests/e2e/test_every_view.py): the home cards' order on a phone, and the trainer on a phone in
each problem mode."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_clean
from tests.e2e.test_every_view import _OVERFLOW, _first_live
from ui.nav import LESSONS


def test_home_cards_keep_lesson_order_on_a_phone(open_page):
    page = open_page("/", "phone")
    links = page.locator("[data-testid='stMain'] [data-testid='stPageLink'] a")
    boxes = [(links.nth(i).bounding_box(), links.nth(i).inner_text()) for i in range(links.count())]
    shown = [text for box, text in sorted(boxes, key=lambda bt: (round(bt[0]["y"]), bt[0]["x"]))]
    titles = [lesson.title for lesson in LESSONS]
    order = [next(t for t in titles if t in s) for s in shown if any(t in s for t in titles)]
    assert order == titles


@pytest.mark.parametrize("query", ["problem=classes&k=5", "problem=regress"])
def test_the_trainer_fits_a_phone_in_every_problem_mode(open_page, query):
    """Five classes make five 'class c (colour)' choices under the map: one segmented row ran off a phone
    (class 2 (purple) cut at its right edge); they wrap now. Values bring their own words and controls."""
    page = open_page(f"/trainer?{query}", "phone")
    _first_live(page)
    assert_clean(page)
    assert page.evaluate(_OVERFLOW) == []
    last = "class 4" if "k=5" in query else "add points"
    assert page.locator(".st-key-trainer_pick").get_by_text(last).count() == 1
