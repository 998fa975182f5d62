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
    /// Record the address of a running selection's last pick (a max/min
    /// loop) instead of its decisions (`ENZYME_RS_PICK_RECORD=0`: never;
    /// modes/reverse/pickrec.rs).
    pub pick_record: bool,
    /// Fold the caller's zeroing of a shadow into the gradient
    /// (`ENZYME_RS_FUSE_ZERO=0`: never; modes/reverse/zfuse.rs).
    pub fuse_zero: bool,
    /// Keep values between the sweeps in the caller-zeroed shadow
    /// (`-enzyme-rs-shadow-tape`, `ENZYME_RS_SHADOW_TAPE`; on).
    pub shadow_tape: bool,
    /// Run IRCE on the reverse functions of shadow-tape pairs, whose kept
    /// values' range checks are marked likely, so a reverse loop's middle
    /// runs without them (`ENZYME_RS_SPLIT_KEPT_CHECKS=0`: never;
    /// modes/reverse/zfuse.rs `split_kept_checks`).
    pub split_kept_checks: bool,
    /// Fold the caller's zeroing into a shadow-tape pair whose forward
    /// sweep's kept values write the whole shadow
    /// (`ENZYME_RS_FUSE_KEPT=0`: never; modes/reverse/zfuse.rs).
    pub fuse_kept: bool,
    /// Let the adjoint sum of a value defined outside a loop, added to in
    /// every iteration of the loop's reverse, be reassociated (its order
    /// is the derivative's choice), so the reverse loop may vectorize
    /// (`ENZYME_RS_REASSOC_SUMS=0`: never; modes/reverse/rev/mod.rs).
    pub reassoc_sums: bool,
    /// Enzyme's `-enzyme-strong-zero` (`ENZYME_STRONG_ZERO=1`): every
    /// term a rule adds, partial x seed, is 0 where the seed (tangent or
    /// adjoint) is 0, even where the partial is infinite or NaN.
    pub strong_zero: bool,
    /// Recompute which predecessor a join below a tree of branches came
    /// from, instead of taping it (`ENZYME_RS_ROUTE_JOINS=0`: never;
    /// modes/reverse/aug/joinroute.rs).
    pub route_joins: bool,
    /// Keep a freed heap shadow for the next call of the gradient instead
    /// of allocating it again (`ENZYME_RS_KEEP_SHADOW=0`: never;
    /// modes/reverse/keep.rs).
    pub keep_shadow: bool,
    /// Keep a heap shadow in its primal block where the reverse sweep
    /// reads each element before first writing its shadow
    /// (`ENZYME_RS_INPLACE_SHADOW=0`: never; modes/reverse/inplace.rs).
    pub inplace_shadow: bool,
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
            pick_record: flag("enzyme-rs-pick-record", true),
            fuse_zero: flag("enzyme-rs-fuse-zero", true),
            shadow_tape: flag("enzyme-rs-shadow-tape", true),
            split_kept_checks: flag("enzyme-rs-split-kept-checks", true),
            fuse_kept: flag("enzyme-rs-fuse-kept", true) && flag("enzyme-rs-fuse-zero", true),
            reassoc_sums: flag("enzyme-rs-reassoc-sums", true),
            strong_zero: flag("enzyme-strong-zero", false),
            route_joins: flag("enzyme-rs-route-joins", true),
            keep_shadow: flag("enzyme-rs-keep-shadow", true),
            inplace_shadow: flag("enzyme-rs-inplace-shadow", true),
            rerun_noalias: flag("enzyme-rs-rerun-noalias", true),
        }
    }
}

/// Developer switches: environment variables only, not Enzyme options,
/// for measurements and for narrowing down a bad derivative. Every
/// environment read of the plugin's Rust side is here (the runtime's own
/// variables are read by `runtime/*.c`).
pub mod switches {
    fn var(name: &str) -> Option<String> {
        std::env::var(name).ok()
    }

    /// Whether a variable says no (`0`, `false`, `off`, `no`).
    fn says_no(name: &str) -> bool {
        var(name).is_some_and(|v| matches!(v.trim(), "0" | "false" | "off" | "no"))
    }

    /// Whether a variable is exactly `1`.
    fn is_one(name: &str) -> bool {
        var(name).is_some_and(|v| v.trim() == "1")
    }

    /// `ENZYME_RS_CLEANUP_PIPELINE`: a pass pipeline replacing the cleanup
    /// of new functions (bench/compile_scaling.sh).
    pub fn cleanup_pipeline() -> Option<String> {
        var("ENZYME_RS_CLEANUP_PIPELINE")
    }

