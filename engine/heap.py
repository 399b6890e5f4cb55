"""Long-lived objects out of the garbage collector's full passes.

A full (generation 2) collection walks every object the collector tracks, and in this process most
of them are modules, Streamlit's and plotly's classes and validators, loaded once and never freed:
on /trainer one full pass took 90-110 ms, a pause for every session of the process, once every 30
or so moves of one student (more often under a class, as allocation grows with the moves). After a
page's first run in the process has loaded what it needs, `settle(page)` collects once and freezes
what is left (`gc.freeze()`): later full passes walk only what was made after. Once per page per
process, so what a session leaves frozen is bounded by the number of pages. LAYERLAB_GC_FREEZE=0:
the collector as Python sets it.
"""

from __future__ import annotations

import gc
import threading

_settled: set[str] = set()
_lock = threading.Lock()


def settle(page: str) -> bool:
    """After `page`'s first run in this process: collect, then freeze the survivors. True if it did."""
    with _lock:
        if page in _settled:
            return False
        _settled.add(page)
        gc.collect()
        gc.freeze()
        return True
