//! Loops annotated for checkpointing in the source, Enzyme's spellings:
//! `[[enzyme::checkpoint("revolve", 3)]] for (...)`,
//! `__attribute__((enzyme_checkpoint(...)))` and
//! `#pragma enzyme checkpoint(...)` on the line before the loop (clang 20
//! and newer; cpp/clang_attrs.cc).
//!
//! The clang plugin starts the loop's body with a call
//! `__enzyme_rs_checkpoint_loop(schedule, count)` (Enzyme's plugin, and
//! Enzyme-JAX's IR, with `__enzyme_set_checkpointing(mode, count)`, read
//! the same way). At pipeline start
//! ([`mark`]) each such call becomes a property of its loop's `llvm.loop`
//! metadata, `!{!"enzyme_rs.checkpoint", schedule, count}`, beside
//! `llvm.loop.unroll.disable` (so the simplification pipeline keeps the
//! loop), and the call is removed: the primal compiles as if the
//! annotation were not there. In reverse mode `reverse::rerun` reads the
//! property ([`of_loop`]) and runs the loop as a checkpointed loop with
//! the schedule named (`rerun::try_annotated`).
use crate::callsite::unmangled_head;
use crate::ir::llvm::*;
use crate::ir::shim;

/// The function the clang plugin calls first in an annotated loop's body.
pub const MARKER: &str = "__enzyme_rs_checkpoint_loop";
/// Enzyme's own marker (its clang plugin's, and IR from Enzyme-JAX):
/// `__enzyme_set_checkpointing(mode, count)`, mode 1 regular (periodic),
/// 2 binomial; count all ones when not given.
const ENZYME_MARKER: &str = "__enzyme_set_checkpointing";
/// Enzyme's `__enzyme_set_mincut(enable)` loop marker: the min-cut is
/// always on here, so it is removed and has no effect.
const MINCUT_MARKER: &str = "__enzyme_set_mincut";
/// The loop property the marker becomes.
const PROPERTY: &str = "enzyme_rs.checkpoint";

/// The schedule an annotation names (codes as cpp/clang_attrs.cc gives
/// them; runtime/loops_rt.c `__enzyme_rs_loops_scheme` takes the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// No schedule named: EnzymeCkptPeriodic with about sqrt(n) segments.
    Default = 0,
    /// "periodic": EnzymeCkptPeriodic, the count its `snapshots`.
    Periodic = 1,
    /// "store_all": a snapshot before every iteration.
    StoreAll = 2,
    /// "revolve" / "binomial": binomial checkpointing with `count` slots.
    Revolve = 3,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub schedule: Schedule,
    /// The count given (snapshots, or the period), if any.
    pub count: Option<i64>,
}

impl Annotation {
    fn from_codes(code: i64, count: i64) -> Annotation {
        let schedule = match code {
            1 => Schedule::Periodic,
            2 => Schedule::StoreAll,
            3 => Schedule::Revolve,
            _ => Schedule::Default,
        };
        Annotation {
            schedule,
            count: (count > 0).then_some(count),
        }
    }

    /// "revolve, 2 snapshots" (for remarks).
    pub fn describe(&self) -> String {
        let s = match self.schedule {
            Schedule::Default => "the default schedule",
            Schedule::Periodic => "periodic",
            Schedule::StoreAll => "store_all",
            Schedule::Revolve => "revolve",
        };
        match self.count {
            Some(c) => format!("{s}, {c}"),
            None => s.to_string(),
        }
    }
}

