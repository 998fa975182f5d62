//! Activity analysis: which values of a function can carry a derivative.
//!
//! A value is *varied* when a derivative can flow into it from an active
//! input: it then gets a tangent (forward mode) or an adjoint (reverse mode).
//! Pointers are varied when they point to memory that has a shadow.
//!
//! The analysis is a fixed point over two facts:
//! - forward flow: an instruction whose operands are varied is varied (with
//!   per-instruction rules: loads read varied memory, allocations are varied
//!   only when active data is stored in them, integers only carry the raw
//!   shadow bits of a float copied through an integer register);
//! - memory: storing a varied value through a pointer makes the memory it
//!   points to (its underlying allocation) varied, so later loads are varied.
//!
//! It is sound: anything a derivative can reach through instructions or
//! memory is varied. Storing active data into memory that cannot have a
//! shadow (a constant argument) is an error rather than a silent zero.
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::rules;
use std::collections::HashSet;

pub struct Activity {
    pub varied: HashSet<V>,
    /// Function arguments with shadows (seeds).
    seeds: HashSet<V>,
}

impl Activity {
    pub fn is_varied(&self, v: V) -> bool {
        self.varied.contains(&v)
    }

    /// Analyse `f`; `seeds` are the arguments that carry derivatives
    /// (dup pointers, active floats). `primal` names the user's function
    /// for error messages.
    pub fn analyse(f: V, seeds: &[V], primal: V) -> Result<Activity> {
        let mut a = Activity {
            varied: seeds.iter().copied().collect(),
            seeds: seeds.iter().copied().collect(),
        };
        let order: Vec<V> = rpo(f).into_iter().flat_map(instructions).collect();
        loop {
            let mut changed = false;
            for &i in &order {
                if !a.varied.contains(&i) && a.flows_into(i) {
                    a.varied.insert(i);
                    changed = true;
                }
                changed |= a.memory_effects(i, primal)?;
            }
            if !changed {
                break;
            }
        }
        Ok(a)
    }

    fn any_operand_varied(&self, i: V) -> bool {
        operands(i).into_iter().any(|o| self.varied.contains(&o))
    }

    /// Whether a derivative flows into instruction `i` from its operands.
    fn flows_into(&self, i: V) -> bool {
        use LLVMOpcode::*;
        let t = type_of(i);
        let Some(op) = opcode(i) else { return false };
        match op {
            LLVMLoad => {
                let p = operand(i, 0);
                if !self.varied.contains(&p) {
                    return false;
                }
                may_carry_derivative(t) || (is_int_like(t) && carries_bits(i))
            }
            LLVMBitCast => {
                // float <-> integer punning keeps the shadow bits.
                self.any_operand_varied(i)
                    && (may_carry_derivative(t)
                        || (is_int_like(t) && contains_fp(type_of(operand(i, 0)))))
            }
            LLVMAlloca => false, // only through memory_effects
            LLVMCall => {
                if !may_carry_derivative(t) {
                    return false;
                }
                let callee = called_function(i).map(|f| name(f)).unwrap_or_default();
                if rules::alloc_kind(&callee).is_some() {
                    return false; // only through memory_effects (or realloc of varied)
                }
                if rules::is_inactive_function(&callee) {
                    return false;
                }
                call_args(i).into_iter().any(|o| self.varied.contains(&o))
            }
            LLVMICmp | LLVMFCmp | LLVMPtrToInt | LLVMFPToSI | LLVMFPToUI | LLVMSIToFP
            | LLVMUIToFP | LLVMIntToPtr => false,
            LLVMInsertValue | LLVMInsertElement => {
                // Integers only keep shadow bits of pointers/floats they hold.
                may_carry_derivative(t) && self.any_operand_varied(i)
            }
            _ => may_carry_derivative(t) && self.any_operand_varied(i),
        }
    }

