//! What the reverse sweep may recompute instead of reading from the tape:
//! side-effect-free instructions over available values, and loads from
//! memory that nothing in the function can write after the load.
use crate::analysis::activity::underlying_objects;
use crate::analysis::ptruse::{self, Flow, Walk};
use crate::ir::llvm::*;
use crate::rules::vecmem::masked_access;
use crate::rules::{self, AllocKind, CallKind};
use std::collections::HashSet;

/// What a masked store or scatter writes through: its pointer (or vector
/// of pointers); nothing for a masked load or gather.
pub fn masked_writes(i: V) -> Vec<V> {
    masked_access(i)
        .filter(|a| a.op.writes())
        .map(|a| vec![a.ptr])
        .unwrap_or_default()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ObjKind {
    /// alloca / heap allocation made in this function
    Local,
    Global,
    NoAliasArg,
    /// A parallel region's parameter pointing to a caller's local that
    /// nothing else in the region reaches (`openmp::slots`).
    FrameSlot,
    Arg,
    Unknown,
}

fn obj_kind(o: V) -> ObjKind {
    if is_global_var(o) {
        return ObjKind::Global;
    }
    if is_argument(o) {
        if crate::modes::openmp::slots::is_frame_slot(o) {
            return ObjKind::FrameSlot;
        }
        let f = param_parent(o);
        let idx = params(f).iter().position(|p| *p == o).unwrap_or(0) as u32;
        let has = param_has_attr(f, idx, "noalias")
            || crate::modes::openmp::slots::is_restrict(o)
            || super::distinct::has(f, idx as usize, super::distinct::DISTINCT);
        return if has {
            ObjKind::NoAliasArg
        } else {
            ObjKind::Arg
        };
    }
    if opcode(o) == Some(LLVMOpcode::LLVMAlloca) {
        return ObjKind::Local;
    }
    if is_call(o) && matches!(rules::classify(o), CallKind::Alloc(_)) {
        return ObjKind::Local;
    }
    ObjKind::Unknown
}

/// An object of unknown origin (a loaded pointer, say).
pub fn is_unknown_object(o: V) -> bool {
    obj_kind(o) == ObjKind::Unknown && !is_constant(o)
}

/// Whether `o` is memory of this function alone (an alloca or a block
/// from a malloc-like call).
pub fn is_local_object(o: V) -> bool {
    obj_kind(o) == ObjKind::Local
}

/// Whether two underlying objects may be the same memory.
pub fn may_alias_objects(a: V, b: V) -> bool {
    may_alias_objects_with(a, b, &is_uncaptured)
}

/// `may_alias_objects`, with `uncaptured` answering `is_uncaptured` for
/// local objects (memoized by the caller).
fn may_alias_objects_with(a: V, b: V, uncaptured: &dyn Fn(V) -> bool) -> bool {
    if a == b {
        return true;
    }
    let (ka, kb) = (obj_kind(a), obj_kind(b));
    use ObjKind::*;
    match (ka, kb) {
        (FrameSlot, _) | (_, FrameSlot) => false,
        // A pointer of unknown origin (loaded from memory, returned by a
        // call) cannot point into a fresh block whose address was never
        // stored or passed anywhere.
        (Unknown, Local) => !uncaptured(b),
        (Local, Unknown) => !uncaptured(a),
        (Unknown, _) | (_, Unknown) => true,
        (Local, _) | (_, Local) => false,
        (Global, Global) => false,
        (NoAliasArg, _) | (_, NoAliasArg) => false,
        _ => true,
    }
}

/// Whether local object `o` (an alloca, or a block from malloc/calloc of
/// this function) is never captured: every address derived from it (GEPs,
/// casts, phis, selects) is only loaded from, stored to, compared, freed,
/// or given to a memory transfer, a lifetime marker, the tape, or a call
/// parameter marked `nocapture`. No pointer of unknown origin (loaded from
/// memory, an argument, returned by a call) can then point into it.
pub fn is_uncaptured(o: V) -> bool {
    let local = opcode(o) == Some(LLVMOpcode::LLVMAlloca)
        || (is_call(o)
            && matches!(
                rules::classify(o),
                CallKind::Alloc(AllocKind::Malloc { .. } | AllocKind::Calloc)
            ));
    if !local {
        return false;
    }
    ptruse::walk([o], |u, v, w| {
        if use_keeps_uncaptured(u, v, w) {
            Flow::Continue
        } else {
            Flow::Stop
        }
    })
}

/// Whether use `u` of address `v` keeps it uncaptured (derived addresses
/// are followed on `walk`).
fn use_keeps_uncaptured(u: V, v: V, walk: &mut Walk) -> bool {
    use LLVMOpcode::*;
    match opcode(u) {
        _ if ptruse::derives_address(u, v) => {
            walk.follow(u);
            true
        }
        Some(LLVMLoad | LLVMICmp) => true,
        // Stored as the address, or as a value into the tape (which only
        // the reverse sweep reads).
        Some(LLVMStore) => {
            operand(u, 0) != v
                || underlying_objects(operand(u, 1)).iter().all(|t| {
                    is_call(*t)
                        && called_function(*t).is_some_and(|f| super::tape::is_push_fn(&name(f)))
                })
        }
        Some(LLVMCall) => match rules::classify(u) {
            CallKind::Alloc(AllocKind::Free) | CallKind::MemTransfer(_) => true,
            _ if ptruse::is_marker_call(u) => true,
            _ => {
                let callee = called_function(u);
                // Each argument position holding `v` must be `nocapture`
                // (by LLVM's attributes, or because the callee keeps no
                // copy of that parameter: `distinct::param_uses`).
                call_args(u).iter().enumerate().all(|(k, a)| {
                    *a != v
                        || (enum_attr_kind("nocapture") != 0
                            && call_has_attr_at(u, k as u32 + 1, "nocapture"))
                        || callee.is_some_and(|f| !super::distinct::param_uses(f, k).captured)
                }) && called_value(u) != v
            }
        },
        _ => false,
    }
}

/// What one instruction may write: the pointers it writes through,
/// whether it may write anywhere (a call through an unknown pointer), and
/// whether it is a call that may also write memory reached through
/// pointers it loads (from its arguments' memory or globals), which the
/// pointers do not name.
fn write_targets_and_reach(i: V) -> (Vec<V>, bool, bool, bool) {
    let (t, anything, globals) = direct_write_targets(i);
    let reach = opcode(i) == Some(LLVMOpcode::LLVMCall)
        && !anything
        && match rules::classify(i) {
            CallKind::Rule(_) | CallKind::MemTransfer(_) | CallKind::Alloc(_) => false,
            CallKind::AllocOut => false,
            CallKind::Inactive if called_function(i).is_some_and(is_declaration) => false,
            CallKind::OpenMp(_) => true,
            _ => !called_function(i).is_some_and(fn_only_reads),
        };
    (t, anything, reach, globals)
}

/// The pointers instruction `i` writes through, whether it may write
/// anywhere, and whether it (a call) may write globals it does not get
/// pointers to.
fn direct_write_targets(i: V) -> (Vec<V>, bool, bool) {
    let (t, anything) = match opcode(i) {
        Some(LLVMOpcode::LLVMStore) => (vec![operand(i, 1)], false),
        Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
            (vec![operand(i, 0)], false)
        }
        Some(LLVMOpcode::LLVMCall) => {
            let callee = called_function(i);
            let ptr_args = || {
                call_args(i)
                    .into_iter()
                    .filter(|a| is_ptr(type_of(*a)))
                    .collect()
            };
            match rules::classify(i) {
                // A masked store or scatter writes through its pointer(s).
                CallKind::Rule(r) if r.masked.is_some() => (masked_writes(i), false),
                CallKind::Rule(_) => (vec![], false),
                // Library functions known to be inactive write nothing the
                // derivative reads; a user function marked inactive may.
                CallKind::Inactive if callee.is_some_and(is_declaration) => (vec![], false),
                CallKind::MemTransfer(_) => (vec![operand(i, 0)], false),
                // The OpenMP runtime writes its own globals (critical
                // section locks; source locations are constant) and what
                // it gets pointers to otherwise (loop bounds).
                CallKind::OpenMp(_) => (
                    call_args(i)
                        .into_iter()
                        .filter(|a| is_ptr(type_of(*a)) && !is_global_var(strip_casts(*a)))
                        .collect(),
                    false,
                ),
                // free/realloc end an object's life; treat as a write.
                CallKind::Alloc(_) | CallKind::AllocOut => (ptr_args(), false),
                _ if callee.map(fn_only_reads).unwrap_or(false) => (vec![], false),
                // A defined callee (or a derivative marked so) writes
                // only through the parameters it does not just read.
                _ if callee.is_some() => {
                    let f = callee.unwrap();
                    let args = call_args(i);
                    let written = args
                        .iter()
                        .enumerate()
                        .filter(|(k, a)| {
                            is_ptr(type_of(**a)) && super::distinct::param_uses(f, *k).written
                        })
                        .map(|(_, a)| *a)
                        .collect();
                    (written, false)
                }
                _ => (ptr_args(), true),
            }
        }
        _ => (vec![], false),
    };
    let globals = !anything
        && opcode(i) == Some(LLVMOpcode::LLVMCall)
        && called_function(i).is_some_and(|f| {
            !is_declaration(f) && !super::keep::is_helper(f) && callee_may_write_globals(f)
        });
    (t, anything, globals)
}

