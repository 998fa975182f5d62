//! Finds LLVM 16 and compiles the thin C++ shim (`cpp/shim.cc`).
//!
//! Everything LLVM-version specific in the build lives here and in the shim.
use std::path::PathBuf;
use std::process::Command;

const MAJOR: &str = "16";

fn llvm_config() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(prefix) = std::env::var("LLVM_SYS_160_PREFIX") {
        candidates.push(PathBuf::from(prefix).join("bin/llvm-config"));
    }
    candidates.push(PathBuf::from(format!("llvm-config-{MAJOR}")));
    candidates.push(PathBuf::from(format!(
        "/usr/lib/llvm-{MAJOR}/bin/llvm-config"
    )));
    candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .map(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).starts_with(MAJOR))
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
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_160_PREFIX");
    let Some(cfg) = llvm_config() else {
        panic!(
            "\n\nenzyme-rs needs LLVM {MAJOR}: no llvm-config-{MAJOR} found.\n\
             Install it with:  sudo apt-get update && sudo apt-get install -y \
             llvm-{MAJOR}-dev clang-{MAJOR} llvm-{MAJOR}-tools\n\
             or point LLVM_SYS_160_PREFIX at an LLVM {MAJOR} installation.\n\n"
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
        .file("cpp/shim.cc");
    build.compile("enzyme_rs_shim");
    compile_mpi_runtime(&query(&cfg, "--bindir"));
    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-link-lib=dylib=LLVM-{MAJOR}");
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
