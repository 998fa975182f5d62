//! Which predecessor of a join was taken, recomputed from branch
//! conditions instead of recorded.
//!
//! The reverse sweep of a join `m` with several predecessors needs the
//! predecessor control came from. `branch_pred_index` covers a join of one
//! two-way branch. This covers a join below a small tree of branches: from
//! `d`, m's immediate dominator, every path to `m` is decided by branch
//! conditions whose operands are already computed at `d`'s terminator (an
//! argument, a constant, a value defined at or above `d`, or an `icmp` /
//! `fcmp` of such values, copied into `d`), and by loops entered on the
//! way that have a single exit edge. The index is then a tree of `select`s
//! at the end of `d`, which the reverse sweep recomputes from those values
//! instead of reading a tag from the tape: the early return of a recursive
//! function (`if (m == 1) { ...; return; } ...; for (...) ...`) costs no
//! tape at all.
//!
//! Exact: the conditions are pure functions of values that do not change
//! between `d` and `m`, and every path from `d` to `m` passes at most one
//! branch of each block it walks (paths are acyclic at `d`'s loop level;
//! a loop entered on the way leaves by its only exit edge), and `m` runs
//! once per run of `d`: no cycle through `m` avoids `d` (an irreducible
//! `goto` loop entered in the middle is left to the taped index).
use crate::ir::llvm::*;
use crate::ir::{shim, Builder};
use std::collections::{HashMap, HashSet};

/// At most this many branch conditions in one index.
const MAX_CONDS: usize = 8;
/// At most this many blocks walked for one join.
const MAX_STEPS: usize = 64;
/// At most this many blocks searched for a cycle through the join.
const MAX_SEARCH: usize = 4096;

/// The predecessor index of a join as a function of branch conditions.
#[derive(Clone, PartialEq)]
pub(super) enum Route {
    /// Control does not reach the join this way (a return, `unreachable`).
    Any,
    /// The `k`th predecessor.
    Pred(usize),
    /// `cond ? t : f`.
    Sel(V, Box<Route>, Box<Route>),
}

struct Walk<'a> {
    loops: &'a shim::Loops,
    succs: &'a HashMap<BB, Vec<BB>>,
    m: BB,
    d: BB,
    preds: &'a [BB],
    term_d: V,
    path: HashSet<BB>,
    conds: usize,
    steps: usize,
}

/// Successors of every block of `order`, as the CFG is before the
/// augmented sweep edits it.
pub(super) fn successor_map(order: &[BB]) -> HashMap<BB, Vec<BB>> {
    order.iter().map(|b| (*b, successors(*b))).collect()
}

/// The route to join `m` (its predecessors `preds`), if every path from
/// its immediate dominator is decided by conditions available there.
pub(super) fn route(
    loops: &shim::Loops,
    succs: &HashMap<BB, Vec<BB>>,
    m: BB,
    preds: &[BB],
) -> Option<(BB, Route)> {
    if preds.len() < 2 || loops.header(m) == Some(m) {
        return None;
    }
    let d = loops.idom(m)?;
    let mut w = Walk {
        loops,
        succs,
        m,
        d,
        preds,
        term_d: terminator(d),
        path: HashSet::new(),
        conds: 0,
        steps: 0,
    };
    let r = w.block(d)?;
    if r == Route::Any || cycles_without(succs, m, d) {
        return None;
    }
    Some((d, r))
}

/// Whether `m` can reach itself without passing `d` (an irreducible cycle,
/// which LoopInfo does not see as a loop): then `m` may run several times
/// per run of `d`, and the index chosen at `d` would hold only for the
/// first. Also true when the search gives up.
fn cycles_without(succs: &HashMap<BB, Vec<BB>>, m: BB, d: BB) -> bool {
    let mut seen = HashSet::new();
    let mut stack: Vec<BB> = succs.get(&m).cloned().unwrap_or_default();
    while let Some(b) = stack.pop() {
        if b == m {
            return true;
        }
        if b == d || !seen.insert(b) {
            continue;
        }
        if seen.len() > MAX_SEARCH {
            return true;
        }
        if let Some(s) = succs.get(&b) {
            stack.extend(s.iter().copied());
        }
    }
    false
}

