"""deploy/serve: replicas behind HAProxy, one shared cookie secret, cookie stickiness."""

from __future__ import annotations

import os
import socket
import subprocess
import urllib.request

from bench.protocol import Student
from bench.server import health
from tests.deploy.conftest import HAPROXY, ROOT, alive, need_haproxy, run


def get(url: str, cookie: str = "") -> tuple[str, str]:
    """(replica that answered, the balancer's stickiness cookie set, if any)."""
    req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(req, timeout=10) as resp:
        resp.read()
        set_cookie = resp.headers.get("Set-Cookie") or ""
        return resp.headers["X-Layer-Lab-Replica"], set_cookie.split(";", 1)[0]


def test_the_config_is_valid_as_shipped_and_as_written():
    need_haproxy()
    subprocess.run([HAPROXY, "-c", "-q", "-f", str(ROOT / "deploy" / "haproxy.cfg")], check=True)
    text = subprocess.run([str(ROOT / "deploy" / "serve"), "--replicas", "3", "--port", "9000",
                           "--backend", "10.0.0.7:8601", "--print-config", "--db", "postgresql+psycopg:///x"],
                          capture_output=True, text=True, check=True).stdout
    servers = [line.split() for line in text.splitlines() if line.strip().startswith("server ")]
    assert [s[1:3] for s in servers] == [["r1", "127.0.0.1:9100"], ["r2", "127.0.0.1:9101"],
                                         ["r3", "127.0.0.1:9102"], ["m1", "10.0.0.7:8601"]]
    assert all(s[3:5] == ["cookie", s[1]] for s in servers)


def test_the_same_config_serves_compose_finding_replicas_by_name():
    """deploy/compose.yaml runs HAProxy on this very file with LAYERLAB_APP set: the replicas are then a
    server-template resolved by the container network's DNS, with dynamic cookies, and the example lines
    are left out."""
    need_haproxy()
    env = {**os.environ, "LAYERLAB_APP": "app", "LAYERLAB_REPLICAS": "3", "LAYERLAB_COOKIE_KEY": "k"}
    subprocess.run([HAPROXY, "-c", "-q", "-f", str(ROOT / "deploy" / "haproxy.cfg")], check=True, env=env)
    assert [line.split()[:3] for line in _active(env) if line.split()[0].startswith("server")] == [
        ["server-template", "r", '1-"${LAYERLAB_REPLICAS}"']]
    assert "dynamic" in next(line for line in _active(env) if line.startswith("cookie "))
    assert len([line for line in _active({}) if line.startswith("server ")]) == 4   # deploy/serve's example
    compose = (ROOT / "deploy" / "compose.yaml").read_text()
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in compose and "LAYERLAB_APP: app" in compose


def _active(env: dict) -> list[str]:
    """haproxy.cfg's lines that HAProxy reads with these variables defined (its .if/.else/.endif)."""
    out, stack = [], []
    for raw in (ROOT / "deploy" / "haproxy.cfg").read_text().splitlines():
        line = raw.strip()
        if line.startswith(".if defined("):
            stack.append(line[len(".if defined("):-1] in env)
        elif line == ".else":
            stack[-1] = not stack[-1]
        elif line == ".endif":
            stack.pop()
        elif line and not line.startswith("#") and all(stack):
            out.append(line)
    return out


def test_serve_starts_replicas_and_the_balancer_answers_health_checks(serve):
    assert len(serve.replicas) == 2 and serve.balancer
    assert all(alive(p) for p in serve.pids())
    assert health(serve.url)
    for _, addr in serve.replicas.values():
        assert health(f"http://{addr}")
    with urllib.request.urlopen(serve.url + "/_balancer/health", timeout=5) as resp:
        assert resp.status == 200