thread_local! {
    /// `callee_may_write_globals` per function, for one session.
    static GLOBAL_WRITERS: std::cell::RefCell<std::collections::HashMap<V, bool>> =
        Default::default();
    /// `reaches_unknown_memory` per function, for one session.
    static UNKNOWN_READERS: std::cell::RefCell<std::collections::HashMap<V, bool>> =
        Default::default();
}

/// Forget `callee_may_write_globals`' and `reaches_unknown_memory`'s
/// answers (a new session).
pub fn clear_global_writers() {
    GLOBAL_WRITERS.with(|m| m.borrow_mut().clear());
    UNKNOWN_READERS.with(|m| m.borrow_mut().clear());
}

/// Whether defined function `f`, or what it calls, may touch memory
/// through a pointer of unknown origin (one loaded from memory), or pass
/// such a pointer on. When it cannot, whether its caller may overwrite
/// such memory before the reverse sweep (a key's `others_overwritten`)
/// changes nothing in its pair: the call keys it the same either way, so a
/// recursive function called from a caller that knows such memory stable
/// gets one pair, not a second for its own recursive calls.
pub fn reaches_unknown_memory(f: V) -> bool {
    if let Some(b) = UNKNOWN_READERS.with(|m| m.borrow().get(&f).copied()) {
        return b;
    }
    let b = unknown_in(f, &mut HashSet::new(), 0);
    UNKNOWN_READERS.with(|m| m.borrow_mut().insert(f, b));
    b
}

