//! In functions that run in a parallel region, loads of memory that
//! nothing the region runs after them writes are read again in the reverse
//! sweep rather than taped (the tape is memory traffic that every thread
//! pays twice). The min-cut of `cache.rs` treats such a load as
//! recomputable, and float arithmetic over it is recomputed there within
//! its bound.
use super::RevGen;
use crate::ir::llvm::*;

impl RevGen<'_> {
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
}
