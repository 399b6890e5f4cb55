"""One `streamlit run <script>` on a free 127.0.0.1 port: started, health-checked, stopped by its pid.

The one way the browser tests (tests/e2e, tests/deploy) and the benchmarks (bench/latency.py) start
a server. Bench scripts run as `python bench/latency.py`: they put the checkout on sys.path first,
then `from bench.server import StreamlitServer`; the tests import it from the checkout's root.

    s = StreamlitServer("app.py", ROOT / "artifacts", prefix="server")   # log: artifacts/server-<port>.log
    s.wait_healthy()              # /_stcore/health answers "ok", else RuntimeError (server stopped)
    ... s.url, s.port, s.proc.pid ...
    s.stop()
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Headless, no file watcher, no run on save, no usage statistics; the app's own
# .streamlit/config.toml (read from the working directory) sets everything else.
FLAGS = ("--server.headless", "true", "--server.address", "127.0.0.1",
         "--server.fileWatcherType", "none", "--server.runOnSave", "false",
         "--browser.gatherUsageStats", "false")


def free_port() -> int:
    """A port nothing listens on now (the kernel's pick on 127.0.0.1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health(url: str, timeout: float = 2.0) -> bool:
    """`url`/_stcore/health answers "ok" (a Streamlit server, or a balancer in front of some)."""
    with contextlib.suppress(OSError):
        return urllib.request.urlopen(url + "/_stcore/health", timeout=timeout).read() == b"ok"
    return False


class StreamlitServer:
    """`python -m streamlit run <script>` with FLAGS on a free port, its output in a log file.

    `extra` are more Streamlit flags (e.g. `--client.showErrorDetails full`), `env` replaces the
    environment, `cwd` is where it runs (whose .streamlit/config.toml it reads). The process starts
    at once; wait_healthy() waits for it.
    """

    def __init__(self, script: str = "app.py", logdir: Path = ROOT / "artifacts", *, prefix: str = "server",
                 cwd: Path = ROOT, extra: Sequence[str] = (), env: Mapping[str, str] | None = None):
        logdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = logdir / f"{prefix}-{self.port}.log"
        self.log = open(self.log_path, "w")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", script, "--server.port", str(self.port),
             *FLAGS, *extra],
            cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT,
            env=None if env is None else dict(env),
        )

    def wait_healthy(self, timeout: float = 60.0) -> StreamlitServer:
        """Return once /_stcore/health answers; stop the server and raise if it exits or times out."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if health(self.url):
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"streamlit did not start; see {self.log_path}")

    def cpu_ms(self) -> float:
        """CPU time of the server process so far, every thread (script runs, event loop), in ms.

        /proc/<pid>/stat counts the threads that have ended too (each rerun runs on a new
        ScriptRunner thread), in clock ticks of 10 ms: average over many moves.
        """
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return 1000 * (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        """SIGTERM by pid, SIGKILL after 10 s; the log is closed. Safe to call twice."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()

