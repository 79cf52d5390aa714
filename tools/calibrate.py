#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Stockfish's opinion of the advice, by bucket (issue #11, item 4).

Reads the TSV written by `mach advise --eval PGN --calibrate FILE` (one row
per position of games not in the index: the advisor's first move, its kind,
share, games and similarity). For each position Stockfish at a fixed depth
scores its own best move, the advised move, the grandmaster's move and the
move Mach plays without the advisor (`go nodes N`). Per bucket it prints how
often the advice is the grandmaster's move, its loss against Stockfish's best,
and how often it is better than Mach's own move (the only way a root bonus
can gain) or worse. Needs python-chess and Debian's stockfish.

    python3 tools/calibrate.py calib.tsv [--depth 12] [--nodes 20000]
"""

import argparse
import collections
import csv
import os

import chess
import chess.engine


def bucket(row):
    """The buckets of one row, as `mach advise --calibrate` names them."""
    share, games, sim = float(row["share"]), int(row["games"]), float(row["similarity"])
    exact = row["exact"] == "1"
    kind = "exact" if exact else "similar"
    s = ("share < 0.15" if share < 0.15 else "share 0.15-0.3" if share < 0.3
         else "share 0.3-0.5" if share < 0.5 else "share >= 0.5")
    g = "1 game" if games <= 1 else "2-3 games" if games <= 3 else "4+ games"
    m = ("exact" if exact else "sim < 0.3" if sim < 0.3 else "sim 0.3-0.4" if sim < 0.4
         else "sim 0.4-0.5" if sim < 0.5 else "sim >= 0.5")
    return {"kind": kind, "share": s, "games": g, "similarity": m,
            "kind x share": f"{kind}, {s}"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tsv")
    ap.add_argument("--mach", default="target/release/mach")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--nodes", type=int, default=20000, help="Mach's own move, advisor off")
    ap.add_argument("--limit", type=int, default=0, help="at most this many rows (0: all)")
    a = ap.parse_args()
    for path, what in [(a.tsv, "TSV"), (a.mach, "mach binary"), (a.stockfish, "stockfish")]:
        if not os.path.exists(path):
            raise SystemExit(f"no {what} at {path}")
    with open(a.tsv) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if a.limit:
        rows = rows[: a.limit]

    mach = chess.engine.SimpleEngine.popen_uci(a.mach)
    mach.configure({"Advisor": False})
    judge = chess.engine.SimpleEngine.popen_uci(a.stockfish)
    judge.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(depth=a.depth)

    def score(board, move):
        info = judge.analyse(board, limit, root_moves=[move])
        return info["score"].pov(board.turn).score(mate_score=3000)

    stats = collections.defaultdict(lambda: collections.Counter())
    for i, row in enumerate(rows):
        board = chess.Board(row["fen"])
        advised = chess.Move.from_uci(row["advised"])
        played = chess.Move.from_uci(row["played"])
        own = mach.play(board, chess.engine.Limit(nodes=a.nodes), game=object()).move
        best = judge.analyse(board, limit)["score"].pov(board.turn).score(mate_score=3000)
        s_adv = score(board, advised)
        s_own = s_adv if own == advised else score(board, own)
        loss = max(0, min(300, best - s_adv))
        for family, name in bucket(row).items():
            c = stats[(family, name)]
            c["n"] += 1
            c["agree"] += advised == played
            c["loss"] += loss
            c["same"] += own == advised
            c["better"] += s_adv > s_own + 20
            c["worse"] += s_adv < s_own - 20
            c["gain"] += max(-300, min(300, s_adv - s_own))
        if (i + 1) % 100 == 0:
            print(f"{i + 1} positions", flush=True)
    mach.quit()
    judge.quit()

    print(f"{len(rows)} positions; Stockfish depth {a.depth}; Mach's own move at {a.nodes} nodes")
    print(f"{'bucket':<34} {'n':>5} {'=GM':>6} {'loss':>6} {'=Mach':>6} "
          f"{'better':>7} {'worse':>6} {'gain':>6}")
    for family in ["kind", "share", "games", "similarity", "kind x share"]:
        for (fam, name), c in sorted(stats.items()):
            if fam != family:
                continue
            n = c["n"]
            print(f"{name:<34} {n:>5} {100 * c['agree'] / n:>5.1f}% {c['loss'] / n:>6.1f} "
                  f"{100 * c['same'] / n:>5.1f}% {100 * c['better'] / n:>6.1f}% "
                  f"{100 * c['worse'] / n:>5.1f}% {c['gain'] / n:>+6.1f}")
    print("=GM: advice is the grandmaster's move; loss: cp below Stockfish's best (clipped "
          "to 300); =Mach: Mach plays it anyway; better/worse: than Mach's own move by more "
          "than 20 cp; gain: advice minus Mach's move, cp on average.")


if __name__ == "__main__":
    main()
