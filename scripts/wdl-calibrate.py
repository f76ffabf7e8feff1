#!/usr/bin/env python3
"""Calibrates the win/draw/loss model behind UCI_ShowWDL from Chariot self-play.

Plays GAMES games of Chariot against itself (UCI, fixed depth, a few random opening plies
for variety), records each searched position's score (side to move's view, centipawns)
and the game's final result from that side's view, and fits the two parameters of the
model used in src/protocol/mod.rs::wdl:

    P(win) = 1 / (1 + exp((CENTRE - s) / SCALE)),  P(loss) = same with -s

by maximum likelihood (grid search). Prints the fitted CENTRE and SCALE.

    scripts/wdl-calibrate.py [--games N] [--depth D] [--engine PATH] [--seed S]
Stdlib only; builds nothing (expects target/release/chariot).
"""
import argparse, math, os, random, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "chariot"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    eng = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s):
        eng.stdin.write(s + "\n"); eng.stdin.flush()
    def read_until(prefix):
        lines = []
        while True:
            l = eng.stdout.readline()
            if not l:
                sys.exit("engine died")
            lines.append(l.strip())
            if l.startswith(prefix):
                return lines
    send("uci"); read_until("uciok")
    samples = []  # (score, result from the mover's view: 1, 0.5, 0)
    for g in range(a.games):
        moves = []
        # random opening plies
        for _ in range(rng.choice([2, 3, 4])):
            out = subprocess.run([a.engine, "perft", "1", "--divide", "--moves"] + moves if moves else [a.engine, "perft", "1", "--divide"],
                                 capture_output=True, text=True).stdout.split("\n")
            legal = [l.split(":")[0] for l in out if ":" in l]
            moves.append(rng.choice(legal))
        send("ucinewgame")
        game = []  # (ply, score)
        result = None
        while len(moves) < a.max_plies:
            verdict = subprocess.run([a.engine, "judge", "--moves"] + moves, capture_output=True, text=True).stdout.split("\n")[0]
            if verdict != "result: ongoing":
                result = verdict.split(": ")[1]
                break
            send("position startpos moves " + " ".join(moves))
            send(f"go depth {a.depth}")
            lines = read_until("bestmove")
            score = None
            for l in lines:
                w = l.split()
                if "score" in w and "cp" in w:
                    score = int(w[w.index("cp") + 1])
                elif "score" in w and "mate" in w:
                    score = None
            best = lines[-1].split()[1]
            if best == "(none)":
                result = "black-wins" if len(moves) % 2 == 0 else "red-wins"
                break
            if score is not None:
                game.append((len(moves), score))
            moves.append(best)
        if result is None:
            result = "draw"
        for ply, s in game:
            red_to_move = ply % 2 == 0
            if result == "draw":
                r = 0.5
            else:
                r = 1.0 if (result == "red-wins") == red_to_move else 0.0
            samples.append((s, r))
        print(f"game {g + 1}: {result} after {len(moves)} plies", flush=True)
    send("quit")

    def loglik(centre, scale):
        ll = 0.0
        for s, r in samples:
            s = max(-4000, min(4000, s))
            w = 1 / (1 + math.exp((centre - s) / scale))
            l = 1 / (1 + math.exp((centre + s) / scale))
            d = max(1e-9, 1 - w - l)
            p = w if r == 1.0 else (l if r == 0.0 else d)
            ll += math.log(max(p, 1e-9))
        return ll

    best = max(((loglik(c, sc), c, sc) for c in range(0, 601, 20) for sc in range(20, 401, 10)))
    print(f"samples {len(samples)}; fitted CENTRE {best[1]} SCALE {best[2]} (log-likelihood {best[0]:.1f})")

if __name__ == "__main__":
    main()
