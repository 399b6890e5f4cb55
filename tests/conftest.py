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


LAST = ("tests/deploy/test_class_hostile.py",)   # a class of 30 on two replicas: its servers wind down for a
# while after it, and the browser tests' timings that followed it failed: it runs after everything else


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.nodeid.startswith(LAST))   # stable: every other test keeps its place
    for item in items:
        if item.get_closest_marker("ref") is None:
            continue
        item.user_properties.append(("level", "ref"))
        if REF_MISSING:
            item.add_marker(pytest.mark.skip(reason=REF_SKIP))


# The class store of a test run lives in a scratch folder (servers the tests start inherit it), never in
# the developer's ~/.layerlab.
if "LAYERLAB_DB" not in os.environ:
    os.environ.setdefault("LAYERLAB_HOME", tempfile.mkdtemp(prefix="layerlab-test-"))
