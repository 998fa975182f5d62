#!/usr/bin/env python3
"""llvm-stress fuzzer for the enzyme-rs plugin.

For each seed, llvm-stress-16 generates a random module with one function
(pointer, integer and i8 arguments, vector and scalar float code); a driver
is appended that differentiates that function in one mode with random
activities, and `opt-16 -passes=enzyme,verify` is run on the result.

Modes: fwd (__enzyme_fwddiff), rev (__enzyme_autodiff), split
(__enzyme_augmentfwd + __enzyme_reverse with the tape), vfwd and vrev
(enzyme_width 2..4). Each run is classified as
  built   - exit 0, the verifier passed
  error   - exit 1 with a clean `error:` diagnostic (e.g. float data
            copied through integers): an accepted outcome
  FAIL    - anything else: a crash, a panic, an `internal error`, a
            verifier failure, a timeout, or an error without `error:`
Prints one line per failure (`FAIL seed=S size=Z mode=M: reason`) and a
summary; exits 1 if any run failed.

  stress.py FIRST LAST [-s SIZE] [-j JOBS] [-m fwd,rev,...] [--keep DIR]
  stress.py --regressions FILE   (lines `SEED SIZE MODE`, # comments)
"""
import argparse, os, random, re, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLUGIN = os.environ.get("ENZYME_RS_PLUGIN") or os.path.join(ROOT, "target", "release", "libenzyme_rs.so")
STRESS = os.environ.get("LLVM_STRESS", "llvm-stress-16")
OPT = os.environ.get("OPT", "opt-16")
MODES = ["fwd", "rev", "split", "vfwd", "vrev"]
MARKERS = ["enzyme_dup", "enzyme_const", "enzyme_dupnoneed", "enzyme_width",
           "enzyme_out"]


def driver(fname, params, mode, rng):
    """IR text of a driver calling the entry point(s) for `mode` on fname."""
    width = rng.randint(2, 4) if mode in ("vfwd", "vrev") else 1
    nshadow = width
    dparams, args = [], []
    if width > 1:
        args += ["ptr @enzyme_width", "i64 %d" % width]
    for i, ty in enumerate(params):
        p = "%%a%d" % i
        dparams.append("%s %s" % (ty, p))
        if ty == "ptr":
            act = rng.choice(["enzyme_dup", "enzyme_dup", "enzyme_const",
                              "enzyme_dupnoneed", None])
            if act is None or act == "enzyme_const":
                # constant pointer: explicit marker (a bare pointer with no
                # shadow is only accepted when it holds no float data)
                args += ["ptr @enzyme_const", "ptr " + p]
            else:
                args += ["ptr @" + act, "ptr " + p]
                for k in range(nshadow):
                    dparams.append("ptr %%d%d_%d" % (i, k))
                    args.append("ptr %%d%d_%d" % (i, k))
        elif ty in ("float", "double"):
            if mode in ("fwd", "vfwd"):
                args.append("%s %s" % (ty, p))
                for k in range(nshadow):
                    dparams.append("%s %%d%d_%d" % (ty, i, k))
                    args.append("%s %%d%d_%d" % (ty, i, k))
            else:
                args += ["ptr @enzyme_const", "%s %s" % (ty, p)]
        else:
            if rng.random() < 0.5:
                args.append("ptr @enzyme_const")
            args.append("%s %s" % (ty, p))
    a = ", ".join(args)
    d = ", ".join(dparams)
    if mode in ("fwd", "vfwd"):
        body = "  call void (ptr, ...) @__enzyme_fwddiff(ptr @%s, %s)\n" % (fname, a)
    elif mode in ("rev", "vrev"):
        body = "  call void (ptr, ...) @__enzyme_autodiff(ptr @%s, %s)\n" % (fname, a)
    else:
        body = ("  %%t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @%s, %s)\n"
                "  call void (ptr, ...) @__enzyme_reverse(ptr @%s, %s, ptr %%t)\n"
                % (fname, a, fname, a))
    decls = "".join("@%s = external global i32\n" % m for m in MARKERS)
    decls += ("declare void @__enzyme_fwddiff(ptr, ...)\n"
              "declare void @__enzyme_autodiff(ptr, ...)\n"
              "declare ptr @__enzyme_augmentfwd(ptr, ...)\n"
              "declare void @__enzyme_reverse(ptr, ...)\n")
    return "\n%s\ndefine void @enzyme_rs_stress_driver(%s) {\n%s  ret void\n}\n" % (decls, d, body)


