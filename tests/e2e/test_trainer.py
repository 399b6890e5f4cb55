"""/trainer in Chromium: Play trains live and redraws, Pause stops, the bend switch redraws, bad links open.

The live figures are measured here, in a real browser: epochs per second from the Epoch metric,
redraws per second from the boundary chart's picture (bench/play_browser.py's COUNT_REDRAWS).
"""

from __future__ import annotations

import re
import time

import pytest

from bench.play_browser import COUNT_REDRAWS
from tests.e2e.conftest import assert_clean, main_text, metric, open_lazy, screenshot, wait_ready

BOUNDARY = ".st-key-trainer_boundary"
TWIN = ".st-key-trainer_boundary_twin"
BEND_AFTER = ".st-key-trainer_bend_after"

# Redraws are counted as new heatmap pictures (a new <image> node or a new picture in it), not
# plotly's events: a live tick that changes only the shading is painted into the picture without
# plotly (ui/inplace.js), so it fires none.


def _epoch(page) -> int:
    return int(re.sub(r"[^0-9]", "", metric(page, "Epoch")))


def _wait_epoch(page, epoch: int) -> None:
    """Wait until the Epoch metric reads `epoch` (a click's rerun may not have started yet)."""
    page.wait_for_function(
        "(want) => Array.from(document.querySelectorAll(\"[data-testid='stMetric']\"))"
        ".some(m => m.innerText.startsWith('Epoch') && m.innerText.replace(/[^0-9]/g, '') === want)",
        arg=str(epoch))
    wait_ready(page)


def _heatmap(page, sel: str) -> str:
    """The heatmap as plotly drew it: the data URL of its image."""
    return page.locator(f"{sel} g.hm image").first.get_attribute("href") or ""


def _click(page, name: str) -> None:
    page.locator("[data-testid='stMain']").get_by_role("button", name=name).first.click()


def test_page_opens_at_both_widths(view):
    for width in ("laptop", "phone"):
        page = view("/trainer", width)
        _wait_epoch(page, 0)
        assert_clean(page)
        text = main_text(page)
        for label in ("Epoch", "Loss", "Train accuracy", "Test accuracy"):
            assert label in text
        assert page.locator(f"{BOUNDARY} .js-plotly-plot").count() == 1
        # Play, the numbers, then the maps large, all on the first screen, on a phone too.
        play = page.get_by_role("button", name="Play", exact=True).bounding_box()
        box = page.locator(f"{BOUNDARY} .js-plotly-plot").bounding_box()
        assert play["y"] < 400 and box["y"] < 700, (width, play, box)
        assert box["width"] >= (350 if width == "phone" else 300), (width, box)
        assert page.locator(f"{BOUNDARY} .xtick").count() > 0  # axis numbers
        screenshot(page, "trainer")


# What each problem draws live: the map's picture, or (a curve fit) the network's curve.
LIVE = {
    "classify": (f"{BOUNDARY} g.hm image", "href"),
    "classes": (f"{BOUNDARY} g.hm image", "href"),
    "regress": (".st-key-trainer_curvefit g.scatterlayer .trace path.js-line", "d"),
}


def _drawn(page, problem: str) -> str:
    sel, attr = LIVE[problem]
    loc = page.locator(sel)
    return "|".join(loc.nth(i).get_attribute(attr) or "" for i in range(loc.count()))


def _pause(page) -> None:
    """Press Pause; the button turns back into Play (with what the page showed if it never does)."""
    _click(page, "Pause")
    try:
        page.get_by_role("button", name="Play", exact=True).wait_for(timeout=20_000)
    except Exception as err:
        screenshot(page, "trainer-pause-stuck")
        said = main_text(page)[:1500]
        raise AssertionError(f"Pause did not stop Play within 20 s; the page said:\n{said}") from err
    wait_ready(page)


