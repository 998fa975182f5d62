#!/usr/bin/env python3
"""bench/run.py -- the benchmark runner (invoked by bench/run.sh).

Builds everything (build.sh), checks every tool's derivative against the
hand-written one (and central differences) before timing anything, times
each tool per problem and size in its own process (peak RSS per process),
measures compile-time overhead of the plugin, and writes bench/results/:
report.md (tables), results.json (raw), ratios.png and scaling.png.

Options: --quick (short timings, smallest sizes: a smoke test),
         --problems a,b,c (subset), --largest (each problem's largest
         size only), --tools a,b (only these tools, e.g.
         primal,hand,enzyme_rev; ADOL-C only when named), --out DIR,
         --rounds N (time the tools of a size N times, interleaved:
         round 1 runs every tool once, then round 2, ...; each figure is
         the median over the rounds and its spread covers them: on a loaded
         machine, load that comes and goes then hits every tool alike).
"""
import argparse, json, os, platform, re, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "build")
RESULTS = os.path.join(HERE, "results")

# Sizes per problem: (arguments, adolc?) -- ADOL-C is left out where its tape
# would need several GB (noted in the report).
SIZES = {
    "sumsq": [("10000", 1), ("100000", 1), ("1000000", 1), ("10000000", 0)],
    "dot": [("10000", 1), ("100000", 1), ("1000000", 1), ("10000000", 0)],
    "logsumexp": [("10000", 1), ("100000", 1), ("1000000", 1)],
    "matvec": [("100", 1), ("300", 1), ("1000", 1)],
    "ode": [("1000", 1), ("10000", 1), ("100000", 1)],
    "fft": [("1024", 1), ("8192", 1), ("65536", 1)],
    "sort": [("500", 1), ("1000", 1), ("2000", 1)],
    "stencil": [("10000", 1), ("100000", 1), ("1000000", 1), ("10000000", 0)],
    "gmm": [("2 5 1000", 1), ("10 25 1000", 1), ("64 100 1000", 0)],
    "lstm": [("2 1024 14", 1), ("4 1024 14", 1), ("4 4096 14", 1)],
    "ba": [("16 2000 8000", 1), ("64 8000 32000", 1), ("256 32000 128000", 1)],
}
ORDER = list(SIZES)
TOOL_LABEL = {
    "enzyme_rev": "enzyme-rs reverse",
    "enzyme_rev_acc": "enzyme-rs reverse, no zeroing",
    "enzyme_vfwd": "enzyme-rs vector fwd",
    "enzyme_fwd": "enzyme-rs forward",
    "hand": "hand-written",
    "adolc_both": "ADOL-C tape+grad",
    "adolc_tape": "ADOL-C tape",
    "adolc_eval": "ADOL-C grad",
    "fd": "central FD",
}


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def ensure_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        pass
    print("installing matplotlib (pip) ...", flush=True)
    for extra in ([], ["--user"], ["--break-system-packages"]):
        r = sh([sys.executable, "-m", "pip", "install", "--quiet"] + extra + ["matplotlib"])
        if r.returncode == 0:
            import importlib, site
            importlib.invalidate_caches()
            try:
                sys.path.append(site.getusersitepackages())
            except Exception:
                pass
            try:
                import matplotlib  # noqa: F401
                return True
            except ImportError:
                continue
    print("matplotlib unavailable: charts skipped", flush=True)
    return False


def read_config():
    cfg = {}
    for line in open(os.path.join(BUILD, "config.env")):
        k, _, v = line.strip().partition("=")
        cfg[k] = int(v)
    return cfg


def run_check(prog, args):
    r = sh([os.path.join(BUILD, prog), "check"] + args.split())
    lines = [l for l in r.stdout.splitlines() if l.startswith("CHECK")]
    bad = set()
    for l in lines:
        m = re.match(r"CHECK\s+\S+\s+.*?\s(\S+)\s+vs hand: rel\.err (\S+) \(tol (\S+)\) (ok|MISMATCH)", l)
        if m and m.group(4) != "ok":
            bad.add(m.group(1))
    if r.returncode not in (0, 1):
        bad.add("crash")
    return r.returncode, lines, bad, r.stdout


