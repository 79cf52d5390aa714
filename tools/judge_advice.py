#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Judge the advice by a stronger engine, position by position.

A match says whether the advice wins games, but needs thousands of games to
see a few Elo. This asks a sharper question: on positions from real games,
does the advice change Mach's move, and when it does, is the new move better?
Mach plays each position twice at a fixed node count (same table state: a new
game each time, Threads=1, so the runs are deterministic), once without the
advisor and once with it; where the moves differ, Stockfish at a fixed depth
scores both. Needs python-chess (`pip install chess`) and Debian's stockfish.

    python3 tools/judge_advice.py GAMES.pgn [--positions 300] [--weight 40]
        [--similar-weight 0] [--nodes 20000] [--depth 16]
        [--plain-option NAME=VALUE ...] [--advised-option NAME=VALUE ...]

With --plain-option Advisor=true --advised-option AdvisorPlans=true it
judges one mechanism against the advice without it (here, MACH's plans).
"""

import argparse
import os
import random

import chess
import chess.engine
import chess.pgn


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", help="games to take positions from (e.g. a mach match --pgnout)")
    ap.add_argument("--mach", default="target/release/mach")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--index", default=os.environ.get(
        "MACH_INDEX", os.path.expanduser("~/.local/share/mach/gm2700-classical-4000")))
    ap.add_argument("--weight", type=int, default=40, help="AdviceWeight")
    ap.add_argument("--similar-weight", type=int, default=0, help="AdviceSimilarWeight (the engine's default)")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--depth", type=int, default=16, help="Stockfish's depth")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plain-option", action="append", default=[], metavar="NAME=VALUE",
                    help="an option of the plain engine (repeatable)")
    ap.add_argument("--advised-option", action="append", default=[], metavar="NAME=VALUE",
                    help="an option of the advised engine (repeatable)")
    a = ap.parse_args()
    for path, what in [(a.pgn, "PGN"), (a.mach, "mach binary"), (a.stockfish, "stockfish")]:
        if not os.path.exists(path):
            raise SystemExit(f"no {what} at {path}")

    positions = []
    with open(a.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                if ply >= 6 and ply % 3 == 0:
                    positions.append((board.fen(), ply))
                board.push(move)
    random.Random(a.seed).shuffle(positions)
    positions = positions[: a.positions]

    plain = chess.engine.SimpleEngine.popen_uci(a.mach)
    plain.configure({"Advisor": False, "AdvisorIndex": a.index, **options(a.plain_option)})
    advised = chess.engine.SimpleEngine.popen_uci(a.mach)
    advised.configure({"Advisor": True, "AdvisorIndex": a.index,
                       "AdviceWeight": a.weight, "AdviceSimilarWeight": a.similar_weight,
                       **options(a.advised_option)})
    judge = chess.engine.SimpleEngine.popen_uci(a.stockfish)
    judge.configure({"Threads": 1, "Hash": 64})

    changed, gains = 0, []
    for fen, ply in positions:
        board = chess.Board(fen)
        game = object()  # a new game each time: ucinewgame, an empty table
        own = plain.play(board, chess.engine.Limit(nodes=a.nodes), game=game).move
        adv = advised.play(board, chess.engine.Limit(nodes=a.nodes), game=game).move
        if own == adv:
            continue
        changed += 1
        scores = []
        for m in (own, adv):
            info = judge.analyse(board, chess.engine.Limit(depth=a.depth), root_moves=[m])
            scores.append(info["score"].pov(board.turn).score(mate_score=3000))
        gain = max(-300, min(300, scores[1] - scores[0]))
        gains.append(gain)
        print(f"ply {ply:3} {fen}  own {own} {scores[0]:+}  advised {adv} {scores[1]:+}", flush=True)
    for e in (plain, advised, judge):
        e.quit()

    n = len(positions)
    print(f"positions {n}, advice changed the move in {changed} ({100.0 * changed / max(n, 1):.1f}%)")
    if gains:
        better = sum(g > 20 for g in gains)
        worse = sum(g < -20 for g in gains)
        print(f"where changed: {sum(gains) / len(gains):+.1f} cp on average by Stockfish depth "
              f"{a.depth} (clipped to 300), better by > 20 cp {better}, worse {worse}")


def options(pairs):
    """NAME=VALUE strings as a dict for python-chess's configure."""
    out = {}
    for p in pairs:
        name, sep, value = p.partition("=")
        if not sep:
            raise SystemExit(f"option {p!r}: expected NAME=VALUE")
        out[name] = {"true": True, "false": False}.get(value.lower(), value)
    return out


if __name__ == "__main__":
    main()
