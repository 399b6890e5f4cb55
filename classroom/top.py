"""The projected screen starts at its top: the lesson's first screen, and each Next, Back, Reveal and Pause.

Streamlit keeps the main column's scroll on a rerun of the same page, and /class becomes the teacher's
lesson without a page change. A teacher who had scrolled /class (picking the lesson from its list scrolls
the option into view, and the column with it) started the lesson with the projected column 72-83 px down,
the step's heading cut off (test_projector in CI; every time in a fresh browser here). A tiny component
(`st.components.v2`: it runs in the page itself, no iframe; as classroom/history.py) puts the main column
back at its top when what the room should see changes, never on the count's refresh: a teacher who
scrolled down to read the answers stays there until the next move."""

from __future__ import annotations

from functools import cache

import streamlit as st

NAME = "layerlab_top"
_JS = r"""
export default function (component) {
  const { data } = component;
  if (!data || window.__layerLabTop === data) return;
  window.__layerLabTop = data;
  const main = document.querySelector("[data-testid='stMain']");
  if (main) main.scrollTop = 0;
}
"""


@cache
def _component():
    return st.components.v2.component(NAME, js=_JS)


def at_top(mark: str) -> None:
    """The main column at its top once per `mark` (what the room sees; it draws nothing)."""
    _component()(key=NAME, data=mark, height=0)
