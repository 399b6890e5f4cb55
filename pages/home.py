"""Home: what each lesson teaches, one card per lesson, in lesson order on every width.

The cards come from ui.nav.LESSONS (a lesson added there appears here by itself), grouped by
their navigation section. Each row of cards is its own st.columns, filled left to right, so a
phone, which stacks columns, still reads the lessons in order (one st.columns for the whole grid
would stack it column by column).
"""

from urllib.parse import parse_qsl

import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from classroom.links import SHORT
from ui.nav import LESSONS, facts
from ui.state import shown

PER_ROW = 3  # cards side by side on a wide screen


def cards():
    numbers = facts()
    sections: dict[str, list] = {}
    for lesson in LESSONS:  # lesson order, grouped by section in the order sections first appear
        sections.setdefault(lesson.section, []).append(lesson)
    for section, lessons in sections.items():
        st.subheader(section)
        for start in range(0, len(lessons), PER_ROW):
            row = st.columns(PER_ROW)
            for col, lesson in zip(row, lessons[start:start + PER_ROW], strict=False):
                with col.container(border=True, height="stretch", key=f"card_{lesson.url_path}"):
                    st.page_link(lesson.file, label=f"**{lesson.title}**", icon=lesson.icon)
                    st.markdown(lesson.blurb.format(**numbers))


def follow_short_link() -> None:
    """`/?s=CODE`, a short link off a slide ('Short link for a slide' in any page's sidebar): open the view
    it was made from; a code the store does not hold gets one line, and the home page."""
    raw = st.query_params.get(SHORT)
    if raw is None:
        return
    from classroom import connection

    try:
        found = connection.store().expand(raw)
    except Exception:   # the store cannot be reached: say so, and show the home page
        found, why = None, "the class store cannot be reached just now"
    else:
        why = "it may be mistyped (look-alike letters are never used: no 0, O, 1, I or L)"
    lesson = next((item for item in LESSONS if found and item.url_path == found[0] and item.url_path), None)
    if lesson is None:
        st.warning(f"No short link `{shown(raw, 12)}` here: {why}.", icon=":material/link_off:")
        return
    st.switch_page(lesson.file, query_params=parse_qsl(found[1], keep_blank_values=True))


if __name__ == "__main__":
    follow_short_link()
    st.title("Layer Lab")
    st.markdown(
        "A neural-network layer is one line of algebra, **y = xW + b**. These lessons take it "
        "apart with sliders, in order: each card says what its lesson teaches. Every number on every "
        "page is computed live, and every page's address reproduces what you see, so a link is a "
        "ready-made slide."
    )
    cards()
