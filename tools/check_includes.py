#!/usr/bin/env python3
"""Fails when the project's quoted #includes form a cycle between modules,
or when a library includes a header of a library it does not link.

A module is one file stem: src/engine/job.h and src/engine/job.c are the
node "engine/job".  Module A depends on B when any file of A includes a file
of B.  DESIGN.md s.1 and s.4 ask for one-way layers and no import circles;
this check keeps that true as files are added or moved (src and include are
walked recursively, so subfolders need no change here).

An include is resolved like the compiler does for quotes: next to the
including file first, then under src/ and include/.  Includes that resolve to
no project file (system headers, generated protobuf code) are not edges.

Two kinds of edge are not counted:
  - a private header X_internal.h or X_impl.h including X.h of its own folder:
    it is the body's half of module X (cs.c includes cs_internal.h, which
    extends cs.h's types), so X_internal -> X is X talking to itself;
  - the edges in EXCUSED below, each with its reason.

Libraries (CMakeLists.txt): each folder of src/ belongs to one static
library, and a library may include only its own headers and those of the
libraries it links (LIBRARIES below, the same order as CMakeLists.txt's
target_link_libraries); include/cuzk/engine.h is the engine's public API and
include/cuzk/version.h belongs to everyone.  So "the engine includes no CUDA
header" and "no link cycle" stay true as files are added.

Usage: check_includes.py [ROOT]          check ROOT (default: the repository)
       check_includes.py --self-test     check that a planted cycle is found
Exit status 0 when there is no cycle; 1 with every cycle found printed."""
import os
import re
import sys
import tempfile

SOURCE_EXT = (".c", ".h", ".cu", ".cuh")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


# (from, to) module pairs that are known and accepted, and why.
EXCUSED = {
    ("field/constants", "field/fp"): "generated constants are typed by the field "
    "types, and the field bodies read them",
    ("field/constants", "field/fr"): "as field/fp",
    ("field/constants", "field/fp2"): "as field/fp",
}

PRIVATE_SUFFIXES = ("_internal", "_impl")

# The static libraries: the src/ folders each holds, and the libraries it
# links (transitively closed below).  Keep in step with CMakeLists.txt.
LIBRARIES = {
    "cuzk_core": (("util", "field", "curve", "msm", "ntt", "r1cs", "gadget", "filecoin",
                   "groth16", "cuzk/version"), ()),
    "cuzk_cuda": (("cuda",), ("cuzk_core",)),
    "cuzk_engine": (("engine", "cuzk/engine"), ("cuzk_core",)),
    "cuzk_sealer": (("sealer",), ("cuzk_core",)),
    "cuzk_server": (("server",), ("cuzk_engine", "cuzk_core")),
    "cuzk_cli": (("cli",), ("cuzk_server", "cuzk_engine", "cuzk_sealer", "cuzk_cuda", "cuzk_core")),
}


def library_of(module):
    """The library a module ("engine/job", "cuzk/engine") belongs to, or None."""
    for lib, (folders, _deps) in LIBRARIES.items():
        for f in folders:
            if module == f or module.startswith(f + "/"):
                return lib
    return None


def library_reach():
    """Each library and every library it may include from (itself too)."""
    reach = {}
    for lib in LIBRARIES:
        seen, todo = {lib}, [lib]
        while todo:
            for d in LIBRARIES[todo.pop()][1]:
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        reach[lib] = seen
    return reach


def library_violations(graph):
    """(library, module, included module, file, name) for each include of a
    library that the including one does not link."""
    reach, out = library_reach(), []
    for a in sorted(graph):
        la = library_of(a)
        for b in sorted(graph[a]):
            lb = library_of(b)
            if la and lb and lb not in reach[la]:
                f, name = graph[a][b]
                out.append((la, lb, f, name))
    return out


def counted(a, b):
    if (a, b) in EXCUSED:
        return False
    for suffix in PRIVATE_SUFFIXES:
        if a.endswith(suffix) and a[: -len(suffix)] == b:
            return False
    return True


