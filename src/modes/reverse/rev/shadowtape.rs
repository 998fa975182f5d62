//! The zeroed gradient buffer as the tape (issue 16).
//!
//! A user's reverse call usually zeroes the shadow right before it:
//! `memset(dx, 0, len); __enzyme_autodiff(f, enzyme_dup, x, dx, ...)`
//! (`zfuse::zeroing_before` proves the memset). Every element of `dx`
//! then holds 0 until the reverse sweep first adds to it. A value `w` that
//! iteration i of a loop computes and the reverse of that same iteration
//! needs (a libm result: logsumexp's `exp(x[i] - m)`, which would be
//! computed a second time or taped, 8 bytes per iteration) is kept in
//! `dx[i]` instead, the shadow element of the loop's load `x[i]`: the
//! augmented sweep stores it there, the reverse of iteration i loads it
//! back and puts the zero back (as -0.0, the empty adjoint: the add that
//! follows then folds to a store) before `x[i]`'s adjoint is added there.
//! So the gradient computes the value once and keeps no tape for it, as a
//! hand-written gradient that stores `exp(x[i] - m)` into `g[i]` does.
//!
//! Only for pairs built for such a call (`build_pair` with `zeroed`, kept
//! apart from the others); the caller passes the zeroing's length in a
//! thread-local global (`pass_len`) that both sweeps read at their entry,
//! and each element is used only when it lies within `[dx, dx + len)`
//! (`idx < len / esz`, unsigned; else the value is recomputed or taped as
//! before, per element, the same decision in both sweeps). The reverse's
//! test is marked (`zfuse::KEPT_CHECK`, likely taken): zfuse versions its
//! loop so that the test is made once when every element is within
//! (`ENZYME_RS_SPLIT_KEPT_CHECKS=0` leaves it per element). Used only when:
//! - the loop is counted and not nested, the value is computed in the
//!   block of the load `x[idx]`, after it, and `idx` is an affine
//!   induction variable of the loop with a non-zero step (each iteration
//!   its own element), the base of `x` loop-invariant, and the shadow
//!   address `dx + idx` (same element type);
//! - the reverse asks for the value in that block's reverse, before the
//!   load's adjoint is added (from the value's own reverse or its users'),
//!   and with no branch made yet in that block's reverse (so the load back
//!   runs whenever the block's reverse runs);
//! - nothing in the loop or after it (whose reverse runs between the two
//!   sweeps' uses of the element) can touch a shadow: no other varied
//!   load, no store of a varied value or through a shadowed pointer, no
//!   call but libm and memory-free intrinsics (the augmented sweep itself
//!   never writes `dx`: checked before the first store is added).
//! Assumed, as Enzyme and zero fusion do: the shadow is not memory the
//! primal reads or writes (the call site refuses a shadow visibly sharing
//! an object with another argument).
//!
//! `ENZYME_RS_SHADOW_TAPE=0` (`-enzyme-rs-shadow-tape=0`) turns this off;
//! `-Rpass=enzyme` reports each value kept in the gradient buffer.
use super::cache::{pure_rule_call, LIBM_WORK};
use super::loops::affine_iv;
use super::RevGen;
use crate::analysis::mincut;
use crate::diag::{Error, Result};
use crate::ir::globals::{
    add_global, named_global, set_initializer, set_internal, set_thread_local,
};
use crate::ir::llvm::*;
use crate::ir::shim::{self, RemarkKind};
use crate::ir::values::add_incoming;
use crate::ir::Builder;
use crate::modes::reverse::Key;
use crate::modes::Session;
use std::collections::{HashMap, HashSet};

/// The thread-local global through which the caller passes the zeroing's
/// length (bytes) to both sweeps.
const LEN_GLOBAL: &str = "enzyme_rs.zeroed_len";

fn len_global(m: LLVMModuleRef) -> V {
    if let Some(g) = named_global(m, LEN_GLOBAL) {
        return g;
    }
    let t = i64_type(module_context(m));
    let g = add_global(m, t, LEN_GLOBAL);
    set_initializer(g, zero(t));
    set_internal(g);
    set_thread_local(g);
    g
}

