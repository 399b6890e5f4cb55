"""Layer Lab: the table of contents. Every lesson lives in pages/, listed in ui/nav.py."""

import os

import streamlit as st

from ui import heap, inplace, keylookup, runs, turns, wakeups
from ui.fairshare import busy_note
from ui.nav import HOME, LESSONS
from ui.replica import restart_note

# One event-loop wake-up per burst of a run's messages (ui/wakeups.py); LAYERLAB_WAKEUPS=0: Streamlit's own.
if os.environ.get("LAYERLAB_WAKEUPS") != "0":
    wakeups.install()
# A widget asking about its own key looks up that key, not the whole state (ui/keylookup.py).
if os.environ.get("LAYERLAB_KEYLOOKUP") != "0":
    keylookup.install()
# Runs take turns, first come first served, instead of sharing the core in 5 ms slices (ui/turns.py);
# LAYERLAB_TURNS=0: Streamlit's own.
if os.environ.get("LAYERLAB_TURNS") != "0":
    turns.install()
# LAYERLAB_FINISH_RUNS=1: a new move waits for the run in progress and a finished run's picture is
# always delivered (past capacity: slower, never frozen; ui/runs.py). Off by default: with it on, a
# playing trainer's Play button came back detached again and again after Pause under load (CI's
# tests/e2e/test_play_pause.py; 0 of 3 such failures without it), and past capacity it measured no
# better (60 students moving every 2 s on /recipe-card: p95 42.6 s with it, 40.6 s without).
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
if os.environ.get("LAYERLAB_GC_FREEZE") != "0":
    heap.settle(page.url_path)  # what the page loaded stays out of later full collections (ui/heap.py)
