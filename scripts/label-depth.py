#!/usr/bin/env python3
"""How well search scores of different depths predict the game's result.

    scripts/label-depth.py [--bin BIN] [--nodes 3000,10000,30000] [--per-game 3]
                           [--seed 1] [--k 400] [--samples 200] [--save FILE] GAMES...
    scripts/label-depth.py --load FILE [--nodes ...] [--k 400] [--samples 200] [--seed 1]

Samples up to --per-game positions from each game of the training-games files (`chariot
nnue gen`; the positions the trainer could keep: searched, not a capture, score within
+-3000; checks are not filtered), searches each again with `BIN go --nodes N --hash 16`
(a cold table, one thread) for every N of --nodes, and prints for each source of scores
(each N, and `game`: the score the generator's own search stored) the cross-entropy of
sigmoid(score / K) against the result from the side to move's view (win 1, draw 0.5, loss
0), at --k and at the K fitted to that source, then the difference between sources with a
95 % interval from a bootstrap over whole games (a position any source scores as a mate or
beyond +-3000 is left out of all). Lower is better: a source whose scores
predict the result better is a better training target for the net's score part.
--save FILE writes every position's scores as JSON lines; --load FILE reads them back instead
of searching (give the same --nodes). Python standard library only.
"""
import argparse
import json
import math
import random
import re
import struct
import subprocess
import sys

NO_SCORE = -32768


def fail(msg):
    print(f"label-depth.py: {msg}", file=sys.stderr)
    sys.exit(2)


