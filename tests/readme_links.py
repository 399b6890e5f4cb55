"""Every page link the README shows (`/trainer?view=warp&...` and the page table's paths), read from
README.md itself, with the lesson each must open: the URL paths and link keys are a public promise."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from ui.nav import HOME, LESSONS, Lesson

ROOT = Path(__file__).resolve().parents[1]
_LINK = re.compile(r"`(/[a-z0-9-]*(?:\?[^`\s]*)?)`")


def readme_links() -> list[str]:
    """Each distinct `/path` or `/path?query` in backticks in README.md, in order (server paths such as
    /_stcore/health are not pages)."""
    found = dict.fromkeys(m.group(1) for m in _LINK.finditer((ROOT / "README.md").read_text()))
    return [link for link in found if not link.startswith("/_")]


def lesson_of(link: str) -> Lesson | None:
    path = urlsplit(link).path.strip("/")
    return HOME if path == "" else next((lesson for lesson in LESSONS if lesson.url_path == path), None)


def query_of(link: str) -> list[tuple[str, str]]:
    return parse_qsl(urlsplit(link).query, keep_blank_values=True)