fn unknown_in(f: V, visiting: &mut HashSet<V>, depth: usize) -> bool {
    if depth > 8 || is_declaration(f) {
        return true;
    }
    if !visiting.insert(f) {
        return false;
    }
    let unknown = |p: V| underlying_objects(p).into_iter().any(is_unknown_object);
    for bb in blocks(f) {
        for i in instructions(bb) {
            let hit = match opcode(i) {
                Some(LLVMOpcode::LLVMLoad) => unknown(operand(i, 0)),
                Some(LLVMOpcode::LLVMStore) => {
                    unknown(operand(i, 1))
                        || (is_ptr(type_of(operand(i, 0))) && unknown(operand(i, 0)))
                }
                Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
                    unknown(operand(i, 0))
                }
                Some(LLVMOpcode::LLVMCall) => {
                    let ptr_args = call_args(i).into_iter().filter(|a| is_ptr(type_of(*a)));
                    let passes = ptr_args.clone().any(unknown);
                    passes
                        || masked_access(i).is_some_and(|a| unknown(a.ptr))
                        || match rules::classify(i) {
                            CallKind::Rule(_) | CallKind::Alloc(_) | CallKind::AllocOut => false,
                            CallKind::MemTransfer(_) => false,
                            _ => match called_function(i) {
                                Some(g) if is_declaration(g) => {
                                    !(crate::ir::link::is_intrinsic(g) && ptr_args.count() == 0)
                                }
                                Some(g) => unknown_in(g, visiting, depth + 1),
                                None => true,
                            },
                        }
                }
                Some(LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr) => true,
                _ => false,
            };
            if hit {
                return true;
            }
        }
    }
    false
}

/// Whether defined function `f`, or what it calls, may write a writable
/// global directly (not through a pointer argument): a store whose
/// target may be a global or memory of unknown origin, a call to an
/// unknown external or through a pointer. Conservative: a deep call chain
/// counts as writing.
fn callee_may_write_globals(f: V) -> bool {
    if let Some(b) = GLOBAL_WRITERS.with(|m| m.borrow().get(&f).copied()) {
        return b;
    }
    let b = writes_globals_in(f, &mut HashSet::new(), 0);
    GLOBAL_WRITERS.with(|m| m.borrow_mut().insert(f, b));
    b
}

