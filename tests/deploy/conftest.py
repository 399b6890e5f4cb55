"""Servers for the deploy tests: one `streamlit run app.py`, or deploy/serve with its balancer.

Everything binds to 127.0.0.1 on free ports and is stopped by pid at the end.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from bench.server import StreamlitServer, free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"


def isolated(fn, *args, **kwargs):
    """fn(*args) in a thread of its own, its result or its exception handed back.

    In one pytest run with the browser tests, their session-wide Playwright keeps an asyncio loop
    running in the main thread, and both asyncio.run and sync_playwright refuse to start inside a
    running loop. A fresh thread has no loop.
    """
    out: dict = {}

    def target():
        try:
            out["value"] = fn(*args, **kwargs)
        except BaseException as err:  # handed to the test's own thread below
            out["error"] = err

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")


def run(coro, timeout: float = 120):
    """Run a coroutine to completion (bounded in time), whatever loop the calling thread has."""
    import asyncio

    return isolated(asyncio.run, asyncio.wait_for(coro, timeout))


async def play_until(player, redraws: int, seconds: float = 10) -> None:
    """Press Play on a connected /trainer student and wait (at most `seconds`) for `redraws` redraws."""
    import asyncio

    player.click("trainer_play")
    for _ in range(int(seconds / 0.1)):
        await asyncio.sleep(0.1)
        if player.stats.redraws >= redraws:
            break


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):  # a zombie has exited
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return False


HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


def need_haproxy() -> None:
    """The balancer tests skip with one line where HAProxy is missing (CI installs it: .ci/run)."""
    if not Path(HAPROXY).exists():
        pytest.skip("needs HAProxy (apt-get install haproxy)")


class Serve:
    """`deploy/serve --replicas N` on a free port; knows the pids it printed."""

    def __init__(self, replicas: int = 2, *extra: str):
        if "--no-balancer" not in extra:
            need_haproxy()
        ARTIFACTS.mkdir(exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self.replicas: dict[str, tuple[int, str]] = {}   # name -> (pid, host:port), latest start
        self.balancer = 0
        self.ready = threading.Event()
        self.proc = subprocess.Popen(
            [str(ROOT / "deploy" / "serve"), "--replicas", str(replicas), "--port", str(self.port),
             "--first-port", str(free_port()), "--address", "127.0.0.1", *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        if not self.ready.wait(90) or self.proc.poll() is not None:
            self.stop()
            raise RuntimeError("deploy/serve did not start:\n" + "\n".join(self.lines[-40:]))

    def _read(self):
        with open(ARTIFACTS / f"deploy-serve-{self.port}.log", "w") as log:
            for line in self.proc.stdout:
                log.write(line)
                log.flush()
                self.lines.append(line.rstrip())
                if m := re.match(r"serve: replica (\w+) pid (\d+) on (\S+)", line):
                    self.replicas[m[1]] = (int(m[2]), m[3])
                elif m := re.match(r"serve: balancer pid (\d+)", line):
                    self.balancer = int(m[1])
                elif line.startswith("serve: students open"):
                    self.ready.set()

    def pids(self) -> list[int]:
        return [pid for pid, _ in self.replicas.values()] + ([self.balancer] if self.balancer else [])

    def stop(self, sig=signal.SIGTERM) -> int | None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode


@pytest.fixture(scope="module")
def single():
    """One `streamlit run app.py` (bench/server.py), its log in artifacts/deploy-server-<port>.log."""
    s = StreamlitServer("app.py", ARTIFACTS, prefix="deploy-server").wait_healthy(60)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def serve():
    s = Serve(2)
    yield s
    s.stop()
