//! Finds the LLVM the plugin is built against (16 by default, 22 with the
//! `llvm22-1` feature) and compiles the thin C++ shim (`cpp/shim.cc`; with
//! LLVM 22 also the pass registration `cpp/plugin22.cc`).
//!
//! Everything LLVM-version specific in the build lives here and in cpp/.
use std::path::PathBuf;
use std::process::Command;

/// LLVM major version, and the llvm-sys prefix variable naming its install.
fn version() -> (&'static str, &'static str) {
    if std::env::var_os("CARGO_FEATURE_LLVM22_1").is_some() {
        ("22", "LLVM_SYS_221_PREFIX")
    } else {
        ("16", "LLVM_SYS_160_PREFIX")
    }
}

fn llvm_config(major: &str, prefix_var: &str) -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(prefix) = std::env::var(prefix_var) {
        candidates.push(PathBuf::from(prefix).join("bin/llvm-config"));
    }
    candidates.push(PathBuf::from(format!("llvm-config-{major}")));
    candidates.push(PathBuf::from(format!(
        "/usr/lib/llvm-{major}/bin/llvm-config"
    )));
    candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .map(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).starts_with(major))
            .unwrap_or(false)
    })
}

fn query(cfg: &PathBuf, arg: &str) -> String {
    let out = Command::new(cfg)
        .arg(arg)
        .output()
        .expect("llvm-config runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn main() {
    println!("cargo:rerun-if-changed=cpp/shim.cc");
    println!("cargo:rerun-if-changed=cpp/plugin22.cc");
    println!("cargo:rerun-if-changed=cpp/zfuse.cc");
    println!("cargo:rerun-if-changed=cpp/chain.cc");
    println!("cargo:rerun-if-changed=cpp/revorder.cc");
    println!("cargo:rerun-if-changed=cpp/analyses.h");
    println!("cargo:rerun-if-changed=build.rs");
    // Never unmapped by dlclose: the plugin keeps process-wide state (the
    // logger, cl::opt registrations, thread-local tape caches) that must
    // outlive an unload by the host (opt, clang, rustc).
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    let (major, prefix_var) = version();
    println!("cargo:rerun-if-env-changed={prefix_var}");
    let Some(cfg) = llvm_config(major, prefix_var) else {
        panic!(
            "\n\nenzyme-rs needs LLVM {major}: no llvm-config-{major} found.\n\
             Install it with:  sudo apt-get update && sudo apt-get install -y \
             llvm-{major}-dev clang-{major} llvm-{major}-tools\n\
             or point {prefix_var} at an LLVM {major} installation.\n\n"
        );
    };
    let include = query(&cfg, "--includedir");
    let libdir = query(&cfg, "--libdir");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .compiler(std::env::var("CXX").unwrap_or_else(|_| "g++".into()))
        .include(&include)
        .flag("-std=c++17")
        .flag("-fno-rtti")
        .flag("-fPIC")
        .define("_GNU_SOURCE", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .warnings(false)
        .file("cpp/shim.cc")
        .file("cpp/zfuse.cc")
        .file("cpp/chain.cc")
        .file("cpp/revorder.cc");
    if major == "22" {
        build.file("cpp/plugin22.cc");
    }
    build.compile("enzyme_rs_shim");
    compile_mpi_runtime(&query(&cfg, "--bindir"));
    compile_runtime(&query(&cfg, "--bindir"), "loops_rt");
    compile_runtime(&query(&cfg, "--bindir"), "shadows_rt");
    compile_runtime(&query(&cfg, "--bindir"), "selfcheck_rt");
    compile_runtime(&query(&cfg, "--bindir"), "blas_rt");
    println!("cargo:rerun-if-changed=runtime/blas");
    compile_runtime(&query(&cfg, "--bindir"), "keep_rt");
    compile_clang_plugin(major, &query(&cfg, "--bindir"), &include);
    if major == "16" {
        println!("cargo:rustc-link-search=native={libdir}");
        println!("cargo:rustc-link-lib=dylib=LLVM-{major}");
    } else {
        // Not linked to LLVM: the host (opt-22, clang-22, or rustc, whose
        // own LLVM 22 is a different shared library) provides every LLVM
        // symbol when it loads the plugin. Linking apt's libLLVM would put
        // a second LLVM into rustc.
        let _ = libdir;
    }
}

/// The MPI derivative helpers (`runtime/mpi_rt.c`) as LLVM bitcode, for
/// `src/modes/mpi.rs` to link into modules that differentiate MPI calls
/// (bitcode: clang's context discards value names, so text IR cannot be
/// parsed there).
fn compile_mpi_runtime(bindir: &str) {
    println!("cargo:rerun-if-changed=runtime/mpi_rt.c");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("mpi_rt.bc");
    let st = Command::new(PathBuf::from(bindir).join("clang"))
        .args(["-O2", "-c", "-emit-llvm", "-g0", "-fPIC"])
        .arg("runtime/mpi_rt.c")
        .arg("-o")
        .arg(&out)
        .status()
        .expect("clang runs");
    assert!(st.success(), "compiling runtime/mpi_rt.c failed");
}

/// Another runtime helper library (`runtime/NAME.c`) as bitcode in OUT_DIR.
fn compile_runtime(bindir: &str, name: &str) {
    let src = format!("runtime/{name}.c");
    println!("cargo:rerun-if-changed={src}");
    println!("cargo:rerun-if-changed=include/enzyme/checkpoint.h");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join(format!("{name}.bc"));
    let st = Command::new(PathBuf::from(bindir).join("clang"))
        .args(["-O2", "-c", "-emit-llvm", "-g0", "-fPIC"])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("clang runs");
    assert!(st.success(), "compiling {src} failed");
}

/// The clang plugin for Enzyme's source attributes (`cpp/clang_attrs.cc`)
/// as `libenzyme_rs_clangMAJOR.so` beside the pass plugin, which loads it
/// when clang loads the pass plugin with -fplugin. It needs clang's headers
/// (apt `libclang-MAJOR-dev`); without them it is skipped.
fn compile_clang_plugin(major: &str, bindir: &str, include: &str) {
    println!("cargo:rerun-if-changed=cpp/clang_attrs.cc");
    let header = PathBuf::from(include).join("clang/Sema/ParsedAttr.h");
    if !header.exists() {
        println!(
            "cargo:warning=clang headers not found ({}): install libclang-{major}-dev for the source-attribute plugin",
            header.display()
        );
        return;
    }
    // OUT_DIR is <target>/<profile>/build/<package>-<hash>/out.
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let Some(profile_dir) = out_dir.ancestors().nth(3) else {
        return;
    };
    let out = profile_dir.join(format!("libenzyme_rs_clang{major}.so"));
    let src = PathBuf::from("cpp/clang_attrs.cc");
    let newer = |a: &PathBuf, b: &PathBuf| -> bool {
        match (
            a.metadata().and_then(|m| m.modified()),
            b.metadata().and_then(|m| m.modified()),
        ) {
            (Ok(x), Ok(y)) => x > y,
            _ => false,
        }
    };
    if newer(&out, &src) {
        return;
    }
    let st = Command::new(PathBuf::from(bindir).join("clang++"))
        .args(["-std=c++17", "-fPIC", "-shared", "-fno-rtti", "-O1", "-g0"])
        .arg(format!("-I{include}"))
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("clang++ runs");
    assert!(st.success(), "compiling cpp/clang_attrs.cc failed");
}
