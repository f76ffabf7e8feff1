#!/usr/bin/env python3
"""The casebook's clause coverage, and its repetition checks.

    scripts/verdicts-coverage.py            # prints engine-tests/verdicts-coverage.md's table
    scripts/verdicts-coverage.py --check    # checks every line's repetition structure

The table lists every clause of CXA 2010 chapters 24-29 (the CXA rule book, 2010 revision) with the casebook
lines that cite it (field 6 of engine-tests/verdicts.txt). --check replays each line on a
plain position model (placement + side to move; legality is left to `cargo test`): a
repetition line must reach a position for the 3rd time exactly at its last move, with no
position 3 times before and no capture inside the cycle; any other line must have no
position 3 times.
"""
import collections
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASEBOOK = os.path.join(ROOT, 'engine-tests', 'verdicts.txt')

# CXA 2010 chapters 24-29: every clause and numbered sub-clause, with a few words each
CLAUSES = [
    ('24.1', 'pending position: the third repetition'),
    ('24.2', 'the cycle counts from its first move; a capture is not part of it'),
    ('24.3', 'fewer than three repetitions: no ruling'),
    ('24.4', 'two points three times = six rounds; 3+ points, 9 rounds (optional)'),
    ('24.5.1', 'one-sided perpetual check loses'),
    ('24.5.2', 'both allowed or both forbidden: draw'),
    ('24.5.3', 'forbidden against allowed: the forbidden side must change'),
    ('25.1', 'what 棋例 are'),
    ('25.2', 'which pieces have value'),
    ('25.3', 'piece values'),
    ('25.4', 'a strong piece for weak pieces is no gain'),
    ('25.5', 'pawns: no gain from a pawn, from an uncrossed or just-crossed pawn'),
    ('25.6', 'an extra crossed pawn, advisor or elephant after exchanges is a gain'),
    ('26.1', 'one-sided perpetual check is never allowed'),
    ('26.2', 'both allowed: draw'),
    ('26.3', 'both forbidden: draw'),
    ('26.4', 'forbidden against allowed: the forbidden side loses'),
    ('27.1', 'the king by itself attacking is idle'),
    ('27.2', 'a pawn by itself attacking is idle'),
    ('27.3', 'key defensive point: incidental attack on advisor/elephant is idle'),
    ('27.4', 'self-inflicted mate threat (自毙)'),
    ('27.5', 'several functions: the most severe'),
    ('27.6', 'same-type exchange offer that would mate'),
    ('28.1', '将 check'),
    ('28.2', '杀 mate threat'),
    ('28.3', '捉 chase'),
    ('28.4', '兑 exchange offer'),
    ('28.5', '献 sacrifice'),
    ('28.6', '拦 block'),
    ('28.7', '跟 follow'),
    ('28.8', '闲 idle'),
    ('28.9', '长将'),
    ('28.10', '长杀'),
    ('28.11', '长捉 of one or several pieces'),
    ('28.12', '长兑 (and 长献, 长拦, 长跟)'),
    ('28.13', 'forbidden moves'),
    ('28.14', 'allowed moves'),
    ('28.15', 'protected, unprotected, insufficiently protected'),
    ('28.16', 'true and false roots (printed 24.16)'),
    ('28.17', 'joint and cooperative chases'),
    ('28.18', '自毙 defined'),
    ('29.1.1', 'the moving piece chases'),
    ('29.1.2', 'a static piece chases'),
    ('29.1.3', 'moving and static piece chase together'),
    ('29.2.1', 'direct gain; lower value attacking higher'),
    ('29.2.2', 'gain by a check first (抽吃)'),
    ('29.2.3', 'gain through a complete exchange'),
    ('29.3.1', 'the chase must be new'),
    ('29.3.2', 'the victim is unprotected (false root, insufficient root)'),
    ('29.3.3', 'the capture must not get the capturer mated at once'),
    ('29.4', 'a root or a tied piece capturing: chase only if the exchange is even or better'),
    ('29.5', 'a root net-capturing a piece attacked before: idle'),
    ('29.6', 'own piece left unprotected and attacked: self-abandon'),
    ('29.7', 'perpetual chaser of an unprotected piece/rook against attacks on protected pieces'),
]


def cases():
    for line in open(CASEBOOK, encoding='utf-8'):
        if line.startswith('#') or '|' not in line:
            continue
        yield [f.strip() for f in line.split('|')]


def table():
    cited = collections.defaultdict(list)
    for f in cases():
        for c in f[5].split():
            cited[c].append(f[0])
    out = ['| clause | what | cases |', '|---|---|---|']
    missing = []
    for c, what in CLAUSES:
        ids = cited.get(c, [])
        if not ids:
            missing.append(c)
        out.append('| %s | %s | %s |' % (c, what, ', '.join(ids) if ids else '**none**'))
    return '\n'.join(out), missing, sum(1 for _ in cases())


def parse_fen(fen):
    board = {}
    rows = fen.split()[0].split('/')
    for i, row in enumerate(rows):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 9 - i)] = ch
                f += 1
    return board, fen.split()[1]


def structure(fen, moves):
    """None if the line is well formed, else what is wrong."""
    board, side = parse_fen(fen)
    keys = [(tuple(sorted(board.items())), side)]
    caps = [False]
    for m in moves:
        a, b = (ord(m[0]) - 97, int(m[1])), (ord(m[2]) - 97, int(m[3]))
        p = board.pop(a, None)
        if p is None or p.isupper() != (side == 'w'):
            return 'no piece of the side to move on ' + m[:2]
        caps.append(b in board)
        board[b] = p
        side = 'b' if side == 'w' else 'w'
        keys.append((tuple(sorted(board.items())), side))
    seen = collections.Counter()
    for i, k in enumerate(keys[:-1]):
        seen[k] += 1
        if seen[k] >= 3:
            return 'a position occurs for the 3rd time at ply %d, before the last move' % i
    if seen[keys[-1]] + 1 >= 3:
        first = keys.index(keys[-1])
        if any(caps[first + 1:]):
            return 'a capture inside the cycle'
    return None


def check():
    bad = 0
    for f in cases():
        why = structure(f[1], f[2].split())
        if why:
            bad += 1
            print('%s: %s' % (f[0], why))
    return bad


if __name__ == '__main__':
    if '--check' in sys.argv[1:]:
        n = check()
        print('%d lines with problems' % n)
        sys.exit(1 if n else 0)
    t, missing, n = table()
    print(t)
    print()
    print('%d cases; clauses without a case: %s' % (n, ', '.join(missing) if missing else 'none'))
