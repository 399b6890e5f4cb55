"""Streamlit- and plotly-aware helpers shared by the pages.

Importing this package leaves Streamlit's old pages/ mode on a page's first run (engine/pagesdir.py
says why): every page imports ui, so the fix is in place whichever URL a student opens first.
"""

from engine import pagesdir

if pagesdir.leave():
    from ui.state import rerun_page

    rerun_page("left Streamlit's old pages/ mode: app.py's navigation runs the same page")
