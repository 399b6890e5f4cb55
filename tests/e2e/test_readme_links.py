"""Every README link that carries a view, typed into a real browser: it lands on its lesson (the URL keeps
its path, the tab names the lesson), with no 'Page not found' and no exception. A link to a bare lesson
is the load tests/e2e/test_every_view.py makes of every page, and checks the same of."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_clean
from tests.readme_links import lesson_of, readme_links


@pytest.mark.parametrize("link", [link for link in readme_links() if "?" in link])
def test_a_readme_link_lands_on_its_lesson(open_page, link):
    lesson = lesson_of(link)
    assert lesson is not None, link
    page = open_page(link)
    assert_clean(page)
    path = page.url.split("://", 1)[1].split("/", 1)[1].split("?")[0].strip("/")
    assert path == lesson.url_path, page.url
    title = lesson.title if lesson.url_path else "Home"   # app.py calls the home page "Home"
    assert title in page.title(), page.url   # st.navigation names the tab after the page it opened