def run_time(prog, tool, args, env, cwd=None):
    r = sh([os.path.join(BUILD, prog), "time", tool] + args.split(), env=env, timeout=600, cwd=cwd)
    for l in r.stdout.splitlines():
        if l.startswith("RESULT "):
            return json.loads(l[7:])
    print(f"  ! {prog} {tool} {args}: no result (rc {r.returncode})\n{r.stdout[-500:]}", flush=True)
    return None


def combine_rounds(results):
    """One record from the same tool's records of several rounds: the median
    time; spread = (slowest - fastest) / median over the rounds' times and
    every round's own batches."""
    rs = [r for r in results if r]
    if not rs:
        return None
    if len(rs) == 1:
        return rs[0]
    ts = sorted(r["time"] for r in rs)
    med = statistics.median(ts)
    lo = min(r["time"] * (1 - r.get("spread", 0) / 2) for r in rs)
    hi = max(r["time"] * (1 + r.get("spread", 0) / 2) for r in rs)
    out = dict(min(rs, key=lambda r: abs(r["time"] - med)))
    out["time"] = med
    out["spread"] = (max(hi, ts[-1]) - min(lo, ts[0])) / med if med > 0 else 0
    out["rounds"] = [r["time"] for r in rs]
    return out


def compile_times(problems, cfg, reps=5):
    """clang-16 -O2 -c of each benchmark with and without the plugin; the
    fastest of `reps` runs each (least disturbed by other load)."""
    root = os.path.dirname(HERE)
    plugin = os.path.join(root, "target/release/libenzyme_rs.so")
    base = ["clang-16", "-O2", "-I" + os.path.join(root, "include"), "-I" + os.path.join(HERE, "common"),
            "-I" + os.path.join(HERE, "problems"), f"-DHAVE_REVERSE={cfg['HAVE_REVERSE']}",
            f"-DHAVE_VECTOR_FWD={cfg['HAVE_VECTOR_FWD']}", "-c", os.path.join(HERE, "common/main.c"),
            "-o", os.path.join(BUILD, "ct.o")]
    out = {}
    for p in problems:
        row = {}
        for name, extra in (("without", []), ("with", ["-fpass-plugin=" + plugin])):
            ts = []
            for _ in range(reps):
                t0 = time.perf_counter()
                r = sh(base + [f'-DPROBLEM_HEADER="{p}.h"'] + extra)
                ts.append(time.perf_counter() - t0)
                if r.returncode != 0:
                    print(r.stdout[-800:])
            row[name] = min(ts)
        row["ratio"] = row["with"] / row["without"]
        out[p] = row
        print(f"  compile {p:10s} {row['without']:.3f}s -> {row['with']:.3f}s  x{row['ratio']:.2f}", flush=True)
    return out


def fmt_t(t):
    if t is None:
        return "-"
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.2f} ms"
    return f"{t * 1e6:.1f} us"


