//! Type analysis: for every value, a [`TypeTree`] saying what its bytes hold
//! (and, for pointers, what the memory they point to holds). With opaque
//! pointers nothing else says whether memory holds floats.
//!
//! Sources of types, each a rule in `engine.rs`:
//! - LLVM's types for floats and pointers (integers prove nothing: they may
//!   carry any bits);
//! - instruction semantics: integer arithmetic, comparisons, GEP indices,
//!   loads/stores (value <-> pointee), GEPs (pointer <-> base pointer, with
//!   constant offsets and periodic views for variable indices), phis,
//!   selects, casts, aggregates;
//! - known library functions (`known.rs`): allocation, memcpy/memset, math,
//!   printf/scanf formats, string functions;
//! - clang's TBAA metadata (`tbaa.rs`);
//! - the arguments at an `__enzyme_*` call, and the trees a caller gives
//!   ([`TypeAnalysis::analyse`]).
//!
//! It is inter-procedural: calls to functions with bodies link arguments with
//! parameters and results with returned values in both directions, iterated
//! to one fixed point with the caller (recursion included). The analysis is
//! flow-insensitive and context-insensitive (one tree per value); a
//! parameter marked `dereferenceable(N)` (a C++ reference or `this`) gives
//! its callers back only its N bytes, so that a helper shared by many
//! objects' members does not mix their fields.
pub mod cache;
pub mod engine;
pub mod known;
pub mod layout;
pub mod pieces;
pub mod tbaa;
pub mod tree;

pub use tree::{Base, FloatKind, Off, TypeTree};

use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use engine::Engine;
use std::collections::HashMap;

/// Entry points.
pub struct TypeAnalysis;

impl TypeAnalysis {
    /// Analyse `func` (and everything it calls), its parameters seeded with
    /// `arg_trees` (one per parameter; shorter or empty is fine).
    pub fn analyse(m: LLVMModuleRef, func: V, arg_trees: &[TypeTree]) -> TypeResults {
        let start = std::time::Instant::now();
        // Callees summarised by earlier analyses stay out of a large call
        // tree (`cache.rs`).
        let summarise = match cache::mode() {
            cache::Mode::Off => false,
            cache::Mode::On => true,
            cache::Mode::Auto => {
                let min = cache::auto_min();
                Engine::scope_size(&[func], min) > min
            }
        };
        let mut e = if summarise {
            Engine::with_summaries(m, &[func], &mut |c| cache::lookup(m, c))
        } else {
            Engine::new(m, &[func])
        };
        for (p, t) in params(func).into_iter().zip(arg_trees) {
            e.update(p, t);
        }
        e.run();
        if cache::mode() != cache::Mode::Off {
            // Summaries for later analyses (only when they may be used).
            for f in e.funcs.clone() {
                if f != func && cache::summarisable(f) && !cache::has(m, f) {
                    let (ps, ret) = e.summary_of(f);
                    cache::store(m, f, ps, ret);
                }
            }
        }
        let (stored, hits) = cache::stats(m);
        log::debug!(
            "type analysis of {}: {} function(s), {} visit(s), {} change(s), widen {:.3}s, {:.3}s (summaries: {}, {stored} stored, {hits} reused)",
            name(func),
            e.funcs.len(),
            e.visits,
            e.changes,
            e.widen_ns as f64 * 1e-9,
            start.elapsed().as_secs_f64(),
            if summarise { "used" } else { "not used" },
        );
        TypeResults::from_engine(e, false)
    }

    /// Analyse every function with a body in the module together: callers
    /// type their callees' parameters (and `__enzyme_*` calls type the
    /// functions they differentiate).
    pub fn analyse_module(m: LLVMModuleRef) -> TypeResults {
        let roots: Vec<V> = functions(m)
            .into_iter()
            .filter(|f| !is_declaration(*f))
            .collect();
        let mut e = Engine::new(m, &roots);
        e.run();
        TypeResults::from_engine(e, false)
    }
}

/// The trees of one analysis.
pub struct TypeResults {
    engine: std::cell::RefCell<Engine>,
    /// Unknown memory is taken to hold integers (`-enzyme-loose-types`).
    pub loose: bool,
    pub functions: Vec<V>,
    /// Instruction visits until the fixed point (for the benchmark).
    pub visits: usize,
}

impl TypeResults {
    fn from_engine(e: Engine, loose: bool) -> TypeResults {
        let functions = e.funcs.clone();
        let visits = e.visits;
        TypeResults {
            engine: std::cell::RefCell::new(e),
            loose,
            functions,
            visits,
        }
    }

