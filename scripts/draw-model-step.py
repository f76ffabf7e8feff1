#!/usr/bin/env python3
"""How one engine's edge changes between two runs of the same openings, in a model that
lets draws become more common without the edge changing.

    scripts/draw-model-step.py [--engine NAME] [--samples N] [--seed S] A.json B.json

A and B are `chariot match --json` files (a merged run or one shard) of the same schedule,
for example the same openings at 10 s + 0.1 s and at 30 s + 0.3 s. Logistic Elo (what
`chariot match compare` reports) counts a draw as half a point, so if a longer control only
turned some decisive games into draws, the Elo would fall though neither engine got
relatively weaker. This fits each run under the BayesElo model instead: a game between
NAME and its opponent with NAME's edge D, a red-side edge A and a draw width W (all in Elo)
ends

    NAME wins with  f(d - W),   NAME loses with  f(-d - W),   a draw otherwise,

where d = D + A when NAME plays Red and D - A when it plays Black, and
f(x) = 1 / (1 + 10^(-x/400)). More draws at the same D show up as a larger W. D, A and W are
fitted by maximum likelihood (Nelder-Mead) for each run; the change of D from A to B is
given with a 95 % interval from a bootstrap over the game pairs the two runs share (the
same pairs drawn for both runs, so the pairing by opening is kept): 1.96 standard
deviations of the resampled changes, and their 2.5 and 97.5 percentiles.

NAME defaults to `chariot`; --samples defaults to 300 (about 3 minutes for 200 pairs on one
core), --seed to 1. Python standard library only.
"""
import json
import math
import random
import sys


def load(path, name):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        records = data["games"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"draw-model-step: {path}: not a `chariot match --json` file ({e})")
    games = {}
    for g in records:
        if name not in (g["red"], g["black"]):
            continue
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(g["result"])
        if points is None:
            continue
        red = g["red"] == name
        games[g["id"]] = (points if red else 1.0 - points, red, g["pair"])
    if not games:
        sys.exit(f"draw-model-step: {path}: no finished games of {name}")
    return games


def expected(x):
    return 1.0 / (1.0 + 10.0 ** (-x / 400.0))


def negative_log_likelihood(params, games):
    edge, red_edge, width = params
    if width < 0:
        return math.inf
    total = 0.0
    for points, red in games:
        d = edge + red_edge if red else edge - red_edge
        win, loss = expected(d - width), expected(-d - width)
        p = win if points == 1.0 else loss if points == 0.0 else 1.0 - win - loss
        total -= math.log(max(p, 1e-12))
    return total


def nelder_mead(fun, start, step=40.0, iterations=300):
    n = len(start)
    points = [list(start)] + [
        [start[j] + (step if j == i else 0.0) for j in range(n)] for i in range(n)
    ]
    values = [fun(p) for p in points]
    for _ in range(iterations):
        order = sorted(range(n + 1), key=lambda i: values[i])
        points = [points[i] for i in order]
        values = [values[i] for i in order]
        centre = [sum(p[j] for p in points[:-1]) / n for j in range(n)]
        worst = points[-1]
        reflected = [2 * centre[j] - worst[j] for j in range(n)]
        fr = fun(reflected)
        if fr < values[0]:
            expanded = [3 * centre[j] - 2 * worst[j] for j in range(n)]
            fe = fun(expanded)
            points[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            points[-1], values[-1] = reflected, fr
        else:
            contracted = [(centre[j] + worst[j]) / 2 for j in range(n)]
            fc = fun(contracted)
            if fc < values[-1]:
                points[-1], values[-1] = contracted, fc
            else:
                for i in range(1, n + 1):
                    points[i] = [(points[0][j] + points[i][j]) / 2 for j in range(n)]
                    values[i] = fun(points[i])
    return points[values.index(min(values))]


def fit(games, start=(200.0, 20.0, 50.0)):
    return nelder_mead(lambda p: negative_log_likelihood(p, games), start)


def main(argv):
    name, samples, seed, files = "chariot", 300, 1, []
    it = iter(argv)
    for arg in it:
        if arg in ("--engine", "--samples", "--seed"):
            value = next(it, None)
            if value is None:
                sys.exit(f"draw-model-step: {arg} needs a value")
            if arg == "--engine":
                name = value
            else:
                try:
                    number = int(value)
                except ValueError:
                    sys.exit(f"draw-model-step: {arg} {value}: not a whole number")
                if arg == "--samples":
                    samples = max(number, 2)
                else:
                    seed = number
        elif arg.startswith("-"):
            sys.exit(__doc__.split("\n\n")[1])
        else:
            files.append(arg)
    if len(files) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    a, b = load(files[0], name), load(files[1], name)
    common = sorted(set(a) & set(b))
    pairs = sorted({a[i][2] for i in common})
    by_pair = {p: [i for i in common if a[i][2] == p] for p in pairs}
    if not pairs:
        sys.exit("draw-model-step: the two runs share no game")

    def games(run, chosen):
        return [(run[i][0], run[i][1]) for p in chosen for i in by_pair[p]]

    fa, fb = fit(games(a, pairs)), fit(games(b, pairs))
    for label, path, f in (("A", files[0], fa), ("B", files[1], fb)):
        print(f"{label}: {path}: {name}'s edge D {f[0]:+.1f}, red edge A {f[1]:+.1f}, "
              f"draw width W {f[2]:.1f}")
    step = fb[0] - fa[0]
    rng = random.Random(seed)
    steps = []
    for _ in range(samples):
        chosen = [rng.choice(pairs) for _ in pairs]
        steps.append(fit(games(b, chosen), fb)[0] - fit(games(a, chosen), fa)[0])
    steps.sort()
    mean = sum(steps) / len(steps)
    sd = math.sqrt(sum((s - mean) ** 2 for s in steps) / (len(steps) - 1))
    low, high = steps[int(0.025 * len(steps))], steps[int(0.975 * len(steps)) - 1]
    print(f"B - A over {len(pairs)} common game pairs ({len(common)} games): D {step:+.1f} "
          f"± {1.96 * sd:.1f} (95 %, bootstrap of {samples}, seed {seed}); "
          f"percentiles {low:+.1f} .. {high:+.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
