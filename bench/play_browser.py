"""A playing /trainer in Chromium: epochs and full redraws per second, and the browser's CPU per redraw.

Opens /trainer (with --query) on a running server on 127.0.0.1 in Debian's Chromium (never a
downloaded browser), presses Play, waits --settle seconds, then for --duration seconds counts full
redraws of the boundary map in the page (a new heatmap picture: a new <image> node or a new picture
in it, as tests/e2e/test_trainer.py counts them) and reads the page main thread's CPU time (CDP
Performance.getMetrics ThreadTime; TaskDuration is its wall time), and with --relay the bytes the
server sent on the wire (after websocket compression when it is on). CPU per redraw barely
moves with the machine's load; redraws per second do.

    python bench/play_browser.py --url http://127.0.0.1:8801
    python bench/play_browser.py --url http://127.0.0.1:8801 --query "speed=max&twin=false" --width 420
    python bench/play_browser.py --url http://127.0.0.1:8801 --relay 8811 --pid 12345   # + server cores
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

COUNT_REDRAWS = """sel => {
    window.__redraws = 0;
    let last = null, lastHref = null;
    const check = () => {
        const img = document.querySelector(sel + ' g.hm image');
        if (!img) return;
        const href = img.getAttribute('href');
        if (img !== last || href !== lastHref) {
            if (last !== null) window.__redraws += 1;
            last = img; lastHref = href;
        }
    };
    check();
    // No attributeFilter: it only matches attributes without a namespace, and plotly writes the
    // picture as xlink:href (so does ui/inplace.js when it paints a live map into it).
    new MutationObserver(check).observe(document.querySelector('[data-testid="stMain"]'),
        {subtree: true, childList: true, attributes: true});
    return true;
}"""


# The Epoch metric as the page shows it.
EPOCH = """() => {
    const m = Array.from(document.querySelectorAll("[data-testid='stMetric']"))
        .find(m => m.innerText.startsWith('Epoch'));
    return m ? +m.querySelector("[data-testid='stMetricValue']").innerText.replace(/[^0-9]/g, '') : 0;
}"""


class Meter:
    """A TCP relay on 127.0.0.1 that counts the bytes the server sends (after websocket compression)."""

    def __init__(self, target: str, port: int):
        u = urlsplit(target)
        self.host, self.port, self.listen = u.hostname, u.port, port
        self.down = 0
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._serve(), self.loop).result(10)

    async def _serve(self):
        self.server = await asyncio.start_server(self._client, "127.0.0.1", self.listen)

    async def _client(self, reader, writer):
        up_r, up_w = await asyncio.open_connection(self.host, self.port)

        async def pipe(r, w, count):
            with contextlib.suppress(Exception):
                while data := await r.read(65536):
                    if count:
                        self.down += len(data)
                    w.write(data)
                    await w.drain()
            w.close()

        await asyncio.gather(pipe(reader, up_w, False), pipe(up_r, writer, True))


def server_cpu_s(pid: int | None) -> float:
    """User + system CPU seconds of the server process so far (every thread; 10 ms ticks)."""
    if not pid:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(url: str, query: str, width: int, settle: float, duration: float,
            relay: int | None = None, pid: int | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    if urlsplit(url).hostname not in ("127.0.0.1", "localhost"):
        raise SystemExit("only a server on 127.0.0.1")
    meter = Meter(url, relay) if relay else None
    if meter:
        url = f"http://127.0.0.1:{relay}"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"),
                                     args=ARGS)
        page = browser.new_page(viewport={"width": width, "height": 900})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(f"{url.rstrip('/')}/trainer" + (f"?{query}" if query else ""))
        page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']",
                               timeout=60_000)
        page.wait_for_selector(".st-key-trainer_boundary g.hm image", timeout=60_000)
        page.wait_for_timeout(1000)
        page.locator("[data-testid='stMain']").get_by_role("button", name="Play").first.click()
        page.get_by_role("button", name="Pause", exact=True).wait_for()
        page.wait_for_timeout(1000 * settle)
        page.evaluate(COUNT_REDRAWS, ".st-key-trainer_boundary")

        def cpu():
            m = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            return 1000 * m.get("ThreadTime", 0.0), 1000 * m.get("TaskDuration", 0.0)

        (c0, w0), t0, b0, s0 = cpu(), time.perf_counter(), meter.down if meter else 0, server_cpu_s(pid)
        e0 = page.evaluate(EPOCH)
        page.wait_for_timeout(1000 * duration)
        (c1, w1), t1, b1, s1 = cpu(), time.perf_counter(), meter.down if meter else 0, server_cpu_s(pid)
        e1 = page.evaluate(EPOCH)
        redraws = page.evaluate("window.__redraws")
        browser.close()
    window = t1 - t0
    return {"redraws_per_s": redraws / window, "epochs_per_s": (e1 - e0) / window,
            "cpu_ms_per_redraw": (c1 - c0) / max(redraws, 1),
            "busy_ms_per_redraw": (w1 - w0) / max(redraws, 1), "cpu_share": (c1 - c0) / 1000 / window,
            "redraws": redraws, "window_s": window, "load": os.getloadavg()[0],
            "server_sent_kb_per_s": (b1 - b0) / 1000 / window if meter else None,
            "server_cores": (s1 - s0) / window if pid else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="a running server on 127.0.0.1")
    ap.add_argument("--query", default="speed=max",
                    help="the page's link query (default speed=max: full speed, not the lesson pace)")
    ap.add_argument("--width", type=int, default=1366, help="viewport width in px")
    ap.add_argument("--settle", type=float, default=2.0, help="seconds of Play before counting")
    ap.add_argument("--duration", type=float, default=10.0, help="seconds counted")
    ap.add_argument("--relay", type=int, default=None,
                    help="a free 127.0.0.1 port: the page goes through a relay there that counts the bytes "
                         "the server sends (after websocket compression, if both sides agree on it)")
    ap.add_argument("--pid", type=int, default=None,
                    help="the server pid: its CPU (all threads, /proc) over the counted window, in cores")
    args = ap.parse_args()
    r = measure(args.url, args.query, args.width, args.settle, args.duration, args.relay, args.pid)
    print(f"/trainer?{args.query} at {args.width} px: {r['epochs_per_s']:,.0f} epochs/s on screen, "
          f"{r['redraws_per_s']:.1f} redraws/s, page main thread "
          f"{r['cpu_ms_per_redraw']:.1f} ms CPU ({r['busy_ms_per_redraw']:.1f} ms busy) per redraw, "
          f"{100 * r['cpu_share']:.0f} % of a core; load {r['load']:.2f}"
          + (f"; server sent {r['server_sent_kb_per_s']:.0f} KB/s" if args.relay else "")
          + (f"; server used {r['server_cores']:.2f} cores" if args.pid else ""))


if __name__ == "__main__":
    main()