@pytest.mark.parametrize("problem", ["classify", "classes", "regress"])
def test_play_trains_live_redraws_and_pause_stops(open_page, problem):
    """Behaviour, not speed (speed is bench/play_browser.py's): Play advances the epochs and changes
    what is drawn, Pause stops both, on every problem type."""
    page = open_page(f"/trainer?problem={problem}&twin=false")
    page.locator(LIVE[problem][0]).first.wait_for()
    before = _drawn(page, problem)
    assert before, f"nothing live drawn for {problem}"
    _click(page, "Play")
    page.get_by_role("button", name="Pause", exact=True).wait_for()
    e0 = _epoch(page)
    page.wait_for_function(  # the epochs advance while playing, several redraws' worth
        "(e0) => Array.from(document.querySelectorAll(\"[data-testid='stMetric']\"))"
        ".some(m => m.innerText.startsWith('Epoch') && +m.innerText.replace(/[^0-9]/g, '') > e0 + 50)",
        arg=e0, timeout=30_000)
    page.wait_for_function(  # and the picture follows them
        "([sel, attr, before]) => Array.from(document.querySelectorAll(sel))"
        ".map(n => n.getAttribute(attr) || '').join('|') !== before",
        arg=[*LIVE[problem], before], timeout=30_000)
    assert "Alone on the server" in main_text(page)  # nobody else here: the free capacity is this player's
    _pause(page)
    stopped, drawn = _epoch(page), _drawn(page, problem)
    page.wait_for_timeout(1500)
    assert _epoch(page) == stopped and _drawn(page, problem) == drawn
    assert_clean(page)
    if problem == "classify":
        screenshot(page, "trainer-trained")


# plotly's own picture of the figure a chart holds, drawn in a fresh chart of the same width.
PLOTLY_PICTURE = """async (d, fig) => {
    const c = document.createElement('div');
    c.style.width = d.clientWidth + 'px';
    document.body.appendChild(c);
    const f = JSON.parse(fig || JSON.stringify(d.__fig));
    await Plotly.newPlot(c, f.data, f.layout);
    const href = c.querySelector('g.hm image').getAttribute('href');
    Plotly.purge(c); c.remove();
    return href;
}"""
# A moment when the chart's picture was painted (plotly's own numbers are older): the picture and the
# figure it was painted from, read together (no tick can come between two synchronous reads).
PAINTED_NOW = """async (d) => {
    for (let i = 0; i < 400; i++) {
        if (d.__stale) return [d.querySelector('g.hm image').getAttribute('href'), JSON.stringify(d.__fig)];
        await new Promise((ok) => setTimeout(ok, 10));
    }
    return null;
}"""


def test_a_live_tick_paints_the_shading_exactly_as_plotly_draws_it(open_page):
    page = open_page("/trainer")
    chart = page.locator(f"{BOUNDARY} .layerlab-chart")
    _click(page, "Play")
    # Live ticks change only the shading: painted into plotly's picture, no Plotly.react.
    painted = f"() => (document.querySelector('{BOUNDARY} .layerlab-chart').__painted || 0) >= 5"
    page.wait_for_function(painted, timeout=30_000)
    assert page.locator(f"{TWIN} .layerlab-chart").evaluate("d => d.__painted || 0") >= 1
    # A painted picture is, byte for byte, the picture plotly draws from the same figure.
    seen = chart.evaluate(PAINTED_NOW)
    assert seen is not None, "no painted picture seen in 4 s of Play"
    picture, fig = seen
    assert picture == chart.evaluate(PLOTLY_PICTURE, fig)
    _click(page, "Pause")
    page.get_by_role("button", name="Play", exact=True).wait_for()
    wait_ready(page)
    assert _heatmap(page, BOUNDARY) == chart.evaluate(PLOTLY_PICTURE)
    # A new width redraws through plotly, from the painted figure (not from plotly's older numbers).
    page.set_viewport_size({"width": 1000, "height": 900})
    page.wait_for_function(f"() => document.querySelector('{BOUNDARY} .layerlab-chart').__stale === false",
                           timeout=10_000)
    page.wait_for_timeout(500)
    assert _heatmap(page, BOUNDARY) == chart.evaluate(PLOTLY_PICTURE)
    assert_clean(page)


def test_twin_trains_in_lockstep(open_page):
    page = open_page("/trainer")
    _click(page, "+100")
    _wait_epoch(page, 100)
    assert "Train accuracy" in main_text(page)
    # the twin and the network, each drawn as one heatmap
    assert page.locator(f"{BOUNDARY} g.hm image, {TWIN} g.hm image").count() == 2
    _click(page, "Play")
    page.get_by_role("button", name="Pause", exact=True).wait_for()
    page.wait_for_timeout(1500)
    page.evaluate(COUNT_REDRAWS, BOUNDARY)
    e0, t0 = _epoch(page), time.perf_counter()
    page.wait_for_timeout(4000)
    e1, t1 = _epoch(page), time.perf_counter()
    redraws_per_s = page.evaluate("window.__redraws") / (t1 - t0)
    print(f"\n/trainer live, default page (network and twin): {(e1 - e0) / (t1 - t0):,.0f} epochs/s, "
          f"{redraws_per_s:.1f} redraws/s")
    assert redraws_per_s >= 3  # 9-10 on a quiet 2-core machine (charts redrawn in place, ui.inplace)
    _pause(page)
    assert e1 > e0
    assert_clean(page)


