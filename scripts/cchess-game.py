#!/usr/bin/env python3
"""Chariot against itself through the PyPI `cchess` package's engine classes.

Plays one game with `cchess.UcciEngine` (UCCI) and one with `cchess.UciEngine` (UCI), one
engine process per side, at a small fixed depth (or movetime). Every move the engine returns
is checked against cchess's own board (`ChessBoard.is_valid_iccs_move` plus
`is_checked_move`, i.e. the move is pseudo-legal and does not leave the mover's king
attacked, flying general included). A game ends when the side to move has no legal move
(checkmate or stalemate: a loss in Xiangqi), when an engine answers `nobestmove`,
`bestmove (none)` or `... resign`, when a position occurs for the third time (adjudicated by
this script; the final verdict under the full rules comes from `chariot judge`), or at the
ply cap. The moves and the result of each game are printed.

The engine sees the whole game: cchess's `go_from(fen, params)` sends `position fen <fen>`,
and the script passes `<start FEN> moves <m1> ...` as the FEN argument.

Set-up: creates a virtual environment in target/cchess-venv (python3 -m venv) and installs
`cchess` there with pip on first use, then re-runs itself inside it. Builds nothing.

Usage: scripts/cchess-game.py [ENGINE] [--depth N | --movetime MS] [--max-plies N]
ENGINE defaults to target/release/chariot. Exit status 0 when both games ran to an end
with only legal moves, 1 otherwise.
"""

import argparse
import os
import subprocess
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "cchess-venv")
VENV_PY = os.path.join(VENV, "bin", "python")
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MOVE_TIMEOUT = 60.0


def ensure_venv():
    """Re-runs this script inside target/cchess-venv, creating it when needed."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if not os.path.exists(VENV_PY):
        print(f"creating {VENV} and installing cchess ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run(
            [VENV_PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "cchess"],
            check=True,
        )
    os.execv(VENV_PY, [VENV_PY, os.path.abspath(__file__)] + sys.argv[1:])


def legal(board, iccs):
    from cchess import iccs2pos

    if len(iccs) != 4 or iccs[0] not in "abcdefghi" or iccs[2] not in "abcdefghi":
        return False
    if not (iccs[1].isdigit() and iccs[3].isdigit()):
        return False
    if not board.is_valid_iccs_move(iccs):
        return False
    frm, to = iccs2pos(iccs)
    return not board.is_checked_move(frm, to)


def start_engine(cls, path, options):
    eng = cls()
    if not eng.load(path):
        raise RuntimeError(f"cchess could not start {path}")
    if not eng.wait_for_ready(timeout=10):
        raise RuntimeError(f"{cls.__name__}: no {eng.ok_resp()} within 10 s")
    for name, value in options.items():
        eng.set_option(name, value)
    return eng


def stop_engine(eng):
    try:
        eng.quit()
    except Exception:
        pass
    eng.running = False
    try:
        eng.process.wait(timeout=5)
    except Exception:
        eng.process.kill()


def think(eng, position, params):
    """Sends the position and go through cchess; returns (kind, move, raw line)."""
    eng.go_from(position, params)
    deadline = time.time() + MOVE_TIMEOUT
    while time.time() < deadline:
        act = eng.get_action()
        if act is None:
            time.sleep(0.002)
            continue
        kind = act.get("action")
        if kind in ("bestmove", "dead", "draw"):
            return kind, act.get("move"), act.get("raw_msg", "")
    raise RuntimeError(f"no bestmove within {MOVE_TIMEOUT} s for: position fen {position}")


def judge(engine_path, moves):
    """Chariot's own verdict under the full rules (first line of `chariot judge`)."""
    if not moves:
        return "result: ongoing"
    try:
        out = subprocess.run(
            [engine_path, "judge", "--moves", *moves],
            capture_output=True,
            text=True,
            timeout=60,
        )
        return (out.stdout.strip().splitlines() or [out.stderr.strip()])[0]
    except Exception as e:  # the verdict is extra information only
        return f"(judge failed: {e})"


def play(label, cls, engine_path, options, params, max_plies):
    from cchess import ChessBoard

    print(f"\n=== {label}: {cls.__name__}, go {params}, ply cap {max_plies}", flush=True)
    engines = [start_engine(cls, engine_path, options), start_engine(cls, engine_path, options)]
    for e in engines:
        ident = e.ids.get("name", "?")
        print(f"engine: {ident} ({len(e.options)} options advertised)")
    board = ChessBoard(START_FEN)
    moves, seen = [], Counter([board.to_fen()])
    result, ok = None, True
    started = time.time()
    try:
        while result is None:
            side = len(moves) % 2
            color = "Red" if side == 0 else "Black"
            if board.no_moves():
                result = f"{'Black' if side == 0 else 'Red'} wins: {color} has no legal move"
                break
            if len(moves) >= max_plies:
                result = f"ply cap ({max_plies}) reached"
                break
            position = START_FEN + (" moves " + " ".join(moves) if moves else "")
            kind, move, raw = think(engines[side], position, params)
            if kind == "dead" or move is None:
                if "resign" in raw.split():
                    result = f"{color} resigns ('{raw}')"
                else:
                    result = f"{color} has no move according to the engine ('{raw}')"
                    if not board.no_moves():
                        result += " -- but cchess sees legal moves"
                        ok = False
                break
            if not legal(board, move):
                result = f"ILLEGAL move {move} by {color} at ply {len(moves) + 1} ('{raw}')"
                ok = False
                break
            board.move_iccs(move)
            board.next_turn()
            moves.append(move)
            words = raw.split()
            if "resign" in words[2:]:
                result = f"{color} plays {move} and resigns"
                break
            fen = board.to_fen()
            seen[fen] += 1
            if seen[fen] >= 3:
                result = "third occurrence of a position (stopped by this script)"
                break
    except Exception as e:
        result = f"ERROR: {e}"
        ok = False
    finally:
        for e in engines:
            stop_engine(e)
    for i in range(0, len(moves), 20):
        row = moves[i : i + 20]
        print(f"{i // 2 + 1:>4}. " + " ".join(row))
    elapsed = time.time() - started
    print(f"result: {result} after {len(moves)} plies ({elapsed:.1f} s)")
    print(f"chariot judge: {judge(engine_path, moves)}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine", nargs="?", default=os.path.join(ROOT, "target/release/chariot"))
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--movetime", type=int, help="ms per move instead of a depth")
    ap.add_argument("--max-plies", type=int, default=200)
    args = ap.parse_args()
    engine = os.path.abspath(args.engine)
    if not os.access(engine, os.X_OK):
        sys.exit(f"error: {engine} is not an executable (cargo build --release)")
    ensure_venv()
    import cchess

    try:
        from importlib.metadata import version

        print(f"cchess {version('cchess')} from {os.path.dirname(cchess.__file__)}")
    except Exception:
        pass
    params = {"movetime": args.movetime} if args.movetime else {"depth": args.depth}
    ok = play(
        "game 1 (UCCI)",
        cchess.UcciEngine,
        engine,
        {"hashsize": 16},
        params,
        args.max_plies,
    )
    ok &= play(
        "game 2 (UCI)",
        cchess.UciEngine,
        engine,
        {"Hash": 16},
        params,
        args.max_plies,
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
