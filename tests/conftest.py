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

import importlib.util
import os
import tempfile

import pytest

REFERENCES = ("torch", "transformers")


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


REF_MISSING = [m for m in REFERENCES if not _installed(m)]
REF_SKIP = ("needs the references (" + ", ".join(REF_MISSING) + "): pip install -r requirements-ref.txt")


# Two processes (pyproject's `-n 2 --dist loadgroup`): the levels that drive servers and a browser run in ONE
# of them, in the order below, and the unit and AppTest levels in the other. A browser test mostly waits on
# Chromium, about one core; two browser processes on CI's two cores slowed each other by half and failed
# timing checks a class relies on (README, Development), so they never run two at once.
SERVED = ("tests/e2e/", "tests/deploy/")
# Timed checks (a pause reaching students within 3.5 s, the board within 3.5 s, the fair share of a quiet
# process) run after the other process's levels are done (they take about a third of the browser level).
TIMED = ("tests/deploy/", "tests/e2e/test_class.py")
# The container level in one process of its own choosing (its image is built once per process), beside
# whichever level is lighter then: it mostly waits on podman and pip.
CONTAINED = ("tests/container/",)
LAST = ("tests/deploy/test_class_hostile.py",)   # a class of 30 on two replicas: its servers wind down for a
# while after it, and the browser tests' timings that followed it failed: it runs after everything else


@pytest.hookimpl(tryfirst=True)   # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    # stable: every other test keeps its place
    items.sort(key=lambda item: (item.nodeid.startswith(LAST), item.nodeid.startswith(TIMED)))
    for item in items:
        if item.nodeid.startswith(SERVED):
            item.add_marker(pytest.mark.xdist_group("served"))
        elif item.nodeid.startswith(CONTAINED):
            item.add_marker(pytest.mark.xdist_group("container"))
        if item.get_closest_marker("ref") is None:
            continue
        item.user_properties.append(("level", "ref"))
        if REF_MISSING:
            item.add_marker(pytest.mark.skip(reason=REF_SKIP))


# The class store of a test run lives in a scratch folder (servers the tests start inherit it), never in
# the developer's ~/.layerlab.
if "LAYERLAB_DB" not in os.environ:
    os.environ.setdefault("LAYERLAB_HOME", tempfile.mkdtemp(prefix="layerlab-test-"))
