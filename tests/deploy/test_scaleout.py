"""What bench/scaleout.py stands on: closed-loop students, and a CPU cap per replica."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from bench.classroom import CpuQuota, cpu_seconds, mover, streamlit_pids
from bench.protocol import Student
from tests.deploy.conftest import run


def test_a_closed_loop_student_moves_again_only_after_its_answer(single):
    async def go():
        st = Student(single.url, "recipe-card")
        await st.open()
        waiting_at_move = []
        move = st.move

        def counted(key=None):
            waiting_at_move.append(len(st.pending))
            return move(key)

        st.move = counted
        # No think time: an open-loop student would send its next move while the last one runs.
        await mover(st, 0.0, None, time.perf_counter() + 3.0, random.Random(0), closed=True)
        await st.close()
        return st, waiting_at_move

    st, waiting = run(go())
    assert len(waiting) >= 3, "the student made too few moves to tell"
    assert waiting == [0] * len(waiting), "a move was sent while the last one was unanswered"
    assert len(st.stats.latencies) >= len(waiting) - 1


def test_the_replicas_of_a_server_are_its_streamlit_processes(single):
    assert streamlit_pids([single.proc.pid]) == [single.proc.pid]


def _cgroups_writable() -> bool:
    try:
        q = CpuQuota(0.2)
    except (RuntimeError, OSError):
        return False
    probe = q.base / "layerlab-probe"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _cgroups_writable(), reason="no writable cgroup cpu controller (needs root)")
def test_a_capped_process_gets_its_quota_of_cpu_and_the_group_goes_away():
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    quota = CpuQuota(0.2)
    try:
        quota.apply([busy.pid])
        groups = list(quota.groups)
        c0, t0 = cpu_seconds(busy.pid), time.perf_counter()
        time.sleep(2.0)
        share = (cpu_seconds(busy.pid) - c0) / (time.perf_counter() - t0)
    finally:
        busy.kill()
        busy.wait(5)
        quota.release()
    assert share < 0.35, f"capped at 0.2 cores, it used {share:.2f}"   # uncapped: about 1.0
    assert groups and not any(g.exists() for g in groups)
