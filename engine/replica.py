"""Tell a student when their page was restarted on another replica (deploy/serve, issue 10 item 5).

Behind deploy/haproxy.cfg every request a replica gets carries two headers set by HAProxy alone:
`X-Layer-Lab-Was`, the replica that held the browser's last session (the `layerlab_session` cookie
HAProxy sets when a websocket opens; absent on a browser's first visit), and `X-Layer-Lab-Replica`,
the replica HAProxy sent this request to (`http-send-name-header`, updated on a redispatch). A
session whose websocket request names two different replicas belongs to a browser whose replica
stopped: HAProxy redispatched it here, and its page reruns from its link and widget values, without
what only lived in the old process. (Not the stickiness cookie: the browser's health and config
requests re-stick that one to a live replica before its websocket reconnects.)

Streamlit's frontend does not rerun an idle page when its websocket reconnects (it takes the session
for resumed), so the line appears with the new session's first run: at once if a run or a fragment
timer (Play) was going, else at the student's next move, when the page is rebuilt.

A link opened in a fresh browser (copied from anyone's address bar) carries no cookie, and a browser
that stays on its replica names the same one twice: neither sees the line. Without the balancer
(`streamlit run app.py`, Community Cloud) the headers are absent and nothing is ever shown.

    if note := restart_note(st.context.headers, st.session_state):
        st.caption(note)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, MutableMapping

WAS = "X-Layer-Lab-Was"          # the replica that held the browser's last session (its cookie)
NOW = "X-Layer-Lab-Replica"      # the replica HAProxy sent this request to
KEY = "_replica_restarted_at"    # session state: when this session found it was a restart, or None
SHOW_FOR = 60.0                  # seconds the line stays on the page's full runs (read, not flashed)
NOTE = (":material/restart_alt: The server you were on stopped; this page was restarted from its "
        "link on another one. Trained weights beyond what the link holds were lost.")


def moved(headers: Mapping[str, str]) -> bool:
    """The request's browser was stuck to another replica than the one it reached."""
    was, now = headers.get(WAS, ""), headers.get(NOW, "")
    return bool(was and now and was != now)


def restart_note(headers: Mapping[str, str], state: MutableMapping, now: float | None = None) -> str | None:
    """NOTE on the full runs of a session's first SHOW_FOR seconds if it began as a restart, else None.

    `headers` are the session's websocket request's (st.context.headers); `state` is its
    st.session_state. The decision is made once, on the session's first run, and kept in `state`.
    """
    now = time.monotonic() if now is None else now
    if KEY not in state:
        state[KEY] = now if moved(headers) else None
    since = state[KEY]
    return NOTE if since is not None and now - since < SHOW_FOR else None