def test_step_and_reset(open_page):
    page = open_page("/trainer?twin=false")
    _click(page, "+10")
    _wait_epoch(page, 10)
    _click(page, "Step")
    _wait_epoch(page, 11)
    _click(page, "Reset")
    _wait_epoch(page, 0)


def test_bend_switch_changes_the_boundary_and_back(open_page):
    page = open_page("/trainer?twin=false&bend=identity")
    _click(page, "+100")
    _wait_epoch(page, 100)
    straight = _heatmap(page, BEND_AFTER)
    assert "one straight line" in main_text(page) or "= 0" in main_text(page)
    page.locator(".st-key-bend").get_by_role("combobox").click()
    page.keyboard.press("ArrowDown")  # opens the list
    page.get_by_role("option", name="ReLU", exact=True).click()
    page.wait_for_url("**bend=relu**")
    wait_ready(page)
    page.wait_for_function(
        "(before) => { const i = document.querySelector('.st-key-trainer_bend_after g.hm image');"
        " return i && i.getAttribute('href') !== before; }", arg=straight)
    bent = _heatmap(page, BEND_AFTER)
    assert bent != straight
    assert "bend=relu" in page.url
    assert "same" in main_text(page)
    screenshot(page, "trainer-bend")
    assert_clean(page)


def test_a_view_tab_opens_its_view_in_the_link_and_a_link_opens_it(open_page):
    page = open_page("/trainer?twin=false")
    _wait_epoch(page, 0)
    assert page.locator(f"{BEND_AFTER} .js-plotly-plot").count() == 1   # the bend view, by default
    assert page.locator(".st-key-trainer_units_0").count() == 0          # the others are not sent
    page.get_by_role("tab", name="Inside").click()
    page.wait_for_url("**view=inside**")
    page.locator(".st-key-trainer_units_0 .js-plotly-plot").wait_for()
    wait_ready(page)
    assert page.locator(".st-key-trainer_network .js-plotly-plot").count() == 1
    assert page.locator(BEND_AFTER).count() == 0
    share = page.locator("[data-testid='stMain'] [data-testid='stCode']").first   # the share link
    assert "view=inside" in share.inner_text()
    assert_clean(page)
    screenshot(page, "trainer-inside")
    page = open_page("/trainer?twin=false&view=mistakes", "phone")
    _wait_epoch(page, 0)
    assert page.get_by_role("tab", name="Mistakes").get_attribute("aria-selected") == "true"
    assert page.locator("[data-testid='stDataFrame']").count() == 2
    assert_clean(page)
    screenshot(page, "trainer-mistakes")


def test_bad_links_open_cleanly_with_notes(view):
    page = view("/trainer?hidden=a,b&dataset=nope&act=zzz&speed=0&lr=abc&w=garbage!&n=-5")
    _wait_epoch(page, 0)
    assert_clean(page)
    text = main_text(page)
    assert "Ignored hidden=a,b" in text
    assert "Ignored dataset=nope" in text
    assert "Ignored act=zzz" in text
    assert "Ignored speed=0" in text
    assert "nothing was loaded" in text
    assert _epoch(page) == 0
    screenshot(page, "trainer-bad-link")


def test_a_shared_link_restores_the_weights(open_page):
    page = open_page("/trainer?twin=false")
    code = page.locator("[data-testid='stMain'] [data-testid='stCode']").filter(has_text="w=").first
    untrained = code.inner_text().strip()
    _click(page, "+100")
    _wait_epoch(page, 100)
    # The link is drawn at the end of the page: wait until it carries the trained weights.
    page.wait_for_function(
        "(before) => Array.from(document.querySelectorAll(\"[data-testid='stMain'] [data-testid='stCode']\"))"
        ".some(e => e.innerText.includes('w=') && e.innerText.trim() !== before)", arg=untrained)
    trained = metric(page, "Train accuracy")
    link = code.inner_text().strip()
    assert "w=" in link
    other = open_page(link[link.index("/trainer"):] if link.startswith("http") else link)
    assert_clean(other)
    assert "Weights loaded from the link" in main_text(other)
    # The link carries float32 weights: the same network to 7 digits, the same accuracy.
    assert metric(other, "Train accuracy") == trained


