//! Facts about pointer parameters that a call site can prove and the
//! derivative's memory analysis (`memory.rs`) uses:
//!
//! - **distinct**: memory reached through the parameter is reached through
//!   nothing else the callee sees (no other parameter, no global, no
//!   pointer loaded from memory). Proved at a call site when the argument
//!   is a fresh allocation of the caller that nothing captures (or a
//!   parameter distinct in the caller's own key) and no other pointer
//!   argument may point into it. Part of the derivative's cache key
//!   ([`super::Key::distinct`]); `aug` marks such parameters (and their
//!   shadows) [`DISTINCT`], which `memory::obj_kind` reads like `noalias`. A twiddle table beside an output buffer is then known not
//!   to be written, and the reverse sweep reads it again instead of taping
//!   every load (fft).
//! - **only read / not captured**: what a defined function does with a
//!   parameter, found by walking its uses (a recursive call passing the
//!   parameter on in the same position is assumed to do the same). `aug`
//!   marks the parameters of the augmented function [`READ_ONLY`] and
//!   [`NO_CAPTURE`] likewise.
//!
//! The marks are kept here for the session, not as IR attributes: only
//! the memory analysis reads them (LLVM's own `nocapture` would not be
//! true of an augmented sweep, which stores pointers on the tape), and the
//! emitted functions stay as they were.
use super::memory;
use crate::analysis::activity::underlying_objects;
use crate::analysis::ptruse::{self, Flow, Walk};
use crate::ir::globals::call_has_attr_at;
use crate::ir::llvm::*;
use crate::rules::{self, AllocKind, CallKind};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Parameter mark: memory reached through it is reached through nothing
/// else (see the module comment).
pub const DISTINCT: u8 = 1;
/// Parameter mark: the function never writes through it.
pub const READ_ONLY: u8 = 2;
/// Parameter mark: the function keeps no copy of it.
pub const NO_CAPTURE: u8 = 4;

/// How far `param_uses` follows a parameter into callees.
const MAX_DEPTH: usize = 4;

/// Whether parameter `k` of `f` carries mark `a`.
pub fn has(f: V, k: usize, a: u8) -> bool {
    MARKS.with(|m| m.borrow().get(&(f, k)).is_some_and(|x| x & a != 0))
}

/// Set the marks of parameter `k` of `f` (a function made this session:
/// whatever an earlier function at the same address had is replaced).
fn set_marks(f: V, k: usize, a: u8) {
    MARKS.with(|m| m.borrow_mut().insert((f, k), a));
}

/// Whether argument `o` (of its function) is marked [`DISTINCT`].
pub fn is_distinct_param(o: V) -> bool {
    if !is_argument(o) {
        return false;
    }
    let f = param_parent(o);
    params(f)
        .iter()
        .position(|p| *p == o)
        .is_some_and(|k| has(f, k, DISTINCT))
}

/// What a function may do with a parameter.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Uses {
    pub written: bool,
    pub captured: bool,
}

impl Uses {
    const ALL: Uses = Uses {
        written: true,
        captured: true,
    };
    fn or(self, o: Uses) -> Uses {
        Uses {
            written: self.written || o.written,
            captured: self.captured || o.captured,
        }
    }
}

/// What callee `f` may do with its parameter `k`: by the string attributes
/// of a derivative function, by LLVM's attributes of a declaration, and by
/// its uses otherwise.
pub fn param_uses(f: V, k: usize) -> Uses {
    if let Some(u) = MEMO.with(|m| m.borrow().get(&(f, k)).copied()) {
        return u;
    }
    let u = param_uses_in(f, k, &mut ParamWalk::default(), 0);
    MEMO.with(|m| m.borrow_mut().insert((f, k), u));
    u
}

thread_local! {
    /// `param_uses` per (function, parameter), for one session (the
    /// primal functions it looks at do not change during a session).
    static MEMO: RefCell<HashMap<(V, usize), Uses>> = RefCell::new(HashMap::new());
    /// The marks of the session's augmented functions' parameters.
    static MARKS: RefCell<HashMap<(V, usize), u8>> = RefCell::new(HashMap::new());
}

/// One walk of `param_uses_in`: the (function, parameter) pairs on the
/// current path (a cycle through the call graph adds nothing new) and the
/// finished augmented function `mark_finished_aug` walks, whose body is
/// looked at, not only its marks (other `enzyme_rs.` functions are judged
/// by their marks).
#[derive(Default)]
struct ParamWalk {
    visiting: HashSet<(V, usize)>,
    body_of: Option<V>,
}

