"""Layer Lab: the table of contents. Every lesson lives in pages/, listed in ui/nav.py."""

import os

import streamlit as st

from ui import inplace, runs, wakeups
from ui.fairshare import busy_note
from ui.nav import HOME, LESSONS
from ui.replica import restart_note

# LAYERLAB_FINISH_RUNS=1: a new move waits for the run in progress and a finished run's picture is
# always delivered (past capacity: slower, never frozen; ui/runs.py says what it measured). Off by
# default: with it, a playing trainer's tab still dies now and then with "Cached ForwardMsg MISS"
# (1 of 3 Plays in Chromium after ui/runs.py's cache rule; 0 of 3 without ui/runs.py), and Play drew
# 0-10 redraws a second against a steady 9-10 without it.
if os.environ.get("LAYERLAB_WAKEUPS") != "0":  # 0: Streamlit's own hand-over, for bench/ comparisons
    wakeups.install()  # one event-loop wake-up per burst of a run's messages (ui/wakeups.py)

if os.environ.get("LAYERLAB_FINISH_RUNS") == "1":
    runs.install()

# No page_title here: it would override every page's own tab title.
st.set_page_config(page_icon=":material/layers:", layout="wide")

sections: dict[str, list] = {"": [st.Page(HOME.file, title="Home", icon=HOME.icon, default=True)]}
for lesson in LESSONS:
    sections.setdefault(lesson.section, []).append(
        st.Page(lesson.file, title=lesson.title, icon=lesson.icon, url_path=lesson.url_path)
    )
page = st.navigation(sections)
inplace.new_page(page.url_path)  # its charts are mounted afresh: none is held from the last page
if note := restart_note(st.context.headers, st.session_state):  # its replica stopped (deploy/serve)
    st.caption(note)
if note := busy_note():  # past capacity answers come later, never not at all: say so
    st.caption(f":material/hourglass_top: {note}")
page.run()
