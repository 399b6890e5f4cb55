"""Two processes on one SQLite store: a running server and a script (a teacher's, a test's) that opens the
same file, writes and ends. Each sees what the other committed, before and after the other closes.

The bug this holds down: every new connection of a Store opened and closed a descriptor of the database file
(to set its mode), and POSIX drops all of a process's locks on a file when it closes any descriptor of it. A
script's Store that then closed its last connection found no other process holding the file, checkpointed and
deleted the -wal and -shm from under the server, whose connections went on in the unlinked copy: a class the
script wrote next was "No class has the code" on the server (tests/e2e/test_class.py failed so, after other
class tests, on a shared test server), and what the server wrote after that was in a WAL nobody else read.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from store import Store
from tests.unit.test_store import PROBLEM

ROOT = Path(__file__).resolve().parents[2]
SERVER = textwrap.dedent("""
    import sys
    from store import Store
    s = Store(sys.argv[1])
    for line in sys.stdin:
        verb, code = line.split()
        if verb == "sees":
            print(s.get_class(code) is not None, flush=True)
        else:
            print(s.join(code, "Server"), flush=True)
""")


@pytest.fixture
def server(tmp_path):
    """A process holding its own Store on the file, answering `sees CODE` and `join CODE` on stdin."""
    url = f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    proc = subprocess.Popen([sys.executable, "-c", SERVER, url], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(verb: str, code: str) -> str:
        proc.stdin.write(f"{verb} {code}\n")
        proc.stdin.flush()
        return proc.stdout.readline().strip()

    ask.url = url
    yield ask
    proc.stdin.close()
    proc.wait(timeout=30)


def test_a_script_that_writes_and_ends_leaves_a_running_server_seeing_the_same_store(server):
    first = Store(server.url)
    one, _ = first.create_class(PROBLEM)
    assert server("sees", one) == "True"                # the server has a connection open now
    first.engine.dispose()                              # the script ends: its last connection closes

    second = Store(server.url)
    two, _ = second.create_class(PROBLEM)
    assert server("sees", two) == "True"                # was False: the server read a deleted WAL
    seat = server("join", two)                          # and what the server writes, the script reads
    assert second.seat(two, seat) is not None
    second.engine.dispose()
    assert Store(server.url).seat(two, seat) is not None   # kept in the file, not in an orphaned WAL