def fmt_bytes(b):
    if not b:
        return "-"
    for unit, s in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if b >= s:
            return f"{b / s:.1f} {unit}"
    return f"{b:.0f} B"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--problems", default=",".join(ORDER))
    ap.add_argument("--out", default=RESULTS)
    ap.add_argument("--largest", action="store_true", help="only each problem's largest size")
    ap.add_argument("--tools", default="", help="comma list of tools to time (default: all)")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile-time measurement")
    ap.add_argument("--rounds", type=int, default=1, help="interleaved timing rounds per size")
    ap.add_argument("--report-only", action="store_true", help="rewrite report and charts from results.json")
    a = ap.parse_args()
    if a.report_only:
        data = json.load(open(os.path.join(a.out, "results.json")))
        probs = [p for p in ORDER if any(r["problem"] == p for r in data["records"])]
        write_report(data, probs, a.out)
        if ensure_matplotlib():
            charts(data, probs, a.out)
        return
    problems = [p for p in a.problems.split(",") if p]
    t_start = time.time()
    r = subprocess.run([os.path.join(HERE, "build.sh")], env=dict(os.environ, BENCH_PROBLEMS=" ".join(problems)))
    if r.returncode:
        sys.exit("build failed")
    cfg = read_config()
    have_mpl = ensure_matplotlib()
    env = dict(os.environ)
    if a.quick:
        env.setdefault("BENCH_MIN_TIME", "0.01")
        env.setdefault("BENCH_REPEATS", "3")
    c_tools = ["primal", "hand", "enzyme_fwd"]
    if cfg["HAVE_VECTOR_FWD"]:
        c_tools.append("enzyme_vfwd")
    if cfg["HAVE_REVERSE"]:
        c_tools += ["enzyme_rev", "enzyme_rev_acc"]
    c_tools.append("fd")
    ad_tools = ["adolc_tape", "adolc_eval", "adolc_both"] if cfg["HAVE_ADOLC"] else []
    if a.tools:
        only = a.tools.split(",")
        c_tools = [t for t in c_tools if t in only]
        ad_tools = [t for t in ad_tools if t in only]
    entry = "enzyme_rev" if cfg["HAVE_REVERSE"] else "enzyme_fwd"
    os.makedirs(a.out, exist_ok=True)
    adolc_dir = os.path.join(BUILD, "adolc-run")  # ADOL-C may spill tapes to files in its cwd
    os.makedirs(adolc_dir, exist_ok=True)

    records, checks, failures = [], [], []
    for p in problems:
        sizes = SIZES[p][:1] if a.quick else SIZES[p][-1:] if a.largest else SIZES[p]
        for args, adolc_ok in sizes:
            print(f"== {p} {args}", flush=True)
            rc, lines, bad, out = run_check(p, args)
            checks += lines
            if rc:
                failures.append(f"{p} {args}: {', '.join(sorted(bad)) or 'rc ' + str(rc)}")
                print(out, flush=True)
            ad = cfg["HAVE_ADOLC"] and adolc_ok and bool(ad_tools)
            if ad:
                rc2, lines2, bad2, out2 = run_check(p + "_adolc", args)
                checks += lines2
                if rc2:
                    failures.append(f"{p} {args}: adolc")
                    bad |= {"adolc"}
                    print(out2, flush=True)
            tools = [t for t in c_tools if t not in bad and not (t == "enzyme_rev_acc" and p == "ba")]
            per_tool = {t: [] for t in tools}
            for _ in range(max(1, a.rounds)):
                for tool in tools:
                    per_tool[tool].append(run_time(p, tool, args, env))
            for tool in tools:
                res = combine_rounds(per_tool[tool])
                if res:
                    records.append(res)
                    print(f"   {tool:14s} {fmt_t(res['time']):>10s} ±{100 * res.get('spread', 0) / 2:.0f}%"
                          f"{' (extrapolated)' if res['extrapolated'] else ''}", flush=True)
            if ad and "adolc" not in bad:
                for tool in ad_tools:
                    res = run_time(p + "_adolc", tool, args, env, cwd=adolc_dir)
                    if res:
                        records.append(res)
                        print(f"   {tool:12s} {fmt_t(res['time']):>10s}", flush=True)
    print("== compile time", flush=True)
    ctimes = {} if a.no_compile else compile_times(problems, cfg, reps=1 if a.quick else 5)
    elapsed = time.time() - t_start
    data = {"config": cfg, "entry": entry, "records": records, "checks": checks, "failures": failures,
            "compile": ctimes, "elapsed_s": elapsed, "quick": a.quick, "rounds": a.rounds,
            "min_time": float(env.get("BENCH_MIN_TIME", "0.5")),
            "host": {"machine": platform.machine(), "cpus": os.cpu_count(), "python": platform.python_version(),
                     "date": time.strftime("%Y-%m-%d %H:%M:%S %Z")}}
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(data, f, indent=1)
    write_report(data, problems, a.out)
    if have_mpl:
        charts(data, problems, a.out)
    print(f"results in {a.out} ({elapsed:.0f} s)")
    if failures:
        print("DISAGREEMENTS:\n  " + "\n  ".join(failures))
        sys.exit(1)


