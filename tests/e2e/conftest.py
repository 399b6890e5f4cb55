"""Browser tests: `streamlit run app.py` on a free port, driven in Debian's Chromium.

Never downloads a browser: Playwright launches the system `chromium`. Screenshots go to
artifacts/screenshots/<name>-<width>.png for a developer to look at.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bench.server import StreamlitServer
from engine.turns import busy_toast

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
WIDTHS = {"laptop": 1366, "phone": 420}

pytestmark = pytest.mark.e2e


def start_server() -> StreamlitServer:
    """One `streamlit run app.py` (bench/server.py), tracebacks shown in full, its log in artifacts/."""
    return StreamlitServer("app.py", ROOT / "artifacts", prefix="server",
                           extra=("--client.showErrorDetails", "full")).wait_healthy(60)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        # One line, and the rest of the suite runs; CI installs it and fails if this level did not run.
        pytest.skip("needs Chromium (apt-get install chromium); Playwright never downloads one here")
    return path


# Headless Chromium 156 preloads the address bar's popup for every new context (each throwaway `new_context`,
# and each launch): a renderer of its own running chrome://omnibox-popup's JavaScript (--top-chrome-webui)
# that nothing ever shows. Off (measured, interleaved): a new context costs 0.24 CPU-s instead of 1.0, and a
# load of /recipe-card in a throwaway context 3.75 instead of 4.45 (the warm context's pages are unchanged).
NO_POPUP = ["WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup"]


def playwright_disabled_features() -> list[str] | None:
    """The features Playwright's own --disable-features switch turns off, read from its driver (None if not
    found). Chromium keeps ONE --disable-features: a switch of ours replaces Playwright's list, so ours
    repeats it (HttpsUpgrades, ThirdPartyStoragePartitioning, ... stay off, as with Playwright alone)."""
    import re

    from playwright._impl._driver import compute_driver_executable

    lib = Path(compute_driver_executable()[1]).parent / "lib"
    for js in (lib / "coreBundle.js", lib / "server" / "chromium" / "chromiumSwitches.js"):
        found = re.search(r"disabledFeatures = \[(.*?)\]", js.read_text() if js.exists() else "", re.S)
        if found:
            return re.findall(r'"(\w+)"', re.sub(r"//[^\n]*", "", found.group(1)))
    return None


def chromium_args() -> list[str]:
    """ARGS, and NO_POPUP off beside Playwright's own list; Playwright's switch alone if its list is not
    found (a new Playwright: test_helpers.py says so)."""
    kept = playwright_disabled_features()
    return ARGS if kept is None else [*ARGS, "--disable-features=" + ",".join(kept + NO_POPUP)]


ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="session")
def _playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(_playwright, chromium_path):
    """Chromium with throwaway contexts: each `new_context` shares nothing (cookies, storage, caches)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    b = _playwright.chromium.launch(executable_path=chromium_path, args=chromium_args())
    _count_loads(b)
    yield b
    b.close()


@pytest.fixture(scope="session")
def warm(_playwright, chromium_path, tmp_path_factory):
    """A second Chromium whose one context keeps a profile on disk, so V8 keeps the code it compiled: a
    throwaway context (as `browser` makes) compiles Streamlit's and plotly's JavaScript again on every
    load. Measured on /tax-bands: the renderer's main thread 4.2 s per cold load in a throwaway context,
    2.3 s here from the third load on (/recipe-card 2.9 -> 1.3 s, /trainer 3.5 -> 2.0 s).

    `view` pages and the first page of each `open_page` test live here; `open_page` empties the cookies
    and storage first (a student's first visit), so only the compiled code is shared. A test's second and
    later pages are other people (cookies are who a student is): they get throwaway contexts. Close a page
    with `close_page`; this context is closed only at the end of the session."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    ctx = _playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp("chromium-profile")), executable_path=chromium_path, args=chromium_args(),
        viewport={"width": WIDTHS["laptop"], "height": 900})
    ctx.on("page", _counted)
    ctx._layerlab_warm = True
    close = ctx.close

    def refuse(*args, **kwargs):
        raise AssertionError("a test closed the warm context every page shares: use close_page(page)")

    ctx.close = refuse
    yield ctx
    close()


def close_page(page) -> None:
    """Close a test's page: its throwaway context, or the page alone when it lives in the warm context."""
    if getattr(page.context, "_layerlab_warm", False):
        page.close()
    else:
        page.context.close()


