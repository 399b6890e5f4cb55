"""AppTest helpers: open any page of the app the way st.navigation does."""

from __future__ import annotations

import base64
import functools
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from ui import inplace

ROOT = Path(__file__).resolve().parents[2]


# Every new AppTest scans the metadata of every installed package for v2 component manifests (Streamlit
# 1.67: AppTest._run -> BidiComponentManager.discover_and_register_components -> manifest_scanner.
# scan_component_manifests): 1.2 s a page opened, 77 % of this level's time (cProfile of
# tests/app/test_recipe_card.py, 27 of 35 s in email.feedparser). The packages installed do not change
# during a run, and the app's own components are declared inline: scan once per process.
# tests/app/test_harness.py fails, naming it, if Streamlit stops calling the scan this way.
def _scan_once():
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if getattr(scan, "layerlab_once", False):
        return
    first = functools.cache(scan)
    SCANS.append(first)

    def once(max_workers=None):
        return list(first())

    once.layerlab_once = True
    manifest_scanner.scan_component_manifests = once


SCANS: list = []   # the cached scan (its cache_info() counts the real scans: one)
_scan_once()


def open_page(url_path: str, query: dict[str, str] | None = None, timeout: float = 60) -> AppTest:
    """Run app.py, then switch to the page at `url_path` ("" is home), with link values."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if url_path:
        at.switch_page(f"pages/{url_path}.py").run()
    return at


def start_pick(at: AppTest):
    """"Lead a lesson"'s picker (its key gains a turn each time the built lesson is chosen for it)."""
    (pick,) = [s for s in at.selectbox if (s.key or "").startswith("lesson_start_pick_")]
    return pick


def chart_elements(at: AppTest) -> list:
    """The page's charts in page order: ui.inplace's component (`bidi_component`) and st.plotly_chart."""
    found = []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) == "plotly_chart" or (
                    getattr(child, "type", None) == "bidi_component"
                    and child.proto.component_name == inplace.NAME):
                found.append(child)
            walk(child)

    walk(at._tree)
    return found


def spec_text(el) -> str:
    """A chart element's figure as the JSON text it was sent as."""
    import json

    return el.proto.spec if el.type == "plotly_chart" else json.dumps(inplace.spec(el.proto))


def figures(at: AppTest) -> list[dict]:
    """The plotly figures on the page, as JSON dicts."""
    import json

    return [json.loads(el.proto.spec) if el.type == "plotly_chart" else inplace.spec(el.proto)
            for el in chart_elements(at)]


def decode(v) -> np.ndarray:
    """A plotly array from a figure's JSON: a plain list, or plotly 6+'s base64 typed array."""
    if isinstance(v, dict) and "bdata" in v:
        arr = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
        shape = v.get("shape")  # "3, 4" for 2-D arrays
        return arr.reshape([int(s) for s in str(shape).split(",")]) if shape else arr
    return np.asarray(v, dtype=float)


def numbers(df):
    """A table as numbers again: every column the page wrote as text numbers (ui/tables.py: "−0.65",
    "12,000") back to floats, its column of row names as the index; other columns as they are."""
    from ui.tables import ROWS

    out = df.set_index(ROWS) if ROWS in df.columns else df.copy()
    for c in out.columns:
        if out[c].dtype.kind not in "fiub":
            try:
                out[c] = [float(str(v).replace("\u2212", "-").replace(",", "")) for v in out[c]]
            except ValueError:
                continue
    return out


@pytest.fixture
def page():
    return open_page
