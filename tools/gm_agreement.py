#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How often Mach plays the grandmaster's move, memory on vs off (issues #11, #50).

Takes positions from games the memory has not seen, and for each one asks
Mach twice at the same node budget: with its memory, and without it
(`Advisor=false`). A fixed-node search waits for the memory's answer, so
both runs are reproducible. Prints, by band of plies, how often each plays
the move the grandmaster played, and how often the memory changed Mach's
move. Needs python-chess. Two kinds of unseen games:

- the opening tree's held-out games (every 50th game of the 173k database,
  books/README.md), the memory being the built-in tree with no index:

    python3 tools/gm_agreement.py --pgn ../shared/books/gm2400-classical-173k.pgn \\
        --held-out-every 50 [--games 400] [--nodes 20000] [--every 2] [--max-ply 60]

- games FIRST.. of a PGN, the memory being an index of the games before
  them (`mach index PGN --max-games FIRST --out DIR`), the tree left out:

    python3 tools/gm_agreement.py --pgn books/gm2700-classical-4000.pgn \\
        --first 3600 --index DIR [--nodes 20000] [--every 2] [--max-ply 60]
"""

import argparse
import collections
import os

import chess
import chess.engine
import chess.pgn

PHASES = [(0, 10, "plies 1-10"), (10, 20, "plies 11-20"), (20, 30, "plies 21-30"),
          (30, 40, "plies 31-40"), (40, 10**9, "plies 41+")]


def unseen(n, a):
    """Whether game number n (1-based) of the PGN is one the memory has not seen."""
    if a.held_out_every:
        return n % a.held_out_every == 0
    return n > a.first


def positions(path, a):
    """(ply, board, played move) of the unseen games of the PGN."""
    every, max_ply = a.every, a.max_ply
    with open(path, encoding="utf-8", errors="replace") as f:
        n = used = 0
        while True:
            if a.held_out_every and n % a.held_out_every != a.held_out_every - 1:
                # Not the next held-out game: read its headers only.
                if chess.pgn.skip_game(f):
                    n += 1
                    continue
                return
            game = chess.pgn.read_game(f)
            if game is None:
                return
            n += 1
            if not unseen(n, a):
                continue
            if a.games and used >= a.games:
                return
            used += 1
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
    ap.add_argument("--pgn", required=True, help="the games")
    ap.add_argument("--held-out-every", type=int, default=0,
                    help="the unseen games are numbers N, 2N, ... (the opening tree's: 50)")
    ap.add_argument("--first", type=int, default=0,
                    help="games before this one are in the index (with --index)")
    ap.add_argument("--index", help="the index of those games (default: the built-in tree alone)")
    ap.add_argument("--games", type=int, default=0, help="at most this many unseen games")
    ap.add_argument("--mach", default="target/release/mach")
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--every", type=int, default=2, help="every Nth ply")
    ap.add_argument("--max-ply", type=int, default=60)
    ap.add_argument("--limit", type=int, default=0, help="at most this many positions")
    a = ap.parse_args()
    if bool(a.held_out_every) == bool(a.index):
        raise SystemExit("give --held-out-every N (the tree) or --index DIR --first N")
    needed = [(a.pgn, "PGN"), (a.mach, "mach binary")]
    if a.index:
        needed.append((os.path.join(a.index, "meta.txt"), "index"))
    for path, what in needed:
        if not os.path.exists(path):
            raise SystemExit(f"no {what} at {path}")

    off = chess.engine.SimpleEngine.popen_uci(a.mach)
    off.configure({"Advisor": False})
    on = chess.engine.SimpleEngine.popen_uci(a.mach)
    if a.index:
        on.configure({"Advisor": True, "AdvisorIndex": a.index, "OpeningTree": False})
        memory = f"index {a.index}"
    else:
        on.configure({"Advisor": True, "AdvisorIndex": "/nonexistent/mach-no-index"})
        memory = "the built-in opening tree, no index"
    limit = chess.engine.Limit(nodes=a.nodes)
    count = collections.Counter()
    try:
        for i, (ply, board, played) in enumerate(positions(a.pgn, a)):
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

    games = (f"game numbers {a.held_out_every}, {2 * a.held_out_every}, ..."
             if a.held_out_every else f"games {a.first + 1}..")
    print(f"Mach at {a.nodes} nodes, memory off and on ({memory}); "
          f"{games} of {a.pgn}, every {a.every} plies up to {a.max_ply}")
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