fn writes_globals_in(f: V, visiting: &mut HashSet<V>, depth: usize) -> bool {
    if depth > 8 {
        return true;
    }
    // A function already looked at (or being looked at, in a cycle) adds
    // nothing new: it is scanned once.
    if !visiting.insert(f) {
        return false;
    }
    let target_may_be_global = |p: V| {
        underlying_objects(p).into_iter().any(|o| {
            (is_global_var(o) && !is_constant_global(o))
                || (obj_kind(o) == ObjKind::Unknown && !is_constant(o))
        })
    };
    for bb in blocks(f) {
        for i in instructions(bb) {
            let hit = match opcode(i) {
                Some(LLVMOpcode::LLVMStore) => target_may_be_global(operand(i, 1)),
                Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
                    target_may_be_global(operand(i, 0))
                }
                Some(LLVMOpcode::LLVMCall) => {
                    let callee = called_function(i);
                    match rules::classify(i) {
                        CallKind::Rule(r) if r.masked.is_some() => {
                            masked_writes(i).into_iter().any(target_may_be_global)
                        }
                        CallKind::Rule(_) | CallKind::Alloc(_) | CallKind::AllocOut => false,
                        CallKind::MemTransfer(_) => target_may_be_global(operand(i, 0)),
                        CallKind::Inactive if callee.is_some_and(is_declaration) => false,
                        _ => match callee {
                            Some(g) if fn_only_reads(g) => false,
                            Some(g) if !is_declaration(g) => {
                                writes_globals_in(g, visiting, depth + 1)
                            }
                            _ => true,
                        },
                    }
                }
                _ => false,
            };
            if hit {
                return true;
            }
        }
    }
    false
}

/// Whether instruction `i` may write memory reached through `p` (for
/// remarks saying why a load is not recomputed).
pub fn may_write_through(i: V, p: V) -> bool {
    let mut w = WriteSet::default();
    w.add(i);
    underlying_objects(p).into_iter().any(|o| w.may_write(o))
}

/// A set of written objects, and whether anything may be written.
#[derive(Clone, Default)]
struct WriteSet {
    objs: Vec<V>,
    /// The members of `objs`, for constant-time de-duplication.
    seen: HashSet<V>,
    /// The members of `objs` that are uncaptured locals (`is_uncaptured`).
    uncaptured: HashSet<V>,
    anything: bool,
    /// A call that may write memory reached through pointers it loads
    /// (not in `objs`): memory of unknown origin may be written.
    reach: bool,
    /// A call to a function that may write globals directly: every
    /// writable global may be written.
    globals: bool,
}

impl WriteSet {
    fn add(&mut self, i: V) {
        let (targets, anything, reach, globals) = write_targets_and_reach(i);
        self.anything |= anything;
        self.reach |= reach;
        self.globals |= globals;
        for t in targets {
            for o in underlying_objects(t) {
                // A null or undef pointer argument ("ignore this output",
                // e.g. MPI_STATUSES_IGNORE) is no memory anything writes.
                if is_constant(o) && is_null_or_undef(o) {
                    continue;
                }
                // A kept shadow's slot (keep.rs) is the runtime's alone.
                if super::keep::is_slot(o) {
                    continue;
                }
                // The tape (reserved by the augmented sweep) is no memory
                // of the primal's.
                if is_call(o)
                    && called_function(o).is_some_and(|f| super::tape::is_push_fn(&name(f)))
                {
                    continue;
                }
                if obj_kind(o) == ObjKind::Unknown && !is_constant(o) {
                    // A pointer of unknown origin may point anywhere.
                    self.anything = true;
                }
                self.insert(o);
            }
        }
    }
    fn insert(&mut self, o: V) {
        if self.seen.insert(o) {
            self.objs.push(o);
            if obj_kind(o) == ObjKind::Local && is_uncaptured(o) {
                self.uncaptured.insert(o);
            }
        }
    }
    fn union(&mut self, other: &WriteSet) {
        self.anything |= other.anything;
        self.reach |= other.reach;
        self.globals |= other.globals;
        for o in &other.objs {
            if self.seen.insert(*o) {
                self.objs.push(*o);
                if other.uncaptured.contains(o) {
                    self.uncaptured.insert(*o);
                }
            }
        }
    }
    /// Whether memory of object `o` may be in the set.
    fn may_write(&self, o: V) -> bool {
        (self.anything && !is_constant_global(o) && obj_kind(o) != ObjKind::FrameSlot)
            || (self.reach && obj_kind(o) == ObjKind::Unknown)
            || (self.globals && obj_kind(o) == ObjKind::Global && !is_constant_global(o))
            || {
                // `o` itself is looked at once, the members from the set.
                let own = std::cell::OnceCell::new();
                let uncaptured = |v: V| {
                    if v == o {
                        *own.get_or_init(|| is_uncaptured(o))
                    } else {
                        self.uncaptured.contains(&v)
                    }
                };
                self.objs
                    .iter()
                    .any(|w| may_alias_objects_with(o, *w, &uncaptured))
            }
    }
}

