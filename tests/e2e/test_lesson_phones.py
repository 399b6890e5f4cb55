"""Three phones through every step of every ready lesson (issue 43, item 2). A Next between two steps of
one page (tax → tax, trainer → trainer) switched each phone to the same page with the new step's link,
and writing a key bound to a widget through st.query_params raised `StreamlitAPIException: Cannot directly
set query parameter 'income'` in a red box on every phone; the page then kept the old step's values. Here
every phone watches for an error box at any moment (a MutationObserver: the box went with the next tick),
and after a same-page Next and Reveal the tax step shows its own income and the tax at it."""

from __future__ import annotations

import re

from classroom import lead
from lib.lessons import parse_query, tax_at
from lib.tax import PRESETS
from tests.e2e.conftest import (
    assert_clean,
    axe_findings,
    choose_lesson,
    close_page,
    main_text,
    screenshot,
    wait_ready,
)
from ui import fmt

# Every error box that ever appears on the page, kept in the page (a same-page switch keeps the document).
WATCH_ERRORS = """() => { window.__errors = window.__errors || [];
  const seen = () => document.querySelectorAll("[data-testid='stException']").forEach(
    e => window.__errors.push(e.innerText.slice(0, 300)));
  new MutationObserver(seen).observe(document.body, {childList: true, subtree: true}); seen(); }"""
ORDER = ("tax-bands", "checkerboard", "collapse", "recipe-card")   # the lesson that broke first


def _button(page, key: str):
    return page.locator(f".st-key-{key} button").first


def _start(open_page, title: str) -> tuple:
    teacher = open_page("/class")
    choose_lesson(teacher, title)
    teacher.get_by_role("button", name="Start the lesson").click()
    teacher.wait_for_function("() => /code=[A-Z2-9]{6}/.test(location.href)", timeout=30_000)
    wait_ready(teacher)
    return teacher, re.search(r"code=([A-Z2-9]{6})", teacher.url)[1]


def _join(open_page, code: str, nickname: str):
    phone = open_page(f"/class?code={code}", "phone")
    phone.get_by_role("textbox", name="Your nickname").fill(nickname)
    phone.locator("[data-testid='stMain']").get_by_role("button", name="Join", exact=True).click()
    phone.wait_for_function("() => location.search.includes('class=')", timeout=30_000)
    wait_ready(phone)
    phone.evaluate(WATCH_ERRORS)
    return phone


def _no_error(phone, where: str) -> None:
    seen = phone.evaluate("() => window.__errors")
    assert seen == [], f"{where}: {seen}"
    assert_clean(phone)


def _next(teacher, step: int, n: int) -> None:
    """The teacher presses Next until the teacher's own page says `step of n` (a set-to-value callback: a
    second press moves nothing twice). A press can be lost while the page's run redraws the sidebar
    (tests/e2e/test_projector.py's _press says the same); what is tested is that the phones follow."""
    for _ in range(3):
        _button(teacher, "lesson_next").click()
        try:
            teacher.get_by_text(f"step {step} of {n}").first.wait_for(timeout=12_000)
            return
        except Exception:
            continue
    raise AssertionError(f"Next pressed three times, and the teacher's page never said step {step} of {n}")


def _tax_shown(phone, step) -> None:
    """The step's view on the phone: its own income, and the tax at it."""
    v = parse_query(step.query)
    cur = PRESETS[v["preset"]].currency
    box = phone.locator(".st-key-income input")
    box.wait_for(timeout=15_000)
    assert float(box.input_value().replace(",", "")) == float(v["income"]), (step.title, box.input_value())
    tax = phone.locator("[data-testid='stMetric']", has_text="Tax at this income")
    assert tax.locator("[data-testid='stMetricValue']").inner_text() == fmt.money(tax_at(v), cur, 2)


def test_three_phones_follow_every_step_of_every_ready_lesson_with_no_error_box(open_page):
    ready = lead.ready()
    for name in ORDER:
        lesson = ready[name]
        teacher, code = _start(open_page, lesson.title)
        phones = [_join(open_page, code, nick) for nick in ("Ada", "Bo", "Cy")]
        n = len(lesson.steps)
        for k in range(1, n):
            _next(teacher, k + 1, n)
            for who, phone in zip(("Ada", "Bo", "Cy"), phones, strict=True):
                try:
                    phone.get_by_text(f"step {k + 1} of {n}").first.wait_for(timeout=30_000)
                except Exception as err:
                    raise AssertionError(f"{name}: {who} is not on step {k + 1} of {n} 30 s after the "
                                         f"teacher's page was: {main_text(phone)[:300]!r}") from err
            for phone in phones:
                wait_ready(phone)
                _no_error(phone, f"{name}, Next to step {k + 1}")
            step = lesson.steps[k]
            if name == "tax-bands" and step.path == lesson.steps[k - 1].path and "income" in step.query \
                    and step.query != lesson.steps[k - 1].query and step.question is not None and k <= 2:
                _button(teacher, "lesson_reveal").click()   # the view opens: the step's own values
                phones[0].locator(".st-key-income input").wait_for(timeout=30_000)
                wait_ready(phones[0])
                _tax_shown(phones[0], step)
                _no_error(phones[0], f"{name}, Reveal of step {k + 1}")
                if k == 2:
                    assert "income=50000" in phones[0].url and "hide=preset" in phones[0].url
                    phones[0].mouse.move(0, 0)
                    assert axe_findings(phones[0]) == []
                    screenshot(phones[0], "lesson-phone-same-page-next")
        text = main_text(teacher)
        assert f"Step {n} of {n}" in text
        for phone in phones:
            close_page(phone)
        close_page(teacher)


def test_a_joined_phone_opening_the_join_link_again_lands_on_the_step(open_page, server):
    """Issue 43, item 2: a student who joined and opens /class?code= again (a new tab, the QR scanned
    twice) is on the lesson's step with their seat, not at the join form."""
    lesson = lead.ready()["recipe-card"]
    _, code = _start(open_page, lesson.title)
    phone = _join(open_page, code, "Ada")
    seat = re.search(r"seat=([^&]+)", phone.url)[1]
    again = phone.context.new_page()          # the same browser: its cookies, a new session
    again.goto(f"{server.url}/class?code={code}")
    again.wait_for_function("() => location.search.includes('class=')", timeout=30_000)
    wait_ready(again)
    assert f"Step 1 of {len(lesson.steps)}" in main_text(again) and f"seat={seat}" in again.url
    assert again.get_by_role("textbox", name="Your nickname").count() == 0
    assert_clean(again)
