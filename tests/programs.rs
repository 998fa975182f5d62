//! The program harness: compiles every C/C++ program under tests/programs
//! with clang-16 and the plugin at -O0..-O3 (in parallel), runs it, and
//! checks that it passes (each program compares its derivatives with
//! analytic values and central finite differences, and exits non-zero on a
//! mismatch).
//!
//! Directives in a program's first lines:
//!   // LEVELS: O0 O2          only these levels (default O0 O1 O2 O3)
//!   // FLAGS: -fopenmp        extra compiler flags (%plugin: the plugin's path)
//!   // EXPECT-ERROR: text     compilation must fail with `text` in stderr
//!   // LLVM16-EXPECT-ERROR: text   with clang-16 only, the same (a feature
//!                             of newer clangs); with clang-22 it runs
//!   // SKIP: reason           not run (reported as skipped)
//!   // SANITIZE-SKIP-LLVM22: reason   not run under a sanitizer with clang-22
//!   // LEAK-KNOWN: reason     a known leak: AddressSanitizer's leak check is
//!                             off for this program (its other checks stay on)
//!   // RANKS: 2 4             an MPI program: built with mpicc (OpenMPI,
//!                             OMPI_CC=clang-16), run under mpirun once per
//!                             rank count
//!   // THREADS: 1 2 4         run once per count with OMP_NUM_THREADS set
//! Set ENZYME_RS_TEST_FILTER=substring (or a comma-separated list) to run a subset.
//! ENZYME_RS_TEST_LEVELS=O3 (or O0,O2) runs only those levels.
//! ENZYME_RS_SANITIZE=address (or undefined, or address,undefined) builds
//! each program with that sanitizer at -O0 and -O2 only (tests/sanitize.sh),
//! skipping the EXPECT-ERROR programs.
//! ENZYME_RS_LLVM=22 uses clang-22 and the LLVM 22 plugin
//! (target/llvm22/release, built with the `llvm22-1` feature) instead.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

struct Case {
    src: PathBuf,
    level: String,
    flags: Vec<String>,
    expect_error: Option<String>,
    /// MPI rank counts (`// RANKS:`); empty for a plain program.
    ranks: Vec<String>,
    /// OMP_NUM_THREADS values to run with (one run without it when empty).
    threads: Vec<String>,
    /// ASAN_OPTIONS for its runs under AddressSanitizer (`asan_options`);
    /// None without it.
    asan_options: Option<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The LLVM major version to test against (ENZYME_RS_LLVM, default 16).
fn llvm() -> String {
    std::env::var("ENZYME_RS_LLVM").unwrap_or_else(|_| "16".into())
}

/// The plugin under test, always rebuilt first (a no-op when it is up to
/// date), so the harness never tests a stale `.so`. The LLVM 22 one lives
/// in its own target directory.
fn plugin() -> PathBuf {
    let (dir, args): (&str, &[&str]) = if llvm() == "16" {
        ("target/release", &["build", "--release"])
    } else {
        (
            "target/llvm22/release",
            &[
                "build",
                "--release",
                "--no-default-features",
                "--features",
                "llvm22-1",
                "--target-dir",
                "target/llvm22",
            ],
        )
    };
    let st = Command::new("cargo")
        .args(args)
        .current_dir(root())
        .status()
        .expect("cargo runs");
    assert!(st.success(), "cargo {} failed", args.join(" "));
    root().join(dir).join("libenzyme_rs.so")
}

/// `-fopenmp` with a clang whose own libomp is not installed (clang-22:
/// apt's libomp-22-dev conflicts with libomp-16-dev): compile against the
/// installed libomp's `omp.h` (searched after clang's own headers) and link
/// that libomp (its `__kmpc_*` entry points are ABI-stable).
fn openmp_runtime_flags(mut flags: Vec<String>) -> Vec<String> {
    let v = llvm();
    if !flags.iter().any(|f| f == "-fopenmp")
        || Path::new(&format!("/usr/lib/llvm-{v}/lib/clang/{v}/include/omp.h")).exists()
    {
        return flags;
    }
    flags.extend([
        "-idirafter".to_string(),
        "/usr/lib/llvm-16/lib/clang/16/include".to_string(),
        "-L/usr/lib/llvm-16/lib".to_string(),
        "-Wl,-rpath,/usr/lib/llvm-16/lib".to_string(),
    ]);
    flags
}

fn directive(text: &str, key: &str) -> Option<String> {
    text.lines().take(15).find_map(|l| {
        l.trim()
            .strip_prefix("//")
            .map(str::trim)
            .and_then(|l| l.strip_prefix(key))
            .map(|v| v.trim().to_string())
    })
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "cpp")) {
            out.push(p);
        }
    }
}

