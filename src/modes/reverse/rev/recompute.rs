//! In functions that run in a parallel region, float arithmetic over
//! values the reverse sweep has without the tape (constants, arguments,
//! loads of memory nothing writes, loop invariants, the loop's counter)
//! is recomputed rather than taped: the tape is memory traffic that every
//! thread pays twice, while the arithmetic is a few cycles.
use super::RevGen;
use crate::ir::llvm::*;

impl RevGen<'_> {
    /// Whether `w` is float arithmetic whose operands are free (see the
    /// module comment), looking `depth` levels deep.
    pub(super) fn cheap_float(&self, w: V, depth: u32) -> bool {
        self.cheap_float_at(w, depth, true)
    }

    fn cheap_float_at(&self, w: V, depth: u32, top: bool) -> bool {
        use LLVMOpcode::*;
        if !self.parallel || !is_instruction(w) {
            return false;
        }
        let arith = match opcode(w) {
            Some(LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFNeg) => true,
            Some(LLVMCall) => called_function(w).is_some_and(|f| {
                let n = name(f);
                n.starts_with("llvm.fmuladd.") || n.starts_with("llvm.fma.")
            }),
            _ => false,
        };
        if !arith {
            return false;
        }
        let ops = if is_call(w) {
            call_args(w)
        } else {
            operands(w)
        };
        // One operand read from the tape at most: never more tape than
        // taping `w` itself, and none when that operand is needed anyway.
        let nonfree = ops.iter().filter(|o| !self.free_value(**o, depth)).count();
        let r = nonfree == 0 || (top && nonfree == 1);
        log::trace!("recompute {}: {r}", name(w));
        r
    }

    /// Whether load `w` (in a parallel region's function) can be read
    /// again in the reverse sweep: nothing the function runs after it (in
    /// any thread: a write by another thread after it, not ordered after
    /// it by the code, would be a race) writes its memory.
    pub(super) fn reload_ok(&self, w: V) -> bool {
        let p = operand(w, 0);
        self.parallel
            && self.written.persistent(p)
            && self
                .later
                .as_ref()
                .is_some_and(|l| !l.may_write_after(w, p))
    }

    fn free_value(&self, o: V, depth: u32) -> bool {
        if is_constant(o) || is_argument(o) || self.memo.contains_key(&(self.cur, o)) {
            return true;
        }
        if !is_instruction(o) {
            return false;
        }
        if opcode(o) == Some(LLVMOpcode::LLVMLoad)
            && (self.written.unwritten_and_persistent(operand(o, 0)) || self.reload_ok(o))
        {
            return true;
        }
        // Defined outside a counted loop around the current block: set
        // once when the reverse enters the loop.
        let def = inst_block(o);
        if self
            .counted_loops_of(self.cur)
            .iter()
            .any(|h| !self.a.loops.contains(*h, def))
        {
            return true;
        }
        depth > 0 && self.cheap_float_at(o, depth - 1, false)
    }
}
