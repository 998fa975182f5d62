//! The tape object in registers in a sweep left a call.
//!
//! The augmented and reverse sweeps take the tape object `{data, top, cap,
//! tag}` (`tape.rs`) by pointer, as their last parameter. Inlined into the
//! user's function, that pointer is the caller's alloca and SROA keeps the
//! top in a register; in a sweep left a call (a shared derivative), every
//! push and pop loads and stores the top through the pointer. A loop whose
//! only work is moving the top (the reverse of a loop whose iterations
//! left nothing to undo) then keeps a store per iteration and is not
//! deleted: sort's out-of-line reverse sweep still walked its insertion
//! sort's outer loop (+17% per call against an inlined copy).
//!
//! Here each such function copies the object into an alloca of its own
//! on entry and back at each return; calls that take the tape (a callee's
//! or its own recursive sweep) get the caller's object, synchronised
//! before and after the call. The cleanup's SROA then promotes the copy.
//!
//! Left alone: a function whose tape pointer is used other than by loads,
//! stores and address arithmetic reaching them, or as a call argument (it
//! could be kept past the return), and one with `invoke`s (an unwinding
//! callee would skip the copy back). Not on GPU targets (the alloca's
//! address space). `ENZYME_RS_TAPE_LOCAL=0` turns this off.
use crate::ir::llvm::*;
use crate::ir::values::{replace_all_uses, set_operand};
use crate::ir::Builder;

/// Localize the tape object of each of `fns` (augmented and reverse
/// sweeps: the tape is their last parameter). Returns how many changed.
pub fn run(fns: &[V]) -> usize {
    if !crate::options::switches::tape_local() {
        return 0;
    }
    let mut done = 0;
    for &f in fns {
        if is_declaration(f) || crate::ir::gpu::device_of(module_of(f)).is_some() {
            continue;
        }
        if localize(f) {
            log::debug!("enzyme-rs: tape object of {} kept in a local copy", name(f));
            done += 1;
        }
    }
    done
}

/// Whether every use of `p` (the tape pointer or an address computed from
/// it) is a load from or a store to it, address arithmetic with such uses,
/// or (`p` itself) a call argument; the calls are collected.
fn uses_ok(p: V, top: bool, calls: &mut Vec<V>) -> bool {
    for u in users(p) {
        match opcode(u) {
            Some(LLVMOpcode::LLVMLoad) => {}
            Some(LLVMOpcode::LLVMStore) if operand(u, 0) != p => {}
            Some(LLVMOpcode::LLVMGetElementPtr) if operand(u, 0) == p => {
                if !uses_ok(u, false, calls) {
                    return false;
                }
            }
            Some(LLVMOpcode::LLVMCall) if top && called_value(u) != p => {
                if !calls.contains(&u) {
                    calls.push(u);
                }
            }
            _ => return false,
        }
    }
    true
}

fn localize(f: V) -> bool {
    let Some(&tp) = params(f).last() else {
        return false;
    };
    if !is_ptr(type_of(tp)) || !has_uses(tp) {
        return false;
    }
    let has_invoke = blocks(f)
        .into_iter()
        .any(|bb| instructions(bb).into_iter().any(is_invoke));
    let mut calls = Vec::new();
    if has_invoke || !uses_ok(tp, true, &mut calls) {
        return false;
    }
    let b = Builder::for_function(f);
    let ctx = b.ctx;
    b.clear_debug_loc();
    b.at_entry_allocas(f);
    let tt = crate::modes::reverse::tape::tape_type(ctx);
    let local = b.alloca(tt);
    if type_of(local) != type_of(tp) {
        crate::ir::values::erase(local);
        return false;
    }
    replace_all_uses(tp, local);
    let written = written_fields(local, tt);
    // Field by field (a memcpy would leave SROA a slice of the fields the
    // sweep never touches, copied through memory); back only the fields
    // the function writes (the others always equal the caller's).
    let copy = |from: V, to: V| {
        let back = to == tp;
        let fields = struct_fields(tt);
        for (k, ft) in fields.into_iter().enumerate() {
            if back && !written[k] {
                continue;
            }
            let idx = || [const_i32(ctx, 0), const_i32(ctx, k as i64)];
            let src = b.gep(tt, from, &mut idx());
            let v = b.load(ft, src);
            let dst = b.gep(tt, to, &mut idx());
            b.store(v, dst);
        }
    };
    copy(tp, local);
    for c in calls {
        b.before(c);
        copy(local, tp);
        for k in 0..call_num_args(c) {
            if operand(c, k) == local {
                set_operand(c, k, tp);
            }
        }
        b.after(c);
        copy(tp, local);
    }
    for bb in blocks(f) {
        let r = terminator(bb);
        if opcode(r) == Some(LLVMOpcode::LLVMRet) {
            b.before(r);
            copy(local, tp);
        }
    }
    true
}

/// Which fields of the tape object at `local` (of type `tt`) a store may
/// write: through the pointer itself (field 0) or a constant field
/// address; any other address counts as writing every field.
fn written_fields(local: V, tt: T) -> Vec<bool> {
    let n = struct_fields(tt).len();
    let mut w = vec![false; n];
    let field_of = |g: V| -> Option<usize> {
        let ops = operands(g);
        let ints: Vec<i64> = ops[1..]
            .iter()
            .map(|v| const_int_value(*v))
            .collect::<Option<_>>()?;
        let st = crate::ir::values::gep_source_type(g);
        match ints.as_slice() {
            [0, k] if st == tt => Some(*k as usize),
            [off] if st == i8_type(context_of(tt)) && off % 8 == 0 => Some(*off as usize / 8),
            _ => None,
        }
    };
    let stores_to = |p: V| {
        users(p)
            .into_iter()
            .any(|u| opcode(u) == Some(LLVMOpcode::LLVMStore) && operand(u, 1) == p)
    };
    if stores_to(local) {
        w[0] = true;
    }
    for g in users(local) {
        if opcode(g) != Some(LLVMOpcode::LLVMGetElementPtr) {
            continue;
        }
        // (uses_ok let only loads and stores use a field address.)
        let deeper = users(g)
            .into_iter()
            .any(|u| opcode(u) == Some(LLVMOpcode::LLVMGetElementPtr));
        match field_of(g).filter(|k| *k < n && !deeper) {
            Some(k) => w[k] |= stores_to(g),
            None if stores_to(g) || deeper => w.iter_mut().for_each(|x| *x = true),
            None => {}
        }
    }
    w
}
