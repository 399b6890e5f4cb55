"""A bad setting is one clear line in the container's log and a failing health check: never a traceback,
never a container that exits (and, restarted, loops)."""

from __future__ import annotations

import time

import pytest

from tests.container.conftest import free_port, healthy, http, logs, podman, wait_for

CASES = {
    "no database": ({"LAYERLAB_DB": "postgresql+psycopg://layerlab:pw@192.0.2.1:5432/layerlab"},
                    "cannot be reached"),
    "malformed URL": ({"LAYERLAB_DB": "postgres//layerlab@db"}, "LAYERLAB_DB is not a database URL"),
    "unknown database": ({"LAYERLAB_DB": "mysql://layerlab@db/layerlab"},
                         "this app does not keep classes in"),
    "bad port": ({"LAYERLAB_PORT": "eighty"}, "is not a port number"),
    "bad address": ({"LAYERLAB_PUBLIC_URL": "layerlab.school"}, "is not an address students can open"),
}


def _one_line(name: str, words: str, wait: bool = True) -> str:
    wait_for(lambda: words in logs(name), 60, f"the line '{words}'")
    if wait:
        time.sleep(7)   # past one retry: a problem that stays is said once
    text = logs(name)
    lines = [line for line in text.splitlines() if line.strip()]
    assert "Traceback" not in text, text
    assert lines == [next(line for line in lines if words in line)], text   # that line and nothing else
    assert lines[0].startswith("layerlab: ")
    assert "pw@" not in text   # a password is never logged
    return lines[0]


@pytest.fixture(scope="module")
def bad(image):
    """One container per case, all started at once (the level's time), each on its own port."""
    started = {}
    for case, (env, _) in CASES.items():
        name, port = f"layerlab-test-bad-{case.replace(' ', '-')}", free_port()
        podman("rm", "-f", name, check=False)
        args = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
        podman("run", "-d", "--name", name, "-p", f"127.0.0.1:{port}:8501", *args, image)
        started[case] = name, port
    try:
        for case, (name, _) in started.items():
            wait_for(lambda n=name, w=CASES[case][1]: w in logs(n), 90, f"{case}: its line")
        time.sleep(7)   # past one retry: a problem that stays is said once
        yield started
    finally:
        podman("rm", "-f", "-t", "3", *(name for name, _ in started.values()), check=False)


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_setting_is_one_line_and_a_failing_health_check(bad, case):
    name, port = bad[case]
    words = CASES[case][1]
    _one_line(name, words, wait=False)
    assert not healthy(name)
    state = podman("inspect", "--format", "{{.State.Status}}", name).stdout.strip()
    assert state == "running"   # waiting, not exited: no restart loop
    if case != "bad port":   # alive (no restart needed) but not ready: a balancer sends no student
        code, body = http(f"http://127.0.0.1:{port}/_stcore/health")
        assert code == 200 and body.startswith("waiting: ") and words in body
        assert http(f"http://127.0.0.1:{port}/_stcore/script-health-check")[0] == 503


def test_a_port_in_use_is_one_line_and_a_failing_health_check(image):
    """A second app in the first one's network namespace finds 8501 taken: it waits, saying so once."""
    first, second = "layerlab-test-holder", "layerlab-test-second"
    port = free_port()
    for n in (second, first):
        podman("rm", "-f", n, check=False)
    podman("run", "-d", "--name", first, "-p", f"127.0.0.1:{port}:8501", "--entrypoint", "python3", image,
           "-c", "import socket, time; s = socket.create_server(('0.0.0.0', 8501)); time.sleep(25)")
    try:
        time.sleep(2)
        podman("run", "-d", "--name", second, "--network", f"container:{first}", image)
        _one_line(second, "port 8501 is in use")
        assert not healthy(second)
    finally:
        for n in (second, first):   # the one in the other's network first: it depends on it
            podman("rm", "-f", "-t", "3", n, check=False)