    /// `ENZYME_RS_NO_INLINE` (set): derivatives are never inlined into the
    /// `__enzyme_*` call site.
    pub fn no_inline() -> bool {
        std::env::var_os("ENZYME_RS_NO_INLINE").is_some()
    }

    /// `ENZYME_RS_PICK_INDEX=0`: a recorded running selection whose
    /// values all come from one array carries addresses rather than
    /// indices (modes/reverse/pickrec.rs `IndexPick`).
    pub fn pick_index() -> bool {
        !says_no("ENZYME_RS_PICK_INDEX")
    }

    /// `ENZYME_RS_CONST_ARGS=0`: a new function's parameter that every
    /// call passes the same constant keeps its parameter (driver::cleanup,
    /// `fold_constant_args`).
    pub fn const_args() -> bool {
        !says_no("ENZYME_RS_CONST_ARGS")
    }

    /// `ENZYME_RS_INLINE_COPIES_BUDGET=N`: the instructions a derivative
    /// may add, over all its copies, by being inlined into call sites
    /// outside loops after its first copy (driver::cleanup); default 200.
    /// `ENZYME_RS_INLINE_COPIES_BUDGET=0` (or `off`) turns the limit off:
    /// every small derivative is inlined at every site, as before.
    pub fn inline_copies_budget() -> Option<usize> {
        match var("ENZYME_RS_INLINE_COPIES_BUDGET") {
            None => Some(200),
            Some(v) => match v.trim().parse::<usize>() {
                Ok(0) => None,
                Ok(n) => Some(n),
                Err(_) => (!says_no("ENZYME_RS_INLINE_COPIES_BUDGET")).then_some(200),
            },
        }
    }

    /// `ENZYME_RS_HOT_SITES`: where a derivative that contains a loop
    /// (its work per call scales with the data) is inlined
    /// (driver::cleanup). Default `calls`: a derivative called from more
    /// than one site is left a call at every site, in loops too (one
    /// shared body; a call costs nothing next to its loop), except sites
    /// zero fusion fused in loops ([`share_cold_fused`]) and small forward
    /// derivatives ([`share_fwd`]); `one`: its first copy is inlined at a site in
    /// the deepest loop, the other sites call; `0`: the rule before
    /// (inlined at every site in a loop, outside loops under
    /// `ENZYME_RS_INLINE_COPIES_BUDGET`).
    pub fn hot_sites() -> HotSites {
        match var("ENZYME_RS_HOT_SITES").as_deref().map(str::trim) {
            Some("one") => HotSites::One,
            Some(v) if matches!(v, "0" | "false" | "off" | "no") => HotSites::Off,
            _ => HotSites::Calls,
        }
    }

    /// `ENZYME_RS_SHARE_FWD`: the size (instructions) from which a small
    /// *scalar* forward derivative (`enzyme_rs.fwd.*`) that contains a
    /// loop is left a call to one shared body under [`hot_sites`]
    /// (driver::cleanup); default 100. `0` (or `off`): small scalar
    /// forward derivatives are inlined at every site, like the vector
    /// ones (`enzyme_rs.fwdN.*`).
    pub fn share_fwd() -> Option<usize> {
        match var("ENZYME_RS_SHARE_FWD") {
            None => Some(100),
            Some(v) => match v.trim().parse::<usize>() {
                Ok(0) => None,
                Ok(n) => Some(n),
                Err(_) => (!says_no("ENZYME_RS_SHARE_FWD")).then_some(100),
            },
        }
    }

    /// `ENZYME_RS_UNREAD_FIELDS=0`: a new function's struct result keeps
    /// fields no call reads (driver::drop_unread_fields; by default they
    /// are returned as poison, so an out-of-line forward sweep does not
    /// compute the primal value `__enzyme_fwddiff` drops).
    pub fn unread_fields() -> bool {
        !says_no("ENZYME_RS_UNREAD_FIELDS")
    }

    /// `ENZYME_RS_SHARE_COLD_FUSED=0`: a site zero fusion fused is
    /// inlined outside loops too; by default, under [`hot_sites`], such a
    /// site outside any loop calls the shared fused copy while the fused
    /// sites in loops stay inlined (driver::cleanup).
    pub fn share_cold_fused() -> bool {
        !says_no("ENZYME_RS_SHARE_COLD_FUSED")
    }

