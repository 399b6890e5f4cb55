"""Test levels a machine may lack, each skipped with one line that says what it needs.

- `ref`: cross-checks against independent references (PyTorch's autograd and optimisers, Hugging
  Face's own parameter counts). requirements-ref.txt installs them; CI does, and fails if this level
  did not run (.ci/run). Without them README's test command runs everything else.
- e2e needs Debian's Chromium; the deploy tests that start HAProxy need it (tests/deploy/conftest.py).
- `container` (tests/container/): podman, runc and podman-compose; skipped with one line where podman is
  missing, failed in CI (CI=true), where an image that cannot be built is a broken build.

Every `ref` test carries the junit property level=ref, which .ci/run counts.
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import tempfile
from pathlib import Path

import pytest

REFERENCES = ("torch", "transformers")


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


REF_MISSING = [m for m in REFERENCES if not _installed(m)]
REF_SKIP = ("needs the references (" + ", ".join(REF_MISSING) + "): pip install -r requirements-ref.txt")


# Two processes (pyproject's `-n 2 --dist loadgroup --no-loadscope-reorder`). Each browser or deploy test
# file is one unit of work (its module's shared page loads and servers stay in one process), handed to
# whichever process is free, in the order below: the browser files first (the long pole), heaviest first,
# then the container level (one group: its image is built once), the unit, AppTest and ref tests, then the
# timed files. Each process runs its own `streamlit run app.py` and Chromium. Heaviest first: the container
# level never runs beside a browser (the `network` lock below), so the browser file the other process is
# still in when it starts takes turns with it; that file was test_trainer (220 s), and the two took 370 s
# at 1.05 busy cores of 2. With the light files last, the container level soon has the AppTest and unit
# tests beside it instead, which open no browser.
SERVED = ("tests/e2e/", "tests/deploy/")
# Timed checks (a pause reaching students within 3.5 s, the board within 3.5 s, a step within 6 s, the fair
# share of a quiet process): each runs ALONE, the other process waiting between its tests (the lock of
# pytest_runtest_protocol below): two browsers on CI's two cores slowed each other by half and failed timing
# checks a class relies on (README, Development).
TIMED = ("tests/deploy/", "tests/e2e/test_class.py", "tests/e2e/test_lesson.py")
CONTAINED = ("tests/container/",)
LAST = ("tests/deploy/test_class_hostile.py",)   # a class of 30 on two replicas: its servers wind down for a
# while after it, and the browser tests' timings that followed it failed: it runs after everything else
# The browser files that take longest, longest first (seconds in a full run on CI's two cores, 2026-12-07:
# junit.xml's times summed per file); the rest follow in name order. A guess that is off costs only a less
# even end (test_lesson_phones grew from 68 s to 195 s in two stops: refresh these from junit.xml).
HEAVY = {"test_projector": 237, "test_trainer": 213, "test_every_view": 206, "test_lesson_phones": 195,
         "test_tax_bands": 105, "test_keyboard": 95, "test_lesson_build": 80, "test_answer_text": 76,
         "test_class_screens": 75, "test_room_views": 67, "test_lesson_vote": 61, "test_gpt2_mlp": 57,
         "test_site": 55, "test_recipe_card": 55, "test_links": 53, "test_homework": 51,
         "test_activations": 45, "test_readme_links": 41}


def _order(nodeid: str) -> tuple[int, int]:
    if nodeid.startswith(LAST):
        return 5, 0
    if nodeid.startswith(TIMED):
        return 4, 0
    if nodeid.startswith(SERVED):
        return 0, -HEAVY.get(Path(nodeid.split("::")[0]).stem, 0)
    return (1 if nodeid.startswith(CONTAINED) else 2), 0


@pytest.hookimpl(tryfirst=True)   # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: _order(item.nodeid))   # stable: every test keeps its place in its part
    for item in items:
        if item.nodeid.startswith(SERVED):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
        elif item.nodeid.startswith(CONTAINED):
            item.add_marker(pytest.mark.xdist_group("container"))
        if item.get_closest_marker("ref") is None:
            continue
        item.user_properties.append(("level", "ref"))
        if REF_MISSING:
            item.add_marker(pytest.mark.skip(reason=REF_SKIP))


def _lock(config, name: str):
    """One of the run's lock files, shared by its processes (None without pytest-xdist's workers)."""
    run = getattr(config, "workerinput", {}).get("testrunuid")
    if run is None:
        return None
    locks = config.__dict__.setdefault("_layerlab_locks", {})
    if name not in locks:
        locks[name] = open(Path(tempfile.gettempdir()) / f"layerlab-{name}-{run}.lock", "a")  # noqa: SIM115
    return locks[name]


def _holds(nodeid: str) -> list[tuple[str, int]]:
    """The locks a test holds, in the order taken (always `timed` first, so no two tests wait on each
    other crosswise): `timed` alone (LOCK_EX) for a timed check, else shared; `network` alone for the
    container level, shared for a test that drives a browser or a served app, not taken by the rest."""
    timed = fcntl.LOCK_EX if nodeid.startswith(TIMED) else fcntl.LOCK_SH
    if nodeid.startswith(CONTAINED):
        return [("timed", timed), ("network", fcntl.LOCK_EX)]
    if nodeid.startswith(SERVED):
        return [("timed", timed), ("network", fcntl.LOCK_SH)]
    return [("timed", timed)]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A timed test holds the run's `timed` lock alone (flock LOCK_EX) from its setup to its teardown;
    every other test shares it (LOCK_SH): it starts once the other process's test ended, and no test
    starts beside it. A container test holds the `network` lock alone, which every browser and served
    test shares: the unit, AppTest and ref tests, which open no browser and watch no network interface,
    run beside it. Only when pytest-xdist runs two processes.

    Why the container level never runs beside a browser: podman makes and removes network interfaces for
    its containers, and Chromium drops every request in flight on a network change
    (net::ERR_NETWORK_CHANGED) and its websockets reconnect. Beside it, in stop 51's two CI runs, browser
    pages lost their JavaScript chunks (a widget's code, or the whole app: a page that never connected,
    even after a reload) and a page ran once more on its own (the reconnect), 5 failures in 2 runs. A
    Python client (the store's PostgreSQL connections, AppTest) does not notice a new interface."""
    held = []
    for name, how in _holds(item.nodeid):
        lock = _lock(item.config, name)
        if lock is None:
            break
        fcntl.flock(lock, how)
        held.append(lock)
    try:
        yield
    finally:
        for lock in reversed(held):
            fcntl.flock(lock, fcntl.LOCK_UN)


# The class store of a test run lives in a scratch folder (servers the tests start inherit it), never in
# the developer's ~/.layerlab.
if "LAYERLAB_DB" not in os.environ:
    os.environ.setdefault("LAYERLAB_HOME", tempfile.mkdtemp(prefix="layerlab-test-"))
