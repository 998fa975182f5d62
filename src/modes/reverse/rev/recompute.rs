//! Loads the reverse sweep reads again rather than tapes: loads of memory
//! that nothing the function runs after them writes. The function's own
//! later writes are known (`memory::LaterWrites`); what its caller writes
//! before the reverse sweep runs is `Written::persistent`'s; heap blocks
//! the function allocates and frees stay alive until the reverse sweep
//! (their frees are deferred there). The min-cut of `cache.rs` treats such
//! a load as recomputable, and float arithmetic over it is recomputed
//! there within its bound. In a parallel region (OpenMP, GPU) the same
//! rule keeps a load of memory another thread writes later from being
//! replayed: a write by another thread after the load that the code does
//! not order after it would be a race, and one it orders after it (a
//! barrier) appears after the load in the function.
use super::RevGen;
use crate::analysis::activity::underlying_objects;
use crate::ir::llvm::*;

impl RevGen<'_> {
    /// Whether load `w` can be read again in the reverse sweep: its memory
    /// outlives the augmented sweep and nothing the function (in any
    /// thread) runs after the load writes it.
    pub(super) fn reload_ok(&self, w: V) -> bool {
        let p = operand(w, 0);
        let alive = underlying_objects(p)
            .into_iter()
            .all(|o| self.a.deferred_free.contains(&o) || self.written.persistent_object(o));
        alive
            && self
                .later
                .as_ref()
                .is_some_and(|l| !l.may_write_after(w, p))
    }
}
