#!/usr/bin/env python3
"""Differential test of `chariot judge --rules axf` against Fairy-Stockfish (pyffish).

Generates repetition cycles from varied positions, deterministic from --seed, and compares
the verdict of `chariot judge --rules axf --json` with pyffish's at the move where a position
occurs for the third time. Run it through scripts/pyffish-diff.sh, which makes the virtual
environment with the pinned pyffish.

Each cycle: a start position (the start position, a FEN of engine-tests/openings.epd or the
end of a line of book/openings.txt / engine-tests/match-openings.epd, then random legal play;
or a sparse endgame-like position made by random play that prefers captures), then each side
repeats a short loop of quiet moves (one piece back and forth, two pieces out and back, or a
rook/cannon/king sliding round three squares of one line) until a position occurs for the
third time. Loops are picked from random candidates towards a target drawn for each side:
checks, attacks on enemy pieces (chases), idle moves, or a mix.

pyffish checks every move of every cycle for legality (and the Python move generator used to
build the cycles is checked against pyffish's legal move list at every ply) and gives its
verdict through is_optional_game_end. Fairy-Stockfish writes ranks 1-10, Chariot's ICCS
ranks 0-9; both are converted here (see iccs_to_fsf / fsf_to_iccs and --self-test).

Output: a report on stdout, every disagreement as one JSON object per line in --out.
Standard library only apart from pyffish.
"""

import argparse
import collections
import json
import multiprocessing
import os
import random
import re
import subprocess
import sys

import pyffish as sf

VARIANT = "xiangqi"
FILES = "abcdefghi"
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------- notation


def iccs_to_fsf(move):
    """ICCS 'h2e2' (ranks 0-9) -> Fairy-Stockfish 'h3e3' (ranks 1-10)."""
    m = re.fullmatch(r"([a-i])([0-9])([a-i])([0-9])", move)
    if not m:
        raise ValueError(f"not an ICCS move: {move!r}")
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def fsf_to_iccs(move):
    """Fairy-Stockfish 'a10a9' (ranks 1-10) -> ICCS 'a9a8' (ranks 0-9)."""
    m = re.fullmatch(r"([a-i])(10|[1-9])([a-i])(10|[1-9])", move)
    if not m:
        raise ValueError(f"not a Fairy-Stockfish xiangqi move: {move!r}")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


# ---------------------------------------------------------------- board model
# Squares 0..89 = rank * 9 + file, rank 0 = Red's back rank (as ICCS). Red pieces upper case.
# Piece letters as in FEN: R rook, N horse, B elephant, A advisor, K king, C cannon, P pawn.


def sq_name(s):
    return f"{FILES[s % 9]}{s // 9}"


def parse_sq(t):
    return int(t[1]) * 9 + FILES.index(t[0])


def is_red(p):
    return p.isupper()


