# SPDX-License-Identifier: GPL-2.0
"""The module's object files as a graph, and its cycles.

An edge runs from an object to each object that defines a symbol it
leaves undefined (nm).  A cycle means two files call, or read, each
other: the module keeps each file a layer below the one that calls it.

    python3 -m strunner.objgraph DIR

reads DIR/module/**/*.o, prints one "# A -> B C" line per object and one
"cycle: A B ..." line per strongly connected set of more than one, and
exits 1 if there is one, 2 if DIR has no object.  cycles_in() gives the
same verdict as lines (strunner.kjob).
"""

import glob
import os
import subprocess
import sys


def graph(objs):
    """Map each object to the set of objects it refers to."""
    defs, undef = {}, {}
    for o in objs:
        out = subprocess.run(["nm", o], capture_output=True, text=True,
                             check=True).stdout
        undef[o] = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBRGV":
                defs[f[2]] = o
            elif len(f) == 2 and f[0] == "U":
                undef[o].add(f[1])
    return {o: {defs[s] for s in u if s in defs and defs[s] != o}
            for o, u in undef.items()}


def cycles(g):
    """The strongly connected sets of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
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
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def objects(top):
    """TOP/module/**/*.o but the .mod.o files."""
    return sorted(o for o in glob.glob(os.path.join(top, "module", "**", "*.o"), recursive=True)
                  if not o.endswith(".mod.o"))


def cycles_in(top):
    """The "cycle: A B ..." lines of TOP's objects, or the line that says
    it has none."""
    objs = objects(top)
    if not objs:
        return ["no object under %s/module" % top]
    return ["cycle: " + " ".join(os.path.relpath(x, top) for x in c) for c in cycles(graph(objs))]


def main(argv):
    top = argv[1]
    objs = objects(top)
    if not objs:
        print(f"no object under {top}/module")
        return 2
    g = graph(objs)
    name = {o: os.path.relpath(o, top) for o in objs}
    for o in objs:
        print(f"# {name[o]} -> {' '.join(sorted(name[x] for x in g[o]))}")
    found = cycles(g)
    for c in found:
        print("cycle: " + " ".join(name[x] for x in c))
    return 1 if found else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
