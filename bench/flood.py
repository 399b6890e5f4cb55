"""Hostile students for bench/lesson.py (issue 44): the class joins through /class's Join form as a browser
does, while one client floods Join from a fresh session each time (from another loopback address,
127.0.0.2, as another machine behind the balancer), and a student answers a number nobody expects.

    python bench/classroom.py --lesson --join --flood --outlier 400000 --answering 13 --replicas 2 \
        --students 30 --db postgresql+psycopg:///layerlab_bench

`--join`: each student opens /class?code=X, types its nickname and presses Join (no seat made in the
store first); `--flood`: one client opens /class?code=X in a new session, types a new nickname and presses
Join, again and again for the whole lesson, FLOOD_TABS at a time; `--outlier V`: the first student answers
V to every number question.
"""

from __future__ import annotations

import asyncio
import re
import time

from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.protocol import Student

FLOOD_FROM = "127.0.0.2"   # the flooding client's address (the balancer forwards it, the app counts it)
STEP_LINE = re.compile(r">Step (\d+) of \d+: ")   # a lesson's banner, as classroom/lesson.py draws it (html)
FLOOD_TABS = 3             # its sessions at once
JOIN_LIMIT = 60.0          # seconds a Join is given to land on the lesson's step


def _alerts(tab: Student, msg) -> str | None:
    """An alert's words (a refusal at the door), or " · step k " for the lesson's banner (an html line: the
    Join landed on the step), else None."""
    if msg.delta.WhichOneof("type") != "new_element":
        return None
    el = msg.delta.new_element
    kind = el.WhichOneof("type")
    if kind == "html" and (step := STEP_LINE.search(el.html.body)):
        return f" · step {step[1]} "
    return el.alert.body if kind == "alert" else None


async def press_join(tab: Student, nickname: str) -> str:
    """On an open /class?code=X tab: type the nickname, press Join; "joined" once the page shows the
    lesson's step, else the refusal's line (or "no answer")."""
    box = next((w for w in tab.widgets.values()
                if w.kind == "text_input" and w.proto.label == "Your nickname"), None)
    button = next((w for w in tab.widgets.values() if w.kind == "button" and w.proto.label == "Join"), None)
    if box is None or button is None:
        return "no Join form"
    tab.states[box.id] = WidgetState(id=box.id, string_value=nickname)
    tab.said = []
    tab._send_rerun(trigger=WidgetState(id=button.id, trigger_value=True))
    until = time.perf_counter() + JOIN_LIMIT
    while time.perf_counter() < until and not tab.closed:
        if any(" · step " in a for a in tab.said):
            return "joined"
        refused = [a for a in tab.said if "join" in a.lower() or "nickname" in a.lower() or "full" in a]
        if refused and not tab.inflight:
            return refused[-1]
        await asyncio.sleep(0.05)
    return "no answer"


class FloodTab(Student):
    """A fresh session of the flooding client: a new cookie jar, its own address."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.source = FLOOD_FROM
        self.said: list[str] = []

    def _delta(self, msg, log) -> None:
        super()._delta(msg, log)
        if (body := _alerts(self, msg)) is not None:
            self.said.append(body)


async def flood(url: str, code: str, stop: asyncio.Event, out: dict) -> None:
    """Join from fresh sessions until `stop`: counts of seats got and of each refusal."""
    n = 0

    async def one_tab() -> None:
        nonlocal n
        while not stop.is_set():
            n += 1
            name = f"flood {n}"   # taken now: the other tabs count on meanwhile
            tab = FloodTab(url, "class", query=f"code={code}")
            try:
                await tab.open(timeout=60)
                said = await press_join(tab, name)
            except Exception as err:   # refused at the door, or the server busy: counted
                said = f"error: {type(err).__name__}"
                await asyncio.sleep(1.0)
            finally:
                await tab.close()
            out["tries"] = out.get("tries", 0) + 1
            key = "joined" if said == "joined" else re.sub(r"\d+", "N", said.replace("\\", ""))[:60]
            said_now = out.setdefault("said", {})
            said_now[key] = said_now.get(key, 0) + 1

    await asyncio.gather(*(one_tab() for _ in range(FLOOD_TABS)))
