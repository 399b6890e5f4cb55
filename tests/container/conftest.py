"""The container level: the image built with podman on a base made here, run alone, as the compose stack,
and under `podman kube play`.

Podman on these machines needs a containers.conf (no rlimits, cgroupfs) and runc (FIELD-NOTES,
*Containers*); one is written for the run unless CONTAINERS_CONF names one. Without podman the level skips
with one line, except in CI (CI=true), where it fails: an image that cannot be built is a broken build.
Everything it starts has a name beginning `layerlab-test` and is removed at the end; ports are 127.0.0.1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IMAGE = "localhost/layerlab-test:latest"
BASE = os.environ.get("BASE_IMAGE", "localhost/layerlab-base")
HELPERS = {"postgres": "localhost/layerlab-postgres-test", "haproxy": "localhost/layerlab-haproxy-test"}
CONF = "[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = \"cgroupfs\"\nruntime = \"runc\"\n"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/container/" in str(item.fspath):
            item.add_marker(pytest.mark.container)


def need_podman() -> None:
    missing = [tool for tool in ("podman", "runc") if not shutil.which(tool)]
    if not missing:
        return
    line = f"needs {' and '.join(missing)} (apt-get install podman runc debootstrap catatonit podman-compose)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: the container level cannot run: {line}", pytrace=False)
    pytest.skip(line)


def podman(*args: str, check: bool = True, timeout: float = 300, **kw) -> subprocess.CompletedProcess:
    out = subprocess.run(["podman", *args], capture_output=True, text=True, timeout=timeout, **kw)
    if check and out.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)} failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return out


@pytest.fixture(scope="session", autouse=True)
def _containers_conf():
    made = None
    if not os.environ.get("CONTAINERS_CONF"):
        fd, made = tempfile.mkstemp(suffix=".conf")
        os.write(fd, CONF.encode())
        os.close(fd)
        os.environ["CONTAINERS_CONF"] = made
    yield
    if made is not None:
        os.environ.pop("CONTAINERS_CONF", None)
        os.unlink(made)


HOST_CA = "/etc/ssl/certs/ca-certificates.crt"   # the machine's CA bundle: the registries' TLS trusts it
BUILD_CA = "/run/layerlab-host-ca.crt"          # where a build sees it: never over the image's /etc/ssl/certs
# (a package's own setup writes there, ssl-cert's snakeoil key among them, and failed on a read-only mount)


def build(tag: str, context: Path, *args: str, timeout: float = 1200) -> None:
    ca = ["-v", f"{HOST_CA}:{BUILD_CA}:ro"] if Path(HOST_CA).exists() else []
    podman("build", "--runtime", "runc", "--format", "docker", *ca,
           "--build-arg", f"BASE={BASE}", *args, "-t", tag, str(context), timeout=timeout)


@pytest.fixture(scope="session")
def image():
    """The app's image on the base made here (deploy/container/base-image keeps one per machine; CI makes it
    fresh), and the stand-ins for the official postgres and haproxy images. Layers are podman's cache."""
    need_podman()
    t0 = time.monotonic()
    fresh = ["--fresh"] if os.environ.get("CI") == "true" and not os.environ.get("LAYERLAB_BASE_MADE") else []
    out = subprocess.run([str(ROOT / "deploy" / "container" / "base-image"), *fresh], capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, f"the base image could not be made:\n{out.stdout[-2000:]}{out.stderr[-2000:]}"
    os.environ["LAYERLAB_BASE_MADE"] = "1"
    build(IMAGE, ROOT, *(["--build-arg", f"PIP_CERT={BUILD_CA}"] if Path(HOST_CA).exists() else []))
    for name, tag in HELPERS.items():
        build(tag, ROOT / "tests" / "container" / "images" / name)
    print(f"\ncontainer level: images ready in {time.monotonic() - t0:.0f} s")
    return IMAGE


def free_port() -> int:
    from bench.server import free_port as free

    return free()


def wait_for(fn, timeout: float, what: str, every: float = 0.5):
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


def http(url: str, timeout: float = 5) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, resp.read().decode(errors="replace")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode(errors="replace")
    except OSError:
        return 0, ""


def logs(name: str) -> str:
    out = podman("logs", name, check=False)
    return out.stdout + out.stderr


def healthy(name: str) -> bool:
    """The image's HEALTHCHECK run now (podman runs it on a systemd timer, absent here)."""
    return podman("healthcheck", "run", name, check=False, timeout=60).returncode == 0


def pytest_terminal_summary(terminalreporter):
    ran = [r for rs in terminalreporter.stats.values() for r in rs
           if hasattr(r, "when") and getattr(r, "nodeid", "").startswith("tests/container/")]
    if ran:
        took = sum(r.duration for r in ran)   # setup (the image builds), calls and teardowns
        tests = len({r.nodeid for r in ran})
        terminalreporter.write_line(f"container level: {tests} tests in {took:.0f} s")
