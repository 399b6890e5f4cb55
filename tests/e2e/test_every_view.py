"""Every page in every view, as Chromium draws it: no serious or critical WCAG 2.2 AA violation found by
axe-core (issue 35), and no chart text on chart text (issue 34), at a laptop's 1366 px, a phone's 420 px
and in the room view (big=true, the largest text); and the trainer's curves after training in each mode.

axe-core comes inside axe-playwright-python (nothing is downloaded) and runs the WCAG 2.0-2.2 A and AA
rules; a finding names the rule and the first elements it failed on.

Chart text: every chart's title, axis titles, tick labels and legend keep their own room, measured by
their bounding boxes.

The check (CHART_TEXT) compares, inside each plotly chart, every pair of texts of different kinds (a
legend entry against an axis title, a title against a legend...) and tick labels of one axis against
each other (every subplot's axes included): two boxes sharing more than a pixel each way is a
finding, named by chart and text.
"""
from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import axe_findings, wait_ready

pytestmark = pytest.mark.e2e

CHART_TEXT = r"""() => {
  const out = [];
  const box = e => {
    const r = e.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom};
  };
  const hit = (a, b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 1
    && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 1;
  document.querySelectorAll('.js-plotly-plot').forEach((plot, i) => {
    const items = [];
    const add_one = (e, kind) => {
      const r = box(e), text = (e.textContent || '').trim();
      if (r.x1 - r.x0 > 0 && r.y1 - r.y0 > 0 && text) items.push({kind, text: text.slice(0, 40), r});
    };
    const add = (sel, kind) => plot.querySelectorAll(sel).forEach(e => add_one(e, kind));
    add('.gtitle', 'title'); add('.legend .legendtext', 'legend'); add('.legend .legendtitletext', 'legend');
    add('.annotation-text', 'title');   // make_subplots' row titles are annotations
    // every axis of every subplot: g.g-xtitle, g.g-x2title ...; g.xtick, g.x2tick ... (one kind per axis)
    plot.querySelectorAll('[class^="g-x"][class$="title"] text, [class^="g-y"][class$="title"] text')
      .forEach(e => add_one(e, 'axis title'));
    plot.querySelectorAll('.xaxislayer-above > g, .yaxislayer-above > g')
      .forEach(g => g.querySelectorAll('text').forEach(t => add_one(t, g.getAttribute('class') + ' label')));
    const name = plot.querySelector('.gtitle')?.textContent || `chart ${i + 1}`;
    for (let a = 0; a < items.length; a++) for (let b = a + 1; b < items.length; b++) {
      const A = items[a], B = items[b];
      const ticks = A.kind.endsWith('label') && B.kind.endsWith('label');
      if (ticks ? A.kind !== B.kind : A.kind === B.kind) continue;   // ticks: one axis's labels only
      if (hit(A.r, B.r)) out.push(`${name}: ${A.kind} "${A.text}" over ${B.kind} "${B.text}"`);
    }
  });
  return out;
}"""

LESSONS = ["/recipe-card", "/stacking", "/activations", "/tax-bands", "/gpt2-params", "/gpt2-mlp", "/trainer"]


def _charts(page) -> int:
    return page.locator(".js-plotly-plot").count()


@pytest.mark.parametrize("view", ["laptop", "phone", "big"])
@pytest.mark.parametrize("path", ["/", *LESSONS, "/class"])
def test_every_view_passes_axe_and_keeps_chart_text_apart(open_page, path, view):
    page = open_page(path + ("?big=true" if view == "big" else ""), "phone" if view == "phone" else "laptop")
    assert axe_findings(page) == []
    assert path in ("/", "/class") or _charts(page) > 0, f"{path} drew no chart to check"
    assert page.evaluate(CHART_TEXT) == []
    if view == "laptop" and path in LESSONS:   # every chart named (issue 35), on this same page load
        from tests.e2e.test_chart_names import assert_charts_named

        assert_charts_named(page, path)


@pytest.mark.parametrize("query, width", [("", "laptop"), ("problem=regress&big=true", "laptop"),
                                          ("problem=regress", "phone")])
def test_the_trainer_curves_keep_their_text_apart_after_training(open_page, query, width):
    page = open_page("/trainer" + ("?" + query if query else ""), width)
    main = page.locator("[data-testid='stMain']")
    main.get_by_role("button", name="+100", exact=True).click()
    epoch_100 = "() => /\\b100\\b/.test(document.querySelector(\"[data-testid='stMain']\").innerText)"
    page.wait_for_function(epoch_100, timeout=60_000)
    wait_ready(page)
    assert _charts(page) >= 2
    assert page.evaluate(CHART_TEXT) == []
    assert axe_findings(page) == []   # after Play's work: the metrics, curves and maps it drew
    # the log epoch axis is labelled at powers of ten only, never '1 2 5 10 2 5'
    ticks = page.evaluate("""() => Array.from(document.querySelectorAll('.js-plotly-plot')).filter(
        p => /by epoch/.test(p.textContent)).flatMap(
        p => Array.from(p.querySelectorAll('.xaxislayer-above text'), t => t.textContent.trim()))""")
    assert ticks and all(re.fullmatch(r"1(0|,000)*", t) for t in ticks), ticks