/// Whether a call of `key` whose caller zeroes a shadow first gets a pair
/// of its own.
pub fn may_apply(sess: &Session, key: &Key) -> bool {
    let f = key.func;
    sess.opts.shadow_tape
        && sess.opts.opt_level > 0
        && key.width == 1
        && !is_declaration(f)
        && sess.registry.custom_gradient(f).is_none()
        && crate::modes::blas::custom_gradient(sess.module, f)
            .ok()
            .flatten()
            .is_none()
        && !crate::modes::loops::pair::is_loop_fn(f)
        && !crate::modes::gpu::is_device(sess.module)
}

/// A cheap look at the primal `f` before such a pair is built: whether
/// some block has a load followed by a call that may become a kept value
/// (one with a floating-point scalar result worth a libm call, or one
/// through a pointer, which the clone may turn into such a call). When
/// there is none the pair would be the plain pair again, and is not built.
pub fn may_keep(f: V) -> bool {
    blocks(f).into_iter().any(|bb| {
        let mut loaded = false;
        instructions(bb).into_iter().any(|i| {
            if opcode(i) == Some(LLVMOpcode::LLVMLoad) {
                loaded = true;
                return false;
            }
            loaded
                && is_call(i)
                && (called_function(i).is_none()
                    || (is_fp_scalar(type_of(i))
                        && mincut::float_work(i, &|_| true).map_or(true, |w| w >= LIBM_WORK)))
        })
    })
}

/// At the call site, right before a sweep of such a pair: the zeroing's
/// length.
pub fn pass_len(b: &Builder, len: V) {
    let g = len_global(b.module);
    let l = b.int_cast(len, i64_type(b.ctx), false);
    b.store(l, g);
}

/// The state of one reverse function built for a zeroed shadow.
pub struct Zeroed {
    /// The zeroed shadow's parameter position (aug and rev alike).
    pos: usize,
    /// The zeroing's length (bytes), loaded at the entry of aug / rev, and
    /// per element size `esz` the number of whole elements it covers
    /// (`len / esz`): element `k` is zeroed when `k < len / esz` (unsigned,
    /// so a negative `k` is not).
    aug_len: Option<V>,
    rev_len: Option<V>,
    aug_count: HashMap<u64, V>,
    rev_count: HashMap<u64, V>,
    /// Where aug stores a value whose element is outside the zeroing.
    scratch: Option<V>,
    /// Loads whose shadow element keeps a value.
    used: HashSet<V>,
    /// Per (loop header, load): whether nothing else may touch a shadow.
    clear: HashMap<(BB, V), bool>,
    /// Whether aug leaves the shadow parameter alone (checked once).
    aug_clear: Option<bool>,
}

impl Zeroed {
    /// Whether some value is kept in the shadow (else the functions built
    /// are the plain pair's).
    pub fn keeps(&self) -> bool {
        !self.used.is_empty()
    }

    pub fn new(pos: usize) -> Zeroed {
        Zeroed {
            pos,
            aug_len: None,
            rev_len: None,
            aug_count: HashMap::new(),
            rev_count: HashMap::new(),
            scratch: None,
            used: HashSet::new(),
            clear: HashMap::new(),
            aug_clear: None,
        }
    }
}

/// Whether a pointer parameter reaches only address computations (zfuse's
/// `untouched`), selects and phis of them (a running selection's recorded
/// pick, pickrec.rs) and their comparisons.
fn untouched(p: V) -> bool {
    untouched_from(p, &mut HashSet::new())
}

fn untouched_from(p: V, seen: &mut HashSet<V>) -> bool {
    if !seen.insert(p) {
        return true;
    }
    users(p).into_iter().all(|u| match opcode(u) {
        Some(LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast) => {
            operand(u, 0) == p && untouched_from(u, seen)
        }
        Some(LLVMOpcode::LLVMSelect) => operand(u, 0) != p && untouched_from(u, seen),
        Some(LLVMOpcode::LLVMPHI) => untouched_from(u, seen),
        Some(LLVMOpcode::LLVMICmp) => true,
        _ => false,
    })
}