/// The objects a function may write (through stores, memory intrinsics and
/// calls that may write through their pointer arguments), and what its
/// caller may write after it returns (before its reverse sweep runs).
pub struct Written {
    own: WriteSet,
    /// Parameters whose memory the caller may overwrite later.
    overwritten_params: Vec<V>,
    /// Whether the caller may overwrite (non-constant) globals later.
    globals_overwritten: bool,
    /// Whether memory of unknown origin (reached through pointers loaded
    /// from memory) may not outlive the function or may be overwritten by
    /// the caller later: the caller's `others_overwritten`, or a local
    /// object of the function that is captured (a loaded pointer may point
    /// into it, and it dies with the augmented sweep).
    others_unstable: bool,
}

impl Written {
    pub fn of(
        f: V,
        overwritten_params: Vec<V>,
        globals_overwritten: bool,
        others_overwritten: bool,
    ) -> Written {
        let mut own = WriteSet::default();
        for bb in blocks(f) {
            for i in instructions(bb) {
                own.add(i);
            }
        }
        Written {
            own,
            overwritten_params,
            globals_overwritten,
            others_unstable: others_overwritten || has_captured_local(f),
        }
    }

    /// Whether the function itself may write memory reached through `p`.
    pub fn function_may_write(&self, p: V) -> bool {
        let objs = underlying_objects(p);
        let slots = objs.iter().all(|o| obj_kind(*o) == ObjKind::FrameSlot);
        (self.own.anything && !slots) || objs.into_iter().any(|o| self.own.may_write(o))
    }

    /// Whether memory reached through `p` outlives the function and is not
    /// overwritten by its caller before the reverse sweep (what the
    /// function itself writes aside).
    pub fn persistent(&self, p: V) -> bool {
        underlying_objects(p)
            .into_iter()
            .all(|o| self.persistent_object(o))
    }

    /// `persistent` for one underlying object.
    pub fn persistent_object(&self, o: V) -> bool {
        let k = obj_kind(o);
        k != ObjKind::Local
            && (k != ObjKind::Unknown || self.unknown_stable(o))
            && !self.overwritten_params.contains(&o)
            && !(k == ObjKind::Global && self.globals_overwritten && !is_constant_global(o))
    }

    /// Whether memory reached through `p` is never written by the function
    /// nor by its caller before the reverse sweep (so the reverse sweep can
    /// read it again), and outlives the function.
    pub fn unwritten_and_persistent(&self, p: V) -> bool {
        for o in underlying_objects(p) {
            let k = obj_kind(o);
            if k == ObjKind::Local || (k == ObjKind::Unknown && !self.unknown_stable(o)) {
                return false;
            }
            if self.overwritten_params.contains(&o)
                || (k == ObjKind::Global && self.globals_overwritten && !is_constant_global(o))
            {
                return false;
            }
            if self.own.may_write(o) {
                return false;
            }
        }
        true
    }

    /// Whether memory of unknown origin `o` (a pointer loaded from memory)
    /// outlives the function and its caller leaves it alone until the
    /// reverse sweep.
    fn unknown_stable(&self, o: V) -> bool {
        !self.others_unstable && !is_constant(o)
    }
}

/// Whether `f` has a local object (alloca or heap block) whose address may
/// be captured: a pointer loaded from memory may then point into it.
fn has_captured_local(f: V) -> bool {
    blocks(f).into_iter().any(|bb| {
        instructions(bb)
            .into_iter()
            // (`free` is an allocation call too, but makes no object.)
            .any(|i| is_ptr(type_of(i)) && obj_kind(i) == ObjKind::Local && !is_uncaptured(i))
    })
}

