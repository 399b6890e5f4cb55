"""Every registered page runs under AppTest without an exception."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.conftest import open_page
from ui.nav import LESSONS


@pytest.mark.parametrize("path", ["", *[lesson.url_path for lesson in LESSONS]])
def test_page_runs_without_exception(path):
    at = open_page(path)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, "every page starts with a title"


def test_home_links_every_lesson():
    at = open_page("")
    links = [el.proto.page for el in at.main.get("page_link")]   # the sidebar menu (ui/nav.menu) aside
    for lesson in LESSONS:
        assert lesson.url_path in links


def test_home_quotes_gpt2s_count_as_computed():
    from lib.transformer import PRESETS, count_params

    at = open_page("")
    text = " ".join(m.value for m in at.markdown)
    assert f"{count_params(PRESETS['gpt2']):,}" in text
    assert "{" not in text  # every placeholder filled


def test_lessons_sharing_a_link_key_keep_their_own_state():
    """/activations and /gpt2-mlp both have a matrix `w1` (1 x 3 and 3 x 6) and a bound `bend`/
    `bias`: visiting one and then the other in one session must not hand state across."""
    at = open_page("activations", {"w1": "2,2,2", "xmax": "abc"})
    assert any("Ignored `xmax=abc`" in c.value for c in at.caption)
    for path in ("gpt2-mlp", "activations", "gpt2-mlp"):
        at.switch_page(f"pages/{path}.py").run()
        assert not at.exception, [e.value for e in at.exception]
    assert not any("xmax" in c.value for c in at.caption)


def test_a_short_key_chosen_on_one_page_is_not_forced_on_another():
    """`preset` is a tax schedule on /tax-bands and a model on /gpt2-params; `bend` is on three
    lessons. A value picked on one page must neither crash nor leak into the next (it did: a
    KeyError 'uk-2024' on /gpt2-params after /tax-bands)."""
    at = open_page("tax-bands")
    at.selectbox(key="preset").set_value("uk-2024-taper").run()
    at.radio(key="bend").set_value("identity").run()
    assert not at.exception
    for path in ("gpt2-params", "activations", "trainer", "tax-bands"):
        at.query_params.clear()  # as the browser does on a page switch (AppTest keeps them)
        at.switch_page(f"pages/{path}.py").run()
        assert not at.exception, (path, [e.value for e in at.exception])
        if path == "gpt2-params":
            assert at.selectbox(key="preset").value == "gpt2"
        if path == "activations":
            assert at.selectbox(key="bend").value == "relu"


def test_home_cards_follow_the_lesson_order():
    """Rows of cards are built left to right, so the element order (what a phone stacks) is the
    lessons' order, and every lesson in ui.nav.LESSONS gets a card."""
    at = open_page("")
    links = [el.proto.page for el in at.main.get("page_link")]   # the sidebar menu (ui/nav.menu) aside
    assert links == [lesson.url_path for lesson in LESSONS]


def test_home_cards_say_what_each_lesson_teaches():
    from ui.nav import facts

    at = open_page("")
    text = " ".join(m.value for m in at.markdown)
    for lesson in LESSONS:
        assert lesson.blurb.format(**facts()) in text
    assert f"/{LESSONS[0].url_path}`" not in text and f"`/{LESSONS[0].url_path}" not in \
        " ".join(c.value for c in at.caption)  # a card names its lesson, not its route
    assert f"the {facts()['bends']} bends" in text


@pytest.mark.parametrize("path", [lesson.url_path for lesson in LESSONS])
def test_the_code_is_drawn_when_its_expander_is_opened(path):
    """The code expanders are lazy (ui/source.py): closed, they draw nothing a move would make the
    browser re-render; opened, they show each function's source as lib has it."""
    import importlib
    import inspect

    at = open_page(path, {"view": "code"} if path == "trainer" else None)
    keys = [k for k in at.session_state if isinstance(k, str) and k.startswith("source:")]
    assert keys, "every lesson shows the code it ran"
    assert not [c for c in at.code if c.value.lstrip().startswith("def ")]   # none drawn while closed
    at.session_state[keys[0]] = True                                           # the student opens one
    at.run()
    assert not at.exception
    shown = [c.value.strip() for c in at.code]
    for qualified in keys[0].removeprefix("source:").split(","):
        module, name = qualified.rsplit(".", 1)
        assert inspect.getsource(getattr(importlib.import_module(module), name)).strip() in shown


def test_the_sidebar_menu_links_every_page_in_the_navigations_order():
    """ui/nav.menu draws Streamlit's hidden menu as plain links (its own list markup failed axe-core)."""
    at = open_page("")
    links = [el.proto.page for el in at.sidebar.get("page_link")]
    # Not from ui/nav (which the menu itself reads): the URL paths promised to teachers, in the order the
    # lessons teach, and every page file (each named after its URL path; home.py is "/") has its link.
    assert links == ["", "recipe-card", "stacking", "activations", "tax-bands", "gpt2-params", "gpt2-mlp",
                     "trainer", "class"]
    pages = Path(__file__).resolve().parents[2] / "pages"
    files = {"" if f.stem == "home" else f.stem for f in pages.glob("*.py")}
    assert files == set(links)
