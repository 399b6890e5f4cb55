"""A lesson student's browser (issue 44): the seat in one history entry, as a challenge's (item 9), no
"A link for the class" while the step's question is open (item 5), and steps on one page in one entry."""

from __future__ import annotations

from classroom.asking import course
from store import Store
from tests.e2e.conftest import main_text, wait_ready

ON_STEP = "() => location.pathname.endsWith('/recipe-card') && location.search.includes('class=')"
# The tab's history as a list, kept beside the browser's own: every pushState and replaceState the page
# makes (Streamlit's and the app's) is written into it, so a test reads every entry's address, not only
# the one shown (Back would rerun the pages it passes).
HISTORY = """
window.__entries = [location.href];
window.__at = 0;
const push = window.history.pushState.bind(window.history);
const replace = window.history.replaceState.bind(window.history);
window.history.pushState = function (state, title, url) {
  const r = push(state, title, url);
  window.__entries = window.__entries.slice(0, window.__at + 1).concat([location.href]);
  window.__at += 1;
  return r;
};
window.history.replaceState = function (state, title, url) {
  const r = replace(state, title, url);
  window.__entries[window.__at] = location.href;
  return r;
};
"""


def test_a_lesson_keeps_the_seat_in_one_history_entry_and_no_class_link_before_reveal(browser, server):
    store = Store()
    code, key = store.start_lesson(course()["recipe-card"])
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    ctx.add_init_script(HISTORY)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/class?code={code}")
        wait_ready(page)
        page.get_by_role("textbox", name="Your nickname").fill("Ada")
        page.locator("[data-testid='stMain']").get_by_role("button", name="Join", exact=True).first.click()
        page.wait_for_function(ON_STEP, timeout=30_000)
        page.wait_for_function("() => location.search.includes('seat=')", timeout=10_000)
        wait_ready(page)
        for step in (1, 2):
            store.goto(code, key, step)
            page.get_by_text(f"step {step + 1} of 5").first.wait_for(timeout=15_000)
            wait_ready(page)
            page.wait_for_function("() => location.search.includes('seat=')", timeout=10_000)
            if step == 1:                                       # the question is open: no link to its view
                assert "Predict first" in main_text(page)
                assert page.get_by_text("A link for the class").count() == 0
        entries = page.evaluate("window.__entries")
        seated = [e for e in entries if "seat=" in e]
        assert len(entries) == page.evaluate("history.length") - 1 and len(entries) >= 3   # - about:blank
        # Back leaves the lesson's page in a press or two: a step on the same page replaces the entry (it
        # pushed two per control it set, 49 entries for these two steps, past Chromium's 50)
        assert len(entries) <= 5, "\n".join(entries)   # /class, its query, the page, a step or two
        assert seated == [page.url], seated                     # the entry the tab is on, and no other
    finally:
        ctx.close()