def table_rows(data, problems):
    by = {}
    for r in data["records"]:
        by.setdefault((r["problem"], r["size"]), {})[r["tool"]] = r
    keys = []
    for p in problems:
        seen = []
        for r in data["records"]:
            if r["problem"] == p and r["size"] not in seen:
                seen.append(r["size"])
        keys += [(p, s) for s in seen]
    return by, keys


def write_report(data, problems, out):
    cfg = data["config"]
    by, keys = table_rows(data, problems)
    tools = [t for t in ["enzyme_rev", "enzyme_rev_acc", "enzyme_vfwd", "enzyme_fwd", "hand", "adolc_both", "adolc_tape", "adolc_eval", "fd"]
             if any(t in v for v in by.values())]
    L = []
    L.append("# enzyme-rs benchmark results\n")
    L.append(f"Generated by `bench/run.sh` on {data['host']['date']} ({data['host']['cpus']} CPUs, "
             f"{data['host']['machine']}); whole run {data['elapsed_s'] / 60:.1f} min"
             f"{' (QUICK smoke run: short timings, not representative)' if data['quick'] else ''}.\n")
    mode = "reverse mode (`__enzyme_autodiff`)" if cfg["HAVE_REVERSE"] else \
        "forward mode (`__enzyme_fwddiff`, one tangent sweep per input): reverse mode did not compile in the probe"
    L.append(f"**enzyme-rs entry used: {mode}.** Vector forward mode: "
             f"{'yes' if cfg['HAVE_VECTOR_FWD'] else 'not available (probe failed)'}. "
             f"ADOL-C: {'yes' if cfg['HAVE_ADOLC'] else 'not installed (skipped)'}.\n")
    L.append("Every number in the ratio tables is *gradient time / primal time* for the same problem "
             "and size (lower is better; the cheap-gradient principle puts a good reverse mode at about 2-5). "
             "Timings: see below. "
             "`*` = extrapolated: a sweeping tool (forward mode, FD) whose full gradient would take too long was "
             "timed on a block of input directions and scaled to all of them (cost per direction is "
             "independent of the direction). BA is a Jacobian (2x15 block per observation plus the weight "
             "residual), so its \"gradient\" is the whole Jacobian.\n")
    if data["failures"]:
        L.append("**Disagreements (those tools were not timed):** " + "; ".join(data["failures"]) + "\n")
    else:
        L.append("All derivatives agreed with the hand-written ones (AD tools to 1e-8 relative, central "
                 "differences to 1e-5..1e-4) before timing; see the check log at the end.\n")
    L.append("## Gradient / primal time ratios\n")
    rounds = data.get("rounds", 1)
    L.append(f"Each time is the median of 5 batches of at least {data.get('min_time', 0.5):g} s after two warm-up calls"
             + (f", and then the median over {rounds} interleaved rounds (every tool of a size once per "
                "round, in turn)" if rounds > 1 else "")
             + "; ±N% is half the spread (slowest - fastest batch"
             + (", over all rounds" if rounds > 1 else "") + ") of the gradient's batches, shown "
             "when it is 10% or more. *enzyme-rs reverse, no zeroing* times the same gradient call "
             "without the caller's `memset` of the gradient buffer before it (Enzyme adds the gradient "
             "into that buffer; a hand-written gradient writes it and needs no zeroing pass): the "
             "derivative's own cost.\n")
    hdr = "| problem | size | primal | " + " | ".join(TOOL_LABEL[t] for t in tools) + " |"
    L.append(hdr)
    L.append("|" + "---|" * (3 + len(tools)))
    for k in keys:
        row = by[k]
        prim = row.get("primal", {}).get("time")
        cells = []
        for t in tools:
            r = row.get(t)
            if not r or not prim:
                cells.append("-")
            else:
                sp = r.get("spread")
                spread = f" ±{100 * sp / 2:.0f}%" if sp is not None and sp >= 0.1 else ""
                cells.append(f"{r['time'] / prim:.3g}{'*' if r['extrapolated'] else ''}{spread}")
        L.append(f"| {k[0]} | {k[1]} | {fmt_t(prim)} | " + " | ".join(cells) + " |")
    L.append("\n## Targets: enzyme-rs reverse against the hand-written gradient, largest size\n")
    L.append("Gradient time / hand-written gradient time (target <= 1.1; ± half the spread of the two "
             "figures' batches together) and peak memory / hand-written's (target <= 1.5).\n")
    L.append("| problem | size | time vs hand | met | no zeroing vs hand | peak memory vs hand | met |")
    L.append("|---|---|---|---|---|---|---|")
    for p in problems:
        ks = [k for k in keys if k[0] == p and "hand" in by[k] and "enzyme_rev" in by[k]]
        if not ks:
            continue
        k = ks[-1]
        h, e = by[k]["hand"], by[k]["enzyme_rev"]
        r = e["time"] / h["time"]
        sp = (e.get("spread", 0) + h.get("spread", 0)) / 2
        sp_s = f" ±{100 * sp / 2:.0f}%" if "spread" in e and "spread" in h else ""
        acc = by[k].get("enzyme_rev_acc")
        acc_s = f"{acc['time'] / h['time']:.2f}" if acc else "-"
        m = e["maxrss_kb"] / h["maxrss_kb"] if h.get("maxrss_kb") else None
        L.append(f"| {p} | {k[1]} | {r:.2f}{sp_s} | {'yes' if r <= 1.1 else 'no'} | {acc_s} | "
                 + (f"{m:.2f} | {'yes' if m <= 1.5 else 'no'} |" if m else "- | - |"))
    L.append("\n## Peak memory (max RSS of the process running only that tool) and tape size\n")
    mtools = ["primal"] + tools
    L.append("| problem | size | " + " | ".join(("primal" if t == "primal" else TOOL_LABEL[t]) for t in mtools)
             + " | enzyme-rs tape | ADOL-C tape |")
    L.append("|" + "---|" * (4 + len(mtools)))
    for k in keys:
        row = by[k]
        cells = [f"{row[t]['maxrss_kb'] / 1024:.1f} MB" if t in row else "-" for t in mtools]
        tb = next((row[t]["tape_bytes"] for t in ("adolc_tape", "adolc_both") if t in row), 0)
        if k[0] == "ba" and tb:
            tb_s = fmt_bytes(tb) + " per observation"
        else:
            tb_s = fmt_bytes(tb)
        et = row.get("enzyme_rev", {}).get("tape_bytes")
        et_s = "-" if et is None else ("0 B" if et == 0 else fmt_bytes(et))
        L.append(f"| {k[0]} | {k[1]} | " + " | ".join(cells) + f" | {et_s} | {tb_s} |")
    L.append("\nenzyme-rs forward mode and the hand-written gradients keep no tape. The enzyme-rs tape is "
             "the heap its reverse mode keeps after one gradient (the tape buffer it caches for the next "
             "call: capacity, grown by doubling from 4 KiB, so up to 2x the deepest tape; 0 when nothing "
             "is taped). ADOL-C tape bytes are "
             "from `tapestats` (operations x 1 B + locations x 4 B + values x 8 B).\n")
    if data["compile"]:
        compile_section(L, data["compile"])
    L.append("## Notes\n")
    L.append("- ADOL-C is left out where its tape would need several GB: sumsq and dot at n = 1e7, "
             "gmm at d=64 k=100. ADOL-C times taping (`trace_on` .. `trace_off` of the adouble instantiation "
             "of the same source), gradient evaluation on that tape (`gradient()` / `jacobian()`), and both. "
             "For BA one tape (with the measured feature as an extra independent) serves every observation in "
             "the eval column; the tape column retapes every observation.")
    L.append("- GMM sizes (d, k) = (2, 5), (10, 25), (64, 100) with n = 1000 points, as in bench-spec.md.")
    L.append("- Forward mode needs one sweep per input, so its ratio grows with the number of inputs "
             "(= the `*` columns): it is the right tool for ode (6 inputs) and BA (15 per observation); "
             "elsewhere reverse mode is the tool to compare.")
    L.append("- Helper functions called by the objectives are `static` (macro `HELPER`), as users write them.")
    L.append("\n## Check log\n")
    L.append("```")
    L += data["checks"]
    L.append("```")
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(L) + "\n")