/// For each call of `f` (a fresh clone, before any derivative code): what
/// `f` may write after the call returns — later in its block, in blocks
/// reachable from it, and the whole block again when it is in a cycle.
pub struct LaterWrites(std::collections::HashMap<V, WriteSet>, bool);

impl LaterWrites {
    /// Linear in the function (for few written objects): one backward
    /// pass per block, and the blocks after each block summarized once
    /// over the condensation of the CFG (sinks first), not by a search
    /// from every block.
    pub fn of(f: V) -> LaterWrites {
        Self::of_matching(f, is_call)
    }

    /// Whether memory reached through `p` may be written after
    /// instruction `i` (one `of_matching` chose) by the function.
    pub fn may_write_after(&self, i: V, p: V) -> bool {
        let Some(w) = self.0.get(&i) else { return true };
        w.anything
            && !underlying_objects(p)
                .iter()
                .all(|o| obj_kind(*o) == ObjKind::FrameSlot)
            || underlying_objects(p).into_iter().any(|o| w.may_write(o))
    }

    /// Like `of`, for the instructions `pick` chooses.
    pub fn of_matching(f: V, pick: fn(V) -> bool) -> LaterWrites {
        Self::of_matching_keeping(f, pick, |_| false)
    }

    /// Like `of`, where the frees `kept` names do not count: the
    /// augmented sweep defers them to the reverse sweep (after the
    /// reverse of every call before them), so the memory they free is
    /// still there, unchanged by them, when those calls' reverse sweeps
    /// run.
    pub fn of_keeping(f: V, kept: impl Fn(V) -> bool) -> LaterWrites {
        Self::of_matching_keeping(f, is_call, kept)
    }

    fn of_matching_keeping(f: V, pick: fn(V) -> bool, kept: impl Fn(V) -> bool) -> LaterWrites {
        use std::collections::HashMap;
        let bbs = blocks(f);
        let index: HashMap<BB, usize> = bbs.iter().enumerate().map(|(k, b)| (*b, k)).collect();
        let succ: Vec<Vec<usize>> = bbs
            .iter()
            .map(|b| {
                successors(*b)
                    .into_iter()
                    .filter_map(|s| index.get(&s).copied())
                    .collect()
            })
            .collect();
        // Per block: the calls with what the block writes after each, and
        // everything the block writes.
        let mut own = Vec::with_capacity(bbs.len());
        let mut calls_after: Vec<Vec<(V, WriteSet)>> = Vec::with_capacity(bbs.len());
        for bb in &bbs {
            let mut suffix = WriteSet::default();
            let mut calls = Vec::new();
            for i in instructions(*bb).into_iter().rev() {
                if pick(i) {
                    calls.push((i, suffix.clone()));
                }
                if !kept(i) {
                    suffix.add(i);
                }
            }
            own.push(suffix);
            calls_after.push(calls);
        }
        let (after, comp_of) = Self::after_blocks(&succ, &own);
        let mut out = HashMap::new();
        for (k, calls) in calls_after.into_iter().enumerate() {
            for (c, mut w) in calls {
                w.union(&after[comp_of[k]]);
                out.insert(c, w);
            }
        }
        LaterWrites(out, has_captured_local(f))
    }

    /// For each block: what the blocks reachable from it by at least one
    /// edge write (its own writes too when it is in a cycle).
    /// Returned per SCC, with each block's SCC.
    fn after_blocks(succ: &[Vec<usize>], own: &[WriteSet]) -> (Vec<WriteSet>, Vec<usize>) {
        let comps = crate::analysis::scc::sccs(succ);
        let mut comp_of = vec![0usize; succ.len()];
        for (k, c) in comps.iter().enumerate() {
            for &b in c {
                comp_of[b] = k;
            }
        }
        // Per SCC: its own writes, and everything after it (sinks first,
        // so each successor SCC is done before its predecessors).
        let mut writes: Vec<WriteSet> = Vec::with_capacity(comps.len());
        let mut after: Vec<WriteSet> = Vec::with_capacity(comps.len());
        for (k, c) in comps.iter().enumerate() {
            let mut w = WriteSet::default();
            for &b in c {
                w.union(&own[b]);
            }
            let cyclic = c.len() > 1 || succ[c[0]].contains(&c[0]);
            let mut a = if cyclic {
                w.clone()
            } else {
                WriteSet::default()
            };
            let mut done: Vec<usize> = Vec::new();
            for &b in c {
                for &s in &succ[b] {
                    let j = comp_of[s];
                    if j != k && !done.contains(&j) {
                        done.push(j);
                        a.union(&writes[j]);
                        a.union(&after[j]);
                    }
                }
            }
            writes.push(w);
            after.push(a);
        }
        (after, comp_of)
    }

