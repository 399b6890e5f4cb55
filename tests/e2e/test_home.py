"""The home page in Chromium: a card per lesson, read in lesson order on a phone and on a projector."""

from __future__ import annotations

import itertools

import pytest

from tests.e2e.conftest import assert_clean, screenshot
from ui.nav import LESSONS


def _card_boxes(page) -> list[dict]:
    boxes = []
    for lesson in LESSONS:
        card = page.locator(f".st-key-card_{lesson.url_path}")
        assert card.count() == 1, lesson.url_path
        boxes.append(card.bounding_box())
    return boxes


@pytest.mark.parametrize("width", ["phone", "laptop"])
def test_home_cards_read_in_lesson_order(open_page, width):
    page = open_page("/", width)
    assert_clean(page)
    boxes = _card_boxes(page)
    # reading order: top to bottom, and left to right within a row
    order = sorted(range(len(boxes)), key=lambda i: (round(boxes[i]["y"]), boxes[i]["x"]))
    assert order == list(range(len(LESSONS))), [LESSONS[i].url_path for i in order]
    if width == "phone":  # one card per row, each below the last
        assert all(b["y"] > a["y"] for a, b in itertools.pairwise(boxes))
    text = page.inner_text("[data-testid='stMain']")
    assert not any(f"/{lesson.url_path}" in text for lesson in LESSONS)  # titles, not routes
    screenshot(page, "home-cards")
