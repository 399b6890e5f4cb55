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
# whichever process is free, in the order below: the container level first (one group: its image is built
# once; the builds wait on the package registry and leave a core for the browsers beside them), then the
# browser files, heaviest first (a long file last would leave the other process idle at the end), then the
# unit, AppTest and ref tests, then the timed files. Each process runs its own `streamlit run app.py` and
# Chromium, in a network of its own (_own_network below).
SERVED = ("tests/e2e/", "tests/deploy/")
# Timed checks (a pause reaching students within 3.5 s, the board within 3.5 s, a step within 6 s, the fair
# share of a quiet process): each runs ALONE, the other process waiting between its tests (the lock of
# pytest_runtest_protocol below): two browsers on CI's two cores slowed each other by half and failed timing
# checks a class relies on (README, Development).
TIMED = ("tests/deploy/", "tests/e2e/test_class.py", "tests/e2e/test_lesson.py")
CONTAINED = ("tests/container/",)
LAST = ("tests/deploy/test_class_hostile.py",)   # a class of 30 on two replicas: its servers wind down for a
# while after it, and the browser tests' timings that followed it failed: it runs after everything else
# The browser files that take longest, longest first (seconds in a full run on CI's two cores, 2026-12-07);
# the rest follow in name order. A guess that is off costs only a less even end.
HEAVY = {"test_projector": 241, "test_every_view": 233, "test_trainer": 220, "test_tax_bands": 119,
         "test_keyboard": 99, "test_answer_text": 99, "test_class_screens": 79, "test_lesson_build": 80,
         "test_room_views": 72, "test_gpt2_mlp": 66, "test_lesson_phones": 68, "test_activations": 69}


def _order(nodeid: str) -> tuple[int, int]:
    if nodeid.startswith(LAST):
        return 5, 0
    if nodeid.startswith(TIMED):
        return 4, 0
    if nodeid.startswith(CONTAINED):
        return 0, 0
    if nodeid.startswith(SERVED):
        return 1, -HEAVY.get(Path(nodeid.split("::")[0]).stem, 0)
    return 2, 0


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
    other crosswise): `timed` alone (LOCK_EX) for a timed check, else shared. Only where the processes
    could not each have a network of their own (_own_network): `network` alone for the container level,
    shared for a test that drives a browser or a served app, not taken by the rest."""
    timed = fcntl.LOCK_EX if nodeid.startswith(TIMED) else fcntl.LOCK_SH
    if _NET:
        return [("timed", timed)]
    if nodeid.startswith(CONTAINED):
        return [("timed", timed), ("network", fcntl.LOCK_EX)]
    if nodeid.startswith(SERVED):
        return [("timed", timed), ("network", fcntl.LOCK_SH)]
    return [("timed", timed)]


# Browsers and podman apart. podman makes and removes network interfaces for its containers, and Chromium
# drops every request in flight on a network change (net::ERR_NETWORK_CHANGED) and its websockets reconnect:
# beside the container level, in stop 51's two CI runs, browser pages lost their JavaScript chunks (a
# widget's code, or the whole app: a page that never connected, even after a reload) and a page ran once
# more on its own (the reconnect), 5 failures in 2 runs. So each pytest-xdist process moves into a network
# namespace of its own (loopback only) before its first test: the servers, Chromium and HAProxy it starts
# live there and never see podman's interfaces (PostgreSQL is reached over its Unix socket). A container
# test runs in the machine's network (its builds reach the package registry; its containers publish their
# ports there) and its process returns to its own after the test's teardown. Where a namespace cannot be
# made (not root), the `network` lock keeps the browsers and podman apart in time instead (_holds).
CLONE_NEWNET = 0x40000000
_NET: dict[str, int] = {}   # the machine's network and this process's own (namespace fds), once it moved


def _own_network() -> str | None:
    """This process's main thread (where its tests run, and whatever they start) into a new network
    namespace whose loopback is up. None when done, else why not."""
    import ctypes
    import socket
    import struct

    libc = ctypes.CDLL(None, use_errno=True)
    host = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    if libc.unshare(CLONE_NEWNET) != 0:
        os.close(host)
        return os.strerror(ctypes.get_errno())
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:   # `ip link set lo up`, without iproute2
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, 0x8913, struct.pack("16sH14x", b"lo", 0)))[1]
        fcntl.ioctl(sock, 0x8914, struct.pack("16sH14x", b"lo", flags | 0x1))   # SIOCSIFFLAGS: IFF_UP
    _NET.update(host=host, own=os.open("/proc/thread-self/ns/net", os.O_RDONLY))
    return None


def _network(which: str) -> None:
    import ctypes

    if ctypes.CDLL(None, use_errno=True).setns(_NET[which], CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), f"setns to the {which} network failed")


def pytest_configure(config):
    if hasattr(config, "workerinput"):
        _own_network()   # else the `network` lock (a developer's machine without root, say)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A timed test holds the run's `timed` lock alone (flock LOCK_EX) from its setup to its teardown;
    every other test shares it (LOCK_SH): it starts once the other process's test ended, and no test
    starts beside it. Only when pytest-xdist runs two processes. A container test runs in the machine's
    network, every other test in its process's own (see _own_network); where a process has none, the
    `network` lock keeps the container level and the browsers apart (_holds)."""
    held = []
    for name, how in _holds(item.nodeid):
        lock = _lock(item.config, name)
        if lock is None:
            break
        fcntl.flock(lock, how)
        held.append(lock)
    host = bool(_NET) and item.nodeid.startswith(CONTAINED)
    if host:
        _network("host")
    try:
        yield
    finally:
        if host:
            _network("own")
        for lock in reversed(held):
            fcntl.flock(lock, fcntl.LOCK_UN)


# The class store of a test run lives in a scratch folder (servers the tests start inherit it), never in
# the developer's ~/.layerlab.
if "LAYERLAB_DB" not in os.environ:
    os.environ.setdefault("LAYERLAB_HOME", tempfile.mkdtemp(prefix="layerlab-test-"))
