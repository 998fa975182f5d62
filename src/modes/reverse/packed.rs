//! Narrow tape slots packed across loop iterations. A block's pushes take
//! the bytes they need (an `i1` decision: 1 byte) but each push is rounded
//! to 8 bytes so that every block starts 8-aligned: a loop whose only taped
//! value is a branch decision would spend 8 bytes per iteration on it.
//! When such a block is the only thing in its loop that touches the tape,
//! runs once on every iteration, and its values fit in `w` < 8 bytes (1,
//! 2 or 4), `8 / w` iterations share one 8-byte group: iteration `c` of
//! the loop writes its values at byte `(c mod 8/w) * w` of the group, and
//! only the group's first iteration reserves the 8 bytes (the others
//! reserve 0 and step back into the group). The reverse sweep counts the
//! same iterations down, so it finds each iteration's bytes at the same
//! place and pops the group with its first iteration; a loop left in the
//! middle of a group leaves the group's top where its reserve put it.
use super::aug::Aug;
use crate::ir::llvm::*;
use crate::ir::Builder;
use std::collections::HashMap;

/// A packed block: the header of its loop and its bytes per iteration.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    pub header: BB,
    pub width: u64,
}

/// The blocks of `a` whose pushes pack (see the module comment). Decided
/// from the layouts and the calls of the augmented function, before any
/// block's reserve is emitted.
pub fn plan(a: &Aug) -> HashMap<BB, Group> {
    let mut out = HashMap::new();
    if crate::ir::gpu::device_of(module_of(a.func)).is_some() {
        return out;
    }
    for (&bb, l) in &a.layouts {
        let width = l.used.next_power_of_two();
        if l.total == 0 || width >= 8 {
            continue;
        }
        let Some(h) = a.loops.header(bb) else {
            continue;
        };
        let Some(c) = a.counted.get(&h) else {
            continue;
        };
        // Once per iteration, in the loop itself (not an inner loop).
        if !a.loops.block_dominates(bb, c.latch) {
            continue;
        }
        if loop_blocks(a, h).any(|x| (x != bb && pushes(a, x)) || touches_tape(a, x)) {
            continue;
        }
        out.insert(bb, Group { header: h, width });
    }
    out
}

fn loop_blocks(a: &Aug, h: BB) -> impl Iterator<Item = BB> + '_ {
    blocks(a.func)
        .into_iter()
        .filter(move |x| a.loops.contains(h, *x))
}

fn pushes(a: &Aug, bb: BB) -> bool {
    a.layouts.get(&bb).is_some_and(|l| l.total > 0)
}

/// A call in `bb` given the tape (a callee's augmented sweep, a custom
/// gradient's tape) pushes onto it too.
fn touches_tape(a: &Aug, bb: BB) -> bool {
    instructions(bb)
        .into_iter()
        .any(|i| is_call_or_invoke(i) && operands(i).contains(&a.tape_arg))
}

/// At the builder's position, for the iteration counter `iter` (i64) of
/// the group's loop: the bytes to reserve or pop (8 on a group's first
/// iteration, else 0) and the step from the address the reserve/pop
/// returns to this iteration's bytes.
pub fn step(b: &Builder, iter: V, g: Group) -> (V, V) {
    let ctx = b.ctx;
    let per = 8 / g.width;
    let r = b.and(iter, const_i64(ctx, per as i64 - 1));
    let first = b.icmp(LLVMIntPredicate::LLVMIntEQ, r, const_i64(ctx, 0));
    let n = b.select(first, const_i64(ctx, 8), const_i64(ctx, 0));
    let at = b.mul(r, const_i64(ctx, g.width as i64));
    let back = b.select(first, const_i64(ctx, 0), const_i64(ctx, 8));
    (n, b.sub(at, back))
}

/// Bytes block `bb` takes on the tape per execution: its width when
/// packed, else its layout's total.
pub fn bytes(a: &Aug, bb: BB) -> u64 {
    match a.packed.get(&bb) {
        Some(g) => g.width,
        None => a.layouts.get(&bb).map_or(0, |l| l.total),
    }
}

/// The alignment of a value at `off` within a packed block's bytes.
pub fn align(g: Group, off: u64) -> u32 {
    super::tape::offset_align(off).min(g.width as u32)
}
