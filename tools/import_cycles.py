#!/usr/bin/env python3
"""Finds import circles between the modules of each crate of the workspace.

A module is a file. An edge A -> B means that A names an item of B by a path
(`use crate::b::X`, `crate::b::f()`, `super::b::X`, `use b::X` of a child
module, or `super::X` for an item of the parent file); a `mod b;`
declaration alone is not an edge, and neither is a `#[cfg(test)]` module
(tests may reach anywhere). Prints every circle and exits 1 when there is
one; prints the module and edge counts and exits 0 when there is none.

Usage: tools/import_cycles.py [CRATE_SRC_DIR ...]   (default: every crate's src/)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = ["engine/src", "advisor/src", "uci/src", "uci/runner/src", "uci/tune/src",
           "uci/files/src", "uci/pages/src", "uci/experience/src", "benches", "tests"]


def modules(src):
    """Module path (tuple) -> file, for every .rs file under src."""
    out = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)
            parts = rel[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            out[tuple(parts)] = os.path.join(dirpath, f)
    return out


def strip_tests(text):
    """The text without `#[cfg(test)] mod ... { ... }` blocks and comments."""
    text = re.sub(r"//[^\n]*", "", text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s*)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


PATH = re.compile(r"\b((?:crate|super|self)(?:::\w+)+|\w+(?:::\w+)+)")


def resolve(mods, here, path):
    """The module a path names, or None."""
    parts = path.split("::")
    if parts[0] == "crate":
        base, parts = (), parts[1:]
    elif parts[0] in ("super", "self"):
        base = here
        while parts and parts[0] in ("super", "self"):
            if parts[0] == "super":
                base = base[:-1]
            parts = parts[1:]
    else:
        base = here  # a child module named without `self::`
        if here + (parts[0],) not in mods:
            return None
    best = base if base in mods else None
    for k in range(1, len(parts) + 1):
        cand = base + tuple(parts[:k])
        if cand in mods:
            best = cand
    return best


def edges(mods):
    out = {m: set() for m in mods}
    for m, f in mods.items():
        text = strip_tests(open(f, encoding="utf-8").read())
        # `use a::{b, c::d}` groups: expand one level.
        for g in re.finditer(r"use\s+([\w:]+)::\{([^}]*)\}", text):
            for item in g.group(2).split(","):
                item = item.strip().split(" as ")[0]
                if item and item != "self":
                    text += f"\n{g.group(1)}::{item}\n"
                elif item == "self":
                    text += f"\n{g.group(1)}\n"
        for p in PATH.finditer(text):
            t = resolve(mods, m, p.group(1))
            if t is not None and t != m:
                out[m].add(t)
    return out


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


def main():
    dirs = sys.argv[1:] or [os.path.join(ROOT, d) for d in DEFAULT]
    bad = 0
    for d in dirs:
        if not os.path.isdir(d):
            continue
        mods = modules(d)
        g = edges(mods)
        for comp in cycles(g):
            bad += 1
            names = sorted("::".join(c) or "<root>" for c in comp)
            print(f"{os.path.relpath(d, ROOT)}: circle between " + ", ".join(names))
        print(f"{os.path.relpath(d, ROOT)}: {len(mods)} modules, {sum(len(v) for v in g.values())} edges")
    if bad:
        print(f"{bad} import circle(s)")
        sys.exit(1)
    print("no import circle")


if __name__ == "__main__":
    main()
