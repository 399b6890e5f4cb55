"""Every page's declared link keys, fuzzed: whatever a link carries (inf, nan, a 400-digit number, a
negative, nothing, garbage, a value meant for another key), the page opens without a traceback and shows
no NaN or infinity in its numbers.

Driven by each page's own LINKS table (ui.state.page_links), so a key added tomorrow is fuzzed without
anyone writing a case for it. Bounded in time: a few examples per page (Hypothesis, no deadline).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.app.conftest import ROOT, open_page
from ui import state
from ui.nav import LESSONS

HUGE = "1" + "0" * 400
# What people and tools put in links: numbers no widget holds, words, nothing, code, other encodings.
NASTY = ["", " ", "inf", "-inf", "Infinity", "nan", "NaN", "1e400", "-1e400", HUGE, "-" + HUGE, "-1", "0",
         "-0", "1.5", "0.1", "1e-320", "9" * 20, "abc", "true", "false", "None", "null", "[]", "{}", "0x10",
         "1,2", "1;2", ",", ";", "1,2;3", "1_000", "１", "٣", "%00", "\x00", "<b>x</b>", "`", "all", "a,b"]

PAGES = [lesson for lesson in LESSONS if lesson.url_path != "class"]
_LINKS = {lesson.url_path: state.page_links(str(ROOT / lesson.file)) for lesson in PAGES}
FUZZED = [lesson.url_path for lesson in PAGES if _LINKS[lesson.url_path] is not None]


def _number_text(link: state.Link) -> st.SearchStrategy[str]:
    """Numbers near and far from a slider's or box's range, as a link would spell them."""
    near = [v for v in (link.lo, link.hi, link.default) if isinstance(v, (int, float))]
    edges = [f"{v + d:g}" for v in near for d in (-1, -0.5, 0, 0.5, 1)]
    return st.one_of(st.sampled_from(edges or ["0"]),
                     st.floats(allow_nan=True, allow_infinity=True).map(repr),
                     st.integers(-(10 ** 30), 10 ** 30).map(str))


def _value(link: state.Link, keys: list[str]) -> st.SearchStrategy[str]:
    """Text for one key: garbage anyone could send, or something close to what the key holds."""
    own: list[st.SearchStrategy[str]] = [st.sampled_from(NASTY), st.text(max_size=12)]
    if link.kind in ("slider", "number"):
        own.append(_number_text(link))
    if link.choices:
        own.append(st.sampled_from([link.to_text(c) for c in link.choices]))
    if link.kind in ("text", "matrix"):
        own.append(st.sampled_from([link.to_text(link.default), link.to_text(link.default) + ",",
                                    "-" + link.to_text(link.default)]))
        own.append(st.lists(st.sampled_from(["1", "-2", "inf", "nan", "1e308", "x", ""]), max_size=6)
                   .map(",".join))
    if link.key == state.HIDE:
        own.append(st.lists(st.sampled_from([*keys, "nope", "all", ""]), max_size=3).map(",".join))
    return st.one_of(*own)


def _query(links: state.Links) -> st.SearchStrategy[dict[str, str]]:
    keys = sorted(links.links)
    pair = st.sampled_from(keys).flatmap(lambda k: _value(links.links[k], keys).map(lambda v: (k, v)))
    return st.lists(pair, min_size=1, max_size=3).map(dict)


_NOT_A_NUMBER = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def _assert_clean(at, query) -> None:
    assert not at.exception, (query, at.exception[0].message, at.exception[0].stack_trace[-6:])
    shown = [(m.label, m.value) for m in at.metric]
    assert not [s for s in shown if _NOT_A_NUMBER.search(str(s[1]))], (query, shown)


WORST = {"inf": "inf", "-inf": "-inf", "nan": "nan", "-huge": "-" + HUGE, "empty": "", "abc": "abc"}


# Controls a page draws only in a mode of its own (hand weights, the checker, a view tab, several classes):
# these good values open that mode, so every key is met by the control that reads it.
MODES = {"recipe-card": [{"nin": "8", "nout": "8"}], "tax-bands": [{"weights": "hand"}],
         "gpt2-mlp": [{"check": "true", "bias": "true"}],
         "trainer": [{"problem": "classes", "view": "warp"}, {"view": "step"}]}


# A page may carry keys it does not draw: /stacking's link back to /recipe-card carries the card's keys
# (met there, by the card).
CARRIED = {"stacking": set(_LINKS["stacking"].links) & set(_LINKS["recipe-card"].links)}


def _met(at, url_path: str, query: dict[str, str]) -> set[str]:
    """The keys the page met: said it ignored (a note, or an error line under the control, naming it by
    its label), dropped or rewrote in the address, or took as given (a value its control holds)."""
    pages = at.session_state[state._STORE] if state._STORE in at.session_state else {}  # noqa: SIM401 (no .get)
    noted = set().union(*(set(kept["notes"]) for kept in pages.values()))
    said = " ".join(e.value for e in at.error)
    left = dict(at.query_params)
    met = {key for key in query if key in noted or left.get(key) != query[key]
           or (_LINKS[url_path].links[key].label or "\0") in said}
    for key, link in _LINKS[url_path].links.items():
        try:
            link.from_text(query[key])
            met.add(key)
        except Exception:
            pass
    return met


@pytest.mark.parametrize("worst", list(WORST.values()), ids=list(WORST))
@pytest.mark.parametrize("url_path", FUZZED)
def test_every_key_at_once_with_a_value_no_control_holds(url_path, worst):
    """Every declared key of the page carries the same bad value: each one is met at least once (the page
    says it ignored it, drops it, or holds it), in the page's first view or in the mode that draws it."""
    met = {state.ROOM} | CARRIED.get(url_path, set())   # the room view is on for "true" alone
    for mode in [{}, *MODES.get(url_path, [])]:
        query = {key: worst for key in _LINKS[url_path].links} | mode
        at = open_page(url_path, query, timeout=90)
        _assert_clean(at, query)
        met |= _met(at, url_path, query)
    assert sorted(set(_LINKS[url_path].links) - met) == [], (url_path, worst)


@pytest.mark.parametrize("url_path", FUZZED)
def test_any_link_value_opens_the_page_cleanly(url_path):
    links = _LINKS[url_path]

    @settings(max_examples=10, deadline=None, database=None, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(query=_query(links))
    def opens(query):
        _assert_clean(open_page(url_path, query, timeout=90), query)

    opens()


def test_every_page_with_links_is_fuzzed():
    """The pages whose LINKS tables the fuzz reads: every lesson's (a page that stops declaring its keys
    would drop out silently)."""
    assert set(FUZZED) == {lesson.url_path for lesson in PAGES} - {""}, FUZZED