    pub fn with_loose_types(mut self, loose: bool) -> TypeResults {
        self.loose = loose;
        self
    }

    /// The tree of a value (argument, instruction, global or constant).
    pub fn query(&self, v: V) -> TypeTree {
        self.engine.borrow_mut().tree(v)
    }

    /// The base of the value itself (its first scalar).
    pub fn base(&self, v: V) -> Base {
        self.query(v).base_at(0)
    }

    /// The tree of the `size` bytes at `offset` of the memory `ptr` points to.
    pub fn memory_at(&self, ptr: V, offset: i64, size: u64) -> TypeTree {
        self.query(ptr).pointee().extract(offset, size)
    }

    /// The base of the scalar at `offset` of the memory `ptr` points to.
    pub fn base_at(&self, ptr: V, offset: i64) -> Base {
        self.query(ptr).pointee().base_at(offset)
    }

    /// Whether the scalar at `offset` of the memory `ptr` points to is a
    /// float (and which). Unknown memory is an error naming `ptr` and the
    /// instruction `at` (with its source line), unless loose types are on,
    /// in which case it is an integer.
    pub fn is_float_at(&self, ptr: V, offset: i64, at: V) -> Result<Option<FloatKind>> {
        match self.base_at(ptr, offset) {
            Base::Float(k) => Ok(Some(k)),
            Base::Unknown if !self.loose => Err(unknown_type_error(ptr, offset, at)),
            _ => Ok(None),
        }
    }

    /// Whether value `v` (an integer, say) holds a float's bits at byte
    /// `offset`; unknown is an error as for [`Self::is_float_at`].
    pub fn value_is_float(&self, v: V, offset: i64, at: V) -> Result<Option<FloatKind>> {
        match self.query(v).base_at(offset) {
            Base::Float(k) => Ok(Some(k)),
            Base::Unknown if !self.loose => Err(unknown_value_error(v, at)),
            _ => Ok(None),
        }
    }

    /// Whether the memory `ptr` points to is known to hold no floats (and no
    /// pointers through which floats could be reached): every access to it
    /// is typed, and none is a float or a pointer.
    pub fn holds_no_floats(&self, ptr: V) -> bool {
        let p = self.query(ptr).pointee();
        !p.is_empty()
            && p.entries()
                .all(|(path, b)| path.len() > 1 || matches!(b, Base::Integer | Base::Anything))
            && p.first_level().any(|(_, b)| b == Base::Integer)
    }

    /// The trees of every argument and instruction of `f`.
    pub fn function_trees(&self, f: V) -> HashMap<V, TypeTree> {
        let mut out = HashMap::new();
        for p in params(f) {
            out.insert(p, self.query(p));
        }
        for bb in blocks(f) {
            for i in instructions(bb) {
                out.insert(i, self.query(i));
            }
        }
        out
    }
}

fn describe(v: V) -> String {
    let n = name(v);
    if !n.is_empty() {
        if is_global_var(v) || is_function(v) {
            return format!("@{n}");
        }
        return format!("%{n}");
    }
    // An unnamed instruction: its number, as it appears as an operand.
    let text = print_value(v);
    let text = text.trim();
    match text.split_once(" = ") {
        Some((lhs, _)) if lhs.starts_with('%') => lhs.to_string(),
        _ => text.to_string(),
    }
}

fn hint() -> &'static str {
    "hint: give the memory a type the analysis can see (store or load it as a float, use a typed struct instead of raw bytes, compile with -O1 or higher so clang emits TBAA), or pass -mllvm -enzyme-loose-types to treat unknown memory as integers"
}

fn unknown_type_error(ptr: V, offset: i64, at: V) -> Error {
    let f = if is_instruction(at) { inst_fn(at) } else { at };
    Error::new(
        ErrorKind::Type(format!(
            "cannot deduce the type of the memory at offset {offset} of {} (is it a float or an integer?); {}",
            describe(ptr),
            hint()
        )),
        f,
        if is_instruction(at) { Some(at) } else { None },
    )
}

fn unknown_value_error(v: V, at: V) -> Error {
    let f = if is_instruction(at) { inst_fn(at) } else { at };
    Error::new(
        ErrorKind::Type(format!(
            "cannot deduce whether {} holds a float or an integer; {}",
            describe(v),
            hint()
        )),
        f,
        if is_instruction(at) { Some(at) } else { None },
    )
}
