#!/usr/bin/env python3
"""Compile time of the program suite with two builds of the plugin.

  bench/compile_suite.py OLD.so NEW.so [LEVEL] [DIR]

Compiles every tests/programs/**/*.c{,pp} of DIR (default: this checkout)
that has no FLAGS/EXPECT-ERROR/SKIP directive with clang-16 -LEVEL -c,
once with each plugin and once without, interleaved file by file, and
prints the CPU time (user+sys of the compiler) of each: CPU time rather
than wall time, so that other load on the machine matters less.
"""
import os, resource, subprocess, sys, glob

def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def compile_time(cc, src, inc, plugin, level):
    cmd = [cc, f"-{level}", "-c", src, "-o", os.devnull, "-I", inc, "-I", os.path.dirname(inc), "-Iinclude"]
    if plugin:
        cmd.append(f"-fpass-plugin={plugin}")
    t = cpu()
    ok = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    return cpu() - t, ok

def main():
    old, new = sys.argv[1], sys.argv[2]
    level = sys.argv[3] if len(sys.argv) > 3 else "O2"
    root = sys.argv[4] if len(sys.argv) > 4 else "."
    files = sorted(glob.glob(f"{root}/tests/programs/**/*.c", recursive=True) +
                   glob.glob(f"{root}/tests/programs/**/*.cpp", recursive=True))
    tot = {"none": 0.0, "old": 0.0, "new": 0.0}
    n = 0
    for f in files:
        head = open(f, errors="replace").read(2000)
        if any(d in head for d in ("FLAGS:", "EXPECT-ERROR", "SKIP:")):
            continue
        cc = "clang++-16" if f.endswith(".cpp") else "clang-16"
        inc = os.path.dirname(f)
        times = {}
        good = True
        for k, p in (("none", None), ("old", old), ("new", new)):
            t, ok = compile_time(cc, f, inc, p, level)
            times[k] = t
            good &= ok
        if not good:
            continue
        n += 1
        for k in tot:
            tot[k] += times[k]
    print(f"{n} programs at -{level}: CPU seconds without plugin {tot['none']:.1f}, "
          f"old plugin {tot['old']:.1f} ({tot['old']/tot['none']:.2f}x), "
          f"new plugin {tot['new']:.1f} ({tot['new']/tot['none']:.2f}x)")

main()
