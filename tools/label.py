#!/usr/bin/env python3
"""Label EPD positions with a UCI engine's evaluation, for `mach tune`.

Reads EPD lines (e.g. from `mach tune GAMES.pgn --write-epd positions.epd`),
searches each position with the engine to a fixed number of nodes (or depth),
and writes the same line with `ce N`: the score in centipawns for the side to
move. Positions the engine scores as mate are written without `ce` (the tuner
skips them), and so are lines it cannot read, so no input line is lost.

    python3 tools/label.py --engine /usr/games/stockfish --nodes 5000 \
        --jobs 2 positions.epd labelled.epd

Needs python-chess (`pip install chess`). The output is written to a
temporary file beside it and renamed at the end, so an interrupted run
leaves no half file under the output's name; an existing output is not
replaced without --force.
"""

import argparse
import multiprocessing
import os
import sys

import chess
import chess.engine


def label_chunk(job):
    """Labels lines[i] for i in the chunk with one engine; returns the lines."""
    engine_cmd, options, limit, lines = job
    out = []
    engine = chess.engine.SimpleEngine.popen_uci(engine_cmd)
    try:
        engine.configure(options)
        for line in lines:
            out.append(label_line(engine, limit, line))
    finally:
        engine.quit()
    return out


def label_line(engine, limit, line):
    """The line with the engine's `ce` for its position (none for a mate)."""
    try:
        board, ops = chess.Board.from_epd(line.strip())
    except ValueError:
        return line.rstrip("\n")
    ops.pop("ce", None)
    if board.is_game_over():
        return board.epd(**ops)
    info = engine.analyse(board, limit)
    cp = info["score"].pov(board.turn).score()
    if cp is not None:
        ops["ce"] = cp
    return board.epd(**ops)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", help="EPD file of positions")
    ap.add_argument("output", help="EPD file to write, with ce labels")
    ap.add_argument("--engine", required=True, help="UCI engine command")
    ap.add_argument("--nodes", type=int, help="nodes per position")
    ap.add_argument("--depth", type=int, help="depth per position")
    ap.add_argument("--jobs", type=int, default=2, help="engines at once")
    ap.add_argument("--option", action="append", default=[],
                    help="engine option NAME=VALUE (repeatable)")
    ap.add_argument("--force", action="store_true",
                    help="replace an existing output file")
    args = ap.parse_args()
    if (args.nodes is None) == (args.depth is None):
        ap.error("give exactly one of --nodes and --depth")
    if os.path.exists(args.output) and not args.force:
        ap.error(f"{args.output} exists: not overwritten (pass --force)")
    limit = chess.engine.Limit(nodes=args.nodes, depth=args.depth)
    options = {"Threads": 1}
    for o in args.option:
        name, sep, value = o.partition("=")
        if not sep:
            ap.error(f"--option {o!r}: expected NAME=VALUE")
        options[name] = value
    try:
        with open(args.input) as f:
            lines = [l for l in f if l.strip()]
    except OSError as e:
        sys.exit(f"label.py: cannot read {args.input}: {e}")
    jobs = max(1, min(args.jobs, len(lines)))
    # Chunks of a few hundred lines, so the jobs finish together and the
    # progress can be shown; each chunk starts its own engine.
    size = max(1, min(500, len(lines) // jobs + 1))
    chunks = [(args.engine, options, limit, lines[i:i + size])
              for i in range(0, len(lines), size)]
    tmp = f"{args.output}.tmp-{os.getpid()}"
    done = labelled = 0
    try:
        chess.engine.SimpleEngine.popen_uci(args.engine).quit()
    except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
        sys.exit(f"label.py: cannot start the engine {args.engine!r}: {e}")
    try:
        with open(tmp, "w") as out, multiprocessing.Pool(jobs) as pool:
            for result in pool.imap(label_chunk, chunks):
                for l in result:
                    out.write(l + "\n")
                    labelled += " ce " in l
                done += len(result)
                print(f"\r{done}/{len(lines)} positions", end="", file=sys.stderr)
        os.replace(tmp, args.output)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    print(f"\nwrote {done} lines, {labelled} with ce, to {args.output}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
