//! Shadows of freed pointers that carry no tangent.
//!
//! A freed pointer gets its shadow freed with it. When the pointer itself
//! is not varied (the activity analysis gives it no tangent: libstdc++'s
//! inlined destructors walk a vector's elements through a pointer phi and
//! free what they load), its shadow is rebuilt here, after every block has
//! its tangent code: the same loads, GEPs, casts, selects and phis over
//! the shadows of their operands. A pointer whose shadow cannot be built
//! this way keeps its shadow (a leak, never a wrong derivative); what was
//! built for it is removed again.
use super::Gen;
use crate::ir::llvm::*;
use std::collections::HashMap;

/// What one attempt builds: the shadows so far per (value, lane) (kept
/// when the attempt succeeds), the new instructions (removed when it
/// fails).
#[derive(Default)]
struct Attempt {
    memo: HashMap<(V, usize), V>,
    made: Vec<V>,
}

impl Gen<'_> {
    /// Free the shadows of the frees put off by `visit_alloc` (their
    /// pointer had no tangent then). Runs once all tangents exist.
    pub(super) fn free_pending_shadows(&mut self) {
        let pending = std::mem::take(&mut self.pending_frees);
        let mut done: HashMap<(V, usize), V> = HashMap::new();
        for i in pending {
            let p = operand(i, 0);
            let mut lanes = Vec::new();
            for l in 0..self.width {
                let mut a = Attempt {
                    memo: done.clone(),
                    made: Vec::new(),
                };
                match self.derive_shadow(p, l, &mut a) {
                    Some(s) => {
                        done = a.memo;
                        lanes.push(s);
                    }
                    None => {
                        drop_made(&a.made);
                        break;
                    }
                }
            }
            if lanes.len() != self.width {
                log::debug!(
                    "forward: no shadow for the pointer freed by {}",
                    print_value(i).trim()
                );
                continue;
            }
            // A shadow equal to the primal (the caller passed one buffer
            // for both) is freed once, by the primal free.
            self.b.before(i);
            let own: Vec<V> = lanes.iter().map(|s| self.null_if(*s, p)).collect();
            self.b.after(i);
            for s in own {
                let c = self.clone_call_after(i);
                set_operand(c, 0, s);
                drop_call_arg_nonnull(c, 0);
            }
        }
    }

    /// `s == x ? null : s`, at the builder's position.
    fn null_if(&self, s: V, x: V) -> V {
        let same = self.b.icmp(LLVMIntPredicate::LLVMIntEQ, s, x);
        self.b.select(same, zero(type_of(s)), s)
    }

    /// The shadow of pointer `v` in lane `l`: its tangent, or the same
    /// computation over its operands' shadows. A null shadow stays null
    /// through GEPs and loads (memory whose primal held an inactive
    /// pointer holds null in its shadow).
    fn derive_shadow(&mut self, v: V, l: usize, a: &mut Attempt) -> Option<V> {
        if let Some(s) = a.memo.get(&(v, l)) {
            return Some(*s);
        }
        if let Some(t) = self.tan.get(&v) {
            return Some(t[l]);
        }
        if is_constant(v) && is_null_or_undef(v) {
            return Some(zero(type_of(v)));
        }
        if is_global_var(v) || !is_instruction(v) {
            return self.tangent(v).map(|t| t[l]);
        }
        use LLVMOpcode::*;
        let s = match opcode(v)? {
            LLVMLoad if is_ptr(type_of(v)) => {
                let sp = self.derive_shadow(operand(v, 0), l, a)?;
                // Through a cell holding null when the shadow pointer is
                // null.
                let ty = type_of(v);
                if type_of(sp) != type_of(self.null_cell(ty)) {
                    return None;
                }
                let cell = self.null_cell(ty);
                self.b.after(v);
                let null = zero(type_of(sp));
                let is_null = self.b.icmp(LLVMIntPredicate::LLVMIntEQ, sp, null);
                let from = self.b.select(is_null, cell, sp);
                let s = self.b.load(ty, from);
                a.made.extend([is_null, from, s]);
                s
            }
            LLVMGetElementPtr => {
                let sb = self.derive_shadow(operand(v, 0), l, a)?;
                let mut idx: Vec<V> = operands(v)[1..].to_vec();
                self.b.after(v);
                let g = self.b.gep(gep_source_type(v), sb, &mut idx);
                copy_inbounds(v, g);
                let null = zero(type_of(sb));
                let is_null = self.b.icmp(LLVMIntPredicate::LLVMIntEQ, sb, null);
                let s = self.b.select(is_null, zero(type_of(g)), g);
                a.made.extend([g, is_null, s]);
                s
            }
            op @ (LLVMBitCast | LLVMAddrSpaceCast) => {
                let so = self.derive_shadow(operand(v, 0), l, a)?;
                self.b.after(v);
                let c = self.b.cast(op, so, type_of(v));
                if c != so && is_instruction(c) {
                    a.made.push(c);
                }
                c
            }
            LLVMSelect => {
                let sx = self.derive_shadow(operand(v, 1), l, a)?;
                let sy = self.derive_shadow(operand(v, 2), l, a)?;
                self.b.after(v);
                let s = self.b.select(operand(v, 0), sx, sy);
                a.made.push(s);
                s
            }
            LLVMPHI => {
                self.b.at_first_non_phi(inst_block(v));
                let sp = self.b.phi(type_of(v));
                set_name(sp, &self.lane_name(v, l));
                a.made.push(sp);
                // Entered before the incoming values: a loop's phi meets
                // itself through them.
                a.memo.insert((v, l), sp);
                for (x, bb) in incoming(v) {
                    let sx = self.derive_shadow(x, l, a)?;
                    add_incoming(sp, &[(sx, bb)]);
                }
                sp
            }
            _ => return None,
        };
        a.memo.insert((v, l), s);
        Some(s)
    }

    /// An entry-block slot of type `ty` holding null (kept per type).
    fn null_cell(&mut self, ty: T) -> V {
        if let Some(c) = self.null_cells.get(&ty) {
            return *c;
        }
        let b = crate::ir::Builder::new(self.sess.module);
        b.at_entry_allocas(self.nf);
        let c = b.alloca(ty);
        b.store(zero(ty), c);
        self.null_cells.insert(ty, c);
        c
    }
}

/// Remove the instructions of a shadow that could not be completed (in
/// reverse order of creation; phis may use each other, so uses go first).
fn drop_made(made: &[V]) {
    for m in made {
        replace_all_uses(*m, poison(type_of(*m)));
    }
    for m in made.iter().rev() {
        erase(*m);
    }
}
