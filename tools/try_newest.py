#!/usr/bin/env python3
"""Try the newest Streamlit, plotly, numpy and pandas before refreshing the pins: what breaks?

    python tools/try_newest.py                    # newest releases of the four
    python tools/try_newest.py --pin streamlit==1.68.0 --keep /tmp/ll-venv

Makes a scratch venv (deleted afterwards unless --keep), installs requirements-dev.txt there with
the four packages lifted to their newest releases (or to --pin), then runs, in that venv:
1. the engine room's checks: every private Streamlit name resolves (engine/private.py) and every
   patch installs (engine.install() with strict checks);
2. the unit and AppTest levels (`pytest tests/unit tests/app -x -q`).
It prints the versions it tried, what each step said, and a one-line verdict. Nothing outside the
scratch venv changes; requirements.txt is refreshed by hand afterwards (README, "What the class server
changes inside Streamlit").
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIFTED = ("streamlit", "plotly", "numpy", "pandas")
ENGINE_CHECK = """
import json, os
os.environ["LAYERLAB_STRICT"] = "1"
from engine import private
gone = private.missing()
report = {}
if not gone:
    import engine
    try:
        report = engine.install()
    except Exception as e:
        report = {"error": f"{type(e).__name__}: {e}"}
print(json.dumps({"missing": {n: private.NAMES[n] for n in gone}, "install": report}))
"""


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    print("$", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT, text=True, capture_output=True, **kw)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pin", action="append", default=[], help="a requirement to try instead of the newest, "
                    "e.g. streamlit==1.68.0 (repeatable)")
    ap.add_argument("--keep", default=None, help="make the venv here and keep it")
    args = ap.parse_args()
    venv = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="layerlab-newest-"))
    try:
        if run([sys.executable, "-m", "venv", str(venv)]).returncode:
            print("could not make a venv")
            return 2
        py = str(venv / "bin" / "python")
        # requirements-dev.txt without the four lifted packages' pins, then the four, newest or pinned.
        pinned = {re.split(r"[=<>\[ ]", p, maxsplit=1)[0].lower(): p for p in args.pin}
        reqs = venv / "requirements-try.txt"
        lines = []
        for src in ("requirements.txt", "requirements-dev.txt"):
            for line in (ROOT / src).read_text().splitlines():
                name = re.split(r"[=<>\[ ]", line.strip(), maxsplit=1)[0].lower()
                if line.strip() and not line.lstrip().startswith(("#", "-r")) and name not in LIFTED:
                    lines.append(re.sub(r"==.*", "", line.split("#")[0]).strip())
        lines += [pinned.get(p, p) for p in LIFTED]
        reqs.write_text("\n".join(lines) + "\n")
        done = run([py, "-m", "pip", "install", "-q", "--upgrade", "-r", str(reqs)], timeout=1800)
        if done.returncode:
            print(done.stdout[-2000:], done.stderr[-2000:])
            print("VERDICT: the newest releases do not install together")
            return 1
        versions = run([py, "-c", "import importlib.metadata as m; print(', '.join(f'{p} '"
                        f" + m.version(p) for p in {LIFTED!r}))"]).stdout.strip()
        print("tried:", versions)
        engine_out = run([py, "-c", ENGINE_CHECK], timeout=300)
        print("engine:", (engine_out.stdout or engine_out.stderr).strip()[-2000:])
        tests = run([py, "-m", "pytest", "tests/unit", "tests/app", "-x", "-q", "-p", "no:cacheprovider"],
                    timeout=1800)
        print("tests:", "\n".join(tests.stdout.strip().splitlines()[-15:]))
        ok = engine_out.returncode == 0 and '"missing": {}' in engine_out.stdout \
            and '"error"' not in engine_out.stdout and tests.returncode == 0
        print("VERDICT:", f"{versions}: everything passed; refresh the pins" if ok
              else f"{versions}: something broke (above); keep the pins")
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(venv, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
