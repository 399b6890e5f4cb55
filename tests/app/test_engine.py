"""The engine room against the pinned Streamlit: every private name resolves, every patch installs and
acts in a real run, a patch that no longer fits is named (raised under tests, logged and off in an app),
and the app draws every page with each patch off and with all of them off."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import engine
from engine import keylookup, private, turns
from tests.app.conftest import ROOT, open_page
from ui.nav import LESSONS


def test_every_private_name_resolves_on_the_pinned_streamlit():
    gone = {n: private.NAMES[n] for n in private.missing()}
    assert not gone, f"Streamlit moved these (engine/private.py NAMES): {gone}"
    for patch, names in private.PATCH_NEEDS.items():
        assert set(names) <= set(private.NAMES), patch


def test_install_reports_every_patch_on():
    report = engine.install()
    assert report == {name: "on" for name in engine.PATCHES}, report


def test_a_patch_whose_target_moved_is_named_in_tests_and_left_off_in_an_app(monkeypatch, caplog):
    monkeypatch.setitem(private.NAMES, "ScriptRunner._run_script",
                        ("streamlit.runtime.scriptrunner.script_runner", "ScriptRunner._gone"))
    private._resolve.cache_clear()
    monkeypatch.setattr(engine, "_REPORT", {})
    try:
        with pytest.raises(RuntimeError, match=r"turns no longer fits.*ScriptRunner\._run_script"):
            engine.install()                                   # under pytest: strict, loud
        monkeypatch.setattr(engine, "strict", lambda: False)   # as in a running app
        monkeypatch.setattr(engine, "_REPORT", {})
        report = engine.install()
        assert report["turns"].startswith("off:") and "ScriptRunner._run_script" in report["turns"]
        assert report["wakeups"] == report["keylookup"] == "on"
        assert "patch turns is off" in caplog.text
    finally:
        private._resolve.cache_clear()


def test_a_real_page_run_takes_a_turn(monkeypatch):
    engine.install()
    taken, take = [], turns.TURNS.take
    monkeypatch.setattr(turns.TURNS, "take", lambda *a: taken.append(1) or take(*a))
    at = open_page("recipe-card")
    assert not at.exception
    assert len(taken) >= 2     # app.py's run and the page's run after switching: each took its turn


def test_a_widgets_own_key_is_read_through_keylookup(monkeypatch):
    engine.install()
    asked: list[str] = []
    real = keylookup.OneKey.__contains__
    monkeypatch.setattr(keylookup.OneKey, "__contains__",
                        lambda self, key: asked.append(key) or real(self, key))
    at = open_page("trainer")
    assert not at.exception
    # the trainer's keyed selectboxes and text inputs each asked about their own key, one key at a time
    assert {"problem", "dataset", "hidden"} <= set(asked), sorted(set(asked))[:20]


# One process per setting: a patch, once installed, stays for the life of the process.
_DRAW_ALL = """
import json, sys
from tests.app.conftest import open_page
from ui.nav import LESSONS
import engine
out = {"report": engine.install(), "errors": {}}
for path in ["", *[l.url_path for l in LESSONS]]:
    at = open_page(path)
    if at.exception or not at.title:
        out["errors"][path or "home"] = [e.value for e in at.exception] or ["no title"]
print(json.dumps(out))
"""


@pytest.mark.parametrize("off", [*engine.PATCHES, "all"])
def test_every_page_draws_with_a_patch_switched_off(off):
    env = dict(os.environ)
    env.pop("PYTEST_CURRENT_TEST", None)
    for name, switch in engine.PATCHES.items():
        env[switch] = "0" if off in (name, "all") else "1"
    done = subprocess.run([sys.executable, "-c", _DRAW_ALL], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert not out["errors"], out["errors"]
    for name, switch in engine.PATCHES.items():
        want = f"off: {switch}=0" if off in (name, "all") else "on"
        assert out["report"][name] == want, out["report"]
    assert len(LESSONS) >= 7


def test_plotlys_private_helpers_write_what_plotly_writes():
    """ui/plotly_private.py against plotly's public output: the day plotly changes one, this names it."""
    import numpy as np
    import plotly.graph_objects as go

    from ui import plotly_private as pp

    z = np.arange(12, dtype=np.float32).reshape(3, 4)
    public = go.Figure(go.Heatmap(z=z)).to_dict()["data"][0]["z"]
    assert pp.is_homogeneous_array(z)
    assert pp.to_typed_array_spec(z) == public, "to_typed_array_spec"
    d = {"z": z}
    pp.convert_to_base64(d)
    assert d["z"] == public, "convert_to_base64"
    fig = {"data": [{"type": "scatter", "x": [1, 2], "y": [3, 4]}], "layout": {"title": {"text": "t"}}}
    fast = go.Figure(fig, **pp.NO_VALIDATION)
    assert fast.to_plotly_json()["data"] == go.Figure(fig).to_plotly_json()["data"], "_validate=False"
    data, layout = pp.own_dicts(fast)
    assert {"data": data, "layout": layout} == fast.to_plotly_json(), "_data, _layout"
    framed = go.Figure({**fig, "frames": [{"data": fig["data"]}]})
    assert not pp.has_frames(fast) and pp.has_frames(framed), "_frame_objs"
