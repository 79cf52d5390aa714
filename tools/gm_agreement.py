#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How often Mach plays the grandmaster's move, advisor on vs off (issue #11).

Takes positions from games that are not in the advisor's index (games
FIRST.. of a PGN; build the index from the games before them with
`mach index PGN --max-games FIRST --out DIR`), and for each one asks Mach
twice at the same node budget: with the advisor reading DIR, and without
it. A fixed-node search waits for the advice, so both runs are
reproducible. Prints, by phase of the game, how often each plays the move
the grandmaster played, and how often the advice changed Mach's move.
Needs python-chess.

    python3 tools/gm_agreement.py --pgn books/gm2700-classical-4000.pgn \\
        --first 3600 --index DIR [--nodes 20000] [--every 2] [--max-ply 60]
"""

import argparse
import collections
import os

import chess
import chess.engine
import chess.pgn

PHASES = [(0, 20, "plies 1-20"), (20, 40, "plies 21-40"), (40, 10**9, "plies 41+")]


def positions(path, first, every, max_ply):
    """(ply, board, played move) of games `first..` of the PGN."""
    with open(path, encoding="utf-8", errors="replace") as f:
        n = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return
            n += 1
            if n <= first:
                continue
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                if ply >= max_ply:
                    break
                if ply % every == 0:
                    yield ply, board.copy(stack=False), move
                board.push(move)


def phase(ply):
    return next(name for lo, hi, name in PHASES if lo <= ply < hi)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pgn", required=True, help="games, the index's first")
    ap.add_argument("--first", type=int, required=True,
                    help="games before this one are in the index")
    ap.add_argument("--index", required=True, help="the index of those games")
    ap.add_argument("--mach", default="target/release/mach")
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--every", type=int, default=2, help="every Nth ply")
    ap.add_argument("--max-ply", type=int, default=60)
    ap.add_argument("--limit", type=int, default=0, help="at most this many positions")
    a = ap.parse_args()
    for path, what in [(a.pgn, "PGN"), (a.mach, "mach binary"),
                       (os.path.join(a.index, "meta.txt"), "index")]:
        if not os.path.exists(path):
            raise SystemExit(f"no {what} at {path}")

    off = chess.engine.SimpleEngine.popen_uci(a.mach)
    off.configure({"Advisor": False})
    on = chess.engine.SimpleEngine.popen_uci(a.mach)
    on.configure({"Advisor": True, "AdvisorIndex": a.index})
    limit = chess.engine.Limit(nodes=a.nodes)
    count = collections.Counter()
    try:
        for i, (ply, board, played) in enumerate(positions(a.pgn, a.first, a.every, a.max_ply)):
            if a.limit and i >= a.limit:
                break
            # A new game each time (`ucinewgame`): both searches start from
            # an empty table, so only the advice can tell them apart.
            m_off = off.play(board, limit, game=("off", i)).move
            m_on = on.play(board, limit, game=("on", i)).move
            for key in ("all", phase(ply)):
                count[key, "n"] += 1
                count[key, "off"] += m_off == played
                count[key, "on"] += m_on == played
                count[key, "changed"] += m_on != m_off
                count[key, "changed, on = GM"] += m_on != m_off and m_on == played
                count[key, "changed, off = GM"] += m_on != m_off and m_off == played
    finally:
        off.quit()
        on.quit()

    print(f"Mach at {a.nodes} nodes, advisor off and on ({a.index}); "
          f"games {a.first + 1}.. of {a.pgn}, every {a.every} plies up to {a.max_ply}")
    print(f"{'phase':<12} {'positions':>9} {'off = GM':>9} {'on = GM':>9} "
          f"{'changed':>8} {'to GM':>6} {'from GM':>8}")
    for key in ["all"] + [name for _, _, name in PHASES]:
        n = count[key, "n"]
        if not n:
            continue
        pct = lambda k: f"{100.0 * count[key, k] / n:.1f}%"
        print(f"{key:<12} {n:>9} {pct('off'):>9} {pct('on'):>9} {pct('changed'):>8} "
              f"{count[key, 'changed, on = GM']:>6} {count[key, 'changed, off = GM']:>8}")


if __name__ == "__main__":
    main()
