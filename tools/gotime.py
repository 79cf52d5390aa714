#!/usr/bin/env python3
"""Times `go` to `bestmove` through the real binary (UCI over a pipe).

    python3 tools/gotime.py THREADS "go movetime 200" [N] [--mach PATH]

Prints the milliseconds of N searches (default 5) from 1. e4 positions, with
the advisor off; used for #10 item 7 (Threads 256 on a 2-core machine).
"""
import subprocess
import sys
import time

args = [a for a in sys.argv[1:] if not a.startswith("--mach")]
mach = "target/release/mach"
for a in sys.argv[1:]:
    if a.startswith("--mach="):
        mach = a.split("=", 1)[1]
threads, go = args[0], args[1]
n = int(args[2]) if len(args) > 2 else 5
p = subprocess.Popen([mach], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True, bufsize=1)


def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()


def wait(pred):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("the engine ended")
        if pred(line.strip()):
            return line.strip()


send("uci")
wait(lambda l: l == "uciok")
send("setoption name Advisor value false")
send(f"setoption name Threads value {threads}")
send("isready")
wait(lambda l: l == "readyok")
times = []
for i in range(n):
    send("position startpos moves e2e4" + (" e7e5" if i % 2 else ""))
    t = time.time()
    send(go)
    wait(lambda l: l.startswith("bestmove"))
    times.append((time.time() - t) * 1000)
send("quit")
print(threads, go, " ".join(f"{x:.0f}" for x in times), "ms")
