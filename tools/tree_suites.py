#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tree advice (`AdvisorTree`) on best-move suites at equal nodes.

Plays every position of each EPD suite at a fixed node count twice, with
`AdvisorTree` off and on (both with the advisor on the given index, the book
off, one thread, a new game per position), and prints per suite the best
moves found each way and how many moves differ. The tree table is built on
the advisor thread when the engine starts; the script waits for it first.
Needs python-chess (`pip install chess`).

    python3 tools/tree_suites.py --index DIR [--nodes 100000] SUITE.epd ...
"""

import argparse
import os
import time

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suites", nargs="+", help="EPD files with bm operations")
    ap.add_argument("--mach", default="target/release/mach")
    ap.add_argument("--index", required=True, help="the advisor's index (e.g. the full one)")
    ap.add_argument("--nodes", type=int, default=100000)
    ap.add_argument("--wait", type=float, default=45.0, help="seconds to let the tree table be built")
    a = ap.parse_args()
    for path in [a.mach, a.index, *a.suites]:
        if not os.path.exists(path):
            raise SystemExit(f"not found: {path}")
    positions = []
    for suite in a.suites:
        with open(suite) as f:
            for line in f:
                if line.strip():
                    board, ops = chess.Board.from_epd(line.strip())
                    positions.append((suite, board, ops.get("bm", [])))
    played = {}
    for tree in (False, True):
        engine = chess.engine.SimpleEngine.popen_uci(a.mach)
        engine.configure({"Advisor": True, "AdvisorIndex": a.index, "OwnBook": False,
                          "AdvisorTree": tree, "Threads": 1})
        engine.play(chess.Board(), chess.engine.Limit(nodes=1000))
        time.sleep(a.wait if tree else 0)
        played[tree] = [engine.play(b, chess.engine.Limit(nodes=a.nodes), game=object()).move
                        for _, b, _ in positions]
        engine.quit()
    for suite in a.suites:
        idx = [i for i, p in enumerate(positions) if p[0] == suite]
        solved = {t: sum(played[t][i] in positions[i][2] for i in idx) for t in played}
        differ = sum(played[False][i] != played[True][i] for i in idx)
        print(f"{suite}: {len(idx)} positions, best move found: tree off {solved[False]}, "
              f"on {solved[True]}; moves that differ: {differ}")


if __name__ == "__main__":
    main()
