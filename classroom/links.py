"""The class's links: 'A link for the class' (a teacher hides controls for the room) and its short form
for a slide (/?s=CODE, kept in the class store; pages/home.py follows it), and that short form for any
link a page offers (`short_link`: the trainer's share link in the room view).

app.py draws the box in the sidebar of every page that declares its link keys (ui.state.Links).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import streamlit as st

from classroom import connection, door
from ui import address
from ui.state import HIDE, Links, shown


def link_box(links: Links) -> None:
    """'A link for the class': tick the controls students should not see, copy the link (`hide=`).

    Drawn in the sidebar by app.py for every page that declares its link keys."""
    keys = links.hideable()
    if not keys:
        return
    # Lazy, like the code expanders (ui/source.py): closed, it draws nothing for the browser to re-render on
    # every move of every student; opening it reruns the page once.
    box = st.sidebar.expander("A link for the class", icon=":material/visibility_off:", key=LINK_BOX,
                              on_change="rerun")
    if not box.open:
        return
    with box:
        now = sorted(links.hidden())
        chosen = st.multiselect("Hide these controls", keys, default=[k for k in now if k in keys],
                                format_func=lambda k: links[k].label, key="_class_link_hide",
                                help="Students who open the link do not see these controls; their values "
                                     "(as now on this page) still apply.")
        params = [(k, v) for k in st.query_params if k != HIDE and k not in PERSONAL
                  for v in st.query_params.get_all(k)]
        if chosen:
            params.append((HIDE, ",".join(chosen) if len(chosen) < len(keys) else "all"))
        base = address.page_link([])
        st.code(address.page_link(params), language=None, wrap_lines=True)
        _short_link(links, base, params)


LINK_BOX = "_class_link_box"   # the expander's key: whether it is open

# Never in a link a page offers to copy: a student's seat and a teacher's key are theirs alone (a friend
# given a seat could submit as its student), and a class code without its seat only says "open the class
# link again" to whoever opens it.
PRIVATE = frozenset({"seat", "key"})
PERSONAL = PRIVATE | {"class"}
SHORT = "s"   # the home page's key for a short link: /?s=CODE


def _short_link(links: Links, base: str, params: list[tuple[str, str]]) -> None:
    """'Short link for a slide': the link above kept in the class store under a six-letter code, opened
    as /?s=CODE (pages/home.py follows it). Stored only when asked for; the same link, the same code."""
    path = Path(links.file).stem
    root = base[: -len(path)] if path and base.endswith(path) else base
    short_link(path, urlencode(params), root, key="_short_link", label="Short link for a slide",
               help="A link a room can type off a slide, e.g. /?s=K7M2QX: it opens this view, with the "
                    "controls ticked above hidden. Kept on this server for a year.")


def short_link(path: str, query: str, root: str, *, key: str, label: str, help: str) -> str | None:
    """A button that keeps `path?query` in the class store under a six-letter code, and once pressed the
    short link `root?s=CODE` in a code box (its copy button beside it); returns it, or None until pressed.
    Stored only when asked for: the same link, the same code. The store down or refusing: one line."""
    made: dict = st.session_state.setdefault("_short_links", {})
    if st.button(label, icon=":material/link:", key=key, width="stretch", help=help):
        try:
            made[(path, query)] = connection.store().shorten(path, query, client=door.spend("link"))
        except Exception as exc:   # the store is down or refused: say so, keep the long link
            st.caption(f":orange[:material/error: No short link: {shown(str(exc) or type(exc).__name__)}]")
    if code := made.get((path, query)):
        st.code(f"{root}?{SHORT}={code}", language=None, wrap_lines=True)
        return f"{root}?{SHORT}={code}"
    return None


HOMEWORK = "homework"   # /class's link key: a ready lesson's name or a saved one's code (homework.py)
HOMEWORK_STEP = "step"  # ... and the step the student is on, 1-based (a reload keeps the place)


def homework_link(name_or_code: str, code: str | None = None) -> str:
    """The link that opens a ready lesson (its name) or a saved lesson (its code) as homework; with a
    class's `code`, filled in for the student, so the answers reach that class's record."""
    query = {HOMEWORK: name_or_code, **({"code": code} if code else {})}
    return f"{address.base()[0]}/class?{urlencode(query)}"


def homework_box(name_or_code: str, code: str | None = None) -> None:
    """'Homework link': the lesson alone at a student's own pace, in a code box with its copy button."""
    st.caption(":material/home_work: **Homework link**: students open it to go through this lesson alone, "
               "each answer checked at once; " + (
                   "their answers come to this class's record with a nickname." if code else
                   "with your class's code and a nickname you see their answers in the class's record."))
    st.code(homework_link(name_or_code, code), language=None, wrap_lines=True)
