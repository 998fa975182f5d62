//! Counted loops in the reverse sweep: the loops containing a block, the
//! values a loop's reverse reads per iteration, and what each reverse edge
//! entering a loop sets (its counter and the invariants its body reads).
use super::RevGen;
use crate::diag::Result;
use crate::ir::llvm::*;

impl RevGen<'_> {
    /// Headers of the counted loops containing `bb`, innermost first.
    pub(super) fn counted_loops_of(&self, bb: BB) -> Vec<BB> {
        let mut out = Vec::new();
        let mut h = self.a.loops.header(bb);
        while let Some(x) = h {
            if self.a.counted.contains_key(&x) {
                out.push(x);
            }
            h = self.a.loops.parent_header(x);
        }
        out
    }

    /// Values the reverse of a counted loop knows without the tape: its
    /// iteration counter, affine induction variables of it, and values
    /// defined outside it (set once when the reverse enters the loop).
    pub(super) fn loop_value(&mut self, w: V) -> Result<Option<V>> {
        if !is_instruction(w) || self.cur.is_null() {
            return Ok(None);
        }
        let loops = self.counted_loops_of(self.cur);
        if loops.is_empty() {
            return Ok(None);
        }
        let def = inst_block(w);
        let ctx = self.b.ctx;
        for &h in &loops {
            let c = self.a.counted[&h];
            if w == c.counter {
                let slot = self.rc_slot(h);
                return Ok(Some(self.b.load(i64_type(ctx), slot)));
            }
            if def == h && opcode(w) == Some(LLVMOpcode::LLVMPHI) && is_int(type_of(w)) {
                if let Some((start, step)) = affine_iv(w, c) {
                    let slot = self.rc_slot(h);
                    let rc = self.b.load(i64_type(ctx), slot);
                    let st = self.avail(start)?;
                    let rc = self.b.int_cast(rc, type_of(w), false);
                    let v = self.b.add(st, self.b.mul(rc, step));
                    return Ok(Some(v));
                }
            }
            if def == h {
                if let Some(v) = self.replay_recurrence(w, h)? {
                    return Ok(Some(v));
                }
            }
        }
        // Outermost counted loop containing the current block but not w.
        let outer = loops
            .iter()
            .rev()
            .find(|h| !self.a.loops.contains(**h, def))
            .copied();
        if let Some(h) = outer {
            let key = (h, w);
            let slot = match self.hoisted.get(&key) {
                Some(s) => *s,
                None => {
                    let s = self.entry_alloca(type_of(w), &format!("{}.hoist", name(w)));
                    self.hoisted.insert(key, s);
                    self.hoisted_order.push(key);
                    s
                }
            };
            return Ok(Some(self.b.load(type_of(w), slot)));
        }
        Ok(None)
    }

    /// The reverse edge from block `x` to its predecessor `pred` enters the
    /// reverse of every counted loop containing `pred` but not `x`: record
    /// the edge block (the current insertion block) for those loops.
    pub(super) fn edge_block_if_entering(&mut self, x: BB, pred: BB) {
        let eb = self.b.block();
        for h in self.counted_loops_of(pred) {
            if !self.a.loops.contains(h, x) {
                self.entries.push((eb, x, h));
            }
        }
    }

    /// On each reverse edge entering a loop, set its counter and the
    /// invariant values its reverse reads (which may ask for more, in outer
    /// loops: iterate until nothing new is asked).
    pub(super) fn fill_loop_entries(&mut self) -> Result<()> {
        let mut done: std::collections::HashSet<(BB, V)> = Default::default();
        let mut counters_done: std::collections::HashSet<(BB, BB)> = Default::default();
        loop {
            let mut work = false;
            for (eb, x, h) in self.entries.clone() {
                let t = terminator(eb);
                let mut todo: Vec<(V, V)> = Vec::new();
                if counters_done.insert((eb, h)) {
                    let c = self.a.counted[&h];
                    let c = c.trip.unwrap_or(c.counter);
                    let slot = self.rc_slot(h);
                    todo.push((c, slot));
                }
                for (hh, w) in self.hoisted_order.clone() {
                    if hh == h && done.insert((eb, w)) {
                        todo.push((w, self.hoisted[&(hh, w)]));
                    }
                }
                if todo.is_empty() {
                    continue;
                }
                work = true;
                for (w, slot) in todo {
                    self.b.before(t);
                    self.cur = x;
                    self.in_edge = true;
                    let v = self.avail(w)?;
                    self.in_edge = false;
                    self.b.store(v, slot);
                }
            }
            if !work {
                break;
            }
        }
        Ok(())
    }
}

/// `phi [start, preheader], [phi + step, latch]` with a constant step.
pub(super) fn affine_iv(phi: V, c: crate::modes::reverse::aug::Counted) -> Option<(V, V)> {
    let (mut start, mut next) = (None, None);
    for (v, b) in incoming(phi) {
        if b == c.preheader {
            start = Some(v);
        } else if b == c.latch {
            next = Some(v);
        }
    }
    let (start, next) = (start?, next?);
    if !matches!(opcode(next), Some(LLVMOpcode::LLVMAdd)) {
        return None;
    }
    let (a, b) = (operand(next, 0), operand(next, 1));
    let step = if a == phi && const_int_value(b).is_some() {
        b
    } else if b == phi && const_int_value(a).is_some() {
        a
    } else {
        return None;
    };
    Some((start, step))
}
