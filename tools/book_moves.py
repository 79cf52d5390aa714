#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the memory saves on the clock, from a `mach match --pgnout` file.

For each engine, over its first N moves of every game (default 10): the
moves it played in 25 ms or less (book moves: the memory's answer and the
8,000-node verification; a search on the clock takes longer), and the clock
it spent. Reads the cutechess-style comments `{+0.31/15 0.52s}` that `mach
match` writes; moves of the opening itself have no comment and are not
counted. Needs python-chess.

    python3 tools/book_moves.py games.pgn [--first 10] [--fast 0.025]
"""

import argparse
import collections
import re

import chess.pgn

TIME = re.compile(r"(\d+(?:\.\d+)?)s\b")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("--first", type=int, default=10, help="moves of each engine counted")
    ap.add_argument("--fast", type=float, default=0.025, help="seconds of a book move at most")
    a = ap.parse_args()
    fast = collections.Counter()
    spent = collections.Counter()
    games = collections.Counter()
    with open(a.pgn, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            names = {chess.WHITE: game.headers.get("White"), chess.BLACK: game.headers.get("Black")}
            seen = collections.Counter()
            for node in game.mainline():
                m = TIME.search(node.comment or "")
                if not m:
                    continue
                mover = not node.board().turn
                name = names[mover]
                if seen[name] >= a.first:
                    continue
                seen[name] += 1
                t = float(m.group(1))
                spent[name] += t
                fast[name] += t <= a.fast
            for name in names.values():
                games[name] += 1
    print(f"{a.pgn}: per game, over each engine's first {a.first} moves out of the opening")
    print(f"{'engine':<12} {'games':>6} {'moves <= %.0f ms' % (1000 * a.fast):>16} {'clock spent':>12}")
    for name in sorted(games):
        n = games[name]
        print(f"{name:<12} {n:>6} {fast[name] / n:>16.2f} {spent[name] / n:>11.2f}s")


if __name__ == "__main__":
    main()
