"""Layer Lab: the table of contents. Every lesson lives in pages/, listed in ui/nav.py."""

import os

import streamlit as st

from ui import inplace, runs, wakeups
from ui.fairshare import busy_note
from ui.nav import HOME, LESSONS
from ui.replica import restart_note

# Both patch how Streamlit hands a run's work around; LAYERLAB_*=0 gives Streamlit's own, for bench/.
if os.environ.get("LAYERLAB_WAKEUPS") != "0":
    wakeups.install()  # one event-loop wake-up per burst of a run's messages (ui/wakeups.py)
# A new move waits for the run in progress and a finished run's picture is always delivered (past
# capacity: slower, never frozen; ui/runs.py). It was opt-in while the forward-message cache was on
# (a playing tab then died of "Cached ForwardMsg MISS" in 1 of 3 Plays); with the cache off
# (.streamlit/config.toml) 5 of 5 Plays stayed connected with it.
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
inplace.new_page(page.url_path)  # its charts are mounted afresh: none is held from the last page
if note := restart_note(st.context.headers, st.session_state):  # its replica stopped (deploy/serve)
    st.caption(note)
if note := busy_note():  # past capacity answers come later, never not at all: say so
    st.caption(f":material/hourglass_top: {note}")
page.run()
