//! Per-function type summaries, reused across the analyses of one module.
//!
//! Reverse mode analyses every augmented callee on its own, and each such
//! analysis covers the callee's whole call tree: a chain of wrappers (Eigen's
//! unoptimised constructors and assignment helpers at -O0) is analysed once
//! per link, each time over almost the same 250 functions. A summary is what
//! the first analysis that covered a function found for its parameters and
//! returned values. A later analysis whose call tree is large
//! ([`Mode::Auto`]) does not enter a summarised callee again: the call's
//! arguments get the parameters' trees, its result the returned values'
//! (one direction: the summary is not refined by the new caller).
//!
//! Keys: the function, and a hash of its printed IR (a function whose body
//! changed since is analysed again; generated functions are new functions
//! and are never summarised). The cache holds one module's summaries and is
//! emptied when another module asks.
//!
//! `ENZYME_RS_TYPE_SUMMARIES`: `off` (the default: every analysis covers its
//! whole call tree), `auto` (summaries for analyses whose call tree has more
//! than `ENZYME_RS_TYPE_SUMMARIES_MIN` functions, 64 by default), `on`
//! (always). Off by default because the results are not always the same:
//! a summary is one-directional, and Eigen's `eigen_norm` at -O0 then copies
//! a 1-byte empty member with an adjoint memcpy where the full analysis
//! copies its shadow (the other programs checked emit the same IR).
use super::tree::TypeTree;
use crate::ir::llvm::*;
use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// What an earlier analysis found for one function.
#[derive(Clone, Debug)]
pub struct Summary {
    /// One tree per parameter.
    pub params: Vec<TypeTree>,
    /// The join of the trees of the returned values.
    pub ret: TypeTree,
    fingerprint: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Off,
    On,
    Auto,
}

/// The mode from `ENZYME_RS_TYPE_SUMMARIES`.
pub fn mode() -> Mode {
    match crate::options::switches::type_summaries()
        .unwrap_or_default()
        .trim()
    {
        "1" | "on" | "true" | "yes" => Mode::On,
        "auto" => Mode::Auto,
        _ => Mode::Off,
    }
}

/// The call-tree size above which [`Mode::Auto`] uses summaries.
pub fn auto_min() -> usize {
    crate::options::switches::type_summaries_min().unwrap_or(64)
}

struct Cache {
    module: usize,
    summaries: HashMap<V, Summary>,
    /// Summaries reused (for the log).
    hits: usize,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache {
        module: 0,
        summaries: HashMap::new(),
        hits: 0,
    });
}

fn with_module<R>(m: LLVMModuleRef, f: impl FnOnce(&mut Cache) -> R) -> R {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.module != m as usize {
            c.module = m as usize;
            c.summaries.clear();
            c.hits = 0;
        }
        f(&mut c)
    })
}

/// A hash of the function's printed IR.
fn fingerprint(f: V) -> u64 {
    let mut h = DefaultHasher::new();
    print_value(f).hash(&mut h);
    h.finish()
}

/// Whether `f` may be summarised: a function of the input with a body
/// (functions the pass generates change while it works on them).
pub fn summarisable(f: V) -> bool {
    !is_declaration(f) && !name(f).starts_with("enzyme_rs.")
}

/// The summary of `f`, if one was stored and `f` has not changed since.
pub fn lookup(m: LLVMModuleRef, f: V) -> Option<Summary> {
    with_module(m, |c| {
        let s = c.summaries.get(&f)?;
        if s.fingerprint != fingerprint(f) {
            c.summaries.remove(&f);
            return None;
        }
        c.hits += 1;
        Some(s.clone())
    })
}

/// Whether a summary of `f` is stored (not checked against its IR).
pub fn has(m: LLVMModuleRef, f: V) -> bool {
    with_module(m, |c| c.summaries.contains_key(&f))
}

/// Store the summary of `f` unless one is there (the first, widest
/// analysis of a function wins).
pub fn store(m: LLVMModuleRef, f: V, params: Vec<TypeTree>, ret: TypeTree) {
    if !summarisable(f) {
        return;
    }
    with_module(m, |c| {
        c.summaries.entry(f).or_insert_with(|| Summary {
            params,
            ret,
            fingerprint: fingerprint(f),
        });
    })
}

/// Summaries stored and reused so far (for the log).
pub fn stats(m: LLVMModuleRef) -> (usize, usize) {
    with_module(m, |c| (c.summaries.len(), c.hits))
}
