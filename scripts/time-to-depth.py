#!/usr/bin/env python3
"""Time to depth of UCI engines on Chariot's bench positions, side by side.

    scripts/time-to-depth.py [--depth D] [--hash MB] [--positions N] ENGINE [ENGINE ...]

Each ENGINE is a command line (split like a shell), e.g. `target/release/chariot` or
`/path/to/pikafish`. Every engine searches every bench position (`chariot bench` prints them;
the first ENGINE that is Chariot, else `target/release/chariot`, is asked for them), position
by position with the engines in turn (so a change of load falls on all alike), with
`ucinewgame`, `position fen F`, `go depth D`, one thread and the given hash. The time of an
iteration is the `time` field of the last `info depth d` line the engine printed for depth d
(its own clock). Prints, per depth, how many positions reached it and the median time in
ms for each engine, then each engine's nodes and nodes/s over the whole run. Python stdlib
only; builds nothing. Run it on an otherwise idle machine: times are what it measures.
"""

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import threading
import queue

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Engine:
    def __init__(self, cmd, hash_mb):
        self.cmd = cmd
        self.proc = subprocess.Popen(
            shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.name = cmd
        for line in self.until("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name "):]
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")
        self.send("isready")
        list(self.until("readyok"))

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, timeout=600):
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                raise RuntimeError(f"{self.cmd}: the engine exited")
            yield line
            if line.startswith(prefix):
                return

    def search(self, fen, depth):
        """{depth: (time ms, nodes)} of each iteration, from the info lines."""
        self.send("ucinewgame")
        self.send("isready")
        list(self.until("readyok"))
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        out = {}
        for line in self.until("bestmove"):
            w = line.split()
            if len(w) < 2 or w[0] != "info" or "depth" not in w or "time" not in w:
                continue
            if "lowerbound" in w or "upperbound" in w or "currmove" in w:
                continue
            d = int(w[w.index("depth") + 1])
            t = int(w[w.index("time") + 1])
            n = int(w[w.index("nodes") + 1]) if "nodes" in w else 0
            out[d] = (t, n)
        return out

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def bench_positions(chariot):
    out = subprocess.run([chariot, "bench", "--depth", "1"], capture_output=True, text=True,
                         check=True).stdout
    fens = []
    for line in out.splitlines():
        if line.startswith("position ") and " ms  " in line:
            fens.append(line.split(" ms  ", 1)[1].strip())
    if not fens:
        sys.exit("no bench positions from " + chariot)
    return fens


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--positions", type=int, default=0, help="only the first N positions")
    a = ap.parse_args()
    chariot = next((shlex.split(e)[0] for e in a.engines if "chariot" in e),
                   os.path.join(REPO, "target", "release", "chariot"))
    fens = bench_positions(chariot)
    if a.positions:
        fens = fens[:a.positions]
    # position by position, each engine in turn, so that a change in the machine's load
    # falls on all of them alike
    engines = [Engine(cmd, a.hash) for cmd in a.engines]
    results = [(e.name, []) for e in engines]
    for i, fen in enumerate(fens):
        for e, (_, per) in zip(engines, results):
            per.append(e.search(fen, a.depth))
        print(f"# position {i + 1}/{len(fens)} done", file=sys.stderr)
    for e in engines:
        e.close()
    names = [n for n, _ in results]
    print(f"time to depth (ms, median over the positions that reached it), "
          f"{len(fens)} bench positions, hash {a.hash} MiB, 1 thread")
    print("depth  " + "  ".join(f"{n[:24]:>24}" for n in names))
    for d in range(1, a.depth + 1):
        cells = []
        for _, per in results:
            ts = [p[d][0] for p in per if d in p]
            cells.append(f"{statistics.median(ts):>14.0f} ({len(ts):>2} pos)" if ts else f"{'-':>24}")
        print(f"{d:>5}  " + "  ".join(cells))
    for name, per in results:
        nodes = sum(max(p.values())[1] if p else 0 for p in per)
        ms = sum(max(p.values())[0] if p else 0 for p in per)
        print(f"{name}: {nodes} nodes in {ms / 1000:.1f} s, {nodes / max(ms, 1) * 1000:.0f} nodes/s")


if __name__ == "__main__":
    main()