/// Once augmented function `aug` is complete (its tape pushes placed):
/// mark [`READ_ONLY`] / [`NO_CAPTURE`] the parameters its body never
/// writes through or keeps (the shadow of a parameter the primal only
/// reads, which the forward sweep passes along untouched), as its uses
/// show (a recursive call passing a parameter on in the same position
/// adds nothing). A caller's memory analysis then knows the call does not
/// write the memory the caller's gradient argument points to (and so a
/// table reached through a loaded pointer is read again, not taped).
pub fn mark_finished_aug(aug: V) {
    let n = params(aug).len();
    let uses: Vec<Uses> = (0..n)
        .map(|k| {
            let mut cx = ParamWalk {
                body_of: Some(aug),
                ..ParamWalk::default()
            };
            param_uses_in(aug, k, &mut cx, 0)
        })
        .collect();
    for (k, u) in uses.into_iter().enumerate() {
        let old = MARKS.with(|m| m.borrow().get(&(aug, k)).copied().unwrap_or(0));
        let add =
            (if u.written { 0 } else { READ_ONLY }) | (if u.captured { 0 } else { NO_CAPTURE });
        set_marks(aug, k, old | add);
        MEMO.with(|m| m.borrow_mut().remove(&(aug, k)));
    }
}

/// Forget what `param_uses` found and the marks (a new session: functions
/// may be gone).
pub fn clear_memo() {
    MEMO.with(|m| m.borrow_mut().clear());
    MARKS.with(|m| m.borrow_mut().clear());
}