    /// Values of [`hot_sites`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum HotSites {
        Off,
        One,
        Calls,
    }

    /// `ENZYME_RS_DROP_DEAD=0`: functions the pass made that nothing calls
    /// in the end (trial pairs replaced by a re-run, copies inlined
    /// everywhere, runtime helpers no derivative uses) are left for LLVM's
    /// GlobalDCE, which runs only after the late function passes have
    /// optimized them (driver::drop_dead_functions).
    pub fn drop_dead() -> bool {
        !says_no("ENZYME_RS_DROP_DEAD")
    }

    /// `ENZYME_RS_SANITIZE_DERIVATIVES=0`: the functions the pass made do
    /// not take the module's sanitizer attributes (`sanitize_address`...),
    /// so a sanitizer does not instrument them (driver,
    /// `sanitize_new_functions`).
    pub fn sanitize_derivatives() -> bool {
        !says_no("ENZYME_RS_SANITIZE_DERIVATIVES")
    }

    /// `ENZYME_RS_RERUN_COLD`: how the re-run pair a run-time dispatch
    /// picks only for tapes over the budget is optimized
    /// (modes/reverse/rerun.rs, `mark_cold`): `optsize` (default: not
    /// unrolled, vectorized only without a scalar remainder), `minsize`,
    /// or `0` like any other function.
    pub fn rerun_cold() -> Option<&'static str> {
        match var("ENZYME_RS_RERUN_COLD").as_deref().map(str::trim) {
            Some("minsize") => Some("minsize"),
            Some(v) if matches!(v, "0" | "false" | "off" | "no") => None,
            _ => Some("optsize"),
        }
    }

    /// `ENZYME_RS_COLD_CLEANUP=full`: cold new functions (a dispatch's
    /// re-run pair) get the plugin's whole cleanup pipeline; by default
    /// only the light one of huge functions (driver, `cleanup`).
    pub fn cold_light_cleanup() -> bool {
        var("ENZYME_RS_COLD_CLEANUP").as_deref().map(str::trim) != Some("full")
    }

    /// `ENZYME_RS_MARK_AUG_PARAMS=0`: a finished augmented function's
    /// parameters are not marked read-only / not captured from its body
    /// (modes/reverse/distinct.rs, `mark_finished_aug`).
    pub fn mark_aug_params() -> bool {
        !says_no("ENZYME_RS_MARK_AUG_PARAMS")
    }

    /// `ENZYME_RS_SELF_ARGS=0`: a new function's recursive calls keep
    /// passing parameters the function only hands on to itself
    /// (modes/reverse/selfargs.rs) instead of `poison`.
    pub fn self_args() -> bool {
        !says_no("ENZYME_RS_SELF_ARGS")
    }

    /// `ENZYME_RS_DROP_PARAMS=0`: a new function keeps the parameters
    /// nothing reads any more in its signature
    /// (modes/reverse/selfargs.rs, `drop_unused`).
    pub fn drop_params() -> bool {
        !says_no("ENZYME_RS_DROP_PARAMS")
    }

    /// `ENZYME_RS_TAPE_LOCAL=0`: augmented and reverse sweeps keep reading
    /// and writing the tape object through their tape parameter instead of
    /// a local copy the cleanup promotes to registers
    /// (modes/reverse/tapelocal.rs).
    pub fn tape_local() -> bool {
        !says_no("ENZYME_RS_TAPE_LOCAL")
    }

    /// `ENZYME_RS_ONE_LOOP_ENTRY=0`: the reverse of a loop with several
    /// exiting blocks is entered at each exit's reverse directly (an
    /// irreducible cycle) instead of through one landing block
    /// (modes/reverse/rev/loops.rs).
    pub fn one_loop_entry() -> bool {
        !says_no("ENZYME_RS_ONE_LOOP_ENTRY")
    }

    /// The reverse of a loop nest that writes no memory runs its
    /// iterations in the primal's order (modes/reverse/rev/loops.rs
    /// `commuting`, cpp/revorder.cc: only when its additions go into
    /// shadow parameters and its other loads read duplicated parameters or
    /// the tape, so no read sees a sum of another iteration;
    /// tests/programs/zfuse/nest.c `aliased`). On by default;
    /// `ENZYME_RS_FORWARD_REVERSE=0` keeps every reverse loop counting down.
    pub fn forward_reverse_loops() -> bool {
        !says_no("ENZYME_RS_FORWARD_REVERSE")
    }

    /// `ENZYME_RS_FORWARD_ZEROED=0`: a shadow slot zeroed by the reverse of
    /// a store and then added into with nothing written between keeps
    /// `load; fadd; store` (modes/reverse/rev/zeroslot.rs, `zeroed_just_before`)
    /// instead of storing the adjoint directly.
    pub fn forward_zeroed() -> bool {
        !says_no("ENZYME_RS_FORWARD_ZEROED")
    }

    /// `ENZYME_RS_APART_OFFSETS=0`: `zeroed_just_before` proves two
    /// shadow slots apart only at constant distances, not at distances
    /// that are a value with a known range (the two halves of a
    /// butterfly; modes/reverse/rev/apart.rs).
    pub fn apart_offsets() -> bool {
        !says_no("ENZYME_RS_APART_OFFSETS")
    }

    /// `ENZYME_RS_DEAD_ZEROS=0`: a shadow slot's zeroing that the adjoint
    /// stored in its place right after makes dead stays (modes/reverse/rev/
    /// zeroslot.rs, `read_apart_between`).
    pub fn dead_zeros() -> bool {
        !says_no("ENZYME_RS_DEAD_ZEROS")
    }

    /// `ENZYME_RS_CHAIN_EARLY=0`: huge derivatives are cut into a chain only
    /// at the end of the optimizer, not right after the enzyme pass.
    pub fn chain_early() -> bool {
        !says_no("ENZYME_RS_CHAIN_EARLY")
    }

    /// `ENZYME_RS_CODEGEN_BLOCK_LIMIT=n`: the longest block left for code
    /// generation (default 256; 0 leaves blocks whole).
    pub fn codegen_block_limit() -> u32 {
        var("ENZYME_RS_CODEGEN_BLOCK_LIMIT")
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(256)
    }

    /// `ENZYME_RS_UNSINK` (set): hoist values sunk into return blocks.
    pub fn unsink() -> bool {
        std::env::var_os("ENZYME_RS_UNSINK").is_some()
    }

    /// `ENZYME_RS_CHUNK_CALLS=n`: the call threshold of the chain cut, when
    /// `-enzyme-rs-chunk-calls` is not given.
    pub fn chunk_calls() -> Option<u32> {
        var("ENZYME_RS_CHUNK_CALLS").and_then(|v| v.trim().parse().ok())
    }

    /// `ENZYME_RS_TAPE_REGION=0`: every tape push checks capacity (no
    /// unchecked region).
    pub fn tape_region() -> bool {
        var("ENZYME_RS_TAPE_REGION").as_deref() != Some("0")
    }

    /// `ENZYME_RS_KEEP_ERRNO_CALLS=1`: keep libm calls made only for errno.
    pub fn keep_errno_calls() -> bool {
        is_one("ENZYME_RS_KEEP_ERRNO_CALLS")
    }

    /// `ENZYME_RS_TAPE_LIBM=1`: tape libm results outside loops.
    pub fn tape_libm() -> bool {
        is_one("ENZYME_RS_TAPE_LIBM")
    }

    /// `ENZYME_RS_TAPE_LIBM_LOOPS`: `0` tapes no libm result in loops,
    /// `all` every one but sin/cos; otherwise None (the cost model).
    pub fn tape_libm_loops() -> Option<bool> {
        match var("ENZYME_RS_TAPE_LIBM_LOOPS").as_deref().map(str::trim) {
            Some("0") => Some(false),
            Some("all") => Some(true),
            _ => None,
        }
    }

    /// `ENZYME_RS_NO_GATHER` (set): scatter loops stay scatters.
    pub fn no_gather() -> bool {
        std::env::var_os("ENZYME_RS_NO_GATHER").is_some()
    }

    /// `ENZYME_RS_GPU_HEAP_TAPE=0`: a GPU tape with no static bound is an
    /// error instead of growing into device `malloc` memory.
    pub fn gpu_heap_tape() -> bool {
        !says_no("ENZYME_RS_GPU_HEAP_TAPE")
    }

    /// `ENZYME_RS_NO_USEFUL` (set): activity keeps every reached value.
    pub fn no_useful() -> bool {
        std::env::var_os("ENZYME_RS_NO_USEFUL").is_some()
    }

    /// `ENZYME_RS_TYPE_SUMMARIES`: `auto`/`1` reuse per-function type
    /// summaries (experimental, analysis/types/cache.rs); unset: off.
    pub fn type_summaries() -> Option<String> {
        var("ENZYME_RS_TYPE_SUMMARIES")
    }

    /// `ENZYME_RS_TYPE_SUMMARIES_MIN=n`: the call-tree size above which
    /// `auto` uses summaries.
    pub fn type_summaries_min() -> Option<usize> {
        var("ENZYME_RS_TYPE_SUMMARIES_MIN").and_then(|v| v.trim().parse().ok())
    }
}