fn run_case(c: &Case, plugin: &Path, work: &Path) -> Result<(), String> {
    let cpp = c.src.extension().and_then(|e| e.to_str()) == Some("cpp");
    let stem = c
        .src
        .strip_prefix(root().join("tests/programs"))
        .unwrap()
        .to_string_lossy()
        .replace(['/', '.'], "_");
    let exe = work.join(format!("{stem}_{}", c.level));
    let cc = if cpp { "clang++" } else { "clang" };
    let mut cmd = if c.ranks.is_empty() {
        Command::new(format!("{cc}-{}", llvm()))
    } else {
        let mut m = Command::new(if cpp { "mpicxx" } else { "mpicc" });
        m.env("OMPI_CC", format!("clang-{}", llvm()))
            .env("OMPI_CXX", format!("clang++-{}", llvm()));
        m
    };
    cmd.arg(format!("-{}", c.level))
        .arg("-g")
        .arg(format!("-fpass-plugin={}", plugin.display()))
        .arg(format!("-I{}", root().join("include").display()))
        .arg(format!("-I{}", root().join("tests/programs").display()))
        .args(
            c.flags
                .iter()
                .map(|f| f.replace("%plugin", &plugin.display().to_string())),
        )
        .arg(&c.src)
        .arg("-o")
        .arg(&exe)
        .arg("-lm");
    if cpp {
        cmd.arg("-std=c++17");
    }
    let out = cmd.output().map_err(|e| format!("cannot run clang: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if let Some(want) = &c.expect_error {
        if out.status.success() {
            return Err(format!(
                "expected a compile error containing {want:?}, but it compiled"
            ));
        }
        if stderr.contains("PLEASE submit a bug report") || stderr.contains("Stack dump") {
            return Err(format!(
                "the compiler crashed instead of reporting an error:\n{stderr}"
            ));
        }
        if !stderr.contains(want.as_str()) {
            return Err(format!(
                "expected a compile error containing {want:?}, got:\n{stderr}"
            ));
        }
        return Ok(());
    }
    if !out.status.success() {
        return Err(format!("compile failed:\n{stderr}"));
    }
    if !c.ranks.is_empty() {
        let res = run_mpi(&exe, &c.ranks, &c.threads, c.asan_options.as_deref());
        let _ = std::fs::remove_file(&exe);
        return res;
    }
    let counts: Vec<Option<&String>> = if c.threads.is_empty() {
        vec![None]
    } else {
        c.threads.iter().map(Some).collect()
    };
    for t in counts {
        let mut run = Command::new("timeout");
        run.arg("60").arg(&exe);
        if let Some(o) = &c.asan_options {
            run.env("ASAN_OPTIONS", o);
        }
        if let Some(t) = t {
            // Passive waiting: up to 4 threads share the cores with the
            // other test runs.
            run.env("OMP_NUM_THREADS", t)
                .env("OMP_WAIT_POLICY", "passive");
        }
        let run = run.output().map_err(|e| format!("cannot run: {e}"))?;
        if !run.status.success() {
            let _ = std::fs::remove_file(&exe);
            let with = t
                .map(|t| format!(" with OMP_NUM_THREADS={t}"))
                .unwrap_or_default();
            return Err(format!(
                "program failed{with} ({}):\n{}{}",
                run.status,
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            ));
        }
    }
    let _ = std::fs::remove_file(&exe);
    Ok(())
}

/// Levels and flags of a program under ENZYME_RS_SANITIZE: -O0 and -O2
/// only, the sanitizer's flags added; any report fails the run.
fn sanitized(levels: &str, mut flags: Vec<String>, san: &str) -> (String, Vec<String>) {
    let l: Vec<&str> = levels
        .split_whitespace()
        .filter(|l| matches!(*l, "O0" | "O2"))
        .collect();
    flags.push(format!("-fsanitize={san}"));
    flags.push("-fno-omit-frame-pointer".into());
    if san.contains("undefined") {
        // These checks route pointers through integers (vptr hashes the
        // type; alignment, bounds and pointer-overflow do arithmetic on
        // ptrtoint), which the derivative cannot follow: a clean error for
        // std::reverse_iterator (cpp/itx_vector_pushback -O2 under
        // pointer-overflow). The wrong derivative pointer-overflow gave in
        // cpp/itx_vec3_ops -O2 (a callee reading a dead stack slot, issue
        // 18) is fixed: lit/selfcheck/ubsan_pointer_overflow.c runs it.
        // The rest of -fsanitize=undefined applies.
        flags.push("-fno-sanitize=vptr,alignment,bounds,pointer-overflow".into());
        flags.push("-fno-sanitize-recover=all".into());
    }
    (l.join(" "), flags)
}

/// ASAN_OPTIONS of a program's runs under ENZYME_RS_SANITIZE=address, the
/// one place that builds them: the leak check (off for `// LEAK-KNOWN:`
/// programs and for MPI ones: OpenMPI leaves its runtime's allocations,
/// some in MCA plugins unloaded before the check, at exit -- not the
/// derivative's; the other checks stay on) and reads of dead stack frames
/// (detect_stack_use_after_return: clang 15+ builds the fake stack in,
/// and the runtime of clang-16 and clang-22 turns it on by default on
/// Linux; spelled out so that it stays on), e.g. a reverse sweep reading
/// through a taped pointer into the returned augmented sweep's frame.
/// (Such reads in the plugin's own functions are checked because they
/// take the module's sanitize_address: driver.rs, sanitize_new_functions.)
/// An ASAN_OPTIONS in the environment is appended, so that its settings
/// win (`ASAN_OPTIONS=detect_stack_use_after_return=0` to compare).
fn asan_options(leaks: bool) -> String {
    let mut o = format!(
        "detect_leaks={}:detect_stack_use_after_return=1",
        u8::from(leaks)
    );
    if let Some(extra) = std::env::var("ASAN_OPTIONS").ok().filter(|e| !e.is_empty()) {
        o.push(':');
        o.push_str(&extra);
    }
    o
}

/// Run an MPI program under mpirun once per rank count.
/// Each run gets its own temporary directory: OpenMPI's session directory
/// under a shared /tmp races between concurrent `mpirun`s ("mkdir ...
/// File exists").
fn run_mpi(
    exe: &Path,
    ranks: &[String],
    threads: &[String],
    asan_options: Option<&str>,
) -> Result<(), String> {
    // Hybrid programs (`// THREADS:` too) run once per rank and thread count.
    let counts: Vec<Option<&String>> = if threads.is_empty() {
        vec![None]
    } else {
        threads.iter().map(Some).collect()
    };
    for (n, t) in ranks
        .iter()
        .flat_map(|n| counts.iter().map(move |t| (n, *t)))
    {
        let tmp = exe.with_extension(format!("np{n}.tmp"));
        let _ = std::fs::create_dir_all(&tmp);
        let mut cmd = Command::new("timeout");
        if let Some(t) = t {
            cmd.env("OMP_NUM_THREADS", t)
                .env("OMP_WAIT_POLICY", "passive");
        }
        if let Some(o) = asan_options {
            cmd.env("ASAN_OPTIONS", o);
        }
        let run = cmd
            .args([
                "120",
                "mpirun",
                "--allow-run-as-root",
                "--oversubscribe",
                "-np",
                n,
            ])
            .arg(exe)
            .env("TMPDIR", &tmp)
            .env("OMPI_MCA_orte_tmpdir_base", &tmp)
            .output()
            .map_err(|e| format!("cannot run mpirun: {e}"))?;
        let _ = std::fs::remove_dir_all(&tmp);
        if !run.status.success() {
            let with = t
                .map(|t| format!(" and OMP_NUM_THREADS={t}"))
                .unwrap_or_default();
            return Err(format!(
                "program failed with -np {n}{with} ({}):\n{}{}",
                run.status,
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            ));
        }
    }
    Ok(())
}

fn main() {
    let filter = std::env::var("ENZYME_RS_TEST_FILTER").ok();
    let sanitize = std::env::var("ENZYME_RS_SANITIZE")
        .ok()
        .filter(|s| !s.is_empty());
    // ENZYME_RS_TEST_LEVELS=O3 (or "O0,O2"): only these levels.
    let only_levels = std::env::var("ENZYME_RS_TEST_LEVELS")
        .ok()
        .filter(|s| !s.is_empty());
    let plugin = plugin();
    let mut files = Vec::new();
    collect(&root().join("tests/programs"), &mut files);
    let mut cases = Vec::new();
    let mut skipped = 0;
    for f in files {
        if let Some(flt) = &filter {
            // Matched against the path below tests/programs, so that the
            // checkout's own folder names do not match every program.
            let rel = f.strip_prefix(root().join("tests/programs")).unwrap_or(&f);
            let path = rel.to_string_lossy();
            if !flt.split(',').any(|s| path.contains(s)) {
                continue;
            }
        }
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        if directive(&text, "SKIP:").is_some() {
            skipped += 1;
            continue;
        }
        let levels = directive(&text, "LEVELS:").unwrap_or_else(|| "O0 O1 O2 O3".into());
        let flags: Vec<String> = directive(&text, "FLAGS:")
            .map(|s| s.split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        let llvm22 = std::env::var("ENZYME_RS_LLVM").is_ok_and(|v| v == "22");
        let expect_error = directive(&text, "EXPECT-ERROR:")
            .or_else(|| directive(&text, "LLVM16-EXPECT-ERROR:").filter(|_| !llvm22));
        let flags = openmp_runtime_flags(flags);
        // `// SANITIZE-SKIP-LLVM22: reason`: a known refusal that only the
        // clang-22 sanitizer build meets (listed in the program).
        if sanitize.is_some() && llvm22 && directive(&text, "SANITIZE-SKIP-LLVM22:").is_some() {
            skipped += 1;
            continue;
        }
        let (levels, flags) = match &sanitize {
            Some(s) if expect_error.is_none() => sanitized(&levels, flags, s),
            Some(_) => continue,
            None => (levels, flags),
        };
        let ranks: Vec<String> = directive(&text, "RANKS:")
            .map(|s| s.split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        let threads: Vec<String> = directive(&text, "THREADS:")
            .map(|s| s.split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        let asan_options = sanitize
            .as_deref()
            .filter(|s| s.contains("address"))
            .map(|_| asan_options(ranks.is_empty() && directive(&text, "LEAK-KNOWN:").is_none()));
        for l in levels.split_whitespace() {
            if let Some(only) = &only_levels {
                if !only
                    .split([',', ' '])
                    .any(|o| o.trim_start_matches('-') == l)
                {
                    continue;
                }
            }
            cases.push(Case {
                src: f.clone(),
                level: l.to_string(),
                flags: flags.clone(),
                expect_error: expect_error.clone(),
                ranks: ranks.clone(),
                threads: threads.clone(),
                asan_options: asan_options.clone(),
            });
        }
    }
    let work = std::env::temp_dir().join(format!("enzyme-rs-tests-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let n = cases.len();
    let queue = Arc::new(Mutex::new(
        cases.into_iter().enumerate().collect::<Vec<_>>(),
    ));
    let results = Arc::new(Mutex::new(Vec::new()));
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .max(2);
    let mut hs = Vec::new();
    for _ in 0..threads {
        let (q, r, p, w) = (queue.clone(), results.clone(), plugin.clone(), work.clone());
        hs.push(std::thread::spawn(move || loop {
            let Some((idx, c)) = q.lock().unwrap().pop() else {
                break;
            };
            let res = run_case(&c, &p, &w);
            r.lock().unwrap().push((idx, c, res));
        }));
    }
    for h in hs {
        h.join().unwrap();
    }
    let _ = std::fs::remove_dir_all(&work);
    let mut results = Arc::try_unwrap(results).ok().unwrap().into_inner().unwrap();
    results.sort_by_key(|(i, _, _)| *i);
    let mut failed = 0;
    let mut failed_names = Vec::new();
    let mut per_level: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for (_, c, r) in &results {
        let name = c
            .src
            .strip_prefix(root().join("tests/programs"))
            .unwrap()
            .display()
            .to_string();
        let e = per_level.entry(c.level.clone()).or_default();
        e.1 += 1;
        match r {
            Ok(()) => {
                e.0 += 1;
                println!("test {name} -{} ... ok", c.level);
            }
            Err(msg) => {
                failed += 1;
                failed_names.push(format!("{name} -{}", c.level));
                println!(
                    "test {name} -{} ... FAILED\n{}",
                    c.level,
                    msg.lines().take(40).collect::<Vec<_>>().join("\n")
                );
            }
        }
    }
    println!();
    for (l, (p, t)) in &per_level {
        println!("-{l}: {p} of {t} programs pass");
    }
    println!();
    // Repeated at the end: a long log's tail names what failed.
    for f in &failed_names {
        println!("failed: {f}");
    }
    println!(
        "test result: {}. {} passed; {} failed; {} ignored; 0 measured; 0 filtered out",
        if failed == 0 { "ok" } else { "FAILED" },
        n - failed,
        failed,
        skipped
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
