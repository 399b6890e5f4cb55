"""lib is pure maths: importing every lib module pulls in neither streamlit nor plotly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_lib_imports_neither_streamlit_nor_plotly():
    modules = sorted(p.stem for p in (ROOT / "lib").glob("*.py") if p.stem != "__init__")
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module('lib.' + m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert len(modules) >= 2
    assert out.stdout.strip() == "", f"lib pulled in: {out.stdout}"


def test_the_store_imports_neither_streamlit_nor_plotly():
    code = ("import sys, store, store.models\n"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly'))))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"store pulled in: {out.stdout}"
