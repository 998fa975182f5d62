//! Counted loops in the reverse sweep: the loops containing a block, the
//! values a loop's reverse reads per iteration, what each reverse edge
//! entering a loop sets (its counter and the invariants its body reads),
//! and the one landing block of the reverse of a loop with several exits.
//!
//! The reverse of a counted loop is entered from the reverse of each of its
//! exits, at the reverse of the exiting block, and runs back through the
//! body to the reverse of the header, which goes on at the reverse of the
//! latch (one iteration back) or leaves. With exits from more than one
//! block (`while (j >= 0 && s[j] > key)`), branching straight to each
//! exiting block's reverse gives the reverse cycle several entries: it is
//! irreducible, and LLVM's loop passes (indvars, loop deletion) do not see
//! it as a loop. Such a loop's reverse gets a landing block instead: every
//! entering edge stores which block to start at into a slot and branches to
//! the landing; the reverse of the header's step back does the same with
//! the latch; the landing switches on the slot. The landing is then the
//! reverse loop's only entry, its header. `ENZYME_RS_ONE_LOOP_ENTRY=0`
//! branches the edges to the blocks directly.
use super::RevGen;
use crate::diag::Result;
use crate::ir::builder::add_case;
use crate::ir::llvm::*;
use std::collections::HashSet;

/// The landing block of the reverse of a counted loop with several exits:
/// the slot saying where to start, and the reverse blocks it may start at
/// (the index in `targets` is the value stored).
pub(super) struct Landing {
    block: BB,
    slot: V,
    targets: Vec<BB>,
}

/// Where an edge into loop `h` starts in `h`'s own body: the block itself,
/// or the counted loop directly inside `h` that contains it.
fn start_in(g: &RevGen, h: BB, b: BB) -> BB {
    let inner = g.counted_loops_of(b);
    let pos = inner.iter().position(|x| *x == h);
    match pos {
        Some(k) if k > 0 => inner[k - 1],
        _ => b,
    }
}

/// The counted loops (headers) whose reverse needs a landing block: those
/// whose exiting blocks and latch do not all start the reverse iteration at
/// one place.
pub(super) fn several_entry_loops(g: &RevGen, order: &[BB]) -> HashSet<BB> {
    let mut out = HashSet::new();
    if !crate::options::switches::one_loop_entry() {
        return out;
    }
    for &h in order.iter().filter(|h| g.a.counted.contains_key(*h)) {
        let latch = g.a.counted[&h].latch;
        let first = start_in(g, h, latch);
        let several = order.iter().any(|&b| {
            g.a.loops.contains(h, b)
                && successors(b).into_iter().any(|s| !g.a.loops.contains(h, s))
                && start_in(g, h, b) != first
        });
        if several {
            log::debug!(
                "enzyme-rs: reverse of loop {} in {} entered through a landing block",
                super::name_of_block(h),
                name(g.a.func)
            );
            out.insert(h);
        }
    }
    out
}

impl RevGen<'_> {
    /// Whether the iterations of the reverse of counted loop `h` commute:
    /// its blocks (those of loops inside it too) write no memory (no
    /// store, no call but those touching none), so its reverse only adds
    /// into shadows and carries nothing through memory from one iteration
    /// to the next. The reverse loop is then marked for running in the
    /// primal's order (cpp/revorder.cc checks the cleaned-up loop again
    /// before it does).
    pub(super) fn commuting(&self, h: BB) -> bool {
        // (At -O0 nothing would read the mark.)
        if !crate::options::switches::forward_reverse_loops()
            || self.sess.opts.opt_level == 0
            || self.sess.opts.no_cleanup
        {
            return false;
        }
        blocks(self.a.func)
            .into_iter()
            .filter(|b| self.a.loops.contains(h, *b))
            .all(|b| {
                instructions(b)
                    .into_iter()
                    .all(|i| !crate::modes::reverse::pickrec::may_write(i))
            })
    }

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

    /// The block the reverse edge from block `x` (or, with `back`, the
    /// reverse of loop `back`'s header stepping back) to its predecessor
    /// `pred` branches to: `pred`'s prologue, or the landing block of the
    /// outermost loop entered that has one (the slots of the landings
    /// between are set here, in the current block).
    pub(super) fn enter_target(&mut self, x: BB, pred: BB, back: Option<BB>) -> BB {
        let mut target = self.prologue[&pred].0;
        if self.landing_loops.is_empty() {
            return target;
        }
        let mut loops: Vec<BB> = self
            .counted_loops_of(pred)
            .into_iter()
            .filter(|h| !self.a.loops.contains(*h, x))
            .collect();
        loops.extend(back);
        for h in loops {
            if !self.landing_loops.contains(&h) {
                continue;
            }
            if !self.landings.contains_key(&h) {
                let block = append_block(
                    self.rev,
                    &format!("rev.loop.land.{}", super::name_of_block(h)),
                );
                let slot = self.entry_alloca(i32_type(self.b.ctx), "rev.start");
                let l = Landing {
                    block,
                    slot,
                    targets: Vec::new(),
                };
                self.landings.insert(h, l);
                self.landing_order.push(h);
            }
            let l = self.landings.get_mut(&h).unwrap();
            let k = match l.targets.iter().position(|t| *t == target) {
                Some(k) => k,
                None => {
                    l.targets.push(target);
                    l.targets.len() - 1
                }
            };
            let slot = l.slot;
            target = l.block;
            self.b.store(const_i32(self.b.ctx, k as i64), slot);
        }
        target
    }

    /// Each landing block: read where to start, go there.
    pub(super) fn finish_landings(&mut self) {
        let ctx = self.b.ctx;
        for h in self.landing_order.clone() {
            let l = &self.landings[&h];
            self.b.at_end(l.block);
            self.b.clear_debug_loc();
            let k = self.b.load(i32_type(ctx), l.slot);
            if l.targets.len() == 1 {
                self.b.br(l.targets[0]);
                continue;
            }
            let sw = self.b.switch(k, l.targets[0], l.targets.len() as u32 - 1);
            for (i, t) in l.targets.iter().enumerate().skip(1) {
                add_case(sw, const_i32(ctx, i as i64), *t);
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
