#!/usr/bin/env python3
"""Differential check of Chariot's XQF reader (src/records/xqf.rs) against the Python `cchess`
package's reader, over a folder of .xqf files.

    scripts/xqf-diff.py DIR [--show N]

Reads every *.xqf of DIR with cchess (pinned 1.25.5, in target/cchess-venv, made with pip on
first use) and with Chariot (`cargo test --release --test records -- --ignored dump`), then
compares per file: the start position and side to move, every main-line move, the comments
(whitespace folded), and the Red, Black, Event, Title and Result tags. Prints the agreement
count, the moves compared, and the disagreements by kind with N examples (default 10).
Exit status 0 always: disagreements need reading, not a verdict (cchess plays moves that
leave a king in check and drops strings it cannot decode; see the records commit messages).
Real files: the history of github.com/walker8088/cchess holds about 36,000 XQF files.
"""
import json
import os
import subprocess
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "cchess-venv")
VENV_PY = os.path.join(VENV, "bin", "python")


def ensure_venv():
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(VENV_PY):
        print(f"creating {VENV} and installing cchess ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([VENV_PY, "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", "cchess==1.25.5"], check=True)
    os.execv(VENV_PY, [VENV_PY, os.path.abspath(__file__)] + sys.argv[1:])


def oracle(path):
    import contextlib
    import io
    from cchess.read_xqf import read_from_xqf
    rec = {}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            g = read_from_xqf(path)
        rec["fen"] = g.init_board.to_fen()
        rec["version"] = g.info.get("version")
        moves, comments, m = [], [], g.first_move
        while m is not None:
            moves.append(m.to_iccs())
            comments.append(m.annote or "")
            m = m.next_move
        rec["moves"] = moves
        rec["comments"] = ([(0, g.annote.strip())] if (g.annote or "").strip() else []) + [
            (i + 1, c.strip()) for i, c in enumerate(comments) if c.strip()]
        rec["tags"] = {k.capitalize(): g.info.get(k, "") for k in
                       ("red", "black", "event", "title", "result")}
    except Exception as e:  # noqa: BLE001 - any failure is a result here
        rec["error"] = f"{type(e).__name__}: {e}"
    return rec


def fold(text):
    return " ".join(text.split())


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        sys.exit(2)
    ensure_venv()
    folder = os.path.abspath(args[0])
    show = int(args[args.index("--show") + 1]) if "--show" in args else 10
    dump = os.path.join(ROOT, "target", "xqf-diff.jsonl")
    env = dict(os.environ, XQF_DUMP_DIR=folder, XQF_DUMP_OUT=dump)
    subprocess.run(["cargo", "test", "--release", "--quiet", "--test", "records", "--",
                    "--ignored", "dump"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    ours = {}
    for line in open(dump, encoding="utf-8"):
        r = json.loads(line)
        ours[r["file"]] = r
    stats, kinds, examples, versions, moves = Counter(), Counter(), [], Counter(), 0
    for name in sorted(ours):
        a, b = oracle(os.path.join(folder, name)), ours[name]
        if "error" in a:
            stats["cchess cannot read"] += 1
            continue
        versions[a["version"]] += 1
        diff = []
        if a["fen"] != " ".join((b.get("fen") or "- -").split()[:2]):
            diff.append(("start", a["fen"], b.get("fen"), b.get("error")))
        if a["moves"] != b.get("moves"):
            diff.append(("moves", len(a["moves"]), len(b.get("moves") or []), b.get("error")))
        else:
            moves += len(a["moves"])
        ac = [(p, fold(c)) for p, c in a["comments"]]
        bc = [(p, fold(c)) for p, c in b.get("comments", [])]
        if ac != bc:
            diff.append(("comments", ac[:1], bc[:1]))
        for k, v in a["tags"].items():
            want = (v or "").strip() or ("*" if k == "Result" else "")
            if want != b.get("tags", {}).get(k, "*" if k == "Result" else ""):
                diff.append(("tag " + k, v, b.get("tags", {}).get(k)))
        stats["agree" if not diff else "disagree"] += 1
        for d in diff:
            kinds[d[0]] += 1
            examples.append((name,) + d)
    print(f"files: {len(ours)}; {dict(stats)}; moves agreeing: {moves}")
    print(f"versions: {dict(sorted(versions.items()))}")
    print(f"disagreements by kind: {dict(kinds)}")
    for e in examples[:show]:
        print("  ", str(e)[:300])


if __name__ == "__main__":
    main()
