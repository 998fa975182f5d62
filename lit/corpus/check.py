#!/usr/bin/env python3
"""Bad-input corpus checker: check.py PLUGIN INCLUDE SOURCE

Compiles SOURCE (C or C++) with clang-16 -g and the plugin at each level
(default -O0 and -O2; `// LEVELS: O0 O1` overrides) and requires, at every
level:
  - exit status exactly 1, within 60 seconds (no hang, no crash);
  - exactly one line with `error:` in it, from enzyme-rs, located at
    SOURCE:LINE where LINE is the line carrying the `// error-here` comment;
  - each `// EXPECT: text` directive's text somewhere in the diagnostic;
  - no panic, no `internal error`, no crash report, no object file written.
"""
import os, re, subprocess, sys, tempfile

plugin, include, src = sys.argv[1:4]
text = open(src).read()
lines = text.splitlines()
want_line = next((n + 1 for n, l in enumerate(lines) if "error-here" in l), None)
expects = re.findall(r"//\s*EXPECT:\s*(.*?)\s*$", text, re.M)
m = re.search(r"//\s*LEVELS:\s*(.*)$", text, re.M)
levels = m.group(1).split() if m else ["O0", "O2"]
cpp = src.endswith((".cpp", ".cc"))
extra = re.search(r"//\s*FLAGS:\s*(.*)$", text, re.M)
problems = []
if want_line is None:
    problems.append("no `// error-here` line in the source")
for lvl in levels:
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "out.o")
        v = os.environ.get("ENZYME_RS_LLVM", "16")  # lit.cfg.py passes it on
        cmd = [("clang++-" if cpp else "clang-") + v, "-" + lvl, "-g", "-I" + include,
               "-fpass-plugin=" + plugin, "-c", src, "-o", obj]
        if extra:
            cmd += extra.group(1).split()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            problems.append("-%s: hang (no answer in 60 s)" % lvl)
            continue
        err = r.stderr
        bad = []
        if r.returncode != 1:
            bad.append("exit status %d, not 1" % r.returncode)
        errs = [l for l in err.splitlines() if "error:" in l]
        if len(errs) != 1:
            bad.append("%d `error:` lines, not 1" % len(errs))
        elif "enzyme-rs:" not in errs[0]:
            bad.append("the error is not from enzyme-rs")
        elif want_line is not None and not re.search(
                r"%s:%d:" % (re.escape(os.path.basename(src)), want_line), errs[0]):
            bad.append("the error is not at line %d" % want_line)
        for e in expects:
            if e not in err:
                bad.append("missing %r" % e)
        for s in ("panicked", "internal error", "PLEASE submit", "Stack dump"):
            if s in err:
                bad.append("the output has %r" % s)
        if os.path.exists(obj):
            bad.append("an object file was written")
        if bad:
            problems.append("-%s: %s\n%s" % (lvl, "; ".join(bad), err[:1500]))
if problems:
    print("\n".join(problems))
    sys.exit(1)
