"""deploy/compose.yaml with 2 replicas over PostgreSQL: a student submits, the replica holding their websocket
is killed (`podman kill`), they carry on from their link on the other and submit again; no acknowledged
submission is lost. `down` then `up` keeps the class (the named volume)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from tests.container.conftest import HELPERS, ROOT, free_port, http, podman, wait_for
from tests.deploy.conftest import isolated
from tests.deploy.test_class_failover import _drive
from tests.unit.test_store import PROBLEM

PROJECT = "layerlab-test"
COMPOSE = ROOT / "deploy" / "compose.yaml"


def compose(env: dict, *args: str, timeout: float = 300) -> str:
    tool = shutil.which("podman-compose")
    cmd = [tool, "-p", PROJECT, "-f", str(COMPOSE)] if tool else ["podman", "compose", "-p", PROJECT,
                                                                   "-f", str(COMPOSE)]
    out = subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=timeout,
                         env={**os.environ, **env})
    assert out.returncode == 0, f"compose {' '.join(args)} failed:\n{out.stdout[-2000:]}{out.stderr[-2000:]}"
    return out.stdout


def in_app(name: str, code: str) -> str:
    """Python run inside an app container, against its class store (the database is not published)."""
    return podman("exec", name, "python3", "-c", f"import sys; sys.path.insert(0, '/app')\n{code}").stdout


STORE = "import os, json; from store import Store; s = Store(os.environ['LAYERLAB_DB'])\n"


def apps() -> list[str]:
    out = podman("ps", "--filter", f"label=com.docker.compose.project={PROJECT}",
                 "--filter", "label=com.docker.compose.service=app", "--format", "{{.Names}}").stdout
    return sorted(out.split())


def holding_websocket(names: list[str]) -> str:
    """The replica with a long-lived connection on 8501 (HAProxy's health checks come and go)."""
    def established(name):
        rows = podman("exec", name, "cat", "/proc/net/tcp", "/proc/net/tcp6").stdout.splitlines()
        return {r.split()[2] for r in rows[1:] if r.split()[1].endswith(":2135") and r.split()[3] == "01"}

    first = {n: established(n) for n in names}
    import time

    time.sleep(2.5)
    held = [n for n in names if first[n] & established(n)]
    assert len(held) == 1, f"websocket on {held or 'no replica'}"
    return held[0]


@pytest.fixture
def stack(image):
    if not shutil.which("podman-compose"):
        if os.environ.get("CI") == "true":
            pytest.fail("CI: podman-compose is not installed", pytrace=False)
        pytest.skip("needs podman-compose (apt-get install podman-compose)")
    port = free_port()
    env = {"LAYERLAB_IMAGE": image, "LAYERLAB_POSTGRES_IMAGE": HELPERS["postgres"],
           "LAYERLAB_HAPROXY_IMAGE": HELPERS["haproxy"], "LAYERLAB_PORT": str(port), "LAYERLAB_REPLICAS": "2",
           "LAYERLAB_DB_PASSWORD": "test" + os.urandom(8).hex(),
           "LAYERLAB_COOKIE_SECRET": os.urandom(16).hex(),
           "LAYERLAB_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    compose(env, "down", "-v")
    try:
        yield env, port
    finally:
        compose(env, "down", "-v")


def up(env: dict, port: int) -> list[str]:
    compose(env, "--podman-run-args=--runtime runc", "up", "-d")
    names = wait_for(lambda: len(apps()) == 2 and apps(), 60, "two app replicas")
    for name in names:
        wait_for(lambda n=name: podman("healthcheck", "run", n, check=False, timeout=60).returncode == 0,
                 180, f"{name} draws a page")
    wait_for(lambda: http(f"http://127.0.0.1:{port}/_stcore/health")[1] == "ok", 60, "the balancer")
    return names


def test_a_class_survives_a_killed_replica_and_a_down_then_up(stack):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.skip("needs Chromium (apt-get install chromium)")
    env, port = stack
    names = up(env, port)
    made = in_app(names[0], STORE + f"code, _ = s.create_class(json.loads({json.dumps(PROBLEM)!r}))\n"
                  "print(code, s.join(code, 'Ada'))")
    code, seat = made.split()
    isolated(_drive, f"http://127.0.0.1:{port}", chromium, code, seat,
             lambda cookie: podman("kill", holding_websocket(names)), timeout=120_000)
    count = STORE + f"print(s.counts({code!r}).submissions, s.leaderboard({code!r})[0].submissions)"
    survivor = next(n for n in apps() if podman("healthcheck", "run", n, check=False).returncode == 0)
    assert in_app(survivor, count).split() == ["2", "2"]    # both acknowledged, none twice

    compose(env, "down")          # the volume stays
    names = up(env, port)
    assert in_app(names[0], count).split() == ["2", "2"]
