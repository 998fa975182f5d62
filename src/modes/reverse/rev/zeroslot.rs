//! The reverse of a store zeroes its shadow slot, and the reverse of an
//! earlier load of the same address adds into it right after: this finds
//! where that zero is read back at once (`zeroed_just_before`), so the
//! adjoint is stored in its place, and whether the zeroing store is then
//! dead (`RevGen::read_apart_between`). Shadow accesses remember the
//! augmented function's shadow pointer they came from (`note_origin`), for
//! `apart.rs` to compare in the augmented function's terms.
use super::apart;
use super::RevGen;
use crate::analysis::halves::access_ptr;
use crate::ir::llvm::*;

impl RevGen<'_> {
    /// Remember the augmented shadow pointer of primal pointer `p` that
    /// reverse store `st` writes through.
    pub(super) fn note_origin(&mut self, st: V, p: V) {
        if let Some(s) = self.a.shadow.get(&p) {
            self.origins.insert(st, (*s, access_ptr(st)));
        }
    }

    /// The augmented shadow pointer a reverse load or store accesses
    /// through, if noted (and `i` is still the access it was noted for).
    pub(super) fn origin_of(&self, i: V) -> Option<V> {
        let (o, p) = *self.origins.get(&i)?;
        (matches!(
            opcode(i),
            Some(LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore)
        ) && access_ptr(i) == p)
            .then_some(o)
    }

    /// Whether no instruction after store `z` and before store `st` (of
    /// one reverse block; both write the `at` slot `sp`, whose augmented
    /// shadow pointer is `origin`, in block `bb`) may read the slot: loads
    /// of adjoint slots, of slots at a constant or proved distance
    /// (`apart.rs`), of memory only reached through parameters marked
    /// distinct (`distinct.rs`) that `sp` is not based on.
    pub(super) fn read_apart_between(
        &self,
        z: V,
        st: V,
        sp: V,
        at: T,
        origin: Option<V>,
        bb: BB,
    ) -> bool {
        let m = module_of(self.rev);
        let lay = crate::analysis::types::layout::Layout::new(m);
        let ps = type_store_size(m, at);
        let so = crate::analysis::activity::underlying_objects(sp);
        // The reverse takes the augmented function's parameters (but its
        // tape) in the same places.
        let rps = params(self.rev);
        let n_aug = params(self.a.func).len();
        let distinct = |o: &V| {
            is_argument(*o)
                && rps.iter().position(|r| r == o).is_some_and(|k| {
                    k + 1 < n_aug
                        && super::super::distinct::has(
                            self.a.func,
                            k,
                            super::super::distinct::DISTINCT,
                        )
                })
        };
        // Memory reached through a distinct parameter is reached through
        // nothing else: either side being only such memory (and the other
        // not based on the same parameter) keeps the two apart.
        let sp_distinct = !so.is_empty() && so.iter().all(distinct);
        let mut cur = next_instruction(z);
        while let Some(i) = cur {
            if i == st {
                return true;
            }
            match opcode(i) {
                Some(LLVMOpcode::LLVMLoad) => {
                    let q = operand(i, 0);
                    let qs = type_store_size(m, type_of(i));
                    let by_origin = match (origin, self.origin_of(i)) {
                        (Some(p), Some(oq)) => apart::apart(&self.a.loops, &lay, bb, p, ps, oq, qs),
                        _ => false,
                    };
                    let qo = crate::analysis::activity::underlying_objects(q);
                    let by_param = !qo.iter().any(|o| so.contains(o))
                        && (sp_distinct || (!qo.is_empty() && qo.iter().all(distinct)));
                    if is_volatile(i)
                        || !is_not_atomic(i)
                        || !(surely_apart(&lay, sp, ps, q, qs) || by_origin || by_param)
                    {
                        log::debug!("zero store kept: {} may read it", print_value(i));
                        return false;
                    }
                }
                Some(
                    LLVMOpcode::LLVMStore
                    | LLVMOpcode::LLVMCall
                    | LLVMOpcode::LLVMInvoke
                    | LLVMOpcode::LLVMCallBr
                    | LLVMOpcode::LLVMAtomicRMW
                    | LLVMOpcode::LLVMAtomicCmpXchg
                    | LLVMOpcode::LLVMFence
                    | LLVMOpcode::LLVMVAArg,
                )
                | None => {
                    // Stores between were proved apart by
                    // `zeroed_just_before`; anything else may read.
                    if opcode(i) != Some(LLVMOpcode::LLVMStore) {
                        return false;
                    }
                }
                _ => {}
            }
            cur = next_instruction(i);
        }
        false
    }
}