class Board:
    __slots__ = ("sq", "red_to_move")

    def __init__(self, fen):
        parts = fen.split()
        rows = parts[0].split("/")
        if len(rows) != 10:
            raise ValueError(f"bad FEN {fen!r}")
        self.sq = [None] * 90
        for i, row in enumerate(rows):
            rank = 9 - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    p = {"h": "n", "e": "b"}.get(ch.lower(), ch.lower())
                    self.sq[rank * 9 + f] = p.upper() if ch.isupper() else p
                    f += 1
        self.red_to_move = len(parts) < 2 or parts[1] == "w"

    def copy(self):
        b = Board.__new__(Board)
        b.sq = self.sq[:]
        b.red_to_move = self.red_to_move
        return b

    def fen(self):
        rows = []
        for rank in range(9, -1, -1):
            row, empty = "", 0
            for f in range(9):
                p = self.sq[rank * 9 + f]
                if p is None:
                    empty += 1
                else:
                    if empty:
                        row += str(empty)
                        empty = 0
                    row += p
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows) + (" w" if self.red_to_move else " b") + " - - 0 1"

    def key(self):
        return (tuple(self.sq), self.red_to_move)

    def push(self, frm, to):
        """Makes a move; returns what is needed to take it back."""
        cap = self.sq[to]
        self.sq[to] = self.sq[frm]
        self.sq[frm] = None
        self.red_to_move = not self.red_to_move
        return cap

    def pop(self, frm, to, cap):
        self.sq[frm] = self.sq[to]
        self.sq[to] = cap
        self.red_to_move = not self.red_to_move

    def king(self, red):
        k = "K" if red else "k"
        for s in PALACE[red]:
            if self.sq[s] == k:
                return s
        return None

    def pseudo(self, red):
        """Pseudo-legal moves of one side as (from, to) pairs."""
        out = []
        sq = self.sq
        for s in range(90):
            p = sq[s]
            if p is None or is_red(p) != red:
                continue
            k = p.lower()
            f, r = s % 9, s // 9
            if k in "rc":
                for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nf, nr = f + df, r + dr
                    jumped = False
                    while 0 <= nf < 9 and 0 <= nr < 10:
                        t = nr * 9 + nf
                        q = sq[t]
                        if not jumped:
                            if q is None:
                                out.append((s, t))
                            else:
                                if k == "r":
                                    if is_red(q) != red:
                                        out.append((s, t))
                                    break
                                jumped = True
                        elif q is not None:
                            if is_red(q) != red:
                                out.append((s, t))
                            break
                        nf, nr = nf + df, nr + dr
            elif k == "n":
                for df, dr, lf, lr in HORSE_STEPS:
                    nf, nr = f + df, r + dr
                    if 0 <= nf < 9 and 0 <= nr < 10 and sq[(r + lr) * 9 + f + lf] is None:
                        t = nr * 9 + nf
                        q = sq[t]
                        if q is None or is_red(q) != red:
                            out.append((s, t))
            elif k == "b":
                for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
                    nf, nr = f + df, r + dr
                    if not (0 <= nf < 9 and 0 <= nr < 10):
                        continue
                    if (red and nr > 4) or (not red and nr < 5):
                        continue
                    if sq[(r + dr // 2) * 9 + f + df // 2] is not None:
                        continue
                    t = nr * 9 + nf
                    q = sq[t]
                    if q is None or is_red(q) != red:
                        out.append((s, t))
            elif k in "ak":
                steps = ((1, 1), (1, -1), (-1, 1), (-1, -1)) if k == "a" else ((1, 0), (-1, 0), (0, 1), (0, -1))
                for df, dr in steps:
                    nf, nr = f + df, r + dr
                    if not (0 <= nf < 9 and 0 <= nr < 10):
                        continue
                    t = nr * 9 + nf
                    if t not in PALACE[red]:
                        continue
                    q = sq[t]
                    if q is None or is_red(q) != red:
                        out.append((s, t))
            else:  # pawn
                fwd = 1 if red else -1
                steps = [(0, fwd)]
                if (red and r >= 5) or (not red and r <= 4):
                    steps += [(1, 0), (-1, 0)]
                for df, dr in steps:
                    nf, nr = f + df, r + dr
                    if 0 <= nf < 9 and 0 <= nr < 10:
                        t = nr * 9 + nf
                        q = sq[t]
                        if q is None or is_red(q) != red:
                            out.append((s, t))
        return out

    def attacked(self, s, by_red):
        """Is square s attacked by the side by_red (flying general counted for kings)?"""
        sq = self.sq
        f, r = s % 9, s // 9
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nf, nr = f + df, r + dr
            screens = 0
            while 0 <= nf < 9 and 0 <= nr < 10:
                q = sq[nr * 9 + nf]
                if q is not None:
                    if screens == 0:
                        if is_red(q) == by_red and (q.lower() == "r" or (q.lower() == "k" and df == 0)):
                            return True
                        # adjacent king or pawn steps
                        if is_red(q) == by_red and abs(nf - f) + abs(nr - r) == 1:
                            k = q.lower()
                            if k == "k" and s in PALACE[by_red]:
                                return True
                            if k == "p":
                                fwd = 1 if by_red else -1
                                if nr + fwd == r and nf == f:
                                    return True
                                if dr == 0 and ((by_red and nr >= 5) or (not by_red and nr <= 4)):
                                    return True
                        screens = 1
                    else:
                        if is_red(q) == by_red and q.lower() == "c":
                            return True
                        break
                nf, nr = nf + df, nr + dr
        # horses: a horse on s + (df, dr) attacks s when its leg (next to the horse) is empty
        for df, dr, lf, lr in HORSE_STEPS:
            hf, hr = f - df, r - dr
            if 0 <= hf < 9 and 0 <= hr < 10:
                q = sq[hr * 9 + hf]
                if q is not None and is_red(q) == by_red and q.lower() == "n" and sq[(hr + lr) * 9 + hf + lf] is None:
                    return True
        return False

    def in_check(self, red):
        k = self.king(red)
        return k is None or self.attacked(k, not red)

    def legal(self):
        red = self.red_to_move
        out = []
        for frm, to in self.pseudo(red):
            cap = self.push(frm, to)
            ok = not self.in_check(red)
            self.pop(frm, to, cap)
            if ok:
                out.append((frm, to))
        return out

    def targets(self, red):
        """Enemy pieces of value (not the king, not an uncrossed pawn) that `red` can capture
        and that are unprotected or worth more than the attacker: a rough 'chased' for
        steering the generator only (Chariot and pyffish do the judging)."""
        out = set()
        for frm, to in self.pseudo(red):
            q = self.sq[to]
            if q is None or q.lower() == "k" or to in out:
                continue
            if q.lower() == "p" and not ((is_red(q) and to // 9 >= 5) or (not is_red(q) and to // 9 <= 4)):
                continue
            attacker = self.sq[frm].lower()
            if attacker in "kp":
                continue
            if VALUE[q.lower()] > VALUE[attacker]:
                out.add(to)
                continue
            cap = self.push(frm, to)
            if not self.attacked(to, not red):
                out.add(to)
            self.pop(frm, to, cap)
        return out


VALUE = {"r": 4, "n": 2, "c": 2, "a": 1, "b": 1, "p": 1, "k": 9}
# (file step, rank step, leg file step, leg rank step)
HORSE_STEPS = [
    (1, 2, 0, 1), (-1, 2, 0, 1), (1, -2, 0, -1), (-1, -2, 0, -1),
    (2, 1, 1, 0), (2, -1, 1, 0), (-2, 1, -1, 0), (-2, -1, -1, 0),
]
PALACE = {
    True: frozenset(r * 9 + f for r in range(0, 3) for f in range(3, 6)),
    False: frozenset(r * 9 + f for r in range(7, 10) for f in range(3, 6)),
}


def move_kind(board, frm, to):
    """'check', 'attack' (a new target after the move) or 'idle' for the side to move."""
    red = board.red_to_move
    before = board.targets(red)
    cap = board.push(frm, to)
    if board.in_check(not red):
        kind = "check"
    else:
        kind = "attack" if board.targets(red) - before else "idle"
    board.pop(frm, to, cap)
    return kind


# ---------------------------------------------------------------- start positions


def load_bases():
    """FENs to start from: the start position, engine-tests/openings.epd, and the ends of the
    lines of book/openings.txt and engine-tests/match-openings.epd."""
    fens = [START_FEN]
    epd = os.path.join(ROOT, "engine-tests", "openings.epd")
    if os.path.exists(epd):
        for line in open(epd, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                fens.append(" ".join(line.split(";")[0].split()[:2]) + " - - 0 1")
    for rel in ("book/openings.txt", "engine-tests/match-openings.epd"):
        path = os.path.join(ROOT, rel)
        if not os.path.exists(path):
            continue
        for line in open(path, encoding="utf-8"):
            line = line.split(";")[0].strip()
            if not line or line.startswith("#"):
                continue
            b = Board(START_FEN)
            ok = True
            for mv in line.split():
                if not re.fullmatch(r"[a-i][0-9][a-i][0-9]", mv):
                    ok = False
                    break
                m = (parse_sq(mv[:2]), parse_sq(mv[2:]))
                if m not in b.legal():
                    ok = False
                    break
                b.push(*m)
            if ok:
                fens.append(b.fen())
    return fens


def random_play(rng, board, plies, capture_bias):
    for _ in range(plies):
        moves = board.legal()
        if not moves:
            return False
        caps = [m for m in moves if board.sq[m[1]] is not None and board.sq[m[1]].lower() != "k"]
        if caps and rng.random() < capture_bias:
            m = rng.choice(caps)
        else:
            m = rng.choice(moves)
        board.push(*m)
    return bool(board.legal())


def start_position(rng, bases):
    kind = rng.choices(["opening", "middle", "sparse"], [0.2, 0.4, 0.4])[0]
    for _ in range(50):
        b = Board(rng.choice(bases) if rng.random() < 0.85 else START_FEN)
        if kind == "opening":
            ok = random_play(rng, b, rng.randint(0, 12), 0.3)
        elif kind == "middle":
            ok = random_play(rng, b, rng.randint(10, 50), 0.5)
        else:
            ok = random_play(rng, b, rng.randint(20, 100), 0.8)
        if ok and any(p is not None and p.lower() in "rncp" for p in b.sq):
            return kind, b
    return kind, Board(START_FEN)


# ---------------------------------------------------------------- cycles

TARGETS = ["check", "attack", "idle", "mixed", "any"]
TARGET_WEIGHTS = [0.3, 0.4, 0.1, 0.1, 0.1]


def quiet(board, moves):
    return [m for m in moves if board.sq[m[1]] is None]


def loop_for(rng, board, first, shape):
    """A loop of moves for the side to move starting with `first` (from, to), which returns
    that side's pieces to where they stood: None if the shape does not fit."""
    frm, to = first
    if shape == "pair":
        return [(frm, to), (to, frm)]
    if shape == "line3":
        p = board.sq[frm].lower()
        if p not in "rck":
            return None
        # a third square on the same line as frm and to, reachable from `to`
        f1, r1, f2, r2 = frm % 9, frm // 9, to % 9, to // 9
        cand = []
        for m in board.pseudo(board.red_to_move):
            if m[0] != frm:
                continue
            t = m[1]
            if t in (to, frm) or board.sq[t] is not None:
                continue
            if (f1 == f2 == t % 9) or (r1 == r2 == t // 9):
                cand.append(t)
        if not cand:
            return None
        third = rng.choice(cand)
        return [(frm, to), (to, third), (third, frm)]
    return None


def play_loops(board, loops, first_red):
    """Plays the loops in turn from `board` until a position occurs for the third time.
    Returns (moves, kinds) or None if a move is illegal, a capture, or no threefold comes
    within 64 plies."""
    b = board.copy()
    seen = collections.Counter([b.key()])
    moves, kinds = [], []
    idx = [0, 0]
    for ply in range(64):
        side = 0 if b.red_to_move == first_red else 1
        loop = loops[side]
        m = loop[idx[side] % len(loop)]
        idx[side] += 1
        if b.sq[m[1]] is not None or b.sq[m[0]] is None or is_red(b.sq[m[0]]) != b.red_to_move:
            return None
        if m not in b.legal():
            return None
        kinds.append(move_kind(b, *m))
        b.push(*m)
        moves.append(m)
        k = b.key()
        seen[k] += 1
        if seen[k] == 3:
            return moves, kinds
    return None


def score_side(kinds, target):
    if target == "any":
        return 1.0
    n = len(kinds)
    if target == "check":
        return sum(k == "check" for k in kinds) / n
    if target == "attack":
        return sum(k in ("attack", "check") for k in kinds) / n * (0.9 if all(k == "check" for k in kinds) else 1)
    if target == "idle":
        return sum(k == "idle" for k in kinds) / n
    # mixed: some attack and some idle
    return 1.0 if len(set(kinds)) > 1 else 0.3


WANT = {"check": ("check",), "attack": ("attack", "check"), "idle": ("idle",)}


def pick_first(rng, board, target, limit, prev=None, prev_target=None):
    """Candidate first moves for the side to move, those that fit its target first. When the
    opponent's first move `prev` attacked (target check or attack), moves of the attacked
    pieces (escapes, so that the attacker can follow) come first among equals."""
    moves = quiet(board, board.legal())
    rng.shuffle(moves)
    want = WANT.get(target)
    escapes = set()
    if prev is not None and prev_target in ("check", "attack"):
        before = board.copy()
        cap = before.sq[prev[0]]  # the previous move was quiet: undo it on a copy
        before.sq[prev[0]], before.sq[prev[1]] = before.sq[prev[1]], cap
        before.red_to_move = not before.red_to_move
        mover = before.red_to_move
        escapes = board.targets(mover) - before.targets(mover)
        k = board.king(not mover)
        if k is not None and board.in_check(not mover):
            escapes.add(k)

    def key(m):
        fit = 0 if want is None or move_kind(board, *m) in want else 1
        return fit + (0 if m[0] in escapes else 2)

    moves.sort(key=key)
    return moves[:limit]


def directed(rng, board, target, other=None, budget=150):
    """A cycle where the side to move checks or attacks with both moves of one piece going
    back and forth, and the other side answers by moving the checked king or the attacked
    piece back and forth (so that the attacker can follow). When the other side's target
    `other` is 'check' or 'attack' too, answers that check or attack in their turn are tried
    first, and a cycle where both sides attack with every move (mutual) is preferred. None if
    none is found."""
    want = WANT[target]
    want_b = WANT.get(other) if other in ("check", "attack") else None
    red = board.red_to_move
    moves = quiet(board, board.legal())
    rng.shuffle(moves)
    before = board.targets(red)
    fallback = None
    for a in moves:
        if budget <= 0:
            break
        if move_kind(board, *a) not in want:
            continue
        after = board.copy()
        after.push(*a)
        if after.in_check(after.red_to_move):
            movers = {after.king(after.red_to_move)}
        else:
            movers = after.targets(red) - before
        replies = quiet(after, after.legal())
        rng.shuffle(replies)
        if want_b is None:
            replies = [m for m in replies if m[0] in movers][:6]
        else:
            attacking = {m for m in replies if move_kind(after, *m) in want_b}
            replies = sorted(
                (m for m in replies if m[0] in movers or m in attacking),
                key=lambda m: (m not in attacking) + 2 * (m[0] not in movers),
            )[:8]
        for b in replies:
            budget -= 1
            res = play_loops(board, [[a, (a[1], a[0])], [b, (b[1], b[0])]], red)
            if res is None:
                continue
            moves_, kinds = res
            if all(k in want for k in kinds[0::2]):
                if want_b is None or all(k in want_b for k in kinds[1::2]):
                    return moves_, kinds
                if fallback is None:
                    fallback = (moves_, kinds)
    return fallback


def make_cycle(rng, board):
    """Searches loops for both sides; returns (moves, kinds, targets) or None."""
    first_red = board.red_to_move
    targets = (rng.choices(TARGETS, TARGET_WEIGHTS)[0], rng.choices(TARGETS, TARGET_WEIGHTS)[0])
    if targets[0] in ("check", "attack"):
        found = directed(rng, board, targets[0], targets[1])
        if found is not None:
            return found[0], found[1], targets
    best = None
    for a in pick_first(rng, board, targets[0], 10):
        shape_a = rng.choices(["pair", "line3", "two"], [0.75, 0.1, 0.15])[0]
        after_a = board.copy()
        after_a.push(*a)
        if not after_a.legal():
            continue
        for b in pick_first(rng, after_a, targets[1], 10, a, targets[0]):
            shape_b = rng.choices(["pair", "line3", "two"], [0.75, 0.1, 0.15])[0]
            loops = []
            ok = True
            for side, (first, shape, pos) in enumerate(((a, shape_a, board), (b, shape_b, after_a))):
                if shape == "two":
                    # a second piece out and back in between: x out, y out, x back, y back
                    others = [m for m in quiet(pos, pos.legal()) if m[0] != first[0] and m[0] != first[1]]
                    if not others:
                        shape = "pair"
                    else:
                        y = rng.choice(others)
                        loops.append([first, y, (first[1], first[0]), (y[1], y[0])])
                        continue
                lp = loop_for(rng, pos, first, shape)
                if lp is None:
                    lp = loop_for(rng, pos, first, "pair")
                if lp is None:
                    ok = False
                    break
                loops.append(lp)
            if not ok:
                continue
            res = play_loops(board, loops, first_red)
            if res is None:
                continue
            moves, kinds = res
            s = score_side(kinds[0::2], targets[0]) + score_side(kinds[1::2], targets[1]) + rng.random() * 0.05
            if best is None or s > best[0]:
                best = (s, moves, kinds)
            if s >= 2.0:
                break
        if best and best[0] >= 2.0:
            break
    if best is None:
        return None
    return best[1], best[2], targets


# ---------------------------------------------------------------- verdicts


def pyffish_verdict(fen, fsf_moves):
    """'red', 'black', 'draw' or 'ongoing' after the moves, by pyffish."""
    over, value = sf.is_optional_game_end(VARIANT, fen, fsf_moves)
    red_to_move = sf.get_fen(VARIANT, fen, fsf_moves).split()[1] == "w"
    if not over:
        if sf.legal_moves(VARIANT, fen, fsf_moves):
            return "ongoing"
        value = sf.game_result(VARIANT, fen, fsf_moves)
    if value == 0:
        return "draw"
    side_to_move_wins = value > 0
    return "red" if side_to_move_wins == red_to_move else "black"


CHARIOT_RESULT = {"red-wins": "red", "black-wins": "black", "draw": "draw", "ongoing": "ongoing"}


def chariot_verdict(chariot, fen, iccs_moves):
    out = subprocess.run(
        [chariot, "judge", "--rules", "axf", "--json", "--fen", fen, "--moves", *iccs_moves],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        return {"error": (out.stderr or out.stdout).strip()}
    j = json.loads(out.stdout)
    j["verdict"] = CHARIOT_RESULT.get(j["result"], j["result"])
    return j


def side_summary(j, red):
    """Chariot's classes of one side's moves over the cycle, e.g. 'chase' or 'check+idle'."""
    side = "red" if red else "black"
    classes = {c["class"] for c in j.get("cycle", []) if c.get("side") == side}
    return "+".join(sorted(classes)) or "-"


def run_cycle(args):
    """One cycle: build, check with pyffish, judge with Chariot. Returns a dict."""
    seed, index, chariot, bases = args
    rng = random.Random(f"{seed}:{index}")
    for _ in range(20):
        kind, board = start_position(rng, bases)
        made = make_cycle(rng, board)
        if made is not None:
            break
    else:
        return {"index": index, "skipped": "no cycle found"}
    moves, kinds, targets = made
    fen = board.fen()
    iccs = [sq_name(a) + sq_name(b) for a, b in moves]
    fsf = [iccs_to_fsf(m) for m in iccs]
    # pyffish: legality of every move, and the Python generator against its move list
    b = board.copy()
    for i, m in enumerate(fsf):
        legal = sf.legal_moves(VARIANT, fen, fsf[:i])
        mine = sorted(iccs_to_fsf(sq_name(x) + sq_name(y)) for x, y in b.legal())
        if sorted(legal) != mine:
            return {"index": index, "skipped": "move generator differs from pyffish", "fen": fen,
                    "moves": iccs[:i], "pyffish": sorted(legal), "python": mine}
        if m not in legal:
            return {"index": index, "skipped": "illegal by pyffish", "fen": fen, "moves": iccs[: i + 1]}
        b.push(*moves[i])
    fv = pyffish_verdict(fen, fsf)
    # pyffish must not end the game before the last move
    early = None
    if len(fsf) > 1:
        over, _ = sf.is_optional_game_end(VARIANT, fen, fsf[:-1])
        if over:
            early = "pyffish ended the game one ply early"
    cj = chariot_verdict(chariot, fen, iccs)
    if "error" in cj:
        return {"index": index, "skipped": "chariot error: " + cj["error"], "fen": fen, "moves": iccs}
    red_first = board.red_to_move
    # sides of Chariot's cycle moves: the cycle ends at the last move, so count back
    cyc = cj.get("cycle", [])
    n = len(iccs)
    for i, c in enumerate(cyc):
        ply = n - len(cyc) + i  # index into iccs
        c["side"] = "red" if (ply % 2 == 0) == red_first else "black"
    res = {
        "index": index,
        "start": kind,
        "targets": list(targets),
        "fen": fen,
        "moves": iccs,
        "plies": n,
        "gen_kinds": kinds,
        "pyffish": fv,
        "chariot": cj["verdict"],
        "chariot_reason": cj.get("reason", ""),
        "chariot_clauses": cj.get("clauses", []),
        "chariot_ply": cj.get("ply"),
        "chariot_ignored": cj.get("ignored", 0),
        "red": side_summary(cj, True),
        "black": side_summary(cj, False),
    }
    if early:
        res["early"] = early
    return res


def pattern(r):
    p = f"pyffish {r['pyffish']}, Chariot {r['chariot']}: red {r['red']}, black {r['black']}"
    if r.get("early"):
        p += " (" + r["early"] + ")"
    if r.get("chariot_ignored"):
        p += f" (Chariot ended at ply {r['chariot_ply']})"
    return p


# ---------------------------------------------------------------- self-test


def self_test():
    for f in FILES:
        for r in range(10):
            for f2 in FILES:
                m = f"{f}{r}{f2}{r}"
                assert fsf_to_iccs(iccs_to_fsf(m)) == m
    assert iccs_to_fsf("h2e2") == "h3e3"
    assert iccs_to_fsf("a9a8") == "a10a9"
    assert fsf_to_iccs("i10i9") == "i9i8"
    start = sf.start_fen(VARIANT)
    assert Board(start).fen().split()[0] == start.split()[0], (Board(start).fen(), start)
    legal = sf.legal_moves(VARIANT, start, [])
    assert "h3e3" in legal and "b1c3" in legal and "a4a5" in legal, legal
    mine = sorted(iccs_to_fsf(sq_name(a) + sq_name(b)) for a, b in Board(start).legal())
    assert sorted(legal) == mine, (sorted(legal), mine)
    # the position after the central cannon: pyffish and Board agree on the FEN
    b = Board(start)
    b.push(parse_sq("h2"), parse_sq("e2"))
    assert b.fen().split()[0] == sf.get_fen(VARIANT, start, ["h3e3"]).split()[0]
    # a known verdict (engine-tests/verdicts.txt F10): black checks and chases, black loses
    fen = "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1"
    mv = "d1d3 b1b3 d3d1 b3b1 d1d3 b1b3 d3d1 b3b1".split()
    assert pyffish_verdict(fen, [iccs_to_fsf(m) for m in mv]) == "red"
    print("self-test passed")


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chariot", default=os.path.join(ROOT, "target", "release", "chariot"))
    ap.add_argument("--cycles", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (at most 2 advised)")
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "pyffish-diff", "disagreements.jsonl"))
    ap.add_argument("--all-out", help="also write every cycle (JSON lines) here")
    ap.add_argument("--examples", type=int, default=2, help="examples printed per pattern")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    self_test()
    if a.self_test:
        return 0
    if not os.access(a.chariot, os.X_OK):
        print(f"no chariot binary at {a.chariot}", file=sys.stderr)
        return 2
    bases = load_bases()
    work = [(a.seed, i, a.chariot, bases) for i in range(a.cycles)]
    results = []
    with multiprocessing.Pool(max(1, a.jobs)) as pool:
        for n, r in enumerate(pool.imap(run_cycle, work, chunksize=8), 1):
            results.append(r)
            if n % 500 == 0:
                print(f"... {n} cycles", file=sys.stderr, flush=True)
    skipped = [r for r in results if "skipped" in r]
    tried = [r for r in results if "skipped" not in r]
    agree = [r for r in tried if r["pyffish"] == r["chariot"] and not r.get("early") and not r.get("chariot_ignored")]
    differ = [r for r in tried if r not in agree]
    unique = len({(r["fen"], " ".join(r["moves"])) for r in tried})
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", encoding="utf-8") as f:
        for r in differ:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    if a.all_out:
        with open(a.all_out, "w", encoding="utf-8") as f:
            for r in results:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"pyffish {'.'.join(map(str, sf.version()))}, seed {a.seed}, chariot {a.chariot}")
    print(f"cycles generated: {len(results)}, skipped: {len(skipped)}, tried: {len(tried)} ({unique} distinct)")
    for reason, c in collections.Counter(r["skipped"].split(":")[0] for r in skipped).most_common():
        print(f"  skipped, {reason}: {c}")
    both = collections.Counter((r["pyffish"], r["chariot"]) for r in tried)
    print("verdicts (pyffish, Chariot): " + ", ".join(f"{k[0]}/{k[1]} {v}" for k, v in sorted(both.items())))
    fsf_count = collections.Counter(r["pyffish"] for r in tried)
    print("pyffish verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(fsf_count.items())))
    cls = collections.Counter(r["red"] for r in tried) + collections.Counter(r["black"] for r in tried)
    print("Chariot move classes of a side over its cycle: " + ", ".join(f"{k} {v}" for k, v in cls.most_common()))
    rate = 100.0 * len(agree) / len(tried) if tried else 0.0
    print(f"agreements: {len(agree)} of {len(tried)} = {rate:.2f}%")
    print(f"disagreements: {len(differ)} (written to {a.out})")
    groups = collections.defaultdict(list)
    for r in differ:
        groups[pattern(r)].append(r)
    for p, rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(rs):5d}  {p}")
        for r in rs[: a.examples]:
            print(f"         --fen '{r['fen']}' --moves {' '.join(r['moves'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