    /// Memory effects of `i`: marks allocations varied. Returns whether
    /// anything changed.
    fn memory_effects(&mut self, i: V, primal: V) -> Result<bool> {
        use LLVMOpcode::*;
        let Some(op) = opcode(i) else {
            return Ok(false);
        };
        let mut changed = false;
        match op {
            LLVMStore => {
                let v = operand(i, 0);
                if self.varied.contains(&v) {
                    changed |= self.mark_memory(operand(i, 1), i, primal)?;
                }
                // A pointer stored into shadowed memory: loading it back
                // yields its shadow, so it needs one.
                if is_ptr(type_of(v))
                    && !self.varied.contains(&v)
                    && self.varied.contains(&operand(i, 1))
                {
                    changed |= self.mark_local_memory(v);
                }
            }
            LLVMAtomicRMW | LLVMAtomicCmpXchg => {
                if self.any_operand_varied(i) {
                    changed |= self.mark_memory(operand(i, 0), i, primal)?;
                }
            }
            LLVMCall => {
                let callee = called_function(i).map(|f| name(f)).unwrap_or_default();
                if let Some(k) = rules::mem_kind(&callee) {
                    if k != rules::MemKind::Set && self.varied.contains(&operand(i, 1)) {
                        changed |= self.mark_memory(operand(i, 0), i, primal)?;
                    }
                } else if rules::alloc_kind(&callee) == Some(rules::AllocKind::Realloc) {
                    if self.varied.contains(&operand(i, 0)) && !self.varied.contains(&i) {
                        self.varied.insert(i);
                        changed = true;
                    }
                } else if !rules::is_inactive_function(&callee) && rules::lookup(i).is_none() {
                    // A call that may write active data through pointer
                    // arguments: local allocations passed to it get shadows.
                    if call_args(i).iter().any(|a| self.varied.contains(a)) {
                        for a in call_args(i) {
                            if is_ptr(type_of(a)) && !self.varied.contains(&a) {
                                changed |= self.mark_local_memory(a);
                            }
                        }
                    }
                }
            }
            LLVMPHI | LLVMSelect => {
                // A varied pointer merged with others: all of them need shadows.
                if is_ptr(type_of(i)) && self.varied.contains(&i) {
                    for o in operands(i) {
                        if is_ptr(type_of(o)) && !self.varied.contains(&o) {
                            changed |= self.mark_local_memory(o);
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(changed)
    }

    /// Mark the allocations `p` may point into as varied (they get shadows).
    fn mark_memory(&mut self, p: V, at: V, primal: V) -> Result<bool> {
        let mut changed = false;
        for root in underlying_objects(p) {
            if self.varied.contains(&root) {
                continue;
            }
            if is_argument(root) {
                if self.seeds.contains(&root) {
                    continue;
                }
                return Err(Error::new(
                    ErrorKind::Unsupported(format!(
                        "an active value is stored into memory reached from argument {} of '{}', which has no shadow (it is enzyme_const or an integer); pass it with enzyme_dup and a shadow",
                        describe_arg(root),
                        name(primal)
                    )),
                    primal,
                    Some(at),
                ));
            }
            if is_constant(root) && !is_global_var(root) {
                continue; // null, undef: no memory
            }
            match opcode(root) {
                Some(LLVMOpcode::LLVMLoad) => {
                    // A pointer loaded from memory: its shadow is loaded from
                    // the shadow of that memory, which must then exist.
                    changed |= self.mark_memory(operand(root, 0), at, primal)?;
                }
                Some(LLVMOpcode::LLVMIntToPtr) => {
                    return Err(Error::new(
                        ErrorKind::Unsupported("an active value is stored through a pointer made from an integer (inttoptr); its shadow is unknown".into()),
                        primal,
                        Some(at),
                    ));
                }
                _ => {
                    self.varied.insert(root);
                    changed = true;
                }
            }
        }
        Ok(changed)
    }

    /// Like mark_memory, but only for allocations local to the function
    /// (allocas and heap allocations); others are left alone.
    fn mark_local_memory(&mut self, p: V) -> bool {
        let mut changed = false;
        for root in underlying_objects(p) {
            if self.varied.contains(&root) {
                continue;
            }
            let local = opcode(root) == Some(LLVMOpcode::LLVMAlloca)
                || (is_call(root)
                    && called_function(root)
                        .map(|f| rules::alloc_kind(&name(f)).is_some())
                        .unwrap_or(false));
            if local {
                self.varied.insert(root);
                changed = true;
            } else if opcode(root) == Some(LLVMOpcode::LLVMLoad) && is_ptr(type_of(root)) {
                changed |= self.mark_local_slot(operand(root, 0), &mut HashSet::new());
            }
        }
        changed
    }

    /// A pointer kept in a local variable (a slot, at -O0) and loaded back:
    /// when a local allocation is stored in the slot, the allocation and
    /// the slot get shadows, so the load hands the allocation's shadow on.
    /// Slots holding only other pointers (constant arguments) are left alone.
    fn mark_local_slot(&mut self, slot: V, seen: &mut HashSet<V>) -> bool {
        if !seen.insert(slot) || opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
            return false;
        }
        let mut changed = false;
        let mut holds_shadowed = false;
        for u in users(slot) {
            if opcode(u) != Some(LLVMOpcode::LLVMStore) || operand(u, 1) != slot {
                continue;
            }
            let v = operand(u, 0);
            if !is_ptr(type_of(v)) {
                continue;
            }
            for root in underlying_objects(v) {
                if opcode(root) == Some(LLVMOpcode::LLVMLoad) {
                    changed |= self.mark_local_slot(operand(root, 0), seen);
                } else {
                    changed |= self.mark_local_memory(root);
                }
                holds_shadowed |= self.varied.contains(&root);
            }
        }
        if holds_shadowed && !self.varied.contains(&slot) {
            self.varied.insert(slot);
            changed = true;
        }
        changed
    }
}

fn describe_arg(a: V) -> String {
    let n = name(a);
    let f = unsafe { LLVMGetParamParent(a) };
    let idx = params(f)
        .iter()
        .position(|p| *p == a)
        .map(|i| i + 1)
        .unwrap_or(0);
    if n.is_empty() {
        format!("#{idx}")
    } else {
        format!("#{idx} '{n}'")
    }
}

/// Integers (and integer vectors) wide enough to hold a float's bits.
fn is_int_like(t: T) -> bool {
    (is_int(t) && unsafe { LLVMGetIntTypeWidth(t) } >= 16)
        || (is_vector(t)
            && is_int(elem_type(t))
            && unsafe { LLVMGetIntTypeWidth(elem_type(t)) } >= 16)
}

/// An integer loaded only to be stored or reinterpreted (a memory copy
/// through an integer register) carries the shadow's bits along.
fn carries_bits(load: V) -> bool {
    users(load).into_iter().any(|u| match opcode(u) {
        Some(LLVMOpcode::LLVMStore) => operand(u, 0) == load,
        Some(LLVMOpcode::LLVMBitCast) => contains_fp(type_of(u)),
        _ => false,
    })
}

/// The allocations/arguments/globals a pointer may be based on.
pub fn underlying_objects(p: V) -> Vec<V> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut work = vec![p];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        match opcode(v) {
            Some(
                LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMAddrSpaceCast,
            ) => work.push(operand(v, 0)),
            Some(LLVMOpcode::LLVMPHI) => work.extend(operands(v)),
            Some(LLVMOpcode::LLVMSelect) => {
                work.push(operand(v, 1));
                work.push(operand(v, 2));
            }
            Some(LLVMOpcode::LLVMCall) => {
                // Functions returning one of their arguments.
                out.push(v);
            }
            _ => {
                if unsafe { !LLVMIsAConstantExpr(v).is_null() } {
                    let op = unsafe { LLVMGetConstOpcode(v) };
                    if matches!(
                        op,
                        LLVMOpcode::LLVMGetElementPtr
                            | LLVMOpcode::LLVMBitCast
                            | LLVMOpcode::LLVMAddrSpaceCast
                    ) {
                        work.push(operand(v, 0));
                        continue;
                    }
                }
                out.push(v)
            }
        }
    }
    out
}
