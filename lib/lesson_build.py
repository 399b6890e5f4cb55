"""What a teacher hands the lesson builder on /class (issue 33, item 1), read strictly: a link they paste
for a step, and a lesson file they import. Both are hostile input (a slide, a file from anyone): each
refusal is one ValueError line a teacher can act on, and nothing is half-read.

- `read_link(text, paths)`: a page's link as "A link for the class" makes it (a full URL, or a path like
  `/recipe-card?x1=2&hide=nin`), or a short link (`/?s=K7M2QX`, a full URL with `?s=`, or the bare code)
  -> `Pasted`: the page path and its link values (`hide` kept; a seat, a key or a class left out, named in
  `dropped`), or the short code for the caller to look up (lib knows no store).
- `file_name(lesson)`: an export's file name.
- `read_file(data, paths)`: a lesson file's bytes -> lib.lessons.Lesson, after a size cap (`MAX_BYTES`)
  and a nesting scan that never builds the nested thing; then lib.lessons.loads' own checks (types,
  unknown pages, steps, lengths, only finite numbers).

Pure: no streamlit, no store.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import numpy as np

from lib import lessons

MAX_BYTES = 1 << 20  # a lesson file: 1 MB (the uploader's cap, Streamlit's MB; lessons.loads keeps its own)
MAX_LINK = lessons.MAX_QUERY + 300  # a pasted link: its values and an address before them
SHORT_KEY = "s"  # the home page's key for a short link (classroom.links.SHORT; a test keeps them equal)
_CODE = re.compile(r"^[A-Za-z0-9]{6}$")  # a short code as typed (the store knows its alphabet)
_BARE_CODE = re.compile(r"^[A-Z2-9]{6}$")  # a bare code on its own: upper case, as a slide shows it
_HOST = re.compile(r"^[\w.-]+(:\d+)?(/|$)")  # "localhost:8501/..." or "lab.school.org/...": no scheme typed


@dataclass(frozen=True)
class Pasted:
    """A pasted link, read: a page (`path`, e.g. "recipe-card", and `query`, its link values as one
    canonical string), or a short link's `code` (path and query empty) for the caller to expand."""

    path: str = ""
    query: str = ""
    code: str = ""
    dropped: tuple[str, ...] = ()  # link keys left out: a seat, a key, a class are nobody's to share

    @property
    def link(self) -> str:
        return f"/{self.path}" + (f"?{self.query}" if self.query else "")


def read_link(text: object, paths: Collection[str] | None = None) -> Pasted:
    """A link to a view, as a teacher pastes it. `paths`: the app's page paths a step may open (None: any
    path-like name). ValueError, one line, for anything else."""
    if not isinstance(text, str):
        raise ValueError("a link is text")
    text = text.strip()
    if not text:
        raise ValueError("paste a link first, like /recipe-card?x1=2 or /?s=K7M2QX")
    if len(text) > MAX_LINK:
        raise ValueError(f"this link has {len(text):,} characters; a step's link has at most {MAX_LINK:,}")
    if not text.isprintable() or any(ch.isspace() for ch in text):
        raise ValueError("a link has no spaces, line breaks or control characters")
    if _BARE_CODE.match(text):
        return Pasted(code=text)
    if "://" not in text and not text.startswith(("/", "?")) and _HOST.match(text) and (
            "." in text.split("/")[0] or ":" in text.split("/")[0]):
        text = "http://" + text  # an address typed without http://
    parts = urlsplit(text)
    if parts.scheme and parts.scheme not in ("http", "https"):
        raise ValueError(f"not a web link ({parts.scheme[:12]}:): paste the page's address")
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=True, max_num_fields=lessons.MAX_QUERY)
    except ValueError:
        raise ValueError("this link's values are not key=value pairs joined by &") from None
    segments = [s for s in parts.path.split("/") if s]
    if not segments:
        codes = [v for k, v in pairs if k == SHORT_KEY]
        if not codes:
            raise ValueError("this is the home page: paste the link of a lesson's page, or a short link")
        code = "".join(codes[-1].split())
        if not _CODE.match(code):
            raise ValueError("a short link's code is six letters and digits, like /?s=K7M2QX")
        return Pasted(code=code.upper())
    path = segments[-1]  # the page's URL path (an app served under a prefix has it last)
    if path.endswith(".py"):
        raise ValueError("paste the page's address from the browser, not a file name")
    path = lessons.check_path(path.lower(), paths)
    dropped = tuple(sorted({k for k, _ in pairs if k in lessons.PRIVATE}))
    query = urlencode([(k, v) for k, v in pairs if k not in lessons.PRIVATE], safe=",;:")  # hide=a,b as typed
    return Pasted(path=path, query=lessons.check_query(query), dropped=dropped)


def nesting(text: str | bytes) -> int:
    """How deep a JSON text's arrays and objects nest, counted without parsing it (brackets inside strings
    do not count): a file nested 200,000 deep is measured, never built. Linear in the text, whatever it
    holds (a regular expression for the strings backtracked quadratically on `"\\"\\"\\"...`)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    b = np.frombuffer(data, dtype=np.uint8)  # (n,)
    if not b.size:
        return 0
    idx = np.arange(b.size)  # (n,)
    backslash = b == ord("\\")  # (n,)
    last_other = np.maximum.accumulate(np.where(backslash, -1, idx))  # (n,) last index that is no backslash
    run = np.concatenate(([0], idx[:-1] - last_other[:-1]))  # (n,) backslashes just before each byte
    quote = (b == ord('"')) & (run % 2 == 0)  # (n,) quotes that open or close a string
    inside = np.cumsum(quote) % 2 == 1  # (n,) within a string (a closing quote counts as outside)
    step = np.isin(b, (ord("["), ord("{"))).astype(np.int64) - np.isin(b, (ord("]"), ord("}")))  # (n,)
    return int(np.cumsum(np.where(inside, 0, step)).max(initial=0))


def read_file(data: object, paths: Collection[str] | None = None) -> lessons.Lesson:
    """A lesson file's bytes (or text) -> the Lesson, every field checked. ValueError, one line."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if not isinstance(data, bytes | bytearray):
        raise ValueError("a lesson file is text")
    if len(data) > MAX_BYTES:
        raise ValueError(f"this file has {len(data):,} bytes; a lesson file has at most 1 MB")
    if not data.strip():
        raise ValueError("this file is empty")
    if nesting(data) > lessons.MAX_DEPTH:
        raise ValueError(f"this file is nested more than {lessons.MAX_DEPTH} deep: not a lesson file")
    return lessons.loads(bytes(data), paths)


def read_folder(folder: str | Path, paths: Collection[str] | None = None) -> dict[str, lessons.Lesson]:
    """Every lesson file (*.json) of a folder, in name order, each read by `read_file`, keyed by its name
    without its order ("01-recipe-card.json" -> "recipe-card"). ValueError naming the file that does not
    load: a folder of ready lessons loads whole or not at all."""
    out: dict[str, lessons.Lesson] = {}
    for f in sorted(Path(folder).glob("*.json")):
        name = re.sub(r"^\d+-", "", f.stem)
        if name in out:
            raise ValueError(f"{f.name}: a second lesson named {name}")
        try:
            out[name] = read_file(f.read_bytes(), paths)
        except ValueError as err:
            raise ValueError(f"{f.name}: {err}") from None
    return out


def file_name(built: lessons.Lesson | None) -> str:
    """lesson-<its title in lower-case letters and digits>.json"""
    slug = re.sub(r"[^a-z0-9]+", "-", (built.title if built else "").lower()).strip("-")[:40].strip("-")
    return f"lesson-{slug}.json" if slug else "lesson.json"
