#!/usr/bin/env python3
"""Ratings for the Skill Level ladder from every match played between its players.

    scripts/ladder-fit.py [--anchor NAME=ELO] [--prior DRAWS] DIR_OR_JSON...

Reads the `chariot match --json` files given (a directory: every *.json in it), pools the
W-D-L of each pair of players (the same name is the same player in every file), and fits one
rating per player by maximum likelihood under the Elo model (a game's expected score is
1 / (1 + 10^(-diff/400)); a draw counts half a point). `--prior` adds that many virtual
draws to each pair that played (default 1, as BayesElo does), so a pair that went 20-0 has a
finite gap. The ratings are shifted so the anchor player has the anchor rating (default
ElephantEye=2000: ElephantEye 3.31 at its default settings). Then the levels (players named
L<n>) are made monotone in n by weighted isotonic regression (pool adjacent violators,
weights = games played), since a stronger setting cannot be weaker; both columns are printed,
with each player's games and the standard error of its fitted rating (from the curvature of
the likelihood, relative to the anchor). Last, the knots `UCI_Elo` interpolates between
(src/engine/skill.rs, `RATED_LEVELS`): one per run of equal monotone ratings, at the run's
mean level (its first level at the bottom, its last at the top), so the table is strictly
increasing and every rating in its range maps to one level.
"""
import json
import math
import os
import re
import sys


def load(paths):
    pairs = {}
    for p in paths:
        files = [os.path.join(p, f) for f in sorted(os.listdir(p)) if f.endswith(".json")] \
            if os.path.isdir(p) else [p]
        for f in files:
            try:
                d = json.load(open(f))
            except (OSError, ValueError) as e:
                sys.exit(f"error: {f}: {e}")
            for q in d.get("pairs", []):
                a, b = q["first"], q["second"]
                w, dr, l = q["wins"], q["draws"], q["losses"]
                if (b, a) in pairs:
                    a, b, w, l = b, a, l, w
                s = pairs.setdefault((a, b), [0, 0, 0])
                s[0] += w
                s[1] += dr
                s[2] += l
    return pairs


def expected(d):
    return 1.0 / (1.0 + 10.0 ** (-d / 400.0))


def fit(pairs, prior, anchor):
    players = sorted({p for k in pairs for p in k})
    if anchor not in players:
        sys.exit(f"error: the anchor {anchor} played no game")
    idx = {p: i for i, p in enumerate(players)}
    n = len(players)
    # points and games of each pair, with the prior's virtual draws
    data = [(idx[a], idx[b], w + (dr + prior) / 2.0, w + dr + l + prior)
            for (a, b), (w, dr, l) in pairs.items()]
    r = [0.0] * n
    k = math.log(10) / 400.0
    for _ in range(200):
        # Newton's method on the log-likelihood, the anchor held at 0
        g = [0.0] * n
        h = [[0.0] * n for _ in range(n)]
        for i, j, s, m in data:
            e = expected(r[i] - r[j])
            gi = k * (s - m * e)
            g[i] += gi
            g[j] -= gi
            c = k * k * m * e * (1 - e)
            h[i][i] -= c
            h[j][j] -= c
            h[i][j] += c
            h[j][i] += c
        free = [i for i in range(n) if i != idx[anchor]]
        step = solve([[h[i][j] for j in free] for i in free], [-g[i] for i in free])
        for i, s in zip(free, step):
            r[i] += max(-200.0, min(200.0, s))
        if max(abs(s) for s in step) < 1e-6:
            break
    # standard errors: the inverse of the negative Hessian (free players)
    free = [i for i in range(n) if i != idx[anchor]]
    cov = invert([[-h[i][j] for j in free] for i in free])
    se = [0.0] * n
    for a, i in enumerate(free):
        se[i] = math.sqrt(max(cov[a][a], 0.0))
    games = [0] * n
    for i, j, _, m in data:
        games[i] += m - prior
        games[j] += m - prior
    return players, r, se, games


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(m[i][c]))
        m[c], m[p] = m[p], m[c]
        for i in range(n):
            if i != c and m[c][c] != 0:
                f = m[i][c] / m[c][c]
                for j in range(c, n + 1):
                    m[i][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def invert(a):
    n = len(a)
    return [list(col) for col in zip(*[solve(a, [1.0 if i == j else 0.0 for i in range(n)])
                                        for j in range(n)])]


def isotonic(values, weights):
    """Pool adjacent violators: the non-decreasing sequence closest in weighted squares."""
    blocks = []  # [mean, weight, count]
    for v, w in zip(values, weights):
        blocks.append([v, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, w2, c2 = blocks.pop()
            v1, w1, c1 = blocks.pop()
            blocks.append([(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    out = []
    for v, _, c in blocks:
        out += [v] * c
    return out


def main(argv):
    anchor, rating, prior, paths = "ElephantEye", 2000.0, 1.0, []
    it = iter(argv)
    for a in it:
        if a == "--anchor":
            name, _, value = next(it, "").partition("=")
            anchor, rating = name, float(value)
        elif a == "--prior":
            prior = float(next(it, "1"))
        elif a in ("-h", "--help"):
            print(__doc__)
            return
        else:
            paths.append(a)
    if not paths:
        sys.exit("usage: scripts/ladder-fit.py [--anchor NAME=ELO] [--prior DRAWS] DIR_OR_JSON...")
    pairs = load(paths)
    # only players linked to the anchor by games can be rated on its scale
    linked, grow = {anchor}, True
    while grow:
        grow = False
        for a, b in pairs:
            if (a in linked) != (b in linked):
                linked |= {a, b}
                grow = True
    apart = sorted({p for k in pairs for p in k} - linked)
    if apart:
        print(f"left out (no games linking them to {anchor}): {', '.join(apart)}", file=sys.stderr)
        pairs = {k: v for k, v in pairs.items() if k[0] in linked and k[1] in linked}
    players, r, se, games = fit(pairs, prior, anchor)
    levels = sorted((int(m.group(1)), i) for i, p in enumerate(players)
                    if (m := re.fullmatch(r"L(\d+)", p)))
    mono = isotonic([r[i] for _, i in levels], [max(games[i], 1) for _, i in levels])
    mono_of = {i: v for (_, i), v in zip(levels, mono)}
    print(f"{'player':<22}{'games':>6}{'fitted':>9}{'± se':>7}{'monotone':>10}")
    for i, p in sorted(enumerate(players), key=lambda x: r[x[0]]):
        m = f"{mono_of[i] + rating:10.0f}" if i in mono_of else ""
        print(f"{p:<22}{games[i]:6.0f}{r[i] + rating:9.0f}{se[i]:7.0f}{m}")
    runs = []
    for (lv, _), v in zip(levels, mono):
        if runs and abs(runs[-1][1] - v) < 1e-9:
            runs[-1][0].append(lv)
        else:
            runs.append([[lv], v])
    knots = []
    for k, (lvs, v) in enumerate(runs):
        lv = lvs[0] if k == 0 else lvs[-1] if k == len(runs) - 1 else sum(lvs) / len(lvs)
        knots.append(f"({lv:.1f}, {v + rating:.0f}.0)")
    print("RATED_LEVELS: [" + ", ".join(knots) + "]")


if __name__ == "__main__":
    main(sys.argv[1:])
