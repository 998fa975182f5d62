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
    /// Re-run a loop per iteration in the reverse sweep: by the tape's
    /// cost model (default), never (`ENZYME_RS_AUTO_RERUN=0`) or wherever
    /// valid (`=1`); modes/reverse/rerun.rs.
    pub auto_rerun: RerunMode,
    /// Bytes of tape a loop may keep before the cost model re-runs it
    /// instead (`-enzyme-rs-rerun-budget=N`, `ENZYME_RS_RERUN_BUDGET=N`).
    pub rerun_budget: u64,
    /// Record the moves of a loop that only moves values within a buffer
    /// (a sort) as origins, its reverse one scatter
    /// (`ENZYME_RS_MOVE_RECORD=0`: never; modes/reverse/moverec.rs).
    pub move_record: bool,
    /// Fold the caller's zeroing of a shadow into the gradient
    /// (`ENZYME_RS_FUSE_ZERO=0`: never; modes/reverse/zfuse.rs).
    pub fuse_zero: bool,
    /// Recompute which predecessor a join below a tree of branches came
    /// from, instead of taping it (`ENZYME_RS_ROUTE_JOINS=0`: never;
    /// modes/reverse/aug/joinroute.rs).
    pub route_joins: bool,
    /// Mark the parameters of a re-run loop's step that reach only its own
    /// scratch `noalias` (`ENZYME_RS_RERUN_NOALIAS=0`: never;
    /// modes/reverse/rerun.rs).
    pub rerun_noalias: bool,
}

/// When loops are re-run per iteration (`ENZYME_RS_AUTO_RERUN`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RerunMode {
    /// Never (`0`).
    #[default]
    Off,
    /// When the tape would exceed the budget (unset, or `auto`).
    Auto,
    /// Wherever a loop may be re-run and keeps some tape (`1`).
    Force,
}

/// The default of [`Options::rerun_budget`]: 32 MiB.
pub const DEFAULT_RERUN_BUDGET: u64 = 32 << 20;

fn rerun_mode() -> RerunMode {
    match shim::opt_bool("enzyme-rs-auto-rerun") {
        Some(true) => return RerunMode::Force,
        Some(false) => return RerunMode::Off,
        None => {}
    }
    match std::env::var("ENZYME_RS_AUTO_RERUN") {
        Ok(v) if v.trim() == "auto" || v.trim().is_empty() => RerunMode::Auto,
        Ok(v) if matches!(v.trim(), "0" | "false" | "off" | "no") => RerunMode::Off,
        Ok(_) => RerunMode::Force,
        Err(_) => RerunMode::Auto,
    }
}

fn rerun_budget() -> u64 {
    shim::opt_rerun_budget()
        .or_else(|| std::env::var("ENZYME_RS_RERUN_BUDGET").ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_RERUN_BUDGET)
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
            auto_rerun: rerun_mode(),
            rerun_budget: rerun_budget(),
            move_record: flag("enzyme-rs-move-record", true),
            fuse_zero: flag("enzyme-rs-fuse-zero", true),
            route_joins: flag("enzyme-rs-route-joins", true),
            rerun_noalias: flag("enzyme-rs-rerun-noalias", true),
        }
    }
}