def project_files(root):
    files = []
    for top in ("src", "include"):
        for dirpath, _dirs, names in os.walk(os.path.join(root, top)):
            files.extend(
                os.path.join(dirpath, n) for n in names if n.endswith(SOURCE_EXT)
            )
    return sorted(files)


def module_of(root, path):
    rel = os.path.relpath(path, root)
    stem = os.path.splitext(rel)[0]
    parts = stem.split(os.sep)
    if parts[0] in ("src", "include"):  # "engine/job", "cuzk/engine"
        parts = parts[1:]
    return "/".join(parts)


def resolve(root, includer, name, known):
    for base in (
        os.path.dirname(includer),
        os.path.join(root, "src"),
        os.path.join(root, "include"),
    ):
        p = os.path.normpath(os.path.join(base, name))
        if p in known:
            return p
    return None


def build_graph(root):
    files = project_files(root)
    known = set(os.path.normpath(f) for f in files)
    graph = {}  # module -> {module: (file, included file)}
    for f in files:
        a = module_of(root, f)
        graph.setdefault(a, {})
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for name in INCLUDE_RE.findall(text):
            target = resolve(root, os.path.normpath(f), name, known)
            if target is None:
                continue
            b = module_of(root, target)
            if b != a and counted(a, b):
                graph[a].setdefault(b, (os.path.relpath(f, root), name))
    return graph


def strongly_connected(graph):
    """Tarjan's algorithm, iterative (the graph has hundreds of nodes)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def one_cycle(graph, comp):
    """A shortest cycle through the component's first node (breadth first)."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp + [start]


def check(root):
    graph = build_graph(root)
    comps = strongly_connected(graph)
    for comp in comps:
        cycle = one_cycle(graph, comp)
        print("include cycle: " + " -> ".join(cycle))
        for a, b in zip(cycle, cycle[1:]):
            f, name = graph[a][b]
            print('  %s includes "%s"' % (f, name))
    bad = library_violations(graph)
    for la, lb, f, name in bad:
        print('library %s includes %s, which it does not link: %s includes "%s"'
              % (la, lb, f, name))
    if comps:
        print("%d include cycle(s) among %d modules" % (len(comps), len(graph)))
    if bad:
        print("%d include(s) across libraries against their link order" % len(bad))
    if comps or bad:
        return 1
    print("no include cycles among %d modules; every library includes only what it links"
          % len(graph))
    return 0


def self_test():
    with tempfile.TemporaryDirectory() as d:
        def put(rel, text):
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as fh:
                fh.write(text)

        put("src/a/x.h", "#include <stdio.h>\n")
        put("src/a/x.c", '#include "a/x.h"\n#include "b/deep/y.h"\n')
        put("src/b/deep/y.h", '#include "z.h"\n')  # next to the includer
        put("src/b/deep/z.c", '#include "cuzk/api.h"\n')
        put("src/b/deep/w.h", "")  # a private header is part of its module
        put("src/b/deep/w_internal.h", '#include "b/deep/w.h"\n')
        put("src/b/deep/w.c", '#include "b/deep/w_internal.h"\n')
        put("include/cuzk/api.h", "")
        if check(d) != 0:
            print("self-test: a tree without a cycle was refused")
            return 1
        put("src/b/deep/z.h", "")
        put("src/b/deep/z.c", '#include "b/deep/z.h"\n#include "a/x.h"\n')
        if check(d) != 1:
            print("self-test: the planted cycle a/x -> b/deep/y -> b/deep/z -> a/x was missed")
            return 1
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "src/engine"))
        os.makedirs(os.path.join(d, "src/cuda"))
        with open(os.path.join(d, "src/cuda/b.h"), "w") as fh:
            fh.write("")
        with open(os.path.join(d, "src/engine/a.c"), "w") as fh:
            fh.write('#include "cuda/b.h"\n')
        if check(d) != 1:
            print("self-test: the engine including a CUDA header was not refused")
            return 1
    print("self-test: passed")
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return check(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
