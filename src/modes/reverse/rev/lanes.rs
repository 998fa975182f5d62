//! The reverse sweep per vector lane: one reverse function per lane over
//! the one augmented sweep, sharing its tape layout.
use super::build_lane;
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::modes::reverse::aug::Aug;
use crate::modes::reverse::{Key, Pair};
use crate::modes::Session;

/// Build the reverse function of vector lane `lane` (0 outside vector
/// mode) over the augmented sweep `a`. Lanes share `a`'s pushes: a value
/// an earlier lane had taped is read at the same offset; the pops' sizes
/// are set once every lane is built ([`finish_pops`]).
pub fn build(sess: &mut Session, key: &Key, pair: &Pair, a: &mut Aug, lane: usize) -> Result<()> {
    a.set_lane(lane);
    let r = build_lane(sess, key, pair, a, lane);
    a.set_lane(0);
    r
}

/// Each block's pop in every lane's reverse function takes the bytes the
/// block pushes (what all lanes asked for); a block pushing nothing pops
/// nothing.
pub fn finish_pops(a: &mut Aug) {
    a.packed = crate::modes::reverse::packed::plan(a);
    let packed = a.packed.clone();
    for (bb, base, iter) in std::mem::take(&mut a.pop_calls) {
        let total = a.layouts.get(&bb).map_or(0, |l| l.total);
        if total == 0 {
            erase(base);
        } else if let (Some(g), Some(slot)) = (packed.get(&bb), iter) {
            // A packed block pops its group on the group's first iteration.
            let b = crate::ir::Builder::for_function(inst_fn(base));
            b.before(base);
            let it = b.load(i64_type(b.ctx), slot);
            let (n, step) = crate::modes::reverse::packed::step(&b, it, *g);
            set_operand(base, 1, n);
            b.after(base);
            let at = b.gep(i8_type(b.ctx), base, &mut [step]);
            replace_all_uses(base, at);
            set_operand(at, 0, base);
            // The loads of its values: aligned to the block's width only.
            for gep in users(at) {
                for l in users(gep) {
                    if opcode(l) == Some(LLVMOpcode::LLVMLoad) {
                        set_alignment(l, alignment(l).min(g.width as u32));
                    }
                }
            }
        } else {
            set_operand(base, 1, const_i64(context_of(type_of(base)), total as i64));
        }
    }
}