/// Turn every marker call of `m` into its loop's property and remove it
/// (a marker outside any loop, left where a loop was unrolled away, is
/// just removed). Returns whether `m` changed.
pub fn mark(m: LLVMModuleRef) -> bool {
    let markers: Vec<(V, &str)> = functions(m)
        .into_iter()
        .filter(|f| is_declaration(*f))
        .filter_map(|f| {
            let n = name(f);
            let head = unmangled_head(&n);
            [MARKER, ENZYME_MARKER, MINCUT_MARKER]
                .into_iter()
                .find(|k| head.starts_with(*k))
                .map(|k| (f, k))
        })
        .collect();
    let mut changed = false;
    for (decl, which) in markers {
        let calls: Vec<V> = users(decl).into_iter().filter(|u| is_call(*u)).collect();
        for (f, cs) in by_function(calls) {
            let loops = shim::Loops::new(f);
            for c in cs {
                let args = call_args(c);
                let code = args.first().and_then(|a| const_int_value(*a)).unwrap_or(0);
                let count = args.get(1).and_then(|a| const_int_value(*a)).unwrap_or(-1);
                let code = match (which, code) {
                    (ENZYME_MARKER, 1) => Schedule::Periodic as i64,
                    (ENZYME_MARKER, 2) => Schedule::Revolve as i64,
                    (ENZYME_MARKER, _) => Schedule::Default as i64,
                    _ => code,
                };
                match loops
                    .header(inst_block(c))
                    .filter(|_| which != MINCUT_MARKER)
                {
                    Some(h) => {
                        for latch in latches(f, &loops, h) {
                            shim::add_loop_property(terminator(latch), PROPERTY, code, count, true);
                        }
                        log::debug!(
                            "annotated: a loop of '{}' is checkpointed ({code}, {count})",
                            name(f)
                        );
                    }
                    None => log::debug!("annotated: {which} in '{}' removed", name(f)),
                }
                erase(c);
                changed = true;
            }
        }
        if users(decl).is_empty() {
            crate::ir::globals::delete_function(decl);
        }
    }
    changed
}

/// The blocks of loop `h` that branch back to it.
fn latches(f: V, loops: &shim::Loops, h: BB) -> Vec<BB> {
    blocks(f)
        .into_iter()
        .filter(|b| loops.contains(h, *b) && successors(*b).contains(&h))
        .collect()
}

/// The annotation of loop `h` of `f`, if it has one.
pub fn of_loop(f: V, loops: &shim::Loops, h: BB) -> Option<Annotation> {
    latches(f, loops, h).into_iter().find_map(|l| {
        shim::loop_property(terminator(l), PROPERTY).map(|(a, b)| Annotation::from_codes(a, b))
    })
}

/// Whether some loop of `f` is annotated (a quick look at its branches).
pub fn any_in(f: V) -> bool {
    blocks(f)
        .into_iter()
        .any(|b| shim::loop_property(terminator(b), PROPERTY).is_some())
}

/// The runtime's `__enzyme_rs_loops_scheme` (linked into `m` if needed;
/// inactive: it returns a table of the runtime's functions).
pub fn scheme_fn(m: LLVMModuleRef) -> crate::diag::Result<V> {
    let f = super::pair::helper(m, "scheme")?;
    crate::ir::attrs::set_fn_string_attr(f, "enzyme_inactive", "");
    Ok(f)
}

/// A `__enzyme_ptr_size_hint(ptr, bytes[, space])` call: `bytes` of
/// memory from `ptr` (an underlying object itself) may be written by an
/// annotated loop that the call's block dominates.
pub struct SizeHint {
    pub ptr: V,
    pub bytes: V,
    pub block: BB,
}

/// The size hints of `f` (a private copy), erased from it (they would
/// count as captures of the pointer).
pub fn take_size_hints(f: V) -> Vec<SizeHint> {
    let mut out = Vec::new();
    for i in blocks(f).into_iter().flat_map(instructions) {
        let Some(c) = called_function(i).filter(|_| is_call(i)) else {
            continue;
        };
        if !crate::rules::hints::is_size_hint(&name(c)) {
            continue;
        }
        let args = call_args(i);
        if let [ptr, bytes, ..] = args[..] {
            if is_ptr(type_of(ptr)) && is_int(type_of(bytes)) {
                out.push(SizeHint {
                    ptr: strip_casts(ptr),
                    bytes,
                    block: inst_block(i),
                });
            }
        }
        erase(i);
    }
    out
}
