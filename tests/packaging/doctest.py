#!/usr/bin/env python3
"""Compile and run every C, C++ and Fortran code block of the user guide.

Each fenced block marked ```c, ```cpp or ```fortran in docs/*.md is a whole
program that checks its own result (exit status 0 = right). It is compiled
with the enzyme-rs wrappers (enzyme-clang, enzyme-clang++ -std=c++17,
enzyme-flang with the module `enzyme`) at -O0 and -O2 and run. A comment on
the line before the fence changes that:

    <!-- doctest: levels=O2; flags=-mllvm -enzyme-print; stderr=define -->
    <!-- doctest: expect-error=too many arguments -->

levels      the -O levels (space separated)
flags       extra compiler flags
stderr      text the compiler's stderr must contain
output      text the program's stdout must contain
expect-error  the compile must fail with this text in its messages
skip        do not compile (the value says why)

Blocks in other languages (```sh, ```text, ```cmake, ```python) are not run.

Usage: doctest.py [DOC.md...]   (default: docs/*.md)
Environment: ENZYME_RS_BIN (the wrappers' folder, default bin/), JOBS.
"""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("ENZYME_RS_BIN", os.path.join(ROOT, "bin"))
LANGS = {"c": "c", "cpp": "cpp", "c++": "cpp", "fortran": "fortran", "f90": "fortran"}
FENCE = re.compile(r"^```\s*([A-Za-z0-9+]*)\s*$")
DIRECTIVE = re.compile(r"^<!--\s*doctest:(.*)-->\s*$")


def blocks(path):
    """(line, lang, options, code) for each runnable block of a Markdown file."""
    lines = open(path).read().split("\n")
    i, prev = 0, ""
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if lines[i].strip():
                prev = lines[i]
            i += 1
            continue
        lang, start = m.group(1).lower(), i + 1
        j = start
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        if lang in LANGS:
            opts = {}
            d = DIRECTIVE.match(prev.strip())
            if d:
                for part in d.group(1).split(";"):
                    if "=" in part:
                        k, v = part.split("=", 1)
                        opts[k.strip()] = v.strip()
            yield start, LANGS[lang], opts, "\n".join(lines[start:j]) + "\n"
        prev = ""
        i = j + 1


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


def test(job):
    name, lang, opts, code, moddir = job
    if "skip" in opts:
        return name, None, "skipped: " + opts["skip"]
    levels = opts.get("levels", "O0 O2").split()
    flags = opts.get("flags", "").split()
    with tempfile.TemporaryDirectory() as d:
        ext = {"c": ".c", "cpp": ".cpp", "fortran": ".f90"}[lang]
        src = os.path.join(d, "example" + ext)
        with open(src, "w") as f:
            f.write(code)
        for lvl in levels:
            exe = os.path.join(d, "a_" + lvl)
            if lang == "c":
                cmd = [os.path.join(BIN, "enzyme-clang"), "-" + lvl, src, "-o", exe, "-lm"]
            elif lang == "cpp":
                cmd = [os.path.join(BIN, "enzyme-clang++"), "-std=c++17", "-" + lvl, src, "-o", exe, "-lm"]
            else:
                cmd = [os.path.join(BIN, "enzyme-flang"), "-" + lvl, "-I" + moddir, src, "-o", exe]
            c = run(cmd + flags, cwd=d)
            msgs = c.stdout + c.stderr
            if "expect-error" in opts:
                want = opts["expect-error"]
                if c.returncode == 0:
                    return name, False, f"-{lvl}: compiled, expected the error '{want}'"
                if want not in msgs:
                    return name, False, f"-{lvl}: error without '{want}':\n{msgs[-2000:]}"
                if "panicked" in msgs or "Stack dump" in msgs:
                    return name, False, f"-{lvl}: crashed:\n{msgs[-2000:]}"
                continue
            if c.returncode != 0:
                return name, False, f"-{lvl}: compile failed:\n{msgs[-3000:]}"
            if "stderr" in opts and opts["stderr"] not in c.stderr:
                return name, False, f"-{lvl}: compiler stderr lacks '{opts['stderr']}'"
            r = run([exe], cwd=d)
            if r.returncode != 0:
                return name, False, f"-{lvl}: exit {r.returncode}:\n{(r.stdout + r.stderr)[-2000:]}"
            if "output" in opts and opts["output"] not in r.stdout:
                return name, False, f"-{lvl}: output lacks '{opts['output']}':\n{r.stdout[-1000:]}"
    return name, True, " ".join(levels)


def main():
    docs = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    with tempfile.TemporaryDirectory() as moddir:
        jobs = []
        for path in docs:
            rel = os.path.relpath(path, ROOT)
            for line, lang, opts, code in blocks(path):
                jobs.append((f"{rel}:{line} ({lang})", lang, opts, code, moddir))
        if any(j[1] == "fortran" for j in jobs):
            inc = os.environ.get("ENZYME_RS_INCLUDE", os.path.join(ROOT, "include"))
            c = run(["flang-new-16", "-c", os.path.join(inc, "enzyme", "enzyme.f90"),
                     "-module-dir", moddir, "-o", os.path.join(moddir, "enzyme.o")])
            if c.returncode != 0:
                print(c.stderr)
                return 1
        passed = failed = skipped = 0
        workers = int(os.environ.get("JOBS", "2"))
        with concurrent.futures.ThreadPoolExecutor(workers) as ex:
            for name, ok, msg in ex.map(test, jobs):
                if ok is None:
                    skipped += 1
                    print(f"skip {name}: {msg}")
                elif ok:
                    passed += 1
                    print(f"ok   {name} {msg}")
                else:
                    failed += 1
                    print(f"FAIL {name} {msg}")
    print(f"doc examples: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
