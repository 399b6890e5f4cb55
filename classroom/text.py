"""The class room's words, and what a student typed as plain text: nicknames and files are shown escaped
(st.markdown), as a plotly title, a widget's label or a spreadsheet's cell, never read as Markdown, HTML or
a formula. Nothing here reads the store.
"""

from __future__ import annotations

import re

AWAY = ("The class store cannot be reached just now; this page shows the class again by itself when it "
        "is back.")
BAD = "this submission could not be read"


def name_text(name) -> str:
    """A nickname as stored, as text of a bounded length (a row written by hand may hold anything)."""
    return str(name)[:64]


def for_plotly(text: str) -> str:
    """User text inside a plotly title or hover: plotly reads a few HTML tags, so escape them all."""
    import html

    return html.escape(str(text), quote=False)


def plain(text: str) -> str:
    """User text for st.markdown: every Markdown and HTML character escaped, so it reads as typed."""
    out = []
    for ch in str(text):
        out.append("\\" + ch if ch in "\\`*_{}[]()#+-.!|<>~$:&" else ch)
    return "".join(out)


def label(text) -> str:
    """User text in a widget's label (a button's label, any widget's label, renders Markdown): escaped as for
    st.markdown, so `![](//host/p)` is shown, not fetched. A select's options are drawn as text in
    Streamlit 1.67 (tests/e2e/test_class.py checks it): they take the text as it is."""
    return plain(name_text(text))


_FORMULA = re.compile(r"(^|[;,])(\s*)(?=[=+\-@\t\r])")


def cell(v):
    """A value for a CSV a spreadsheet opens: text that starts like a formula (=, +, -, @, tab, CR) is kept
    as text, and so is every part a spreadsheet that splits on `;` or `,` would read as a cell of its own
    (`x;=cmd()`): an apostrophe before each."""
    if isinstance(v, str):
        return _FORMULA.sub(lambda m: m.group(1) + m.group(2) + "'", v)
    return v