    /// For a call's pointer arguments: whether the memory each reaches may
    /// be overwritten after the call, before the callee's reverse sweep
    /// (written later by this function, or overwritten by this function's
    /// own caller: `inherited` says that of an object of this function);
    /// and whether non-constant globals may be.
    pub fn for_call(
        &self,
        call: V,
        args: &[V],
        inherited: impl Fn(V) -> bool,
        globals_inherited: bool,
    ) -> (Vec<bool>, bool) {
        let empty = WriteSet::default();
        let w = self.0.get(&call).unwrap_or(&empty);
        let flags = args
            .iter()
            .map(|a| {
                is_ptr(type_of(*a))
                    && underlying_objects(*a).into_iter().any(|o| {
                        // This function's stack dies when its augmented
                        // sweep returns, before the callee's reverse sweep.
                        opcode(o) == Some(LLVMOpcode::LLVMAlloca)
                            || inherited(o)
                            || (obj_kind(o) == ObjKind::Global
                                && globals_inherited
                                && !is_constant_global(o))
                            || w.may_write(o)
                    })
            })
            .collect();
        let globals = globals_inherited
            || w.anything
            || w.objs
                .iter()
                .any(|o| obj_kind(*o) == ObjKind::Global && !is_constant_global(*o));
        (flags, globals)
    }

    /// For a call: whether memory the callee reaches through pointers it
    /// loads may be overwritten (or die) before its reverse sweep: when
    /// `inherited` (this function's own caller may), when this function
    /// has a captured local (a stack slot dies with the augmented sweep;
    /// a captured heap block may be reached), or when it writes after the
    /// call anything but its uncaptured locals.
    pub fn others_after(&self, call: V, inherited: bool) -> bool {
        let Some(w) = self.0.get(&call) else {
            return true;
        };
        inherited
            || self.1
            || w.anything
            || w.reach
            || w.objs
                .iter()
                .any(|o| !is_constant_global(*o) && !w.uncaptured.contains(o))
    }
}

fn is_constant_global(o: V) -> bool {
    is_global_var(o) && is_global_constant(o)
}

/// A function that only reads memory (by its memory attribute).
pub(crate) fn fn_only_reads(f: V) -> bool {
    // LLVM 16 spells this memory(read) / memory(none); the C API reports the
    // old readonly/readnone kinds on call sites only, so check by name.
    fn_has_attr(f, "readonly") || fn_has_attr(f, "readnone") || {
        if enum_attr_kind("memory") == 0 {
            return false;
        }
        // MemoryEffects encoding: 2 bits per location (arg, inaccessible,
        // other); bit 1 of each pair is "write".
        match fn_attr_value(f, "memory") {
            None => false,
            Some(v) => v & 0b101010 == 0,
        }
    }
}

/// Instructions the reverse sweep may clone to recompute a value: no side
/// effects, no floating-point work (that is cheaper to read from the tape).
pub fn is_cheap_pure(i: V) -> bool {
    use LLVMOpcode::*;
    match opcode(i) {
        Some(
            LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMZExt | LLVMSExt | LLVMTrunc
            | LLVMPtrToInt | LLVMIntToPtr | LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr
            | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMICmp | LLVMFreeze,
        ) => true,
        Some(LLVMSelect) => !is_fp(type_of(i)),
        Some(LLVMExtractValue) => !is_fp(type_of(i)),
        // Division by a constant that cannot trap (loop trip counts with
        // a stride other than one).
        Some(LLVMUDiv | LLVMURem) => const_int_value(operand(i, 1)).is_some_and(|c| c != 0),
        Some(LLVMSDiv | LLVMSRem) => {
            const_int_value(operand(i, 1)).is_some_and(|c| c != 0 && c != -1)
        }
        // Integer min/max (trip counts again).
        Some(LLVMCall) => called_function(i).is_some_and(|f| {
            let n = name(f);
            ["llvm.umax.", "llvm.umin.", "llvm.smax.", "llvm.smin."]
                .iter()
                .any(|p| n.starts_with(p))
        }),
        _ => false,
    }
}
