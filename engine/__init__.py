"""The engine room: how one Streamlit process serves a class.

Everything here changes or reads Streamlit's private machinery (`streamlit.runtime.*`), on the pinned
Streamlit of requirements.txt. Pages and ui/ never import those modules; they call this package.

- turns.py      runs of one process take turns, first come first served   (LAYERLAB_TURNS=0: off)
- wakeups.py    one event-loop wake-up per burst of a run's messages        (LAYERLAB_WAKEUPS=0: off)
- keylookup.py  a widget's look at its own key reads that key only          (LAYERLAB_KEYLOOKUP=0: off)
- heap.py       a page's first run freezes what it loaded out of the GC     (LAYERLAB_GC_FREEZE=0: off)
- fairshare.py  Play's fair share of the process, and the busy notes
- replica.py    the line shown when a student's replica stopped (deploy/serve)
- pagesdir.py   leave the old pages/ mode on a page's first run
- preload.py    every module imported once, in one thread, before any page runs (first import of each script)
- private.py    every private Streamlit name the above touch, resolved in one place

`install()` turns the patches on and returns a report of which are on, and which are off and why.
"""

from __future__ import annotations

import logging
import os

from engine import private

log = logging.getLogger("layerlab.engine")

# name -> (environment switch, module); each module's install() returns True once it acts.
PATCHES = {
    "wakeups": "LAYERLAB_WAKEUPS",
    "keylookup": "LAYERLAB_KEYLOOKUP",
    "turns": "LAYERLAB_TURNS",
}

_REPORT: dict[str, str] = {}


def strict() -> bool:
    """Under tests and CI a patch that does not fit fails loudly; in a running app it stays off."""
    return bool(os.environ.get("CI") or os.environ.get("PYTEST_CURRENT_TEST")
                or os.environ.get("LAYERLAB_STRICT") == "1")


def install() -> dict[str, str]:
    """Turn every patch on that its switch allows; {name: "on" | "off: why"}. Never raises in an app."""
    import importlib

    for name, switch in PATCHES.items():
        if name in _REPORT and _REPORT[name] == "on":
            continue
        if os.environ.get(switch) == "0":
            _REPORT[name] = f"off: {switch}=0"
            continue
        gone = private.missing(name)
        try:
            if gone:
                raise LookupError(f"this Streamlit has no {', '.join(gone)}")
            module = importlib.import_module(f"engine.{name}")
            _REPORT[name] = "on" if module.install() else "off: its target does not fit this Streamlit"
        except Exception as e:  # a private name moved: run on plain Streamlit, say which
            if strict():
                raise RuntimeError(f"Layer Lab patch {name} no longer fits: {e}") from e
            _REPORT[name] = f"off: {type(e).__name__}: {e}"
        if _REPORT[name] != "on":
            log.warning("Layer Lab patch %s is %s; the app runs on plain Streamlit there.",
                        name, _REPORT[name])
    return dict(_REPORT)


def report() -> dict[str, str]:
    return dict(_REPORT)
