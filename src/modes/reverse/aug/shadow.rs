//! The augmented sweep's shadow copies: memory transfers that carry
//! pointers copy the shadow pointers too, and instructions over pointers
//! run again on the shadows.
use super::AugGen;
use crate::analysis::activity::CopyLayout;
use crate::diag::Result;
use crate::ir::llvm::*;

impl AugGen<'_> {
    /// A memcpy/memmove of memory holding pointers into memory that has a
    /// shadow: the shadow pointers are copied along (as a pointer store
    /// stores its shadow). Float bytes are left alone: their adjoints move
    /// back in the reverse sweep.
    /// Returns whether it copied.
    pub(super) fn copy_shadow_pointers(&mut self, i: V) -> Result<bool> {
        if crate::ir::metadata::has_flag(i, super::calls::REALLOC_COPY) {
            return Ok(self.copy_realloc_shadow(i));
        }
        let (dst, src) = (operand(i, 0), operand(i, 1));
        let Some(sd) = self.shadow_of(dst) else {
            return Ok(false);
        };
        let layout = self.a.act.copy_layout(i);
        let ptrs =
            match &layout {
                CopyLayout::Pointers => None,
                CopyLayout::Mixed { ptrs, .. } if !ptrs.is_empty() => Some(ptrs.clone()),
                // The IR types at the copy's pointers may still say which
                // fields are pointers (memlayout.rs, below in visit_call).
                CopyLayout::MixedUnknown
                    if crate::modes::reverse::memlayout::copy_layout(
                        self.sess.module,
                        &[dst, operand(i, 1)],
                        operand(i, 2),
                    )
                    .is_some() =>
                {
                    return Ok(false)
                }
                CopyLayout::MixedUnknown => return Err(self.err(
                    i,
                    "memory transfer of floats mixed with pointers at offsets not known exactly",
                )),
                _ => return Ok(false),
            };
        let Some(ss) = self.shadow_of(src) else {
            return Ok(false);
        };
        self.b.after(i);
        match ptrs {
            None => {
                let c = self.b.insert_clone(i);
                set_operand(c, 0, sd);
                set_operand(c, 1, ss);
            }
            Some(offs) => {
                let ctx = self.b.ctx;
                for o in offs {
                    let from = self.b.gep(i8_type(ctx), ss, &mut [const_i64(ctx, o)]);
                    let to = self.b.gep(i8_type(ctx), sd, &mut [const_i64(ctx, o)]);
                    let v = self.b.load(ptr_type(ctx), from);
                    self.b.store(v, to);
                }
            }
        }
        Ok(true)
    }

    /// A copy made by a lower-order gradient's realloc lowering
    /// (`lower_realloc`: the old block, or its shadow, into the new one),
    /// differentiated again: its shadow is copied forward whole, as that
    /// lowering copies a shadow, no further than the old shadow block's
    /// usable size. The bytes are a grown buffer's whose layout the type
    /// analysis cannot know (a tape's pointers among its floats: a
    /// third-order gradient needs the shadows of the pointers its
    /// second-order tape keeps); float adjoints move back in the reverse
    /// sweep as for any copy. The new copy is flagged in turn (for the
    /// next order). Returns whether it copied.
    fn copy_realloc_shadow(&mut self, i: V) -> bool {
        let (dst, src) = (operand(i, 0), operand(i, 1));
        let (Some(sd), Some(ss)) = (self.shadow_of(dst), self.shadow_of(src)) else {
            return false;
        };
        if sd == dst {
            return false;
        }
        self.b.after(i);
        let i64t = i64_type(self.b.ctx);
        let len = self.b.int_cast(operand(i, 2), i64t, false);
        let usable = self.b.malloc_usable_size(ss);
        let fits = self.b.icmp(LLVMIntPredicate::LLVMIntULT, usable, len);
        let n = self.b.select(fits, usable, len);
        let c = self.b.memcpy(sd, ss, n, 1);
        crate::ir::metadata::set_flag(c, super::calls::REALLOC_COPY);
        true
    }

    /// A memset of memory that has a shadow and holds pointers but no
    /// floats (a C++ object cleared by its constructor): the shadow is set
    /// alike, so a stack slot reused by the next iteration of a loop does
    /// not keep the last iteration's shadow pointers (which the new
    /// object's code would free or write through again). Memory holding
    /// floats is left alone: its shadow may hold a caller's seed.
    pub(super) fn set_shadow_pointers(&mut self, i: V) -> Result<()> {
        let dst = operand(i, 0);
        let Some(sd) = self.shadow_of(dst) else {
            return Ok(());
        };
        if sd == dst || self.a.act.copy_layout(i) != CopyLayout::Pointers {
            return Ok(());
        }
        self.b.after(i);
        let c = self.b.insert_clone(i);
        set_operand(c, 0, sd);
        Ok(())
    }

    /// A pointer-only library function (see `rules::runs_on_shadow`) whose
    /// pointer arguments have shadows: call it on the shadows too, right
    /// after the primal call; a returned pointer's shadow is that call's
    /// result.
    pub(super) fn run_on_shadow(&mut self, i: V) -> Result<()> {
        let args = call_args(i);
        if !args.iter().any(|a| self.shadow_of(*a).is_some()) {
            return Ok(());
        }
        let mut shadows = Vec::new();
        for a in &args {
            shadows.push(if is_ptr(type_of(*a)) {
                self.shadow_or_null(*a, i)?
            } else {
                *a
            });
        }
        self.b.after(i);
        let c = self.b.insert_clone(i);
        for (k, s) in shadows.into_iter().enumerate() {
            set_operand(c, k as u32, s);
        }
        if is_ptr(type_of(i)) {
            set_name(c, &format!("{}'", name(i)));
            self.a.shadow.insert(i, c);
        }
        Ok(())
    }
}