def compile_section(L, compile_times):
    L.append("## Compile-time overhead (`clang-16 -O2 -c`, fastest of 5)\n")
    L.append("| problem | without plugin | with plugin | ratio |")
    L.append("|---|---|---|---|")
    ratios = []
    for p, r in compile_times.items():
        ratios.append(r["ratio"])
        L.append(f"| {p} | {r['without']:.3f} s | {r['with']:.3f} s | {r['ratio']:.2f} |")
    if ratios:
        L.append(f"| **geometric mean** | | | **{statistics.geometric_mean(ratios):.2f}** |")
    L.append("\nBoth compile the same file (the benchmark's C driver, which contains the `__enzyme_*` calls); "
             "without the plugin they stay external calls.\n")


def charts(data, problems, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    by, keys = table_rows(data, problems)
    tools = [t for t in ["enzyme_rev", "enzyme_rev_acc", "enzyme_vfwd", "enzyme_fwd", "hand", "adolc_both", "adolc_tape", "adolc_eval", "fd"]
             if any(t in v for v in by.values())]
    colors = dict(zip(tools, plt.cm.tab10.colors))
    # 1. ratio per tool per problem, at each problem's largest size with ADOL-C (else largest)
    fig, ax = plt.subplots(figsize=(13, 5))
    width = 0.8 / len(tools)
    labels = []
    for i, p in enumerate(problems):
        sizes = [k for k in keys if k[0] == p]
        if not sizes:
            continue
        with_ad = [k for k in sizes if "adolc_both" in by[k]]
        k = with_ad[-1] if with_ad else sizes[-1]
        labels.append(p + "\n" + k[1].replace(" ", "\n"))
        prim = by[k].get("primal", {}).get("time")
        for j, t in enumerate(tools):
            r = by[k].get(t)
            if r and prim:
                ax.bar(len(labels) - 1 + (j - len(tools) / 2 + 0.5) * width, r["time"] / prim, width,
                       color=colors[t], hatch="//" if r["extrapolated"] else None)
    ax.set_yscale("log")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=7)
    ax.axhline(1, color="k", lw=0.5)
    ax.set_ylabel("gradient time / primal time (log)")
    ax.set_title("Gradient/primal ratio per tool (hatched: extrapolated sweeps); entry: "
                 + ("reverse" if data["config"]["HAVE_REVERSE"] else "forward") + " mode")
    from matplotlib.patches import Patch
    ax.legend([Patch(color=colors[t]) for t in tools], [TOOL_LABEL[t] for t in tools], fontsize=7, ncol=4)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "ratios.png"), dpi=110)
    plt.close(fig)
    # 2. cost against size, one panel per problem
    n = len(problems)
    cols = 5 if n > 4 else n
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 3.0 * rows), squeeze=False)
    for i, p in enumerate(problems):
        ax = axes[i // cols][i % cols]
        sizes = [k for k in keys if k[0] == p]
        for t in ["primal"] + tools:
            xs, ys = [], []
            for si, k in enumerate(sizes):
                if t in by[k]:
                    xs.append(si)
                    ys.append(by[k][t]["time"])
            if xs:
                ax.plot(xs, ys, marker="o", ms=3, label="primal" if t == "primal" else TOOL_LABEL[t],
                        color="k" if t == "primal" else colors[t])
        ax.set_yscale("log")
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels([k[1].replace(" ", "\n") for k in sizes], fontsize=6)
        ax.set_title(p, fontsize=9)
        ax.tick_params(labelsize=6)
        if i % cols == 0:
            ax.set_ylabel("time (s, log)", fontsize=7)
    for j in range(n, rows * cols):
        axes[j // cols][j % cols].axis("off")
    handles, lab = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, lab, loc="lower center", ncol=len(lab), fontsize=7)
    fig.suptitle("Cost against problem size (time per gradient; primal in black)", fontsize=10)
    fig.tight_layout(rect=(0, 0.05, 1, 0.96))
    fig.savefig(os.path.join(out, "scaling.png"), dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
