#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pentanomial SPRT of one or more `mach match --pgnout` files, with the
counts of earlier runs added: how a stopped SPRT is continued (issue #13).

A sequential test may go on after a stop as long as nothing changes: the
same two binaries (check with `mach bench`: the same node count), the same
time control, openings file and concurrency. Give the new run another
`--seed`, so it plays other openings, and let this script add its pairs to
the counts the stopped run printed. The log-likelihood ratio is
`mach match`'s own (normalized Elo, GSPRT, as in `uci/src/matchrun/stats.rs`,
checked against fastchess's published values by `--self-test`).

Pairs are read from the `Round "P.G"` tags `mach match` writes (games 1 and
2 of pair P); a pair with only one finished game is left out.

    python3 tools/sprt_pgn.py --engine NEW [--prior 37,179,265,168,61] \\
        [--elo0 0 --elo1 10] run2.pgn [run3.pgn ...]
    python3 tools/sprt_pgn.py --self-test
"""

import argparse
import math
import re
import sys

NELO_PER_T = 800 / math.log(10)
PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]


def bisect(f, lo, hi):
    """Root of a decreasing function on (lo, hi)."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def tilt(phat, phi):
    """The distribution nearest phat (in likelihood) with E[phi] = 0."""
    u, v = min(phi), max(phi)
    if u >= 0 or v <= 0:
        return list(phat)
    g = lambda t: sum(p * f / (1 + t * f) for p, f in zip(phat, phi))
    theta = bisect(g, -1 / v + 1e-12, -1 / u - 1e-12)
    return [p / (1 + theta * f) for p, f in zip(phat, phi)]


def mean_var(p):
    mu = sum(a * s for a, s in zip(p, PAIR_SCORES))
    return mu, sum(a * (s - mu) ** 2 for a, s in zip(p, PAIR_SCORES))


def score_of_elo(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def mle(phat, elo, model):
    if model == "logistic":
        s = score_of_elo(elo)
        return tilt(phat, [a - s for a in PAIR_SCORES])
    t = elo * math.sqrt(2) / NELO_PER_T
    p = [0.2] * 5
    for _ in range(1000):
        mu, var = mean_var(p)
        sigma = max(math.sqrt(var), 1e-12)
        phi = [a - 0.5 - 0.5 * t * sigma * (1 + ((a - mu) / sigma) ** 2) for a in PAIR_SCORES]
        nxt = tilt(phat, phi)
        diff = max(abs(a - b) for a, b in zip(nxt, p))
        p = nxt
        if diff < 1e-9:
            break
    return p


def llr(counts, elo0, elo1, model="normalized"):
    """GSPRT log-likelihood ratio; empty cells count as 1/1000 of a pair."""
    if sum(counts) == 0:
        return 0.0
    c = [x if x else 1e-3 for x in counts]
    total = sum(c)
    phat = [x / total for x in c]
    p0, p1 = mle(phat, elo0, model), mle(phat, elo1, model)
    return total * sum(phat[i] * (math.log(p1[i]) - math.log(p0[i])) for i in range(5))


def elo_interval(counts):
    """Logistic Elo and the half-width of its 95% interval, from pairs."""
    n = sum(counts)
    mu, var = mean_var([c / n for c in counts])
    elo = lambda s: -400 * math.log10(1 / s - 1)
    se = math.sqrt(var / n)
    lo, hi = max(mu - 1.96 * se, 1e-9), min(mu + 1.96 * se, 1 - 1e-9)
    return elo(mu), (elo(hi) - elo(lo)) / 2


def pentanomial(paths, engine):
    """Pair counts [0, 0.5, 1, 1.5, 2 points] of `engine` in the PGN files."""
    counts = [0] * 5
    for path in paths:
        pairs = {}
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            sys.exit(f"{path}: {e.strerror}")
        for game in text.split("[Event ")[1:]:
            rnd = re.search(r'\[Round "(\d+)\.(\d+)"\]', game)
            white = re.search(r'\[White "(.*?)"\]', game)
            black = re.search(r'\[Black "(.*?)"\]', game)
            result = re.search(r'\[Result "(.*?)"\]', game)
            if not (rnd and white and black and result):
                sys.exit(f"{path}: a game without Round, White, Black or Result tags")
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result.group(1))
            if points is None:
                continue
            if white.group(1) == engine:
                pass
            elif black.group(1) == engine:
                points = 1 - points
            else:
                sys.exit(f"{path}: no engine named {engine!r} in round {rnd.group(0)}")
            pairs.setdefault(int(rnd.group(1)), []).append(points)
        for games in pairs.values():
            if len(games) == 2:
                counts[round(2 * sum(games))] += 1
    return counts


def self_test():
    """fastchess's published values (LL, LD, WL+DD, WD, WW), as stats.rs checks."""
    cases = [
        ([365, 16618, 36029 + 200, 16974, 390], 0.0, 2.0, "normalized", 2.25),
        ([127, 4883, 10311 + 401, 5150, 104], -1.75, 0.25, "normalized", 3.01),
        ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, "logistic", -3.07),
        ([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0, "logistic", -4.98),
    ]
    for counts, e0, e1, model, want in cases:
        got = llr(counts, e0, e1, model)
        if abs(got - want) > 0.01:
            sys.exit(f"self-test failed: {counts} {model} llr {got:.3f}, want {want}")
    print("self-test passed: 4 published LLRs reproduced")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="*", help="mach match --pgnout files")
    ap.add_argument("--engine", help="the engine under test, as named in the PGN")
    ap.add_argument("--prior", default="0,0,0,0,0",
                    help="pentanomial of earlier runs: five counts, pairs worth 0 .. 2 points")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--model", choices=["normalized", "logistic"], default="normalized")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return
    if not a.engine:
        ap.error("--engine is needed")
    try:
        prior = [int(x) for x in a.prior.split(",")]
    except ValueError:
        prior = []
    if len(prior) != 5 or min(prior) < 0:
        ap.error("--prior takes five counts, e.g. 37,179,265,168,61")
    new = pentanomial(a.pgn, a.engine)
    total = [p + n for p, n in zip(prior, new)]
    lo = math.log(a.beta / (1 - a.alpha))
    hi = math.log((1 - a.beta) / a.alpha)
    for name, c in (("prior", prior), ("these files", new), ("together", total)):
        if sum(c) == 0 or (name == "together" and sum(prior) == 0):
            continue
        elo, err = elo_interval(c)
        v = llr(c, a.elo0, a.elo1, a.model)
        verdict = "H1" if v >= hi else "H0" if v <= lo else "continue"
        print(f"{name:12} {c} {2 * sum(c)} games  {elo:+.1f} ± {err:.1f} Elo  "
              f"llr {v:.2f} ({lo:.2f}, {hi:.2f})  {verdict}")


if __name__ == "__main__":
    main()
