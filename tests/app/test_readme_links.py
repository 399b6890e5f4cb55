"""Every README link opens its lesson cleanly under AppTest, and every key it sets is one the lesson
declares (tests/e2e/test_readme_links.py opens the same links by URL in Chromium)."""

from __future__ import annotations

import pytest

from tests.app.conftest import open_page
from tests.readme_links import lesson_of, query_of, readme_links
from ui import state

LINKS = readme_links()


def test_the_readme_shows_a_link_to_every_lesson():
    assert {lesson_of(link) for link in LINKS} >= {lesson_of(f"/{p}") for p in
                                                   ("", "recipe-card", "stacking", "activations", "tax-bands",
                                                    "gpt2-params", "gpt2-mlp", "trainer", "class")}
    assert sum("?" in link for link in LINKS) >= 8


@pytest.mark.parametrize("link", LINKS)
def test_a_readme_link_opens_its_lesson(link):
    lesson = lesson_of(link)
    assert lesson is not None, f"{link}: no lesson has this URL path"
    query = query_of(link)
    links = state.page_links(lesson.file)
    known = {link.key for link in (links or ())} | {"hide", "big", "code", "key", "class", "seat", "s",
                                                    "homework"}
    assert {k for k, _ in query} <= known, f"{link}: keys {lesson.file} does not declare"
    values: dict[str, list[str]] = {}
    for k, v in query:   # a key given twice (`show=relu&show=tanh`) travels as a list
        values.setdefault(k, []).append(v)
    at = open_page(lesson.url_path, {k: v[0] if len(v) == 1 else v for k, v in values.items()}, timeout=120)
    assert not at.exception, f"{link}: {at.exception}"
    notes = " ".join(c.value for c in at.caption)
    assert "Ignored" not in notes, f"{link}: a value the page could not use: {notes}"
