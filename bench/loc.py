#!/usr/bin/python3
"""Lines of code of ivy's applied libraries and demos (the 2021 Ivy paper's Table 2).

Usage: /usr/bin/python3 bench/loc.py [REPO_ROOT]      (default: the parent of bench/)

Prints a Markdown table. What is counted, per C++ file (*.hpp, *.h, *.cpp, *.cc, ...; the
Python fixture generators and the JSON fixtures under tests/ are not counted):
  - a line counts when, after removing comments, something other than whitespace is left;
  - comments are `// ...` to the end of the line and `/* ... */` (over any number of lines);
    the comment markers inside string and character literals are not comments;
  - blank lines and lines holding only comments do not count; a line of code with a trailing
    comment counts once; preprocessor lines (#include, #pragma once, ...) count; a line
    holding only a brace counts.
Per library libs/<name>/: "library" = include/ + src/ (the public headers and the
implementation), "tests" = tests/ (C++ files only), each summed over the directory tree.
Demos: examples/<demo>.cpp for the three demos of the applied libraries, and the headers they share
(examples/common/), each where it exists. Libraries and demos that do not exist are skipped.

"Per-backend rewrite" is an estimate, not a measurement: the library written once per
backend (as the original per-framework libraries were) would need about its LoC times the
number of backends ivy supports (NUM_BACKENDS below), where ivy needs it once.
"""
import os
import sys

# The backends ivy supports today: xtensor and torch (backends/). Update when one is added.
NUM_BACKENDS = 2
LIBRARIES = ["mech", "vision", "robot", "gym"]
DEMOS = ["drone_planning", "manipulator_planning", "gym_policy"]
CPP_EXTENSIONS = (".hpp", ".h", ".hh", ".cpp", ".cc", ".cxx", ".ipp", ".inl")


def code_lines(text):
    """Non-blank, non-comment lines of C++ source `text`."""
    count = 0
    in_block = False  # inside /* ... */ carried over from an earlier line
    for line in text.splitlines():
        has_code = False
        i, n = 0, len(line)
        in_str = None  # the quote character while inside a string / char literal
        while i < n:
            ch = line[i]
            if in_block:
                if line.startswith("*/", i):
                    in_block = False
                    i += 2
                else:
                    i += 1
                continue
            if in_str:
                has_code = True
                if ch == "\\":
                    i += 2
                    continue
                if ch == in_str:
                    in_str = None
                i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block = True
                i += 2
                continue
            if ch in "\"'":
                # a digit separator (1'000'000) is not a char literal
                if ch == "'" and i > 0 and line[i - 1].isalnum() and i + 1 < n and line[i + 1].isalnum():
                    has_code = True
                    i += 1
                    continue
                in_str = ch
                has_code = True
                i += 1
                continue
            if not ch.isspace():
                has_code = True
            i += 1
        if has_code:
            count += 1
    return count


def files_under(path):
    out = []
    if os.path.isfile(path):
        return [path] if path.endswith(CPP_EXTENSIONS) else []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(CPP_EXTENSIONS):
                out.append(os.path.join(root, f))
    return out


def loc_of(paths):
    """(code lines, number of files) over every C++ file under `paths`."""
    total, nfiles = 0, 0
    for p in paths:
        for f in files_under(p):
            with open(f, encoding="utf-8", errors="replace") as fh:
                total += code_lines(fh.read())
            nfiles += 1
    return total, nfiles


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows = []  # (name, files, library LoC, tests LoC or None)
    for lib in LIBRARIES:
        d = os.path.join(root, "libs", lib)
        if not os.path.isdir(d):
            continue
        src, nsrc = loc_of([os.path.join(d, "include"), os.path.join(d, "src")])
        if nsrc == 0:
            continue
        tests, _ = loc_of([os.path.join(d, "tests")])
        rows.append(("ivy::" + lib + " (libs/" + lib + ")", nsrc, src, tests))
    demo_rows = []
    for demo in DEMOS:
        f = os.path.join(root, "examples", demo + ".cpp")
        if os.path.isfile(f):
            demo_rows.append(("examples/" + demo + ".cpp", 1, loc_of([f])[0], None))
    common = os.path.join(root, "examples", "common")
    if demo_rows and os.path.isdir(common):
        n, nf = loc_of([common])[0], len(files_under(common))
        if nf:
            demo_rows.append(("examples/common/ (the demos' shared headers)", nf, n, None))

    print("| code | files | LoC, written once with ivy | LoC, one rewrite per backend (x%d, estimate) | tests LoC |"
          % NUM_BACKENDS)
    print("|---|---:|---:|---:|---:|")

    def emit(rows_, label):
        s = sum(r[2] for r in rows_)
        t = sum(r[3] or 0 for r in rows_)
        for name, nf, n, tests in rows_:
            print("| %s | %d | %d | %d | %s |" % (name, nf, n, n * NUM_BACKENDS, "-" if tests is None else str(tests)))
        if len(rows_) > 1:
            print("| **%s** | %d | **%d** | **%d** | %s |" % (label, sum(r[1] for r in rows_), s, s * NUM_BACKENDS,
                                                              str(t) if any(r[3] is not None for r in rows_) else "-"))
        return s

    a = emit(rows, "libraries, total")
    b = emit(demo_rows, "demos, total")
    if rows and demo_rows:
        print("| **libraries + demos** | | **%d** | **%d** | |" % (a + b, (a + b) * NUM_BACKENDS))
    if not rows and not demo_rows:
        print("| (no library under libs/ yet) | 0 | 0 | 0 | - |")


if __name__ == "__main__":
    main()