fn param_uses_in(f: V, k: usize, cx: &mut ParamWalk, depth: usize) -> Uses {
    let attr =
        |a: &str| enum_attr_kind(a) != 0 && crate::ir::globals::param_has_attr(f, k as u32, a);
    let by_attrs = Uses {
        written: !(has(f, k, READ_ONLY) || attr("readonly") || attr("readnone")),
        // `__enzyme_no_escaping_allocation` (or the attribute): nothing
        // given to the function escapes through it.
        captured: !(has(f, k, NO_CAPTURE)
            || attr("nocapture")
            || fn_has_attr(f, "enzyme_no_escaping_allocation")),
    };
    let walking = cx.body_of == Some(f);
    if is_declaration(f) || (name(f).starts_with("enzyme_rs.") && !walking) || depth > MAX_DEPTH {
        return by_attrs;
    }
    let Some(p) = params(f).get(k).copied() else {
        return Uses::ALL;
    };
    if !is_ptr(type_of(p)) {
        return Uses::default();
    }
    // A cycle through the call graph adds nothing new.
    if !cx.visiting.insert((f, k)) {
        return Uses::default();
    }
    let mut out = Uses::default();
    let whole = ptruse::walk([p], |u, v, w| {
        out = out.or(use_of(u, v, w, cx, depth));
        if out == Uses::ALL {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    if !whole {
        return out;
    }
    Uses {
        written: out.written && by_attrs.written,
        captured: out.captured && by_attrs.captured,
    }
}

/// What use `u` of address `v` may do with it (derived addresses are
/// followed on `walk`).
fn use_of(u: V, v: V, walk: &mut Walk, cx: &mut ParamWalk, depth: usize) -> Uses {
    use LLVMOpcode::*;
    let none = Uses::default();
    match opcode(u) {
        _ if ptruse::derives_address(u, v) => {
            walk.follow(u);
            none
        }
        Some(LLVMLoad | LLVMICmp) => none,
        // Kept in a stack slot that is only loaded (-O0's parameter
        // slots): the loaded values are the parameter again.
        Some(LLVMStore) if operand(u, 0) == v && operand(u, 1) != v => {
            match private_slot_loads(operand(u, 1)) {
                Some(loads) => {
                    loads.into_iter().for_each(|l| walk.follow(l));
                    none
                }
                None => Uses::ALL,
            }
        }
        Some(LLVMStore) => Uses {
            captured: operand(u, 0) == v,
            written: true,
        },
        Some(LLVMCall) => call_use(u, v, cx, depth),
        _ => Uses::ALL,
    }
}

/// The loads of `slot` when it is an alloca used only by loads and by
/// stores into it (its address never leaves it).
fn private_slot_loads(slot: V) -> Option<Vec<V>> {
    use LLVMOpcode::*;
    if opcode(slot) != Some(LLVMAlloca) {
        return None;
    }
    let mut loads = Vec::new();
    for u in users(slot) {
        match opcode(u) {
            Some(LLVMLoad) => loads.push(u),
            Some(LLVMStore) if operand(u, 1) == slot && operand(u, 0) != slot => {}
            _ => return None,
        }
    }
    Some(loads)
}

fn call_use(u: V, v: V, cx: &mut ParamWalk, depth: usize) -> Uses {
    if called_value(u) == v {
        return Uses::ALL;
    }
    if ptruse::is_marker_call(u) {
        return Uses::default();
    }
    let callee = called_function(u);
    let args = call_args(u);
    match rules::classify(u) {
        CallKind::MemTransfer(_) => {
            // Read as the source; written as the destination.
            let dest = args.first() == Some(&v);
            let other = args.iter().skip(2).any(|a| *a == v);
            Uses {
                written: dest || other,
                captured: other,
            }
        }
        CallKind::Alloc(AllocKind::Free) => Uses {
            written: true,
            captured: false,
        },
        _ => match callee {
            Some(f) => {
                let mut out = Uses::default();
                for (j, a) in args.iter().enumerate() {
                    if *a == v {
                        let site = |a: &str| {
                            enum_attr_kind(a) != 0 && call_has_attr_at(u, j as u32 + 1, a)
                        };
                        let by_site = Uses {
                            written: !site("readonly"),
                            captured: !site("nocapture"),
                        };
                        let by_callee = param_uses_in(f, j, cx, depth + 1);
                        out = out.or(Uses {
                            written: by_site.written && by_callee.written,
                            captured: by_site.captured && by_callee.captured,
                        });
                    }
                }
                out
            }
            None => Uses::ALL,
        },
    }
}

/// Per argument of a call: whether the pointer's memory
/// is distinct from everything else the callee sees (see the module
/// comment).
pub fn distinct_args(args: &[V]) -> Vec<bool> {
    let objs: Vec<Vec<V>> = args
        .iter()
        .map(|a| {
            if is_ptr(type_of(*a)) && !is_constant(*a) {
                underlying_objects(*a)
            } else {
                Vec::new()
            }
        })
        .collect();
    (0..args.len())
        .map(|k| {
            !objs[k].is_empty()
                && objs[k].iter().all(|o| fresh_or_distinct(*o))
                && objs.iter().enumerate().all(|(j, oj)| {
                    j == k
                        || oj
                            .iter()
                            .all(|b| objs[k].iter().all(|a| !memory::may_alias_objects(*a, *b)))
                })
        })
        .collect()
}

/// An object only one pointer can reach: a parameter distinct in this
/// function's key, or an allocation (stack or heap) of this function whose
/// address nothing keeps (it is passed only to callees that keep no copy).
fn fresh_or_distinct(o: V) -> bool {
    if is_argument(o) {
        return is_distinct_param(o);
    }
    memory::is_uncaptured(o)
}

/// Mark the parameters of `aug` (primal parameters, each followed by its
/// shadows, then the tape): distinct ones (and their shadows, which are
/// fresh shadow allocations or distinct shadow parameters in turn)
/// [`DISTINCT`]; primal ones that `f` never writes or captures
/// [`READ_ONLY`] / [`NO_CAPTURE`]; the tape [`DISTINCT`].
pub fn mark_aug_params(aug: V, f: V, distinct: &[bool], dup: &[bool], lanes: usize) {
    let mut marks = vec![0u8; params(aug).len()];
    let mut j = 0;
    for k in 0..params(f).len() {
        let u = param_uses(f, k);
        let n = 1 + if dup.get(k).copied().unwrap_or(false) {
            lanes
        } else {
            0
        };
        for l in 0..n {
            if distinct.get(k).copied().unwrap_or(false) && j + l < marks.len() {
                marks[j + l] |= DISTINCT;
            }
        }
        if j < marks.len() {
            marks[j] |=
                (if u.written { 0 } else { READ_ONLY }) | (if u.captured { 0 } else { NO_CAPTURE });
        }
        j += n;
    }
    if j < marks.len() {
        marks[j] |= DISTINCT;
    }
    for (k, m) in marks.into_iter().enumerate() {
        set_marks(aug, k, m);
    }
}
