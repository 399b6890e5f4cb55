"""Every private Streamlit name the app touches, resolved in one place.

Streamlit's `streamlit.runtime.*` and its widget modules are not a public API: a release may move or
rename any of them. The engine room's patches and the few helpers outside it that need a session's
id or its script thread ask this module, never Streamlit directly, so the day a name moves:
- `missing()` lists it (tests/app/test_engine.py fails naming it, and the patch that needs it);
- the patch that needs it stays off (engine.install() reports why) and the app runs on plain Streamlit;
- `get()` of a missing name raises LookupError naming it; `ctx()` and `session_id()` answer None.

Checked against the Streamlit pinned in requirements.txt. NAMES maps our name to (module, attribute);
attribute None is the module itself. PATCH_NEEDS says which names each patch (engine/__init__.py)
and the pages-folder fix use.
"""

from __future__ import annotations

import functools
import importlib

NAMES: dict[str, tuple[str, str | None]] = {
    # a run's context: its session id and page, and the attribute its script thread carries it under
    "get_script_run_ctx": ("streamlit.runtime.scriptrunner", "get_script_run_ctx"),
    "SCRIPT_RUN_CONTEXT_ATTR_NAME": ("streamlit.runtime.scriptrunner_utils.script_run_context_attr",
                                     "SCRIPT_RUN_CONTEXT_ATTR_NAME"),
    # turns: the runner's run and the function that executes a script or a fragment
    "script_runner": ("streamlit.runtime.scriptrunner.script_runner", None),
    "ScriptRunner._run_script": ("streamlit.runtime.scriptrunner.script_runner", "ScriptRunner._run_script"),
    "exec_func_with_error_handling": ("streamlit.runtime.scriptrunner.script_runner",
                                      "exec_func_with_error_handling"),
    # wakeups: the script thread's hand-over to the event loop
    "app_session": ("streamlit.runtime.app_session", None),
    "AppSession._call_soon_on_event_loop": ("streamlit.runtime.app_session",
                                            "AppSession._call_soon_on_event_loop"),
    "runtime": ("streamlit.runtime.runtime", None),
    "Runtime._enqueued_some_message": ("streamlit.runtime.runtime", "Runtime._enqueued_some_message"),
    "Runtime._get_async_objs": ("streamlit.runtime.runtime", "Runtime._get_async_objs"),
    # keylookup: Session State's key helpers and the widget modules that read `filtered_state`
    "state_common": ("streamlit.runtime.state.common", None),
    "is_element_id": ("streamlit.runtime.state.common", "is_element_id"),
    "session_state": ("streamlit.runtime.state.session_state", None),
    "STREAMLIT_INTERNAL_KEY_PREFIX": ("streamlit.runtime.state.session_state",
                                      "STREAMLIT_INTERNAL_KEY_PREFIX"),
    **{f"widgets.{m}.get_session_state": (f"streamlit.elements.widgets.{m}", "get_session_state")
       for m in ("selectbox", "number_input", "text_widgets", "radio", "slider", "time_widgets")},
    # a link value Streamlit would choke on (?seed=inf on an int box raises OverflowError in its URL seeding)
    "get_session_state": ("streamlit.runtime.state.session_state_proxy", "get_session_state"),
    # pagesdir: the switch of the old pages/ mode
    "PagesManager": ("streamlit.runtime.pages_manager", "PagesManager"),
    "PagesManager.uses_pages_directory": ("streamlit.runtime.pages_manager",
                                          "PagesManager.uses_pages_directory"),
}

# Which names each switchable patch needs (engine/__init__.py PATCHES).
PATCH_NEEDS: dict[str, tuple[str, ...]] = {
    "turns": ("get_script_run_ctx", "script_runner", "ScriptRunner._run_script",
              "exec_func_with_error_handling"),
    "pagesdir": ("get_script_run_ctx", "PagesManager", "PagesManager.uses_pages_directory"),
    "wakeups": ("app_session", "AppSession._call_soon_on_event_loop", "runtime",
                "Runtime._enqueued_some_message", "Runtime._get_async_objs"),
    "keylookup": ("state_common", "is_element_id", "session_state", "STREAMLIT_INTERNAL_KEY_PREFIX",
                  *(n for n in NAMES if n.startswith("widgets."))),
}
_MISSING = object()


@functools.cache
def _resolve(name: str) -> object:
    module, attr = NAMES[name]
    try:
        obj = importlib.import_module(module)
        for part in (attr.split(".") if attr else ()):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return _MISSING
    return obj


def has(name: str) -> bool:
    return _resolve(name) is not _MISSING


def get(name: str):
    """The object Streamlit keeps under `name` (see NAMES); LookupError naming it if it moved."""
    obj = _resolve(name)
    if obj is _MISSING:
        module, attr = NAMES[name]
        raise LookupError(f"Streamlit's private {module}{'.' + attr if attr else ''} ({name}) is gone")
    return obj


def missing(patch: str | None = None) -> list[str]:
    """The names (all, or one patch's) this Streamlit no longer has."""
    names = PATCH_NEEDS[patch] if patch else NAMES
    return [n for n in names if not has(n)]


def ctx():
    """The running script's context (None outside a run, or if Streamlit moved it)."""
    return get("get_script_run_ctx")() if has("get_script_run_ctx") else None


def keys_used_this_run() -> set:
    """The widget keys the running script has used so far (its context's `widget_user_keys_this_run`;
    empty outside a run or if Streamlit moved it)."""
    return getattr(getattr(ctx(), "shared", None), "widget_user_keys_this_run", None) or set()


def session_id() -> str | None:
    c = ctx()
    return getattr(c, "session_id", None)


def page_hash() -> str:
    c = ctx()
    return getattr(c, "page_script_hash", "") or ""


def drop_link_value(key: str) -> bool:
    """Take `key` out of this run's query parameters, and out of the copy Streamlit seeds a bound widget
    from on its first draw (which `del st.query_params[key]` leaves), so the widget starts from its
    default. Streamlit 1.67 seeds an int number box with `int(float(raw))`: `?seed=inf` raised
    OverflowError out of the widget call, which its own URL check does not catch. False if this
    Streamlit keeps them elsewhere (then nothing is changed)."""
    if not has("get_session_state"):
        return False
    with get("get_session_state")().query_params() as qp:
        initial = getattr(qp, "_initial_query_params", None)
        if not isinstance(initial, dict) or not hasattr(qp, "remove_param"):
            return False
        initial.pop(key, None)
        qp.remove_param(key)   # also tells the browser, so the address bar drops it
    return True


def thread_session(thread) -> str | None:
    """The session whose script a thread is running (None: not a script thread)."""
    if not has("SCRIPT_RUN_CONTEXT_ATTR_NAME"):
        return None
    c = getattr(thread, get("SCRIPT_RUN_CONTEXT_ATTR_NAME"), None)
    return getattr(c, "session_id", None)
