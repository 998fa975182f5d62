//! Options in Enzyme's spelling, from `-mllvm -enzyme-...` (registered as
//! cl::opt by the C++ shim) or, equivalently, from environment variables:
//! `-enzyme-print` <=> `ENZYME_PRINT=1`, `-enzyme-dedup-loads=0` <=>
//! `ENZYME_DEDUP_LOADS=0`, and so on (upper case, `-` -> `_`).
use crate::ir::shim;

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub print: bool,
    pub print_type: bool,
    pub print_activity: bool,
    pub loose_types: bool,
    pub inline: bool,
    pub dedup_loads: bool,
    pub no_cleanup: bool,
    /// Print each reverse-mode function's tape layout.
    pub print_tape: bool,
    /// Self-check mode (`-enzyme-check`, `ENZYME_CHECK=1`; src/selfcheck).
    pub check: bool,
    /// ... aborting at the first mismatch (`-enzyme-check-abort`,
    /// `ENZYME_CHECK=abort`).
    pub check_abort: bool,
    /// Function the analysis printers show (all when None).
    pub function: Option<String>,
    /// Optimization level of the pipeline the pass runs in (0 for opt's
    /// `-passes=enzyme`): at 1 and above new functions are cleaned up.
    pub opt_level: u32,
    /// Re-run a loop per iteration in the reverse sweep when the tape's
    /// cost model prefers it (`ENZYME_RS_AUTO_RERUN=0`: never;
    /// modes/reverse/rerun.rs).
    pub auto_rerun: bool,
    /// Fold the caller's zeroing of a shadow into the gradient
    /// (`ENZYME_RS_FUSE_ZERO=0`: never; modes/reverse/zfuse.rs).
    pub fuse_zero: bool,
}

fn env_bool(name: &str) -> Option<bool> {
    let key = name.to_uppercase().replace('-', "_");
    std::env::var(&key)
        .ok()
        .map(|v| !matches!(v.trim(), "" | "0" | "false" | "off" | "no"))
}

/// The value of a boolean option: the command line wins, then the
/// environment, then the default.
fn flag(name: &str, default: bool) -> bool {
    shim::opt_bool(name)
        .or_else(|| env_bool(name))
        .unwrap_or(default)
}

impl Options {
    pub fn load(opt_level: u32) -> Options {
        Options {
            print: flag("enzyme-print", false),
            print_type: flag("enzyme-print-type", false),
            print_activity: flag("enzyme-print-activity", false),
            loose_types: flag("enzyme-loose-types", false),
            inline: flag("enzyme-inline", false),
            dedup_loads: flag("enzyme-dedup-loads", true),
            no_cleanup: flag("enzyme-rs-no-cleanup", false),
            print_tape: flag("enzyme-print-tape", false),
            check: flag("enzyme-check", false) || flag("enzyme-check-abort", false),
            check_abort: flag("enzyme-check-abort", false)
                || std::env::var("ENZYME_CHECK").is_ok_and(|v| v.trim() == "abort"),
            function: shim::opt_function().or_else(|| std::env::var("ENZYME_FUNCTION").ok()),
            opt_level,
            auto_rerun: flag("enzyme-rs-auto-rerun", true),
            fuse_zero: flag("enzyme-rs-fuse-zero", true),
        }
    }
}
