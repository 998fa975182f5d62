//! Forward mode over the masked memory intrinsics (`rules::vecmem`): the
//! same operation on the shadows, under the same mask. A masked load's
//! tangent is the masked load of the shadow (the passthru's tangent where
//! the mask is off); a masked store stores the value's tangent into the
//! shadow; gather and scatter do the same through the vector of shadow
//! pointers.
use super::Gen;
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::rules::vecmem::masked_access;

impl Gen<'_> {
    pub(super) fn visit_masked(&mut self, i: V) -> Result<()> {
        let Some(a) = masked_access(i) else {
            return Ok(());
        };
        if let Some(v) = a.value {
            let Some(sp) = self.tangent(a.ptr) else {
                if self.varied(v) && !self.act.is_reached(a.ptr) {
                    return Err(self.err(
                        i,
                        "an active value is stored (masked) into memory that has no shadow",
                    ));
                }
                return Ok(());
            };
            let tv = self.tangent_or_zero(v, i)?;
            self.b.after(i);
            for l in 0..self.width {
                self.b.clone_call_with(i, &[(0, tv[l]), (a.ptr_arg, sp[l])]);
            }
            return Ok(());
        }
        if !self.act.is_varied(i) {
            return Ok(());
        }
        let sp = self.tangent(a.ptr).ok_or_else(|| {
            self.err(i, "masked load from active memory without a shadow pointer")
        })?;
        let (pass, pass_arg) = (a.passthru.unwrap(), a.passthru_arg.unwrap());
        let tp = self.tangent_or_zero(pass, i)?;
        self.b.after(i);
        let mut lanes = Vec::with_capacity(self.width);
        for l in 0..self.width {
            let t = self
                .b
                .clone_call_with(i, &[(a.ptr_arg, sp[l]), (pass_arg, tp[l])]);
            set_name(t, &self.lane_name(i, l));
            lanes.push(t);
        }
        self.tan.insert(i, lanes);
        Ok(())
    }
}
