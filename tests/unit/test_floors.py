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
import functools
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
    "__init__", "history", "top", "session", "text", "connection", "door", "seats", "pictures", "board",
    "submit", "links", "reveal", "lesson", "asking", "build", "draft", "lead", "homework"))
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


HOUSE = (*ROOMS, "bench")   # the files the floors read: the rooms, app.py and the benchmarks (no floor of
                            # their own, like app.py, but no circle either)
# Where an import's name is computed: allowed only here, each for its reason (everywhere else it would hide
# an arrow from this test). Streamlit's private modules by name, and the engine's own patches.
COMPUTED = {
    "engine/private.py": "Streamlit's private modules, named in NAMES",
    "engine/keylookup.py": "Streamlit's widget modules, named in MODULES",
    "engine/preload.py": "every module of the app's packages, found in their folders",
    "engine/__init__.py": "the engine's own patches, engine.<name>",
}
# ui.state.page_links(path) and classroom.asking.page_asks(path) run a page file's top: an import. A
# constant path is an arrow like any other; a computed one is allowed only where the class room follows the
# lesson a teacher's step names (as app.py's navigation runs every lesson): the student's page, and the
# answers computed from a step's link (classroom/asking.py).
PAGE_LINKS_COMPUTED = {"classroom/lesson.py", "classroom/asking.py"}
PAGE_READERS = ("page_links", "page_asks")


