"""Layer Lab: the table of contents. Every lesson lives in pages/, listed in ui/nav.py."""

import os
from pathlib import Path

import streamlit as st

import engine
import engine.preload  # first of the app's own: every module imported once before any page runs
from classroom import asking
from classroom import lesson as class_lesson
from classroom.links import link_box
from engine import heap
from engine.fairshare import busy_note
from engine.replica import restart_note
from ui import inplace, room, state
from ui.nav import HOME, LESSONS, menu

ROOT = Path(__file__).resolve().parent

# The class server's patches to Streamlit (engine/): each on unless its switch is 0, and one that does
# not fit this Streamlit stays off with a logged line rather than stopping the app.
engine.install()
asking.warm()   # the ready lessons' answers computed in a thread of its own, once, while pages draw

# No page_title here: it would override every page's own tab title. The room view (`big=true`,
# ui/room.py) opens with the sidebar closed. The icon is a file of the app's (served from this server):
# Streamlit fetches a ":material/..." favicon from fonts.gstatic.com, which a school network may block.
st.set_page_config(page_icon=str(ROOT / "static" / "favicon.png"), layout="wide",
                   initial_sidebar_state="collapsed" if room.on() else "auto")

sections: dict[str, list] = {"": [st.Page(HOME.file, title="Home", icon=HOME.icon, default=True)]}
for lesson in LESSONS:
    sections.setdefault(lesson.section, []).append(
        st.Page(lesson.file, title=lesson.title, icon=lesson.icon, url_path=lesson.url_path)
    )
page = st.navigation(sections, position="hidden")
menu(sections)   # the same pages, as plain links (ui/nav.py says why)
inplace.new_page(page.url_path)  # its charts are mounted afresh: none is held from the last page
if note := restart_note(st.context.headers, st.session_state):  # its replica stopped (deploy/serve)
    st.caption(note)
if note := busy_note():  # past capacity answers come later, never not at all: say so
    st.caption(f":material/hourglass_top: {note}")
room.sidebar()   # every page: large text for the room, and its controls folded away
room.style()
link_notes = st.container()   # the page's notes on its link as a whole (an unknown key in `hide=`)
shown = class_lesson.follow(page.url_path)   # a student in a lesson class: the step, its question first
if shown:
    page.run()
lesson = next((item for item in LESSONS if item.url_path == page.url_path), HOME)
# The page's link keys: a link for the class can hide them. Not while a lesson's view waits for Reveal:
# the link would open the view.
if shown and (links := state.declared(ROOT / lesson.file)):
    with link_notes:
        links.show_note(state.HIDE)   # a hide= key this page does not have: with the page's other notes
    link_box(links)
if os.environ.get("LAYERLAB_GC_FREEZE") != "0":
    heap.settle(page.url_path)  # what the page loaded stays out of later full collections (engine/heap.py)
