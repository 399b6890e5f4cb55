"""The floors of the house, read from the code's own imports (ast, nothing is run).

    lib/        the maths: imports nothing of the app
    store/      what a class makes, kept: lib at most
    engine/     the server room: nothing of ui/, pages/, classroom/ or store/
    ui/         the shared kit: never a lesson, never the class room
    classroom/  the class room (over store/): never a lesson
    pages/      one lesson per page file and its folder: never another lesson

and no import circle anywhere; inside the class room its modules stand in one order (CLASS_ORDER,
session.py lowest, lead.py highest) and a module imports only those below it. Every import counts, at the
top of a file or inside a function: a lazy import is still an arrow a reader has to follow. A broken rule
fails with the arrow that breaks it (`ui/state.py -> classroom/__init__.py: ui/ never imports a lesson or
the class room`). docs/ARCHITECTURE.md draws the same floors; a folder or file it names must exist. And the
house's sizes: no file of a lesson or of the class room over 450 lines, no function there over 60.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ("lib", "store", "engine", "ui", "classroom", "pages")
# room -> rooms it may import (itself always; a lesson only itself, checked apart)
MAY = {
    "lib": set(),
    "store": {"lib"},
    "engine": {"lib"},
    "ui": {"lib", "engine", "store"},
    "classroom": {"lib", "engine", "store", "ui"},
    "pages": {"lib", "engine", "store", "ui", "classroom"},
}
WHY = {
    "lib": "lib/ imports nothing of the app",
    "store": "store/ imports no room but lib/",
    "engine": "engine/ imports neither ui/ nor pages/ (nor the class room, nor the store)",
    "ui": "ui/ never imports a lesson or the class room",
    "classroom": "the class room never imports a lesson",
    "pages": "a lesson imports no other lesson",
}
# The class room's own floors, lowest first: a module imports only those before it (lead.py uses lesson.py,
# board.py draws with pictures.py; never the other way), so the room reads from the bottom up.
CLASS_ORDER = tuple(f"classroom/{name}.py" for name in (
    "__init__", "history", "session", "text", "connection", "door", "seats", "pictures", "board", "submit",
    "links", "reveal", "lesson", "build", "lead"))
CLASS_WHY = "in the class room a lower module never imports a higher one (CLASS_ORDER)"


def room(path: str) -> str | None:
    top = path.split("/")[0]
    return top if top in ROOMS else None


def lesson(path: str) -> str | None:
    """pages/trainer.py and pages/trainer/*.py are the lesson `trainer` (pages/recipe-card.py and
    pages/recipe_card/ are `recipe_card`)."""
    parts = path.split("/")
    if parts[0] != "pages" or len(parts) < 2:
        return None
    return parts[1].removesuffix(".py").replace("-", "_")


def _module_file(dotted: str) -> str | None:
    """The repository file a dotted module name loads (a lesson's package before its page file)."""
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate.relative_to(ROOT).as_posix()
    return None


def imports_of(path: Path) -> set[str]:
    """Repository files that `path` imports (every import statement, anywhere in the file)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            tries = [[alias.name] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            # `from a.b import c, d`: c (and d) when it is a module, else a.b
            tries = [[f"{node.module}.{alias.name}", node.module] for alias in node.names]
        else:
            continue
        for names in tries:
            ours = names[0].split(".")[0] in ROOMS
            if ours and (target := next(filter(None, map(_module_file, names)), None)):
                found.add(target)
    if path.is_relative_to(ROOT):
        found.discard(path.relative_to(ROOT).as_posix())
    return found


def house_graph() -> dict[str, set[str]]:
    """file -> the files it imports, for every Python file of the rooms and app.py."""
    files = [ROOT / "app.py",
             *(p for r in ROOMS for p in (ROOT / r).rglob("*.py") if "migrations" not in p.parts)]
    return {f.relative_to(ROOT).as_posix(): imports_of(f) for f in files}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles (strongly connected components of more than one file), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:   # Tarjan; the graph is small
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while (w := stack.pop()) != v:
                part.append(w)
            part.append(v)
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def broken(graph: dict[str, set[str]]) -> list[str]:
    """Every arrow that breaks a floor rule, and every circle, one line each."""
    bad = []
    for src, targets in sorted(graph.items()):
        here = room(src)
        for dst in sorted(targets):
            there = room(dst)
            if here is None or there is None:
                continue   # app.py, the table of contents, may import every room
            if there != here and there not in MAY[here]:
                bad.append(f"{src} -> {dst}: {WHY[here]}")
            elif here == there == "pages" and lesson(src) != lesson(dst):
                bad.append(f"{src} -> {dst}: {WHY['pages']}")
            elif here == there == "classroom" and {src, dst} <= set(CLASS_ORDER) \
                    and CLASS_ORDER.index(src) < CLASS_ORDER.index(dst):
                bad.append(f"{src} -> {dst}: {CLASS_WHY}")
    bad += [f"{f}: not in CLASS_ORDER (give the class room's new module its place)"
            for f in sorted(graph) if room(f) == "classroom" and f not in CLASS_ORDER]
    bad += [f"circle: {' -> '.join(c)}" for c in circles(graph)]
    return bad


def test_the_floors_hold():
    graph = house_graph()
    assert len(graph) > 50 and any(graph.values())
    assert broken(graph) == []
    assert [f for f in CLASS_ORDER if f not in graph] == [], "CLASS_ORDER names a file that is not there"


@pytest.mark.parametrize(("src", "dst", "says"), [
    ("lib/layers.py", "ui/fmt.py", "lib/layers.py -> ui/fmt.py: lib/ imports nothing of the app"),
    ("engine/turns.py", "ui/fmt.py", "engine/turns.py -> ui/fmt.py: engine/ imports neither ui/ nor pages/"),
    ("store/__init__.py", "pages/trainer/run.py", "store/__init__.py -> pages/trainer/run.py: store/"),
    ("ui/state.py", "classroom/__init__.py", "ui/state.py -> classroom/__init__.py: ui/ never imports"),
    ("ui/charts.py", "pages/trainer/charts.py", "ui/charts.py -> pages/trainer/charts.py: ui/ never imports"),
    ("classroom/__init__.py", "pages/trainer/charts.py", "the class room never imports a lesson"),
    ("pages/class.py", "pages/trainer/run.py", "pages/class.py -> pages/trainer/run.py: a lesson imports no"),
    ("pages/recipe_card/card.py", "pages/stacking.py", "a lesson imports no other lesson"),
    ("classroom/text.py", "classroom/connection.py", f"text.py -> classroom/connection.py: {CLASS_WHY}"),
    ("classroom/board.py", "classroom/submit.py", f"classroom/board.py -> classroom/submit.py: {CLASS_WHY}"),
    ("classroom/lesson.py", "classroom/lead.py", f"classroom/lesson.py -> classroom/lead.py: {CLASS_WHY}"),
    ("classroom/__init__.py", "classroom/board.py", f"__init__.py -> classroom/board.py: {CLASS_WHY}"),
])
def test_a_planted_bad_import_is_named(src, dst, says):
    graph = house_graph()
    assert src in graph and dst in graph and dst not in graph[src]
    graph[src] = graph[src] | {dst}
    assert any(says in line for line in broken(graph)), broken(graph)


def test_a_class_module_without_a_place_is_named():
    graph = house_graph()
    graph["classroom/extra.py"] = {"classroom/text.py"}
    assert "classroom/extra.py: not in CLASS_ORDER (give the class room's new module its place)" in \
        broken(graph)


def test_a_planted_circle_is_named():
    graph = house_graph()
    graph["ui/fmt.py"] = graph["ui/fmt.py"] | {"ui/state.py"}   # ui/state.py imports ui/fmt.py
    assert "circle: ui/fmt.py -> ui/state.py" in broken(graph)
    graph["lib/layers.py"] = graph["lib/layers.py"] | {"lib/recipe.py"}   # recipe.py imports layers.py
    assert "circle: lib/layers.py -> lib/recipe.py" in broken(graph)


def test_a_planted_import_in_a_file_is_read(tmp_path):
    """The reader itself: a lazy import inside a function is an arrow too."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from pages.trainer import links\n    import classroom as cr\n"
                   "from ui import fmt, state\nfrom lib.layers import linear\n")
    assert imports_of(bad) == {"pages/trainer/links.py", "classroom/__init__.py", "ui/fmt.py",
                                   "ui/state.py", "lib/layers.py"}


def _users(graph: dict[str, set[str]], file: str) -> set[str]:
    """The lessons (and the class room, and app.py) whose files reach `file` through imports."""
    users = set()
    for src in graph:
        if room(src) in ("pages", "classroom") or src == "app.py":
            seen, todo = set(), [src]
            while todo:
                for dst in graph.get(todo.pop(), ()):
                    if dst not in seen:
                        seen.add(dst)
                        todo.append(dst)
            if file in seen:
                users.add(lesson(src) or room(src) or src)
    return users


def test_ui_holds_only_what_is_shared():
    """A file in ui/ serves two or more lessons, or the class room, or app.py's frame round every page."""
    graph = house_graph()
    alone = {f: sorted(_users(graph, f)) for f in graph
             if room(f) == "ui" and not f.endswith("__init__.py")}
    alone = {f: u for f, u in alone.items() if len(u) < 2 and not {"classroom", "app.py"} & set(u)}
    assert alone == {}, "ui/ files serving one lesson only (move them into its folder): " + repr(alone)


def _named_paths(text: str) -> Iterable[str]:
    for match in re.finditer(r"`?((?:app|lib|store|engine|ui|classroom|pages|tests|bench|tools|deploy|docs)"
                             r"(?:/[\w.-]+)*/?)`?", text):
        yield match.group(1)


def missing_in(text: str) -> list[str]:
    """The paths a text names (`pages/trainer/`, `ui/state.py`) that are not in the tree."""
    return sorted({p for p in _named_paths(text) if "/" in p and not (ROOT / p.rstrip("/")).exists()})


def test_the_architecture_map_names_only_what_exists():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    assert len({p for p in _named_paths(text) if "/" in p}) > 20
    assert missing_in(text) == [], "docs/ARCHITECTURE.md names what is not there"
    assert missing_in("the trainer's pieces live in `pages/trainer/` and `ui/trainer_links.py`") == [
        "ui/trainer_links.py"]


# --- sizes ------------------------------------------------------------------------------------------------
SIZED = ("pages", "classroom")   # the lessons and the class room
MOST_LINES, MOST_FUNCTION_LINES = 450, 60


def too_long(path: Path) -> list[str]:
    """What in one file is over the house's sizes: the file (over MOST_LINES lines), each function (over
    MOST_FUNCTION_LINES, from its `def` to its last line; a method or a nested function counts alone)."""
    src = path.read_text()
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    out = [f"{name}: {n} lines (at most {MOST_LINES})" for n in [len(src.splitlines())] if n > MOST_LINES]
    for node in ast.walk(ast.parse(src, str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                (n := node.end_lineno - node.lineno + 1) > MOST_FUNCTION_LINES:
            out.append(f"{name}:{node.lineno} {node.name}(): {n} lines (at most {MOST_FUNCTION_LINES})")
    return out


def test_no_file_or_function_of_a_lesson_or_the_class_room_is_too_long():
    files = sorted(p for r in SIZED for p in (ROOT / r).rglob("*.py"))
    assert len(files) > 30 and ROOT / "classroom" / "board.py" in files
    assert [line for f in files for line in too_long(f)] == []


def test_a_planted_long_file_and_function_are_named(tmp_path):
    short = tmp_path / "short.py"
    short.write_text("def f():\n" + "    x = 1\n" * 59 + "\n" * 390)             # 60 lines of f, 450 in all
    assert too_long(short) == []
    long = tmp_path / "long.py"
    long.write_text("class C:\n    def m(self):\n" + "        x = 1\n" * 60 + "\n" * 390)
    assert too_long(long) == ["long.py: 452 lines (at most 450)", "long.py:2 m(): 61 lines (at most 60)"]