def _fresh(warm, origin: str):
    """A page of the warm context as a first visit sees the site: no cookies, no storage of `origin`."""
    page = warm.new_page()
    warm.clear_cookies()
    cdp = warm.new_cdp_session(page)
    cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage,indexeddb"})
    cdp.detach()
    return page


# Page loads, the browser level's cost (7-10 CPU-s each): every page a context of the session's browser
# opens counts its loads (a goto, a reload), and each test records its own as the junit property
# page_loads, which .ci/run sums per file.
LOADS = [0]


def _counted(page) -> None:
    page.on("domcontentloaded", lambda _page: LOADS.__setitem__(0, LOADS[0] + 1))
    _watch(page)


def _count_loads(b) -> None:
    def counted(make):
        def _make(*args, **kwargs):
            made = make(*args, **kwargs)
            if hasattr(made, "goto"):
                _counted(made)
            else:
                made.on("page", _counted)
            return made
        return _make

    b.new_context = counted(b.new_context)
    b.new_page = counted(b.new_page)


def _watch(page) -> None:
    """What went wrong under a page, kept for a wait that times out (_connected): console errors, requests
    that failed, answers of 400 and more (the last 8)."""
    trouble: list[str] = []
    page._layerlab_trouble = trouble

    def note(line: str) -> None:
        trouble.append(line[:200])
        del trouble[:-8]

    page.on("console", lambda m: m.type == "error" and note(f"console: {m.text}"))
    page.on("pageerror", lambda e: note(f"page error: {e}"))
    page.on("requestfailed", lambda r: note(f"failed: {r.url} {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and note(f"{r.status}: {r.url}"))


@pytest.fixture(autouse=True)
def _page_loads(request):
    before = LOADS[0]
    yield
    request.node.user_properties.append(("page_loads", LOADS[0] - before))


@pytest.fixture(scope="session")
def server():
    s = start_server()
    yield s
    s.stop()


@pytest.fixture
def fresh_server():
    """A server of its own, for tests about what the first visit after a start shows."""
    s = start_server()
    yield s
    s.stop()


# Every ui.inplace chart holds the figure it was last sent (it marks itself pending until drawn), and
# every such component on the page has mounted its chart (or is a live region, pages/trainer/announce.py, or
# the trainer's Listen button, pages/trainer/listen.py).
INPLACE_DRAWN = """() => !document.querySelector('.layerlab-chart[data-pending]') && Array.from(
    document.querySelectorAll("[data-testid='stBidiComponentRegular']")).every(
    c => !c.closest('.stBidiComponent')
         || c.querySelector('.layerlab-live, .layerlab-listen, .layerlab-chart .main-svg'))"""


# What each in-place chart holds, for a wait that timed out (tests/e2e's one unexplained CI failure).
_CHARTS_NOW = """() => Array.from(
    document.querySelectorAll("[data-testid='stBidiComponentRegular']")).map(c => {
  const d = c.querySelector('.layerlab-chart');
  return {chart: !!d, pending: d?.dataset.pending, drawn: !!c.querySelector('.main-svg'), id: d?.__id,
          figures: d?.__figures, asked: window.__layerLabAsked, text: d?.textContent?.slice(0, 80)};
})"""


_ELEMENTS = """() => document.querySelectorAll(
    "[data-testid='stMain'] [data-testid='stElementContainer']").length"""


_MAIN_TEXT = """() => document.querySelector("[data-testid='stMain']")?.innerText || '' """


def _script_finished(page, timeout: float, still: float = 3_000) -> bool:
    """The browser says no script runs (True). Streamlit 1.67's page can go on saying 'running' after a
    paused fragment's last timer tick while the server is idle (1 pause in about 60 in
    tests/e2e/test_trainer.py): after half the timeout, a page whose text has not changed for `still` ms is
    taken as finished (False: it still says a script runs)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    finished = "[data-testid='stApp'][data-test-script-state='notRunning']"
    try:
        page.wait_for_selector(finished, timeout=timeout / 2)
        return True
    except PlaywrightTimeout:
        before = page.evaluate(_MAIN_TEXT)
        page.wait_for_timeout(still)
        if page.evaluate(_MAIN_TEXT) != before:
            page.wait_for_selector(finished, timeout=timeout / 2)
            return True
    return False


def wait_ready(page, timeout: float = 60_000) -> None:
    """Connected, script finished, no skeleton left, and the same so 300 ms later: the page as a student
    sees it. (The browser can report 'notRunning' for a moment with only the first elements of a page
    drawn, e.g. /trainer's buttons and none of its maps: a count that still grows means a run is on.)"""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    _connected(page, timeout)
    stuck = 0
    for _ in range(UNSETTLED):
        stuck = 0 if _script_finished(page, timeout) else stuck + 1
        page.wait_for_function("!document.querySelector('[data-testid=\"stSkeleton\"]')",
                               timeout=timeout)
        try:
            page.wait_for_function(INPLACE_DRAWN, timeout=timeout)
        except PlaywrightTimeout:
            raise AssertionError(f"charts not drawn at {page.url}: {page.evaluate(_CHARTS_NOW)}") from None
        before = page.evaluate(_ELEMENTS)
        page.wait_for_timeout(300)  # let plotly finish drawing
        if page.evaluate(_ELEMENTS) == before > 0:   # 0: the page's first run has not drawn yet
            _chunks_loaded(page, timeout)
            return
        if stuck == STUCK:
            _stuck(page, timeout)
    raise AssertionError(f"the page at {page.url} never settled: its elements still came and went after "
                         f"{UNSETTLED} rounds ({page.evaluate(_ELEMENTS)} now)")


_STATE = """() => [document.querySelector("[data-testid='stApp']")?.dataset.testConnectionState,
                   document.readyState, document.body?.innerText.slice(0, 200)]"""
RECONNECTS = SHOTS.parent / "reconnects.txt"


def _connected(page, timeout: float) -> None:
    """The page's websocket is up. A page that never connected in `timeout` is reloaded ONCE, as a student
    would, and what was seen is written to artifacts/reconnects.txt and warned about (the -ra summary shows
    it); a page that does not connect after the reload fails with what it showed. Seen: 1 to 2 loads in a
    run of 275, with no app at all (no stApp, an empty body) and, under the page, every JS chunk it asked
    for failed with net::ERR_NETWORK_CHANGED: Chromium drops requests in flight when a network interface
    comes or goes, and the container level beside it makes and removes podman's interfaces."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    connected = "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
    try:
        page.wait_for_selector(connected, timeout=timeout)
        return
    except PlaywrightTimeout:
        seen = page.evaluate(_STATE)
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(page.url))
    import warnings

    from bench.server import health

    line = (f"{page.url}: not connected in {timeout / 1000:.0f} s ({seen}); health {health(origin, 10)}; "
            f"under it: {getattr(page, '_layerlab_trouble', None)}")
    with RECONNECTS.open("a") as f:
        f.write(line + "\n")
    warnings.warn(f"reloaded once: {line}", stacklevel=3)
    page.reload()
    try:
        page.wait_for_selector(connected, timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"{line}; after a reload: {page.evaluate(_STATE)}") from None


# Streamlit's frontend loads each widget's code when the page first draws one (a JS chunk) and never asks
# again: a chunk whose request failed leaves "TypeError: Failed to fetch dynamically imported module" in
# the widget's place. Seen in CI under the same cause as a page that never connects (_connected): the
# container level beside the browser tests makes and removes podman's network interfaces, and Chromium
# drops requests in flight on a network change. A student reloads; so does the test, once.
CHUNK_FAILED = "Failed to fetch dynamically imported module"


def _chunks_loaded(page, timeout: float) -> None:
    """No widget's code failed to load; else the page is reloaded ONCE (noted in reconnects.txt and
    warned about) and waited for again, and a page that fails again fails with what it showed."""
    if CHUNK_FAILED not in page.evaluate("() => document.body?.innerText || ''"):
        return
    failed = [t[:200] for t in page.get_by_text(CHUNK_FAILED).all_inner_texts()]
    if getattr(page, "_layerlab_reloaded_chunks", False):
        raise AssertionError(f"{page.url}: a widget's code failed to load after a reload: {failed}")
    import warnings

    line = f"{page.url}: a widget's code failed to load ({failed}); under it: " \
           f"{getattr(page, '_layerlab_trouble', None)}"
    with RECONNECTS.open("a") as f:
        f.write(line + "\n")
    warnings.warn(f"reloaded once: {line}", stacklevel=3)
    page._layerlab_reloaded_chunks = True
    page.reload()
    wait_ready(page, timeout)


UNSETTLED = 20   # rounds of wait_ready before a page that keeps changing fails
# Rounds in a row in which the page said a script runs for half the timeout, its text unchanged, and its
# elements did not settle, before wait_ready fails. Seen once on a busy machine: after Pause on /trainer a
# page said 'running' with no element in its main column; the 20 rounds took 11.5 minutes to fail.
STUCK = 3


def _stuck(page, timeout: float) -> None:
    """Fail on a page that says a script runs and shows nothing changing: with what it shows (a shot in
    artifacts/screenshots/stuck-page.png), its connection, elements and what went wrong under it."""
    page.screenshot(path=str(SHOTS / "stuck-page.png"))
    raise AssertionError(
        f"the page at {page.url} says a script runs, unchanged, for {STUCK} rounds of "
        f"{timeout / 2000:.0f} s each: {page.evaluate(_ELEMENTS)} elements in its main column; "
        f"state {page.evaluate(_STATE)}; under it: {getattr(page, '_layerlab_trouble', None)}; "
        "shot in artifacts/screenshots/stuck-page.png")


# The one toast that is not an error: engine/turns.py's note that the server is busy (past capacity,
# nothing lost). Any other toast is an error a student would see.
BUSY = busy_toast(0).split(":")[0]


def assert_clean(page) -> None:
    """No exception box, no 'Page not found' dialog, no error toast (any toast but the busy note)."""
    assert page.locator("[data-testid='stException']").count() == 0, page.inner_text("body")[:2000]
    assert page.get_by_text("Page not found").count() == 0
    assert page.locator("[data-testid='stMain']").count() == 1
    toasts = page.locator("[data-testid='stToast']").all_inner_texts()
    assert [t for t in toasts if BUSY not in t] == [], toasts


WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_findings(page) -> list[str]:
    """The serious and critical WCAG 2.0-2.2 A/AA violations axe-core finds on the page as it stands
    (axe-playwright-python ships axe-core: nothing is downloaded).

    Who asks it (not every photographed screen; about 70 screenshots, 16 axe calls): every page as first
    opened at 1366 px, 420 px and in the room view (test_every_view.py, 30 screens), the trainer after
    training (test_every_view.py, test_keyboard.py), the trainer's clickable chart (test_chart_names.py),
    and every screen of the class and the lesson mode (test_class_screens.py, test_lesson.py,
    test_lesson_build.py). A screenshot of a state reached by clicks or a link (a bad link's notes, an
    opened view) is not asked: a new screen of that kind asks it itself, after `wait_ready`.

    A run that starts while axe reads the page (a student's page follows the lesson on a timer) marks the
    page's elements stale, and Streamlit fades a stale element after 0.5 s, which axe reads as too little
    contrast (one CI failure: a phone's caption, after the teacher's Reveal). So axe reads a page with no
    stale element, and reads it again (at most STALE_READS times) when one appeared while it read; what a
    read with no run in it finds is the answer."""
    from axe_playwright_python.sync_playwright import Axe

    for _ in range(STALE_READS):
        page.wait_for_function(f"() => !document.querySelector('{STALE}')", timeout=60_000)
        page.evaluate(_WATCH_STALE)
        found = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG}}).response["violations"]
        found = [f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {v['help']} at {v['nodes'][0]['target']}"
                 for v in found if v["impact"] in ("serious", "critical")]
        if not found or not page.evaluate("() => window.__staleSeen"):
            return found
    return found


STALE, STALE_READS = '[data-stale="true"]', 3
# Whether an element was marked stale (a run started) since this was evaluated.
_WATCH_STALE = """() => { window.__staleSeen = false;
  if (!window.__staleWatch) {
    window.__staleWatch = new MutationObserver(() => {
      if (document.querySelector('[data-stale="true"]')) window.__staleSeen = true; });
    window.__staleWatch.observe(document.body,
      {subtree: true, childList: true, attributes: true, attributeFilter: ['data-stale']}); } }"""


# The focused element's text when it is a control (a scrollable region, such as Streamlit's main part,
# takes the focus too, and its text holds every button's).
_FOCUSED_CONTROL = """() => { const e = document.activeElement;
  const controls = 'button, a, input, textarea, select, summary, [role=button], [role=slider], [role=tab]';
  return e && e.matches(controls)
    ? (e.innerText || e.getAttribute('aria-label') || (e.labels && e.labels[0]?.innerText) || '') : ''; }"""


def tab_to(page, name: str, limit: int = 120) -> None:
    """The keyboard alone: press Tab from where the focus is until the focused element's text is `name`
    (fails if `limit` presses never reach it); then Enter works it, as a keyboard user would."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        text = page.evaluate(_FOCUSED_CONTROL)
        if name in [line.strip() for line in text.split("\n")]:   # a button's icon is a line of its own
            return
    raise AssertionError(f"{limit} presses of Tab never reached {name!r}")


def _load(browser, url: str, width: str | int, height: int, frames: list | None = None, warm=None):
    """A page at `url`, ready (wait_ready): in the warm context when `warm` is given (a first visit:
    no cookies or storage, see `warm`), else in a new throwaway context."""
    w = WIDTHS.get(width, width) if isinstance(width, str) else width
    if warm is None:
        page = browser.new_context(viewport={"width": w, "height": height}).new_page()
    else:
        page = _fresh(warm, "{0.scheme}://{0.netloc}".format(urlsplit(url)))
        page.set_viewport_size({"width": w, "height": height})
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    page.goto(url)
    wait_ready(page)
    return page


@pytest.fixture
def open_page(browser, warm, server):
    """open_page(path, width="laptop", height=900) -> a FRESH ready page at server.url + path, for a test
    that changes what the page shows (clicks, types, plays, uploads). A read-only check uses `view`.
    The test's first page is a first visit in the warm context; each later one is another person, in a
    throwaway context of its own (cookies are who a student is)."""
    pages = []

    def _open(path: str, width: str | int = "laptop", base: str | None = None, height: int = 900,
              frames: list | None = None):
        """`frames`: a list to collect every websocket message the page receives in (tests/minus.py
        reads the tables in them)."""
        pages.append(_load(browser, (base or server.url) + path, width, height, frames,
                           warm=None if pages else warm))
        return pages[-1]

    yield _open
    for page in pages:
        if not page.is_closed():
            close_page(page)


@pytest.fixture(scope="module")
def view(browser, warm, server):
    """view(path, width="laptop", height=900) -> the page at server.url + path, loaded ONCE per test file
    and shared by every test of the file that asks for the same path, width and height.

    A cold load costs Chromium 3-10 CPU-seconds, so a check that only reads a page shares its load:

        def test_the_total_comes_first(view):
            page = view("/gpt2-params")          # the first test to ask loads it; the rest reuse it
            assert "Parameters" in main_text(page)

    Read-only means: look (text, locators, evaluate, axe_findings, screenshot, hover, scroll) but never
    click, type, press keys, upload, Play, or change the viewport for good. A test that changes the page
    takes `open_page` (a fresh page of its own), so no test depends on another's order or leftovers.
    """
    pages: dict[tuple, object] = {}

    def _view(path: str, width: str | int = "laptop", height: int = 900):
        key = (path, width, height)
        if key not in pages:
            pages[key] = _load(browser, server.url + path, width, height, warm=warm)
        page = pages[key]
        moved = urlsplit(page.url).path.rstrip("/") != urlsplit(path).path.rstrip("/")
        assert not moved, f"a test left the shared page of {path} at {page.url}: it should use open_page"
        return page

    yield _view
    for page in pages.values():
        page.close()


_CONTENT_HEIGHT = """() => Math.max(...Array.from(document.querySelectorAll(
    "[data-testid='stMain'], [data-testid='stAppViewContainer'], [data-testid='stMainBlockContainer']"
)).map(e => e.scrollHeight))"""


def screenshot(page, name: str) -> Path:
    """The whole page at artifacts/screenshots/<name>-<viewport width>.png.

    Streamlit scrolls inside its own container, so Playwright's full_page sees one screen only:
    grow the viewport to the content's height for the shot, then put it back.
    """
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = dict(page.viewport_size)
    path = SHOTS / f"{name}-{size['width']}.png"
    height = min(int(page.evaluate(_CONTENT_HEIGHT)) + 40, 16000)
    page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
    page.wait_for_timeout(400)  # charts re-layout to the new size (only a new width redraws one)
    page.screenshot(path=str(path))
    page.set_viewport_size(size)
    return path


DOCS_SHOTS = ROOT / "docs" / "projector"


def first_screen(page, name: str) -> Path:
    """What the room sees at first, as it sees it: the viewport only (no scrolling), kept in
    docs/projector/<name>-<width>.png, in 256 colours (a tenth of the bytes; the lines and text stay
    sharp) for README and the issue's record. Rewritten by every run that takes it."""
    from PIL import Image

    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    path = DOCS_SHOTS / f"{name}-{page.viewport_size['width']}.png"
    tmp = path.with_suffix(".tmp.png")
    page.screenshot(path=str(tmp))
    with Image.open(tmp) as im:
        im.convert("RGB").quantize(256).save(path, optimize=True)
    tmp.unlink()
    return path


def main_text(page) -> str:
    return page.inner_text("[data-testid='stMain']")


def metric(page, label: str) -> str:
    """The value shown by the first st.metric whose label contains `label`."""
    box = page.locator("[data-testid='stMetric']", has_text=label).first
    return box.locator("[data-testid='stMetricValue']").inner_text()


os.environ.setdefault("PW_TEST_SCREENSHOT_NO_FONTS_READY", "1")


def choose_lesson(teacher, title: str) -> None:
    """On /class, pick the ready lesson `title` under Lead a lesson (shown as 'N. title (M min)'): the list of
    14 and more scrolls, so it is filtered by typing; a rerun may close an open list, so up to 5 tries."""
    box = teacher.locator("[class*='st-key-lesson_start_pick_']")

    def chosen() -> bool:
        return title in box.inner_text() + box.locator("input").first.input_value()

    for _ in range(5):   # the first ready lesson is chosen already
        if chosen():
            break
        box.click()
        teacher.keyboard.type(title[:24])
        try:
            teacher.locator("[role=option]", has_text=title).first.click(timeout=5_000)
        except Exception:   # the list closed under the click: open it again
            continue
    assert chosen(), title


def open_lazy(page, title: str, inside: str, tries: int = 3) -> None:
    """Open a lazy expander (`on_change="rerun"`: closed, it draws nothing; opening it reruns the page) by
    its title until `inside` shows. Under both cores' load a click landed while the page's run was still
    on, and the box came back closed (1 in about 400 opens): a teacher clicks again, and so does this."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in range(tries):
        details = page.locator("details", has=page.get_by_text(title)).first
        if details.get_attribute("open") is None:
            page.get_by_text(title).first.click()
        try:
            page.get_by_text(inside).first.wait_for(timeout=10_000)
            return
        except PlaywrightTimeout:
            if attempt == tries - 1:
                raise
            wait_ready(page)
