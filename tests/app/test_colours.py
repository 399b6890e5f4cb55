"""One colour language over every chart of every lesson, at its defaults (ui/colors.py): a bend drawn in
more than one chart keeps its colour, and the class colours (orange, green, pink, ...) appear only where
points have classes. Issue 26 found SiLU wine in one chart and indigo in another; this sweep would have
caught it, and catches the next one."""

from __future__ import annotations

import json

import pytest

from lib.activations import ACTIVATIONS
from tests.app.conftest import figures, open_page
from ui import colors
from ui.nav import LESSONS

CLASS_PAGES = {"trainer", "class", "tax-bands"}   # where points have classes (tax-bands: the ring)
# The bends each lesson draws at its defaults, by trace name: a renamed trace would escape the check.
BENDS_DRAWN = {"activations": {"relu", "gelu", "silu"}, "gpt2-mlp": {"gelu"}}
PINNED = {"relu": colors.CATEGORY[0], "gelu": colors.CATEGORY[1], "silu": colors.CATEGORY[2]}
assert colors.BEND == PINNED   # the one table every page reads


def _bend_of(name: str) -> str | None:
    """The pinned bend a trace draws, by its name: 'ReLU', 'network with ReLU', 'SiLU(x·W_gate)'."""
    for bend in PINNED:
        label = ACTIVATIONS[bend].label
        short = label.split(" ")[0]
        if name in (label, f"network with {label}") or name.startswith(f"{short}("):
            return bend
    return None


def _colour(trace: dict):
    return (trace.get("line") or {}).get("color") or (trace.get("marker") or {}).get("color")


@pytest.mark.parametrize("path", [lesson.url_path for lesson in LESSONS if lesson.url_path])
def test_every_chart_speaks_one_colour_language(path):
    at = open_page(path)
    assert not at.exception
    figs = figures(at)
    seen = set()
    for fig in figs:
        for trace in fig.get("data", []):
            bend = _bend_of(trace.get("name") or "")
            if bend:
                seen.add(bend)
                assert _colour(trace) == PINNED[bend], (path, trace.get("name"), _colour(trace))
    assert seen == BENDS_DRAWN.get(path, set()), (path, seen)   # the check above met every bend drawn
    text = json.dumps(figs).upper()
    classes = [c for c in colors.CLASSES if c.upper() in text]
    assert bool(classes) == (path in CLASS_PAGES and path != "class"), (path, classes)   # /class: no chart


def test_the_page_pins_the_same_bend_colours():
    import importlib.util

    spec = importlib.util.spec_from_file_location("_activations_page", "pages/activations.py")
    page = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(page)
    assert page.PINNED == PINNED
