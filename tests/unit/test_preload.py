"""engine/preload.py: the first of the app's imports in every script imports every module once, so a
class arriving at a cold server at once never finds a module half made (issue 46: under 120 students,
`ImportError: cannot import name 'card' from 'pages.recipe_card'`)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from engine import preload

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = ("classroom", "engine", "lib", "pages", "store", "ui")
SCRIPTS = ["app.py", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))]


def test_it_names_every_module_of_the_app_s_packages_and_of_the_pages_pieces():
    on_disk = set()
    for top in preload.PACKAGES:
        on_disk |= {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                    for p in (ROOT / top).glob("*.py")}
    for piece in (ROOT / "pages").glob("*/__init__.py"):
        on_disk |= {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                    for p in piece.parent.glob("*.py")}
    named = preload.modules()
    assert set(named) == on_disk - {"engine.preload"}
    assert "pages.recipe_card.card" in named and named.index("pages.recipe_card") < named.index(
        "pages.recipe_card.card")                       # a package before its modules, as an import runs it


def _first_party_imports(path: str) -> list[str]:
    tree = ast.parse((ROOT / path).read_text())
    names = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return [n for n in names if n.split(".")[0] in FIRST_PARTY]


def test_every_script_streamlit_runs_imports_it_before_any_other_module_of_the_app():
    assert len(SCRIPTS) >= 9
    for script in SCRIPTS:
        mine = [n for n in _first_party_imports(script) if n != "engine"]   # `import engine` loads no room
        assert mine and mine[0] == "engine.preload", (script, mine[:3])


RACE = """
import sys, threading, time
import importlib._bootstrap_external as be
sys.path.insert(0, {root!r})
get_code = be.SourceLoader.get_code
def slow(self, name):   # an image compiles every module from source: a wide window for a race
    if name.split(".")[0] in {tops!r}:
        time.sleep(0.01)
    return get_code(self, name)
be.SourceLoader.get_code = slow
import streamlit  # noqa: F401  (the third-party modules are loaded; only the app's are cold)
seen = []
def student():
    import engine.preload as p
    half = [m for m in p.modules() if m not in sys.modules
            or getattr(sys.modules[m].__spec__, "_initializing", False)]
    from pages.recipe_card import card  # noqa: F401
    seen.append(half)
threads = [threading.Thread(target=student) for _ in range(16)]
for t in threads: t.start()
for t in threads: t.join()
print(len(seen), sum(map(len, seen)))
"""


def test_sixteen_first_runs_at_once_each_find_every_module_whole_after_the_first_line():
    """16 threads as 16 first runs of a cold server: each, past its first import of the app, finds every
    module of the app imported and none half made (in a fresh interpreter, its imports slowed as an
    image's are)."""
    code = RACE.format(root=str(ROOT), tops=FIRST_PARTY)
    out = subprocess.run([sys.executable, "-B", "-c", code], capture_output=True, text=True, timeout=120,
                         cwd="/")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["16", "0"], out.stdout + out.stderr[-2000:]