/// Whether load `l` of shadow slot `sp` (type `at`), just appended to its
/// block, reads the zero that a store of this block put there with
/// nothing between that may write memory: the reverse of a store zeroes
/// the slot, and the reverse of an earlier load of the same address adds
/// into it right after (an in-place update `x[i] = f(x[i])`; the butterfly
/// of an FFT). Anything unclear (a call, another store, the start of the
/// block, an insertion point before the end) answers no. `apart(q, ps,
/// qs)` says whether a store `q` between writes apart from the slot in
/// the same iteration (`apart.rs`, on the augmented function's pointers).
pub(super) fn zeroed_just_before(
    l: V,
    sp: V,
    at: T,
    apart: &dyn Fn(V, u64, u64) -> bool,
) -> Option<V> {
    if !crate::options::switches::forward_zeroed() || next_instruction(l).is_some() {
        return None;
    }
    let lay = crate::analysis::types::layout::Layout::new(module_of(inst_fn(l)));
    let mut cur = prev_instruction(l);
    while let Some(i) = cur {
        match opcode(i) {
            Some(LLVMOpcode::LLVMStore) => {
                let (v, q) = (operand(i, 0), operand(i, 1));
                if q == sp {
                    let zeroes = type_of(v) == at
                        && is_constant(v)
                        && is_null(v)
                        && !is_volatile(i)
                        && is_not_atomic(i);
                    return zeroes.then_some(i);
                }
                let m = module_of(inst_fn(l));
                let (ps, qs) = (type_store_size(m, at), type_store_size(m, type_of(v)));
                if is_volatile(i)
                    || !is_not_atomic(i)
                    || !(surely_apart(&lay, sp, ps, q, qs) || apart(i, ps, qs))
                {
                    return None;
                }
            }
            Some(
                LLVMOpcode::LLVMCall
                | LLVMOpcode::LLVMInvoke
                | LLVMOpcode::LLVMCallBr
                | LLVMOpcode::LLVMAtomicRMW
                | LLVMOpcode::LLVMAtomicCmpXchg
                | LLVMOpcode::LLVMFence
                | LLVMOpcode::LLVMVAArg,
            )
            | None => return None,
            Some(LLVMOpcode::LLVMLoad) if is_volatile(i) || !is_not_atomic(i) => return None,
            _ => {}
        }
        cur = prev_instruction(i);
    }
    None
}

/// Whether `ps` bytes at `p` and `qs` bytes at `q` cannot overlap: the
/// same base at constant offsets that do not overlap, or `q` only into
/// allocas (the adjoint slots) that `p`, reached from arguments and
/// allocas only, does not point into.
fn surely_apart(
    lay: &crate::analysis::types::layout::Layout,
    p: V,
    ps: u64,
    q: V,
    qs: u64,
) -> bool {
    use crate::analysis::halves::base_and_offset;
    let ((bp, op), (bq, oq)) = (base_and_offset(lay, p), base_and_offset(lay, q));
    if bp == bq {
        return op + ps as i64 <= oq || oq + qs as i64 <= op;
    }
    let alloca = |o: &V| opcode(*o) == Some(LLVMOpcode::LLVMAlloca);
    let (po, qo) = (
        crate::analysis::activity::underlying_objects(p),
        crate::analysis::activity::underlying_objects(q),
    );
    !qo.is_empty()
        && qo.iter().all(alloca)
        && po.iter().all(|o| alloca(o) || is_argument(*o))
        && !qo.iter().any(|o| po.contains(o))
}
