"""deploy/serve: replicas behind HAProxy, one shared cookie secret, cookie stickiness."""

from __future__ import annotations

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
                           "--backend", "10.0.0.7:8601", "--print-config"],
                          capture_output=True, text=True, check=True).stdout
    servers = [line.split() for line in text.splitlines() if line.strip().startswith("server ")]
    assert [s[1:3] for s in servers] == [["r1", "127.0.0.1:9100"], ["r2", "127.0.0.1:9101"],
                                         ["r3", "127.0.0.1:9102"], ["m1", "10.0.0.7:8601"]]
    assert all(s[3:5] == ["cookie", s[1]] for s in servers)


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