impl Walk<'_> {
    fn block(&mut self, b: BB) -> Option<Route> {
        self.steps += 1;
        if self.steps > MAX_STEPS || !self.path.insert(b) {
            return None;
        }
        let r = self.block_inner(b);
        self.path.remove(&b);
        r
    }

    fn block_inner(&mut self, b: BB) -> Option<Route> {
        let t = terminator(b);
        let succ = self.succs.get(&b)?.clone();
        match opcode(t)? {
            LLVMOpcode::LLVMRet | LLVMOpcode::LLVMUnreachable => Some(Route::Any),
            LLVMOpcode::LLVMBr if succ.len() == 1 => self.edge(b, succ[0]),
            LLVMOpcode::LLVMBr if succ.len() == 2 => {
                if succ[0] == succ[1] {
                    return self.edge(b, succ[0]);
                }
                let c = operand(t, 0);
                if !self.hoistable(c) {
                    return None;
                }
                self.conds += 1;
                if self.conds > MAX_CONDS {
                    return None;
                }
                let on_t = self.edge(b, succ[0])?;
                let on_f = self.edge(b, succ[1])?;
                Some(sel(c, on_t, on_f))
            }
            _ => None,
        }
    }

    fn edge(&mut self, p: BB, s: BB) -> Option<Route> {
        if s == self.m {
            return self.preds.iter().position(|q| *q == p).map(Route::Pred);
        }
        if !self.loops.block_dominates(self.d, s) {
            return None;
        }
        let dl = self.loops.header(self.d);
        if dl == Some(s) {
            return None; // back to the top of d's loop
        }
        if self.loops.header(s) == Some(s) {
            // Entering a loop: it must leave by one edge.
            if self.loops.contains(s, self.m) {
                return None;
            }
            let mut exits = Vec::new();
            for (x, xs) in self.succs.iter() {
                if !self.loops.contains(s, *x) {
                    continue;
                }
                for e in xs {
                    if !self.loops.contains(s, *e) && !exits.contains(&(*x, *e)) {
                        exits.push((*x, *e));
                    }
                }
            }
            if exits.len() != 1 {
                return None;
            }
            let (x, e) = exits[0];
            self.steps += 1;
            return self.edge(x, e);
        }
        if self.loops.header(s) != dl {
            return None;
        }
        self.block(s)
    }

    /// Whether `c` can be computed at the end of `d` with the value it has
    /// at its branch.
    fn hoistable(&self, c: V) -> bool {
        if self.available(c) {
            return true;
        }
        matches!(
            opcode(c),
            Some(LLVMOpcode::LLVMICmp) | Some(LLVMOpcode::LLVMFCmp)
        ) && operands(c).iter().all(|o| self.available(*o))
    }

    fn available(&self, v: V) -> bool {
        is_constant(v)
            || is_argument(v)
            || (is_instruction(v) && self.loops.dominates(v, self.term_d))
    }
}

fn sel(c: V, t: Route, f: Route) -> Route {
    match (t, f) {
        (Route::Any, x) | (x, Route::Any) => x,
        (x, y) if x == y => x,
        (x, y) => Route::Sel(c, Box::new(x), Box::new(y)),
    }
}

/// Emit `r` as selects of type `it` before `d`'s terminator, copying a
/// comparison whose own value is not available there.
pub(super) fn emit(b: &Builder, loops: &shim::Loops, d: BB, r: &Route, it: T) -> V {
    let term = terminator(d);
    b.before(term);
    b.clear_debug_loc();
    let mut copies = HashMap::new();
    emit_rec(b, loops, term, r, it, &mut copies)
}

fn emit_rec(
    b: &Builder,
    loops: &shim::Loops,
    term: V,
    r: &Route,
    it: T,
    copies: &mut HashMap<V, V>,
) -> V {
    match r {
        Route::Any => const_int(it, 0),
        Route::Pred(k) => const_int(it, *k as u64),
        Route::Sel(c, t, f) => {
            let cv = if is_constant(*c)
                || is_argument(*c)
                || (is_instruction(*c) && loops.dominates(*c, term))
            {
                *c
            } else {
                *copies.entry(*c).or_insert_with(|| {
                    let k = b.insert_clone(*c);
                    set_name(k, "pred.cond");
                    k
                })
            };
            let tv = emit_rec(b, loops, term, t, it, copies);
            let fv = emit_rec(b, loops, term, f, it, copies);
            let s = b.select(cv, tv, fv);
            set_name(s, "pred.index");
            s
        }
    }
}