def _module_file(dotted: str, root: Path = ROOT) -> str | None:
    """The repository file a dotted module name loads (a lesson's package before its page file)."""
    base = root.joinpath(*dotted.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate.relative_to(root).as_posix()
    return None


def _name(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _constant(node: ast.Call) -> str | None:
    arg = node.args[0] if node.args else None
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None


@functools.lru_cache(maxsize=1024)
def _nodes(text: str) -> tuple[ast.AST, ...]:
    """Every node of a file's text, parsed once per text (the copies of the house share them)."""
    return tuple(ast.walk(ast.parse(text)))


def read_imports(path: Path, root: Path = ROOT) -> tuple[dict[str, int], list[str]]:
    """What `path` imports: {repository file: line of its first import}, every import statement anywhere in
    the file, `importlib.import_module("x")`, `__import__("x")` and `page_links("pages/x.py")` with a
    constant name included; and the imports it cannot follow (relative, computed), one `file:line` each."""
    found: dict[str, int] = {}
    faults: list[str] = []
    me = _name(path, root)

    def arrow(names: list[str], line: int) -> None:
        ours = names[0].split(".")[0] in HOUSE
        if ours and (target := next(filter(None, (_module_file(n, root) for n in names)), None)):
            found.setdefault(target, line)

    for node in _nodes(path.read_text()):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            for alias in node.names:
                arrow([alias.name], line)
        elif isinstance(node, ast.ImportFrom) and node.level:
            faults.append(f"{me}:{line}: a relative import (write the absolute name; the floors read those)")
        elif isinstance(node, ast.ImportFrom) and node.module:
            # `from a.b import c, d`: c (and d) when it is a module, else a.b
            for alias in node.names:
                arrow([f"{node.module}.{alias.name}", node.module], line)
        elif isinstance(node, ast.Call) and _call_name(node) in ("import_module", "__import__"):
            if (name := _constant(node)) is not None:
                arrow([name], line)
            elif me not in COMPUTED:
                faults.append(f"{me}:{line}: a computed {_call_name(node)}() (name the module; the floors "
                              "cannot read a computed name)")
        elif isinstance(node, ast.Call) and _call_name(node) in PAGE_READERS:
            if (name := _constant(node)) is not None:
                if (root / name).is_file():
                    found.setdefault(name, line)
            elif me not in PAGE_LINKS_COMPUTED and room(me) is not None:
                faults.append(f"{me}:{line}: {_call_name(node)}() of a computed page file (it runs that "
                              "page's top: an import; name the file, or give the lesson the table it reads)")
    found.pop(me, None)
    return found, faults


def imports_of(path: Path, root: Path = ROOT) -> set[str]:
    """Repository files that `path` imports (see read_imports)."""
    return set(read_imports(path, root)[0])


def house_files(root: Path = ROOT) -> list[Path]:
    return [root / "app.py", *(p for r in HOUSE for p in sorted((root / r).rglob("*.py"))
                               if "migrations" not in p.parts)]


def house_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """file -> the files it imports, for every Python file of the rooms, app.py and bench/."""
    return {_name(f, root): imports_of(f, root) for f in house_files(root)}


def check(root: Path = ROOT) -> list[str]:
    """Every break in the tree at `root`, one line each: arrows with their file and line, circles, imports
    the floors cannot read."""
    graph, lines, faults = {}, {}, []
    for f in house_files(root):
        found, bad = read_imports(f, root)
        name = _name(f, root)
        graph[name] = set(found)
        lines.update({(name, dst): line for dst, line in found.items()})
        faults += bad
    return broken(graph, lines) + faults


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


def broken(graph: dict[str, set[str]], lines: dict | None = None) -> list[str]:
    """Every arrow that breaks a floor rule (`src:line -> dst` where the line is known), and every circle,
    one line each."""
    bad = []
    for src, targets in sorted(graph.items()):
        here = room(src)
        for dst in sorted(targets):
            there = room(dst)
            at = f"{src}:{lines[src, dst]}" if lines and (src, dst) in lines else src
            if here is None or there is None:
                continue   # app.py, the table of contents, and bench/ may import every room
            if there != here and there not in MAY[here]:
                bad.append(f"{at} -> {dst}: {WHY[here]}")
            elif here == there == "pages" and lesson(src) != lesson(dst):
                bad.append(f"{at} -> {dst}: {WHY['pages']}")
            elif here == there == "classroom" and {src, dst} <= set(CLASS_ORDER) \
                    and CLASS_ORDER.index(src) < CLASS_ORDER.index(dst):
                bad.append(f"{at} -> {dst}: {CLASS_WHY}")
    bad += [f"{f}: not in CLASS_ORDER (give the class room's new module its place)"
            for f in sorted(graph) if room(f) == "classroom" and f not in CLASS_ORDER]
    bad += [f"circle: {' -> '.join(c)}" for c in circles(graph)]
    return bad


def test_the_floors_hold():
    graph = house_graph()
    assert len(graph) > 50 and any(graph.values()) and "bench/classroom.py" in graph
    assert check() == []
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


# --- a test of the test: each break planted in a copy of the house is named with its file and line ------
PLANTED = {
    "a relative import": ("ui/tex.py", "from .fmt import num\n", "ui/tex.py:{line}: a relative import"),
    "importlib.import_module": ("ui/tex.py",
                                "import importlib\nimportlib.import_module('pages.trainer.run')\n",
                                "ui/tex.py:{line} -> pages/trainer/run.py: ui/ never imports a lesson"),
    "a computed import_module": ("ui/tex.py", "import importlib\nimportlib.import_module('pages.' + 'x')\n",
                                 "ui/tex.py:{line}: a computed import_module()"),
    "__import__": ("lib/layers.py", "__import__('ui.fmt')\n",
                   "lib/layers.py:{line} -> ui/fmt.py: lib/ imports nothing of the app"),
    "a lesson running another's page file": (
        "pages/recipe_card/card.py", "from ui import state\nstate.page_links('pages/stacking.py')\n",
        "pages/recipe_card/card.py:{line} -> pages/stacking.py: a lesson imports no other"),
    "page_links of a computed file": (
        "pages/recipe_card/card.py", "from ui import state\nstate.page_links('pages/' + 'stacking.py')\n",
        "pages/recipe_card/card.py:{line}: page_links() of a computed page file"),
    "a circle in bench/": ("bench/protocol.py", "from bench import classroom\n",
                           "circle: bench/classroom.py -> "),
}


@pytest.fixture(scope="module")
def house_copy(tmp_path_factory):
    """The house's Python files copied once (the breaks are planted one at a time and taken out again)."""
    import shutil

    copy = tmp_path_factory.mktemp("house")
    for f in house_files():
        (copy / _name(f, ROOT)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, copy / _name(f, ROOT))
    assert check(copy) == []
    return copy


@pytest.mark.parametrize("what", PLANTED)
def test_each_planted_break_fails_the_floors_naming_its_file_and_line(house_copy, what):
    file, code, says = PLANTED[what]
    target = house_copy / file
    clean = target.read_text()
    line = len(clean.splitlines()) + code.count("\n")     # the planted call is the last line
    try:
        target.write_text(clean + code)
        assert any(line_.startswith(says.format(line=line)) for line_ in check(house_copy)), check(house_copy)
    finally:
        target.write_text(clean)


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
    for match in re.finditer(r"`?((?:app|lib|store|engine|ui|classroom|pages|tests|bench|tools|deploy|docs|"
                             r"static|course)"
                             r"(?:/[\w.-]+)*/?)`?", text):
        yield match.group(1)


def missing_in(text: str) -> list[str]:
    """The paths a text names (`pages/trainer/`, `ui/state.py`) that are not in the tree."""
    return sorted({p for p in _named_paths(text) if "/" in p and not (ROOT / p.rstrip("/")).exists()})


MAPPED_ROOMS = ("lib", "store", "engine", "ui", "classroom", "pages")   # each module and folder named
MAPPED_FILES = ("tools", "tests")                                       # each file named


def unnamed_in(text: str, root: Path = ROOT) -> list[str]:
    """The files and folders of the house that a text does not name: every top-level folder, each module
    and folder in the rooms (an `__init__.py` goes with its folder), each file of tools/ and tests/."""
    named = {p.rstrip("/") for p in _named_paths(text)}
    want = [p for p in root.iterdir()
            if p.is_dir() and not p.name.startswith((".", "_")) and p.name != "artifacts"]
    for r in MAPPED_ROOMS:
        want += [p for p in (root / r).iterdir() if p.name not in ("__init__.py", "__pycache__")
                 and (p.is_dir() or p.suffix == ".py")]
    for r in MAPPED_FILES:
        want += [p for p in (root / r).iterdir()
                 if p.is_file() and p.suffix == ".py" and p.name != "__init__.py"]
    return sorted(p.relative_to(root).as_posix() for p in want if p.relative_to(root).as_posix() not in named)


def test_the_architecture_map_names_every_file_and_folder_of_the_house(tmp_path):
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    assert unnamed_in(text) == [], "docs/ARCHITECTURE.md does not name these"
    for planted in ("ui/new_kit.py", "pages/new_lesson/", "lib/new_maths.py", "tools/new.py", "newroom/"):
        assert unnamed_in(text, _with(tmp_path, planted)) == [planted.rstrip("/")]


def _with(tmp_path: Path, planted: str) -> Path:
    """A tree of empty stand-ins for the house's files and folders, and `planted` besides."""
    import shutil

    root = tmp_path / "tree"
    shutil.rmtree(root, ignore_errors=True)
    for r in (*MAPPED_ROOMS, *MAPPED_FILES):
        for p in (ROOT / r).iterdir():
            (root / r).mkdir(parents=True, exist_ok=True)
            (root / r / p.name).mkdir() if p.is_dir() else (root / r / p.name).touch()
    for p in ROOT.iterdir():
        if p.is_dir():
            (root / p.name).mkdir(exist_ok=True)
    new = root / planted.rstrip("/")
    new.parent.mkdir(parents=True, exist_ok=True)
    new.mkdir() if planted.endswith("/") else new.touch()
    return root


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
