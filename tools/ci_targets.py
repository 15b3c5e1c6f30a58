#!/usr/bin/env python3
"""The build targets that the tests of some ctest labels run, one per line.

usage: ci_targets.py BUILD_DIR LABEL_REGEX

.ci/run builds only these in its release build (the ASan build compiles
everything): the cuzk program, every executable of this build that a selected
test's command names (directly, or inside an `sh -c` string), and the CUDA
library where the build has one.  The tests are those `ctest --show-only=json-v1
-L LABEL_REGEX` lists; their commands come from the CTestTestfile.cmake files
(ctest's listing leaves out a command whose executable is not built yet).
"""
import json
import pathlib
import re
import subprocess
import sys


def commands(build):
    """test name -> its add_test line's arguments, as one string"""
    out = {}
    for f in pathlib.Path(build).rglob("CTestTestfile.cmake"):
        for m in re.finditer(r"^add_test\(\[=\[(.+?)\]=\] (.*)\)$", f.read_text(), re.M):
            out[m.group(1)] = m.group(2)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    build, labels = sys.argv[1], sys.argv[2]
    shown = subprocess.run(["ctest", "--show-only=json-v1", "-L", labels], cwd=build,
                           capture_output=True, text=True, check=True).stdout
    helped = subprocess.run(["cmake", "--build", build, "--target", "help"],
                            capture_output=True, text=True, check=True).stdout
    known = set(re.findall(r"^\.\.\. (\S+)", helped, re.M))
    want = {"cuzk"}
    if "cuzk_cuda" in known:
        want.add("cuzk_cuda")
    cmd = commands(build)
    for test in json.loads(shown)["tests"]:
        for word in re.findall(r"[A-Za-z0-9_./-]+", cmd.get(test["name"], "")):
            name = word.rsplit("/", 1)[-1]
            if "/" in word and name in known:
                want.add(name)
    if not want - {"cuzk", "cuzk_cuda"}:
        sys.exit(f"ci_targets.py: no test executables under label /{labels}/ in {build}")
    print("\n".join(sorted(want)))


if __name__ == "__main__":
    main()
