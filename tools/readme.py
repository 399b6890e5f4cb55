"""The README's link tables, made from each page's one LINKS declaration.

    python -m tools.readme          # rewrite the tables between the README's markers
    python -m tools.readme --check  # exit 1 if a table differs from its page's declaration

A table sits between `<!-- links: /path -->` and `<!-- /links -->`; the words around it are the
README's own. tests/app/test_readme.py runs the check, so the README cannot drift from the pages.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ui import fmt
from ui.nav import LESSONS
from ui.state import Link, Links, page_links

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
_BLOCK = re.compile(r"(<!-- links: (/[\w-]*) -->\n)(.*?)(<!-- /links -->)", re.S)


def table(links: Links) -> str:
    """A page's link table for the README: Key | Meaning | Values (default)."""
    lines = ["| Key | Meaning | Values (default) |", "|---|---|---|"]
    seen: set[str] = set()
    for link in links:
        if link.group and link.group in seen:
            continue
        seen.add(link.group)
        keys = link.group or f"`{link.key}`"
        lines.append(f"| {keys} | {link.meaning or link.label} | {link.values or _values(link)} |")
    return "\n".join(lines)


def _values(link: Link) -> str:
    d = link.default
    if link.kind in ("slider", "number"):
        return f"{fmt.num(link.lo)} to {fmt.num(link.hi)} ({fmt.num(d)})"
    if link.kind == "toggle":
        return f"`true`/`false` (`{str(d).lower()}`)"
    if link.kind == "multi":
        return ", ".join(f"`{c}`" for c in link.choices) + " (" + ", ".join(f"`{c}`" for c in d) + ")"
    if link.choices:
        return ", ".join(f"`{link.to_text(c)}`" for c in link.choices) + f" (`{link.to_text(d)}`)"
    return f"`{link.to_text(d)}`"


def tables() -> dict[str, str]:
    """URL path -> the page's link table, for every lesson that declares link keys."""
    out = {}
    for lesson in LESSONS:
        links = page_links(str(ROOT / lesson.file))
        if links is not None and list(links):
            out[f"/{lesson.url_path}"] = table(links)
    return out


def render(text: str, made: dict[str, str]) -> str:
    def one(m: re.Match) -> str:
        path = m.group(2)
        return m.group(1) + made.get(path, m.group(3).rstrip("\n")) + "\n" + m.group(4)

    return _BLOCK.sub(one, text)


def missing(text: str, made: dict[str, str]) -> list[str]:
    """Pages whose table has no place in the README."""
    present = {m.group(2) for m in _BLOCK.finditer(text)}
    return sorted(set(made) - present)


def main(argv: list[str]) -> int:
    text = README.read_text()
    made = tables()
    new = render(text, made)
    gaps = missing(text, made)
    if "--check" in argv:
        if new != text or gaps:
            print("README link tables differ from the pages' LINKS: python -m tools.readme", file=sys.stderr)
            for path in gaps:
                print(f"no <!-- links: {path} --> block in README.md", file=sys.stderr)
            return 1
        return 0
    README.write_text(new)
    for path in gaps:
        print(f"add a block for {path}: <!-- links: {path} --> ... <!-- /links -->", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
