"""What one playing /trainer tick sends, by element and by part of each plotly figure.

One simulated student (bench/protocol.py, Streamlit's own messages) opens /trainer on a running
server, presses Play and follows the fragment timer for --duration seconds. Every delta of an
autorerun tick is filed under its element (the chart's key for plotly charts, else its kind), and
each plotly spec under the parts of the figure: each trace by type, layout.shapes, layout.template,
the rest of the layout. It prints KB per tick and KB/s for each, and the messages that only refer to
a cached element (an unchanged chart costs a hash, not its spec).

    python bench/tick_bytes.py --url http://127.0.0.1:8801 --duration 15
    python bench/tick_bytes.py --url http://127.0.0.1:8801 --query 'twin=false'
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from bench.protocol import Student  # noqa: E402


def figure_parts(spec: str) -> dict[str, int]:
    """Bytes of a plotly spec (JSON text) by part: traces by type, layout.shapes, .template, the rest."""
    fig = json.loads(spec)
    parts: dict[str, int] = collections.Counter()
    for t in fig.get("data", []):
        parts[f"trace {t.get('type', 'scatter')}"] += len(json.dumps(t, separators=(",", ":")))
    layout = dict(fig.get("layout", {}))
    for name in ("shapes", "template", "annotations"):
        if name in layout:
            parts[f"layout.{name}"] += len(json.dumps(layout.pop(name), separators=(",", ":")))
    parts["layout (rest)"] += len(json.dumps(layout, separators=(",", ":")))
    return parts


class Recorder(Student):
    """A Student that files every byte of its timer ticks by element and figure part."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.on = False
        self.by_element: dict[str, int] = collections.Counter()
        self.by_part: dict[str, int] = collections.Counter()
        self.refs = 0
        self.total = 0
        # permessage-deflate as Tornado does it with server.enableWebsocketCompression (level 6,
        # 15-bit window, context kept from message to message, as Chromium asks): bytes and CPU
        self.deflate = zlib.compressobj(6, zlib.DEFLATED, -15, 8)
        self.deflated = 0
        self.deflate_cpu = 0.0

    def _handle(self, data: bytes) -> None:
        super()._handle(data)
        if self.on:
            c0 = time.thread_time()
            self.deflated += len(self.deflate.compress(data) + self.deflate.flush(zlib.Z_SYNC_FLUSH)) - 4
            self.deflate_cpu += time.thread_time() - c0
        if self.on and self.current is not None and self.current.auto:
            self.total += len(data)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "ref_hash":
                self.refs += 1
                self.by_element["(cached refs)"] += len(data)
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el = msg.delta.new_element
                which = el.WhichOneof("type")
                if which == "plotly_chart":
                    chart = el.plotly_chart
                    name = chart.id.rsplit("-", 1)[-1] if chart.id else "plotly_chart"
                    self.by_element[f"plotly {name[:40]}"] += len(data)
                    for part, n in figure_parts(chart.spec).items():
                        self.by_part[f"{name[:28]}: {part}"] += n
                else:
                    self.by_element[which or "delta"] += len(data)
            else:
                self.by_element[kind or "?"] += len(data)


async def run(args) -> None:
    st = Recorder(args.url, "trainer", query=args.query)
    await st.open(timeout=120)
    st.click("trainer_play")
    await asyncio.sleep(1.5)
    t0, ticks0 = time.perf_counter(), st.stats.ticks_done
    st.on = True
    await asyncio.sleep(args.duration)
    st.on = False
    window, ticks = time.perf_counter() - t0, st.stats.ticks_done - ticks0
    await st.close()
    print(f"{ticks} ticks in {window:.1f} s ({ticks / window:.1f}/s); {st.total / window / 1000:.0f} KB/s, "
          f"{st.total / max(ticks, 1) / 1000:.1f} KB per tick; {st.refs} cached references")
    print(f"  with websocket compression (deflate, level 6): {st.deflated / window / 1000:.0f} KB/s"
          f" of everything received, deflating took {1000 * st.deflate_cpu / window:.1f} ms CPU a second")
    print(f"  {'element':48s} {'KB/tick':>8s} {'KB/s':>7s}")
    for name, n in sorted(st.by_element.items(), key=lambda kv: -kv[1]):
        print(f"  {name:48s} {n / max(ticks, 1) / 1000:8.2f} {n / window / 1000:7.1f}")
    print(f"  {'figure part (JSON text)':48s} {'KB/tick':>8s} {'KB/s':>7s}")
    for name, n in sorted(st.by_part.items(), key=lambda kv: -kv[1]):
        print(f"  {name:48s} {n / max(ticks, 1) / 1000:8.2f} {n / window / 1000:7.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="a running server on 127.0.0.1")
    ap.add_argument("--query", default="", help="the page's link query, e.g. 'twin=false'")
    ap.add_argument("--duration", type=float, default=15.0, help="seconds of Play measured")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