def square(i):
    return "%s%d" % (chr(97 + i % 9), i // 9)


def read_games(path):
    try:
        b = open(path, "rb").read()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if len(b) < 16 or b[:8] != b"CHARGAME":
        fail(f"{path}: not a Chariot training-games file (bad magic bytes)")
    version = struct.unpack_from("<I", b, 8)[0]
    if version != 1:
        fail(f"{path}: training-games format version {version}, this script reads 1")
    at, start, games = 16, 16, []
    try:
        while at < len(b):
            start = at
            n = struct.unpack_from("<H", b, at)[0]
            fen = b[at + 2:at + 2 + n].decode()
            at += 2 + n
            result = b[at]
            count = struct.unpack_from("<H", b, at + 2)[0]
            at += 4
            moves = []
            for i in range(count):
                m, s = struct.unpack_from("<Hh", b, at + 4 * i)
                moves.append((square(m & 0x7F) + square(m >> 7), s))
            at += 4 * count
            if result > 2 or at > len(b):
                raise ValueError
            games.append((fen, result, moves))
    except (struct.error, ValueError, UnicodeDecodeError):
        fail(f"{path}: damaged game record at byte {start}")
    return games


def occupied(fen):
    squares = set()
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                squares.add("%s%d" % (chr(97 + f), 9 - r))
                f += 1
    return squares


def sample(games, per_game, rnd):
    out = []
    for g, (fen, result, moves) in enumerate(games):
        occ, red_first = occupied(fen), fen.split()[1] == "w"
        candidates = []
        for i, (m, s) in enumerate(moves):
            if s != NO_SCORE and abs(s) <= 3000 and m[2:] not in occ:
                red = red_first == (i % 2 == 0)
                r = (0.0, 0.5, 1.0)[result]
                candidates.append((i, s, r if red else 1.0 - r))
            occ.discard(m[:2])
            occ.add(m[2:])
        for i, s, r in rnd.sample(candidates, min(per_game, len(candidates))):
            out.append({"game": g, "ply": i, "fen": fen, "moves": [m for m, _ in moves[:i]],
                        "result": r, "game_score": s})
    return out


def search(binary, pos, nodes):
    cmd = [binary, "go", "--fen", pos["fen"], "--nodes", str(nodes), "--hash", "16"]
    if pos["moves"]:
        cmd += ["--moves"] + pos["moves"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail(f"{binary} go failed: {e}")
    scores = re.findall(r"^info depth .*?score (cp|mate) (-?\d+)", out, re.M)
    if not scores:
        return None
    kind, value = scores[-1]
    if kind == "mate":
        return 30000 if int(value) > 0 else -30000
    return int(value)


def loss(rows, source, k):
    total = 0.0
    for r in rows:
        q = 1.0 / (1.0 + math.exp(-r[source] / k))
        q = min(max(q, 1e-9), 1 - 1e-9)
        total -= r["result"] * math.log(q) + (1 - r["result"]) * math.log(1 - q)
    return total / len(rows)


def search_all(a, nodes, rnd):
    games = [g for path in a.games for g in read_games(path)]
    positions = sample(games, a.per_game, rnd)
    if not positions:
        fail("no position to sample")
    rows = []
    for done, p in enumerate(positions, 1):
        row = {"index": p["game"], "ply": p["ply"], "result": p["result"],
               "game": p["game_score"]}
        for n in nodes:
            row[str(n)] = search(a.bin, p, n)
        rows.append(row)
        if done % 500 == 0:
            print(f"{done} of {len(positions)} positions searched", file=sys.stderr)
    if a.save:
        with open(a.save, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    return rows


def load(path, sources):
    rows = []
    try:
        with open(path) as f:
            for i, line in enumerate(f, 1):
                r = json.loads(line)
                if not all(k in r for k in sources + ["index", "result"]):
                    fail(f"{path}:{i}: no score for one of {','.join(sources)}")
                rows.append(r)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        fail(f"{path}: not a --save file (bad JSON line)")
    if not rows:
        fail(f"{path}: no positions")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*")
    ap.add_argument("--bin", default="target/release/chariot")
    ap.add_argument("--nodes", default="3000,10000,30000")
    ap.add_argument("--per-game", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--k", type=float, default=400.0)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--save")
    ap.add_argument("--load")
    a = ap.parse_args()
    try:
        nodes = [int(n) for n in a.nodes.split(",")]
    except ValueError:
        fail(f"--nodes: not a list of numbers: {a.nodes}")
    if not nodes or min(nodes) < 1 or a.per_game < 1 or a.k <= 0 or a.samples < 1:
        fail("--nodes, --per-game, --k and --samples must be positive")
    if bool(a.load) == bool(a.games):
        fail("give either training-games files or --load FILE")
    rnd = random.Random(a.seed)
    sources = [str(n) for n in nodes] + ["game"]
    if a.load:
        rows = load(a.load, sources)
    else:
        rows = search_all(a, nodes, rnd)
    games = len({r["index"] for r in rows})
    rows = [r for r in rows if all(r[s] is not None and abs(r[s]) <= 3000 for s in sources)]
    by_game = {}
    for r in rows:
        by_game.setdefault(r["index"], []).append(r)
    print(f"{len(rows)} positions from {len(by_game)} games (of {games}), K = {a.k:g}")
    print("source   cross-entropy   fitted K   at fitted K")
    for s in sources:
        fitted = min(range(100, 1001, 10), key=lambda k: loss(rows, s, k))
        print(f"{s:<8} {loss(rows, s, a.k):13.5f} {fitted:10d} {loss(rows, s, fitted):13.5f}")
    keys = sorted(by_game)
    pairs = list(zip(sources[:-1], sources[1:-1])) + [(s, "game") for s in sources[:-1]]
    print(f"difference, bootstrap over games ({a.samples} samples, seed {a.seed}):")
    for x, y in pairs:
        diffs = []
        for _ in range(a.samples):
            drawn = [r for g in (rnd.choice(keys) for _ in keys) for r in by_game[g]]
            diffs.append(loss(drawn, y, a.k) - loss(drawn, x, a.k))
        diffs.sort()
        lo, hi = diffs[int(0.025 * len(diffs))], diffs[int(0.975 * len(diffs)) - 1]
        print(f"  {y} - {x}: {sum(diffs) / len(diffs):+.5f} (95 % {lo:+.5f} .. {hi:+.5f})")


if __name__ == "__main__":
    main()