def test_the_first_page_load_sets_a_cookie_that_keeps_the_student_on_one_replica(serve):
    replica, cookie = get(serve.url + "/recipe-card")
    assert cookie == f"layerlab_replica={replica}"
    for _ in range(6):
        again, set_again = get(serve.url + "/recipe-card", cookie)
        assert again == replica and not set_again
    # Without the cookie the balancer is free to choose: a class is spread (leastconn), not pinned.


def test_a_websocket_reconnect_with_the_cookie_resumes_the_same_session(serve):
    async def go():
        a = Student(serve.url, "recipe-card")
        await a.open()
        b = Student(serve.url, "recipe-card")   # a second tab while a's socket is open
        await b.open()
        first = a.session_id
        await a.close()
        await a.open(load_page=False, resume=True)  # the cookie from a's page load travels along
        resumed = a.session_id
        await a.close()
        await b.close()
        return a, b, first, resumed

    a, b, first, resumed = run(go())
    assert a.replica and b.replica and a.replica != b.replica  # leastconn spreads two open tabs
    assert resumed == first  # same replica: the server knew the session it was asked to resume


def _serve_module():
    import importlib.machinery
    import importlib.util

    loader = importlib.machinery.SourceFileLoader("deploy_serve", str(ROOT / "deploy" / "serve"))
    spec = importlib.util.spec_from_loader("deploy_serve", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


BROKEN_APP = "import layerlab_no_such_module  # an app whose import fails (as on a Streamlit it misfits)\n"


def test_health_means_a_page_draws_a_replica_whose_app_fails_is_taken_out(tmp_path, serve):
    """Streamlit's /_stcore/health says ok for an app that cannot draw a page; deploy/serve's app check
    runs the script, and the agent HAProxy asks answers "down" for it."""
    from bench.server import StreamlitServer
    from tests.deploy.conftest import ARTIFACTS

    mod = _serve_module()
    broken = tmp_path / "broken.py"
    broken.write_text(BROKEN_APP)
    bad = StreamlitServer(str(broken), ARTIFACTS, prefix="deploy-broken",
                          extra=("--server.scriptHealthCheckEnabled", "true")).wait_healthy(60)
    try:
        addr = bad.url.split("//", 1)[1]
        assert mod.healthy(addr)                    # Streamlit's own health: "ok" all the same
        assert mod.draws(addr) is False             # ...but the app does not run
        replica = mod.Replica("r9", "127.0.0.1", int(addr.rsplit(":", 1)[1]), "s", [])
        replica.proc, replica.agent = bad.proc, mod.Agent()
        assert replica.check_app() is False
        with socket.create_connection(("127.0.0.1", replica.agent.port), timeout=5) as c:
            assert c.recv(64) == b"down\n"          # what HAProxy's agent-check reads: out
        replica.agent.close()
    finally:
        bad.stop()
    # The replicas deploy/serve started draw pages: in, and students reach them.
    good = next(iter(serve.replicas.values()))[1]
    assert mod.draws(good) is True


def test_serve_refuses_to_start_a_class_on_an_app_that_cannot_draw(tmp_path):
    from bench.server import free_port

    broken = tmp_path / "broken.py"
    broken.write_text(BROKEN_APP)
    need_haproxy()
    done = subprocess.run([str(ROOT / "deploy" / "serve"), "--replicas", "1", "--port", str(free_port()),
                           "--first-port", str(free_port()), "--app", str(broken)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "cannot draw a page" in done.stdout and "no replica can draw a page" in done.stderr


def test_several_machines_without_one_store_are_refused_in_one_line():
    import os

    env = {k: v for k, v in os.environ.items() if k != "LAYERLAB_DB"}
    done = subprocess.run([str(ROOT / "deploy" / "serve"), "--backend", "10.0.0.7:8601", "--print-config"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "need one class store" in done.stderr
    ok = subprocess.run([str(ROOT / "deploy" / "serve"), "--backend", "10.0.0.7:8601", "--print-config",
                         "--db", "postgresql+psycopg://db.example/layerlab"], capture_output=True, text=True)
    assert ok.returncode == 0
