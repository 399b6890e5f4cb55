"""Every module of the app imported once, by one script thread, before any page runs.

Streamlit runs each session's script in a thread of its own, and a page's first run imports its pieces
(`from pages.recipe_card import card`). When a class arrives at a cold server at once, many first runs
import the same modules at the same moment, and Python 3.11's import locks can hand one thread a module
another is still filling: under 120 students arriving at a compose stack of two replicas (issue 46),
pages failed with `ImportError: cannot import name 'card' from 'pages.recipe_card'`. In an image the
code is read-only and no bytecode is cached, so each import compiles its source and the window is wide.

So app.py and every page file import this module first of the app's own modules (`import engine.preload`
sorts before every `from ... import`): its body imports every module of the app's packages, in one thread,
while Python's lock on this module makes every other script thread wait at that line. A thread then finds
only whole modules. The cost is once a process (about a second, then nothing), paid by the first visitor.

A page's first direct visit in Streamlit's old pages/ mode makes `ui` rerun the page (engine/pagesdir.py):
that rerun ends this import half way; the next run imports it again, and the modules done stay done.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The app's packages; pages/ is a folder of page scripts whose pieces live in packages beside them
# (pages/recipe_card/ beside pages/recipe-card.py).
PACKAGES = ("lib", "engine", "store", "ui", "classroom")


def modules(root: Path = ROOT) -> list[str]:
    """Every module of the app's packages and of the pages' packages, dotted, packages before their
    modules (a package's `__init__` first, as an import would run it)."""
    found: list[str] = []
    tops = [*PACKAGES, *(f"pages.{d.name}" for d in sorted((root / "pages").iterdir())
                        if (d / "__init__.py").is_file())]
    for top in tops:
        folder = root.joinpath(*top.split("."))
        found.append(top)
        found += [f"{top}.{m.name}" for m in pkgutil.iter_modules([str(folder)])
                  if not m.ispkg and f"{top}.{m.name}" != __name__]
    return found


def everything() -> list[str]:
    """Import every module of `modules()`; the names imported (already imported ones cost nothing)."""
    names = modules()
    for name in names:
        importlib.import_module(name)
    return names


everything()