def run_one(seed, size, mode, keep=None, timeout=60):
    """Returns (status, reason): status in built/error/FAIL."""
    with tempfile.TemporaryDirectory(prefix="enzyme-rs-stress-") as tmp:
        src = os.path.join(tmp, "m.ll")
        r = subprocess.run([STRESS, "-size=%d" % size, "-seed=%d" % seed, "-o", src],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return "FAIL", "llvm-stress failed: " + r.stderr[:200]
        text = open(src).read()
        m = re.search(r"^define void @(\S+)\((.*)\)", text, re.M)
        if not m:
            return "FAIL", "no function in the llvm-stress module"
        params = [p.strip().split()[0] for p in m.group(2).split(",") if p.strip()]
        rng = random.Random(seed * 31 + MODES.index(mode))
        text += driver(m.group(1), params, mode, rng)
        open(src, "w").write(text)
        try:
            r = subprocess.run([OPT, "-load-pass-plugin=" + PLUGIN,
                                "-passes=enzyme,verify", "-disable-output", src],
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            status, reason = "FAIL", "timeout after %ds" % timeout
        else:
            err = r.stderr
            if r.returncode == 0 and "error" not in err.lower():
                status, reason = "built", ""
            elif r.returncode == 1 and re.search(r"^error: |: error: ", err, re.M) \
                    and "internal error" not in err and "verifier" not in err \
                    and "panick" not in err:
                status, reason = "error", ""
            else:
                line = next((l for l in err.splitlines() if l.strip()), "")
                status, reason = "FAIL", "exit %d: %s" % (r.returncode, line[:300])
        if status == "FAIL" and keep:
            os.makedirs(keep, exist_ok=True)
            dst = os.path.join(keep, "stress_%d_%d_%s.ll" % (seed, size, mode))
            open(dst, "w").write(text)
        return status, reason


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("first", type=int, nargs="?")
    ap.add_argument("last", type=int, nargs="?")
    ap.add_argument("-s", "--size", type=int, default=300)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("-m", "--modes", default=",".join(MODES))
    ap.add_argument("--keep", default=None, help="copy failing modules here")
    ap.add_argument("--regressions", default=None)
    ap.add_argument("-q", "--quiet", action="store_true")
    o = ap.parse_args()
    if not os.path.exists(PLUGIN):
        sys.exit("build the plugin first: " + PLUGIN)
    jobs = []
    if o.regressions:
        for line in open(o.regressions):
            line = line.split("#")[0].split()
            if line:
                jobs.append((int(line[0]), int(line[1]), line[2]))
    else:
        modes = o.modes.split(",")
        for s in range(o.first, o.last + 1):
            for md in modes:
                jobs.append((s, o.size, md))
    counts = {"built": 0, "error": 0, "FAIL": 0}
    with ThreadPoolExecutor(max_workers=o.jobs) as ex:
        futs = [(j, ex.submit(run_one, *j, o.keep)) for j in jobs]
        for (s, z, md), f in futs:
            status, reason = f.result()
            counts[status] += 1
            if status == "FAIL":
                print("FAIL seed=%d size=%d mode=%s: %s" % (s, z, md, reason), flush=True)
    print("llvm-stress: %d runs: %d built, %d clean errors, %d failures"
          % (len(jobs), counts["built"], counts["error"], counts["FAIL"]))
    sys.exit(1 if counts["FAIL"] else 0)


if __name__ == "__main__":
    main()
