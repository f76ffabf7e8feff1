# How judge.jsonl was written (by the build of commit 27375b3 as `chariot` on PATH, from the
# repository root): `chariot judge --json` for some games, each output kept as its exact text.
import json, subprocess
cases = []
for line in open("engine-tests/verdicts.txt", encoding="utf-8"):
    if not line.strip() or line.startswith("#"):
        continue
    f = [x.strip() for x in line.split("|")]
    cases.append((f[1], f[2].split()))
    if len(cases) == 3:
        break
args = []
for fen, moves in cases:
    for rules in ("cxa", "axf"):
        args.append(["--rules", rules, "--fen", fen, "--moves", *moves])
args.append(["--fen", "2bakabr1/r8/5cn2/n1p5p/9/2B3p1P/P1P1P4/1C4N2/4K4/Rc1A1ABR1 w - - 0 1",
             "--moves", *"g2i3 g4f4 i3g2 f4g4 g2i3 g4f4 i3g2 f4g4".split()])
args.append(["--fen", "3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1", "--moves", "a0a9", "d9d8"])
args.append(["--moves", "h2e2", "h9g7"])
args.append(["--moves", "炮二平五", "马8进7"])
with open("engine-tests/json-compat/judge.jsonl", "w", encoding="utf-8") as out:
    for a in args:
        r = subprocess.run(["chariot", "judge", "--json", *a], capture_output=True, text=True, check=True)
        out.write(json.dumps({"args": a, "out": r.stdout}, ensure_ascii=False) + "\n")
