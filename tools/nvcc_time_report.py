#!/usr/bin/env python3
"""Summarise the CSV that `nvcc --time FILE` appends to (one row per phase of
each compilation) as a table per source file: the front end (cudafe++), the
device compiler (cicc), the assembler (ptxas), the host compiler, and the sum,
sorted by the sum.  With a ptxas -v log (-Xptxas=-v, the build's output) as a
second argument, also the ptxas time of each kernel, longest first.

    cmake ... -DCMAKE_CUDA_FLAGS=--time=/tmp/nvcc.csv && cmake --build ...
    python3 tools/nvcc_time_report.py /tmp/nvcc.csv [build.log]
"""
import csv
import os
import re
import sys
from collections import defaultdict

PHASES = [("cudafe++", "cudafe++"), ("cicc", "cicc"), ("ptxas", "ptxas"),
          ("gcc (compiling)", "host gcc")]


def per_file(path):
    t = defaultdict(lambda: defaultdict(float))
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if len(row) < 8 or row[0].strip() in ("", "source file name"):
                continue
            src, phase, ms = row[0].strip(), row[1].strip(), row[6].strip()
            if "CMake" in src:
                continue
            try:
                t[os.path.basename(src)][phase] += float(ms) / 1000.0
            except ValueError:
                pass
    return t


def kernels(path):
    """(seconds, kernel) per 'Compiling entry' / 'Compile time' pair of ptxas -v."""
    out, name = [], None
    for line in open(path, errors="replace"):
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            name = m.group(1)
            continue
        m = re.search(r"Compile time = ([0-9.]+) ms", line)
        if m and name:
            out.append((float(m.group(1)) / 1000.0, name))
            name = None
    return sorted(out, reverse=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    t = per_file(sys.argv[1])
    rows = sorted(t.items(), key=lambda kv: -sum(kv[1].values()))
    print("| file | " + " | ".join(h for _, h in PHASES) + " | all phases |")
    print("|---" * (len(PHASES) + 2) + "|")
    total = defaultdict(float)
    for src, ph in rows:
        cells = ["%.1f" % ph.get(p, 0.0) for p, _ in PHASES]
        for p, _ in PHASES:
            total[p] += ph.get(p, 0.0)
        print("| %s | %s | %.1f |" % (src, " | ".join(cells), sum(ph.values())))
    print("| **all** | %s | %.1f |" % (" | ".join("%.1f" % total[p] for p, _ in PHASES),
                                        sum(sum(ph.values()) for ph in t.values())))
    if len(sys.argv) > 2:
        print("\nptxas per kernel (s), longest first:")
        for s, name in kernels(sys.argv[2])[:25]:
            m = re.match(r"_Z\d+([A-Za-z_0-9]+?)(I|P|v|j|m)", name)
            print("  %7.1f  %s  (%s)" % (s, m.group(1) if m else name, name[:70]))


if __name__ == "__main__":
    main()