def test_own_points_from_a_csv(open_page, tmp_path):
    from lib.points import template_csv

    page = open_page("/trainer?twin=false")
    page.get_by_text("Your own points (CSV)").click()
    upload = page.locator(".st-key-trainer_upload_0 input[type='file']")
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    upload.set_input_files(str(bad))
    page.get_by_text("Could not use bad.csv").wait_for()
    assert "exactly the columns x1, x2, label" in main_text(page)
    assert "Squares of alternating class" in main_text(page)  # the dataset is kept
    good = tmp_path / "xor.csv"
    good.write_bytes(template_csv())
    upload.set_input_files(str(good))
    page.get_by_text("Using your 40 points from xor.csv").wait_for()
    wait_ready(page)
    assert_clean(page)
    screenshot(page, "trainer-own-points")


def test_a_slider_in_the_top_fragment_updates_its_section_and_the_url(open_page):
    page = open_page("/trainer?twin=false")
    code = page.locator("[data-testid='stMain'] [data-testid='stCode']").filter(has_text="w=").first
    before = code.inner_text()
    assert "lr=" not in before
    page.locator(".st-key-lr").get_by_role("slider").focus()
    page.keyboard.press("ArrowRight")  # 0.03 -> 0.1
    page.wait_for_url("**lr=0.1**")
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll(\"[data-testid='stMain'] [data-testid='stCode']\"))"
        ".some(e => e.innerText.includes('lr=0.1'))")
    wait_ready(page)
    assert "lr=0.1" in code.inner_text()
    assert _epoch(page) == 0
    assert_clean(page)


def test_three_classes_and_a_curve_fit_with_ramps(open_page):
    page = open_page("/trainer?twin=false&problem=classes")
    _wait_epoch(page, 0)
    _click(page, "+100")
    _wait_epoch(page, 100)
    assert_clean(page)
    assert "Train accuracy" in main_text(page) and "class 2 (pink diamond)" in main_text(page)
    assert page.locator(f"{BOUNDARY} g.hm image").count() == 1
    screenshot(page, "trainer-classes")
    page = open_page("/trainer?problem=regress&view=mistakes")
    _wait_epoch(page, 0)
    _click(page, "+100")
    _wait_epoch(page, 100)
    assert_clean(page)
    text = main_text(page)
    assert "Train R²" in text and "No confusion matrix here" in text
    chart = page.locator(".st-key-trainer_curvefit .js-plotly-plot")
    assert chart.count() == 1 and chart.locator("g.scatterlayer .trace").count() >= 10  # points, curve, ramps
    screenshot(page, "trainer-curve")


def test_relu_against_a_tanh_twin_from_the_same_start(open_page):
    page = open_page("/trainer?thidden=same&tact=tanh")
    _wait_epoch(page, 0)
    _click(page, "+100")
    _wait_epoch(page, 100)
    assert_clean(page)
    text = main_text(page)
    assert "Twin: Tanh" in text and "the same initial weights" in text
    assert page.locator(f"{BOUNDARY} g.hm image, {TWIN} g.hm image").count() == 2
    screenshot(page, "trainer-twin-tanh")


def test_weights_from_a_file_load_and_a_bad_one_is_refused(open_page, tmp_path):
    import json

    from lib.datasets import make_dataset, split
    from lib.features import expand
    from lib.train import TrainConfig, Trainer

    page = open_page("/trainer?twin=false")
    _wait_epoch(page, 0)
    upload = page.locator(".st-key-trainer_weights_0 input[type='file']")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    upload.set_input_files(str(bad))
    page.get_by_text("Could not load bad.json").wait_for()
    assert "Nothing was loaded" in main_text(page)
    X, y = make_dataset("checkerboard", 400, seed=0)
    Xtr, ytr, Xte, yte = split(X, y, train_share=0.8, seed=0)
    t = Trainer(TrainConfig(hidden=(4, 4), act="tanh"), expand(Xtr, ["x1", "x2"]), ytr,
                expand(Xte, ["x1", "x2"]), yte)
    t.step(50)
    good = tmp_path / "net.json"
    good.write_text(json.dumps(t.to_dict()))
    upload.set_input_files(str(good))
    page.get_by_text("Weights loaded from net.json at epoch 50").wait_for()
    _wait_epoch(page, 50)
    assert_clean(page)
    assert "2 hidden layers of 4 each · Tanh" in main_text(page)