/// Intrinsics that touch no memory, allowed between the two uses of an
/// element.
fn memory_free_intrinsic(c: V) -> bool {
    const OK: &[&str] = &[
        "llvm.fmuladd.",
        "llvm.fma.",
        "llvm.exp.",
        "llvm.exp2.",
        "llvm.log.",
        "llvm.log2.",
        "llvm.log10.",
        "llvm.sqrt.",
        "llvm.fabs.",
        "llvm.pow.",
        "llvm.powi.",
        "llvm.sin.",
        "llvm.cos.",
        "llvm.copysign.",
        "llvm.floor.",
        "llvm.ceil.",
        "llvm.maxnum.",
        "llvm.minnum.",
        "llvm.umax.",
        "llvm.umin.",
        "llvm.smax.",
        "llvm.smin.",
        "llvm.abs.",
        "llvm.assume",
        "llvm.experimental.noalias.scope.decl",
    ];
    called_function(c).is_some_and(|f| {
        let n = name(f);
        is_declaration(f) && OK.iter().any(|p| n.starts_with(p))
    })
}

/// The zeroing's length, loaded from the global at the builder's place.
fn len_at(b: &Builder, m: LLVMModuleRef) -> V {
    b.load(i64_type(b.ctx), len_global(m))
}

/// `len / esz`, computed right after `len` (once per element size).
fn count_of(cache: &mut HashMap<u64, V>, len: V, esz: u64, m: LLVMModuleRef) -> V {
    *cache.entry(esz).or_insert_with(|| {
        let b = Builder::new(m);
        b.clear_debug_loc();
        b.after(len);
        b.udiv(len, const_i64(b.ctx, esz as i64))
    })
}

/// Whether element `idx` (a gep index, sign-extended) is below `count`.
fn within_idx(b: &Builder, idx: V, count: V) -> V {
    let t = i64_type(b.ctx);
    let i = if type_of(idx) == t {
        idx
    } else {
        b.int_cast(idx, t, true)
    };
    b.icmp(LLVMIntPredicate::LLVMIntULT, i, count)
}

/// Whether the element of `esz` bytes at `p` is one of the first `count`
/// after `base` (the same test as [`within_idx`] for `p = base + idx`).
fn within(b: &Builder, p: V, base: V, count: V, esz: u64) -> V {
    let t = i64_type(b.ctx);
    let pi = b.cast(LLVMOpcode::LLVMPtrToInt, p, t);
    let bi = b.cast(LLVMOpcode::LLVMPtrToInt, base, t);
    let off = b.sub(pi, bi);
    let lim = b.mul(count, const_i64(b.ctx, esz as i64));
    b.icmp(LLVMIntPredicate::LLVMIntULT, off, lim)
}

