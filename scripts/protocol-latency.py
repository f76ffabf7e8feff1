#!/usr/bin/env python3
"""Protocol latency of the built engine (Python stdlib only; builds nothing).

Measures
  (a) start-up: process launch to the `ucciok` line (median of --launches runs, 20);
  (b) stop: `stop` sent during `go infinite` (after --think ms, 100) to the `bestmove` line
      (median of --tries tries, 100, in one process), in UCCI and in UCI;
  (c) isready: `isready` sent during `go infinite` to `readyok` (same tries), UCCI and UCI;
  (d) CECP: `?` (move now) sent while the engine thinks on `go` under `st 30` to its
      `move` line (same tries).

Usage: scripts/protocol-latency.py [ENGINE] [--launches N] [--tries N] [--think MS]
ENGINE defaults to target/release/chariot (build it first: cargo build --release).
Exit status 1 if the engine does not answer within 10 s.
"""

import argparse
import os
import queue
import statistics
import subprocess
import sys
import threading
import time

TIMEOUT = 10.0


class Engine:
    def __init__(self, path):
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        # each line is stamped when it arrives
        for raw in self.proc.stdout:
            self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        # stamped before writing: the answer may arrive before write() returns
        sent = time.perf_counter()
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return sent

    def wait_for(self, pred, what):
        """Returns the arrival time of the first line satisfying pred."""
        deadline = time.perf_counter() + TIMEOUT
        while True:
            left = deadline - time.perf_counter()
            try:
                stamp, line = self.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                sys.exit(f"error: no {what} within {TIMEOUT} s")
            if line is None:
                sys.exit(f"error: the engine's output ended while waiting for {what}")
            if pred(line):
                return stamp

    def close(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def ms(seconds):
    return seconds * 1000.0


def summary(name, samples):
    s = sorted(samples)
    p90 = s[min(len(s) - 1, int(len(s) * 0.9))]
    print(
        f"{name}: median {ms(statistics.median(s)):.2f} ms  "
        f"(min {ms(s[0]):.2f}, p90 {ms(p90):.2f}, max {ms(s[-1]):.2f}; n={len(s)})"
    )


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine", nargs="?", default=os.path.join(root, "target/release/chariot"))
    ap.add_argument("--launches", type=int, default=20)
    ap.add_argument("--tries", type=int, default=100)
    ap.add_argument("--think", type=int, default=100, help="ms of search before stop")
    args = ap.parse_args()
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"error: {args.engine} is not an executable (cargo build --release)")
    print(f"engine: {args.engine}")

    # (a) start-up to ucciok
    startup = []
    for _ in range(args.launches):
        e = Engine(args.engine)
        e.send("ucci")
        startup.append(e.wait_for(lambda l: l == "ucciok", "ucciok") - e.t0)
        e.close()
    summary("start-up to ucciok", startup)

    # (b) stop -> bestmove and (c) isready -> readyok, while searching, in both dialects
    openings = ["h2e2 h9g7", "b2e2 b9c7", "h0g2 h9g7", "c3c4 g6g5", "b0c2 h7e7"]
    for dialect, ok in (("ucci", "ucciok"), ("uci", "uciok")):
        e = Engine(args.engine)
        e.send(dialect)
        e.wait_for(lambda l, ok=ok: l == ok, ok)
        stops, readies = [], []
        for i in range(args.tries):
            # vary the position a little so that the hash table does not make it trivial
            e.send(f"position startpos moves {openings[i % 5]}")
            e.send("go infinite")
            time.sleep(args.think / 2000.0)
            sent = e.send("isready")
            readies.append(e.wait_for(lambda l: l == "readyok", "readyok") - sent)
            time.sleep(args.think / 2000.0)
            sent = e.send("stop")
            got = e.wait_for(lambda l: l.startswith("bestmove") or l == "nobestmove", "bestmove")
            stops.append(got - sent)
        e.close()
        summary(f"{dialect.upper()} stop to bestmove", stops)
        summary(f"{dialect.upper()} isready to readyok while searching", readies)

    # (d) CECP: `?` while thinking -> `move`
    e = Engine(args.engine)
    e.send("xboard")
    e.send("protover 2")
    e.wait_for(lambda l: l.startswith("feature") and "done=1" in l, "feature done=1")
    nows = []
    for i in range(args.tries):
        e.send("new")
        e.send("variant xiangqi")
        e.send("force")
        e.send("st 30")
        for m in openings[i % 5].split()[:1]:
            e.send(f"usermove {m}")
        e.send("go")
        time.sleep(args.think / 1000.0)
        sent = e.send("?")
        got = e.wait_for(lambda l: l.startswith("move "), "move")
        nows.append(got - sent)
    e.close()
    summary("CECP ? to move", nows)

if __name__ == "__main__":
    main()