# --- points placed by hand ----------------------------------------------------------------------
PICK = ".st-key-trainer_pick_map"
TO_SCREEN = """([sel, x, y]) => {
    const gd = document.querySelector(sel + ' .js-plotly-plot');
    const r = gd.getBoundingClientRect(), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    return [r.left + xa._offset + xa.l2p(x), r.top + ya._offset + ya.l2p(y)];
}"""


def _placed(page) -> int:
    m = re.search(r"(\d+) of 150 points placed by hand", main_text(page))
    return int(m.group(1)) if m else -1


def _click_map(page, x: float, y: float, want: int) -> None:
    """Click the map at data coordinates (x, y) and wait until `want` points are placed by hand."""
    page.locator(f"{PICK} .js-plotly-plot .main-svg").first.wait_for()  # the picking chart is drawn
    page.locator(PICK).scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # plotly lays the chart out after it mounts
    px, py = page.evaluate(TO_SCREEN, [PICK, x, y])
    page.mouse.click(px, py)
    page.wait_for_function("(want) => document.querySelector(\"[data-testid='stMain']\").innerText"
                           ".includes(want + ' of 150 points placed by hand')", arg=str(want), timeout=30_000)
    wait_ready(page)


def test_points_placed_by_hand_join_the_run_travel_in_the_link_and_go_again(open_page):
    page = open_page("/trainer?twin=false")
    _wait_epoch(page, 0)
    _click(page, "+100")
    _wait_epoch(page, 100)
    assert _placed(page) == 0
    page.locator(".st-key-trainer_pick").get_by_text("class 1 (green square)").click()
    wait_ready(page)
    corner = [(3.36, -3.36), (3.12, -3.36), (3.36, -3.12), (3.12, -3.12), (2.88, -3.36)]
    for i, (x, y) in enumerate(corner):
        _click_map(page, x, y, i + 1)
    assert_clean(page)
    assert _epoch(page) == 100                       # the same network goes on: nothing was reset
    assert "pts=3.36_-3.36_1~3.12_-3.36_1" in page.url
    rings = page.locator(f"{PICK} g.scatterlayer .trace .point")
    assert rings.count() >= 5
    _click_map(page, 3.12, -3.12, 4)                 # a click on a ring removes that point
    assert "3.12_-3.12_1" not in page.url and "2.88_-3.36_1" in page.url
    screenshot(page, "trainer-by-hand")
    _click(page, "+100")
    _wait_epoch(page, 200)
    # The link opens the same points (and its note-free page); a fresh visitor sees them ringed.
    again = open_page("/trainer?" + page.url.split("?", 1)[1])
    assert _placed(again) == 4 and "Ignored" not in main_text(again)
    # Clear: no points by hand, the link forgets them.
    _click(page, "Clear my points")
    page.wait_for_function("() => !location.search.includes('pts=')")
    # The URL changes when the run starts; the count under the map when it has drawn.
    page.wait_for_function("() => document.body.innerText.includes('0 of 150 points placed by hand')",
                           timeout=30_000)
    wait_ready(page)
    assert _placed(page) == 0


def test_only_my_points_starts_from_an_empty_plane(open_page):
    page = open_page("/trainer?only=true&twin=false")
    assert "An empty plane" in main_text(page)
    assert_clean(page)
    page.locator(".st-key-trainer_pick").get_by_text("class 0 (orange circle)").click()
    wait_ready(page)
    _click_map(page, -1.2, 1.2, 1)
    page.locator(".st-key-trainer_pick").get_by_text("class 1 (green square)").click()
    wait_ready(page)
    _click_map(page, 1.2, -1.2, 2)
    assert "An empty plane" not in main_text(page) and "only=true" in page.url
    _click(page, "+100")
    _wait_epoch(page, 100)
    assert metric(page, "Train accuracy") == "100.0 %"   # two points, one of each class: learnt
    assert_clean(page)
    screenshot(page, "trainer-only-mine")


def test_points_in_a_link_that_do_not_fit_are_ignored_with_a_note(view):
    page = view("/trainer?pts=1_2_7~0_0_1")
    text = main_text(page)
    assert "Ignored the points placed by hand" in text and "class 7, but there are only 2" in text
    assert _placed(page) == 0 and "Traceback" not in text
    page = view("/trainer?problem=classes&k=3&pts=1_1_2~-1_-1_0")
    assert _placed(page) == 2 and "Ignored" not in main_text(page)


