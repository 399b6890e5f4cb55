"""Layer Lab: the table of contents. Every lesson lives in pages/, listed in ui/nav.py."""

import os

import streamlit as st

from ui import runs
from ui.fairshare import busy_note
from ui.nav import HOME, LESSONS
from ui.replica import restart_note

# Past capacity, slower, never frozen: a new move waits for the run in progress and a finished run's
# picture is always delivered (ui/runs.py says what it measured). On unless LAYERLAB_FINISH_RUNS=0
# (Streamlit's default: each move cuts the student's run in progress short).
if os.environ.get("LAYERLAB_FINISH_RUNS") != "0":
    runs.install()

# No page_title here: it would override every page's own tab title.
st.set_page_config(page_icon=":material/layers:", layout="wide")

sections: dict[str, list] = {"": [st.Page(HOME.file, title="Home", icon=HOME.icon, default=True)]}
for lesson in LESSONS:
    sections.setdefault(lesson.section, []).append(
        st.Page(lesson.file, title=lesson.title, icon=lesson.icon, url_path=lesson.url_path)
    )
page = st.navigation(sections)
if note := restart_note(st.context.headers, st.session_state):  # its replica stopped (deploy/serve)
    st.caption(note)
if note := busy_note():  # past capacity answers come later, never not at all: say so
    st.caption(f":material/hourglass_top: {note}")
page.run()
