"""Leave Streamlit's old pages/ mode on a page's first run (a trap seen with Streamlit 1.67).

While a folder named pages/ sits beside app.py, the server starts in the old multipage mode, and the
first direct visit to /trainer (say) runs pages/trainer.py on its own, without app.py: no wide
layout, a sidebar of file names. Every page imports ui, which calls `leave()`; on that first run we
leave the old mode and ui reruns the page (ui.state.rerun_page); app.py then runs and st.navigation picks
the same page (each page file is named after its URL path, so the page's id is the same in both modes).
"""

from __future__ import annotations


def leave() -> bool:
    """Switch the old mode off; True when this run is in it (then the page must be run again)."""
    from engine import private

    if private.missing("pagesdir"):
        return False   # Streamlit moved the switch: a first direct visit may show its dialog, nothing worse
    manager = private.get("PagesManager")
    if manager.uses_pages_directory and private.ctx() is not None:
        manager.uses_pages_directory = False
        return True
    return False