def test_points_by_hand_on_a_curve_and_on_a_phone(open_page):
    page = open_page("/trainer?problem=regress&twin=false", width="phone")
    _wait_epoch(page, 0)
    page.locator(".st-key-trainer_pick").get_by_text("add points").click()
    wait_ready(page)
    _click_map(page, 0.0, 0.0, 1)
    assert re.search(r"pts=0_-?\d", page.url)           # x = 0 and the value where the click landed
    assert_clean(page)
    screenshot(page, "trainer-curve-by-hand")


def test_a_hide_all_link_on_a_phone_still_trains_and_the_box_builds_links(open_page):
    page = open_page("/trainer?twin=false&hide=all", "phone")
    main = page.locator("[data-testid='stMain']")
    assert main.get_by_role("slider", name="Learning rate").count() == 0   # today's controls only
    _click(page, "Play")
    page.get_by_role("button", name="Pause", exact=True).wait_for()
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll(\"[data-testid='stMetric']\"))"
        ".some(m => m.innerText.startsWith('Epoch') && +m.innerText.replace(/[^0-9]/g, '') > 20)",
        timeout=30_000)
    _pause(page)
    screenshot(page, "trainer-hide-all")
    laptop = open_page("/trainer?twin=false")
    open_lazy(laptop, "A link for the class", "Hide these controls")   # drawn once opened (lazy)
    assert laptop.get_by_text("Hide these controls").count() == 1


def test_one_point_one_step_follows_a_clicked_point(open_page):
    """view=step: the worst-fit point by default; a click on another training point follows that one, and
    the link keeps it. Photographed at both widths."""
    for width in ("laptop", "phone"):
        page = open_page("/trainer?view=step&twin=false", width)
        assert_clean(page)
        assert "(the worst fit now)" in main_text(page) and "One step on this point alone" in main_text(page)
        points = page.locator(".st-key-trainer_follow_pick .scatterlayer .trace").first.locator("path.point")
        points.nth(3).click(force=True)
        page.wait_for_function("() => location.search.includes('pt=3')", timeout=30_000)
        wait_ready(page)
        assert "Point 3:" in main_text(page)
        assert_clean(page)
        screenshot(page, "trainer-step")


WARP = ".st-key-trainer_warp"
WARP_GRID = f"{WARP} g.scatterlayer .trace:first-child path.js-line"   # the grid: the figure's first trace


def _warp_grid(page) -> str:
    """The grid as plotly drew it: one path per line (plotly splits a trace at its None gaps), joined."""
    return page.evaluate("(sel) => Array.from(document.querySelectorAll(sel)).map(p => p.getAttribute('d'))"
                         ".join('|')", WARP_GRID)


def test_the_warped_plane_moves_while_playing_and_stops_at_pause(open_page):
    page = open_page("/trainer?view=warp&twin=false")
    _wait_epoch(page, 0)
    assert page.get_by_role("tab", name="Warp").get_attribute("aria-selected") == "true"
    assert page.locator(f"{WARP} g.scatterlayer .trace").count() == 3      # the grid, train and test points
    assert page.locator(WARP_GRID).count() == 26                             # 13 + 13 lines in one trace
    assert page.locator(f"{WARP} .g-xtitle").text_content() == "unit 1 of layer 1"
    assert page.locator(f"{WARP} .g-ytitle").text_content() == "unit 2 of layer 1"
    before = _warp_grid(page)
    _click(page, "Play")
    page.get_by_role("button", name="Pause", exact=True).wait_for()
    page.wait_for_function(   # the view ticks at the slow rate while playing: the grid moves with the weights
        "([sel, before]) => Array.from(document.querySelectorAll(sel)).map(p => p.getAttribute('d'))"
        ".join('|') !== before",
        arg=[WARP_GRID, before], timeout=30_000)
    assert _epoch(page) > 0
    _pause(page)
    # The view ticks slower than the counter: a tick already on its way may still draw the paused weights
    # (seen once in a loaded run). Then nothing moves for longer than a slow tick.
    page.wait_for_timeout(3000)
    stopped, drawn = _epoch(page), _warp_grid(page)
    page.wait_for_timeout(3000)   # longer than a slow tick
    assert _epoch(page) == stopped and _warp_grid(page) == drawn
    assert "folds onto the axes" in main_text(page)
    assert_clean(page)
    screenshot(page, "trainer-warp")
    page = open_page("/trainer?view=warp&twin=false&act=identity", "phone")
    _click(page, "+100")
    _wait_epoch(page, 100)
    assert "stays a sheared grid" in main_text(page)
    assert page.locator(WARP_GRID).count() == 26
    assert_clean(page)
    screenshot(page, "trainer-warp")