impl RevGen<'_> {
    /// The load whose shadow element may keep `w` (see the module doc).
    fn slot_load(&mut self, w: V) -> Option<V> {
        let zt = self.zt.as_ref()?;
        let cur = self.cur;
        if self.in_edge
            || !is_call(w)
            || !is_fp_scalar(type_of(w))
            || inst_block(w) != cur
            || self.b.block() != *self.rblock.get(&cur)?
            || self.a.loops.depth(cur) != 1
        {
            return None;
        }
        let work = mincut::float_work(w, &pure_rule_call)?;
        if work < LIBM_WORK {
            return None;
        }
        let h = self.a.loops.header(cur)?;
        let c = self.a.counted.get(&h).copied()?;
        let insts = instructions(cur);
        let at = insts.iter().position(|x| Some(*x) == self.visiting)?;
        let pw = insts.iter().position(|x| *x == w)?;
        if at < pw {
            return None;
        }
        let m = self.sess.module;
        let dx = params(self.a.func)[zt.pos];
        let esz = type_store_size(m, type_of(w));
        let ld = insts[..pw].iter().rev().copied().find(|l| {
            if opcode(*l) != Some(LLVMOpcode::LLVMLoad)
                || zt.used.contains(l)
                || is_volatile(*l)
                || type_store_size(m, type_of(*l)) != esz
            {
                return false;
            }
            let p = operand(*l, 0);
            let Some(sp) = self.a.shadow.get(&p).copied() else {
                return false;
            };
            let gep2 =
                |g: V| opcode(g) == Some(LLVMOpcode::LLVMGetElementPtr) && num_operands(g) == 2;
            if !gep2(p) || !gep2(sp) || operand(sp, 0) != dx {
                return false;
            }
            let (base, idx) = (operand(p, 0), operand(p, 1));
            if operand(sp, 1) != idx
                || type_store_size(m, gep_source_type(p)) != esz
                || type_store_size(m, gep_source_type(sp)) != esz
            {
                return false;
            }
            let invariant = is_constant(base)
                || is_argument(base)
                || (is_instruction(base) && !self.a.loops.contains(h, inst_block(base)));
            let stepping = opcode(idx) == Some(LLVMOpcode::LLVMPHI)
                && inst_block(idx) == h
                && affine_iv(idx, c)
                    .and_then(|(_, s)| const_int_value(s))
                    .is_some_and(|s| s != 0);
            invariant && stepping
        })?;
        if !self.aug_leaves_dx() || !self.only_access(h, ld, w) {
            return None;
        }
        Some(ld)
    }

    /// Whether aug reaches the zeroed shadow only through addresses.
    fn aug_leaves_dx(&mut self) -> bool {
        let zt = self.zt.as_ref().unwrap();
        if let Some(b) = zt.aug_clear {
            return b;
        }
        let dx = params(self.a.func)[zt.pos];
        let ok = untouched(dx);
        self.zt.as_mut().unwrap().aug_clear = Some(ok);
        ok
    }

    /// Whether nothing in the loop of `h`, or after it, but `ld` and `w`
    /// may make the reverse touch a shadow (its reverse runs between the
    /// store of an element and its load back).
    fn only_access(&mut self, h: BB, ld: V, w: V) -> bool {
        if let Some(b) = self.zt.as_ref().unwrap().clear.get(&(h, ld)) {
            return *b;
        }
        let mut todo: Vec<BB> = blocks(self.a.func)
            .into_iter()
            .filter(|b| self.a.loops.contains(h, *b))
            .collect();
        let mut seen: HashSet<BB> = todo.iter().copied().collect();
        let mut k = 0;
        while k < todo.len() {
            for s in successors(todo[k]) {
                if seen.insert(s) {
                    todo.push(s);
                }
            }
            k += 1;
        }
        let ok = todo.iter().all(|bb| {
            instructions(*bb).into_iter().all(|i| {
                use LLVMOpcode::*;
                if i == ld || i == w {
                    return true;
                }
                match opcode(i) {
                    Some(LLVMLoad) => !self.varied(i),
                    Some(LLVMStore) => {
                        !self.varied(operand(i, 0)) && !self.a.shadow.contains_key(&operand(i, 1))
                    }
                    Some(LLVMCall) => {
                        is_debug_intrinsic(i)
                            || is_lifetime_marker(i)
                            || pure_rule_call(i)
                            || memory_free_intrinsic(i)
                    }
                    Some(
                        LLVMAtomicRMW | LLVMAtomicCmpXchg | LLVMFence | LLVMVAArg | LLVMInvoke
                        | LLVMCallBr,
                    ) => false,
                    _ => true,
                }
            })
        });
        self.zt.as_mut().unwrap().clear.insert((h, ld), ok);
        ok
    }

    /// `w` from the shadow element it is kept in, when it can be (see the
    /// module doc): aug stores it there, the reverse loads it back and
    /// resets the element, or (element outside the zeroing) recomputes or
    /// pops it as before.
    pub(super) fn shadow_tape(&mut self, w: V) -> Result<Option<V>> {
        let Some(ld) = self.slot_load(w) else {
            return Ok(None);
        };
        let m = self.sess.module;
        let ctx = self.b.ctx;
        let t = type_of(w);
        let p = operand(ld, 0);
        let sp = self.a.shadow[&p];
        let mut zt = self.zt.take().unwrap();
        zt.used.insert(ld);
        // aug: store w into its element (or the scratch slot).
        let aentry = blocks(self.a.func)[0];
        let ab = Builder::new(m);
        ab.clear_debug_loc();
        if zt.aug_len.is_none() {
            match first_instruction(aentry) {
                Some(i) => ab.before(i),
                None => ab.at_end(aentry),
            }
            zt.aug_len = Some(len_at(&ab, m));
            zt.scratch = Some(ab.alloca(t));
        }
        let esz = type_store_size(m, t);
        let aug_count = count_of(&mut zt.aug_count, zt.aug_len.unwrap(), esz, m);
        ab.after(w);
        // slot_load: `sp` is `dx + idx` in elements of `esz` bytes.
        let inside = within_idx(&ab, operand(sp, 1), aug_count);
        let scratch = zt.scratch.unwrap();
        let scratch = if type_of(scratch) == type_of(sp) {
            scratch
        } else {
            ab.cast(LLVMOpcode::LLVMAddrSpaceCast, scratch, type_of(sp))
        };
        let to = ab.select(inside, sp, scratch);
        ab.store(w, to);
        // rev: the element's value and reset, or the value as before.
        let rb = Builder::new(m);
        rb.clear_debug_loc();
        if zt.rev_len.is_none() {
            match first_instruction(self.entry) {
                Some(i) => rb.before(i),
                None => rb.at_end(self.entry),
            }
            zt.rev_len = Some(len_at(&rb, m));
        }
        let rdx = self.rev_params[zt.pos];
        let rev_count = count_of(&mut zt.rev_count, zt.rev_len.unwrap(), esz, m);
        let split = self.sess.opts.split_kept_checks;
        let r = (|| -> Result<V> {
            let spr = self
                .shadow_avail(p)?
                .ok_or_else(|| Error::internal("shadow tape: no shadow"))?;
            // The same test as aug's, by the element index where the
            // address is `rdx + idx` (a range check IRCE can split off).
            let by_idx = opcode(spr) == Some(LLVMOpcode::LLVMGetElementPtr)
                && num_operands(spr) == 2
                && operand(spr, 0) == rdx
                && type_store_size(m, gep_source_type(spr)) == esz;
            let inside = if by_idx {
                within_idx(&self.b, operand(spr, 1), rev_count)
            } else {
                within(&self.b, spr, rdx, rev_count, esz)
            };
            let kept = append_block(self.rev, "rev.shadowtape.kept");
            let again = append_block(self.rev, "rev.shadowtape.again");
            let join = append_block(self.rev, "rev.shadowtape.join");
            let br = self.b.cond_br(inside, kept, again);
            if split {
                // Usually within: zfuse::split_kept_checks versions the
                // loop on it.
                shim::set_branch_weights(br, 1 << 20, 1);
                set_flag(br, crate::modes::reverse::zfuse::KEPT_CHECK);
            }
            self.b.at_end(kept);
            let v1 = self.b.load(t, spr);
            self.b.store(const_real(t, -0.0), spr);
            self.b.br(join);
            self.b.at_end(again);
            // Values made on this path stay on it.
            let memo = self.memo.clone();
            let v2 = self.avail(w);
            self.memo = memo;
            let v2 = v2?;
            let end = self.b.block();
            self.b.br(join);
            self.b.at_end(join);
            let v = self.b.phi(t);
            add_incoming(v, &[(v1, kept), (v2, end)]);
            Ok(v)
        })();
        self.zt = Some(zt);
        let v = r?;
        let _ = ctx;
        if shim::remark_enabled(self.a.func, RemarkKind::Passed) {
            shim::remark(
                self.a.func,
                Some(w),
                RemarkKind::Passed,
                "ShadowTape",
                "this value is kept in the gradient buffer (the caller zeroes it before the call): \
                 the forward sweep stores it in the element the reverse of this iteration adds to, \
                 which reads it back; neither taped nor computed again",
            );
        }
        Ok(Some(v))
    }
}
