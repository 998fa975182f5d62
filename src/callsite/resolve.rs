//! The function an `__enzyme_*` call differentiates, from its first
//! argument: a function (or a cast of one), a load of a constant global
//! holding one, a local slot stored once with one (followed through the
//! slots always-inlined C++ wrappers leave at -O0), or the call of a
//! function that returns the same function on every path.
use crate::diag::{Error, Result};
use crate::ir::llvm::*;

/// The value a load of a local slot reads when the slot (an alloca) is
/// stored exactly once, followed through chains of such slots (as
/// always-inlined C++ wrappers leave them at -O0); `v` itself otherwise.
pub fn slot_value(v: V) -> V {
    let mut v = v;
    for _ in 0..64 {
        let s = strip_casts(v);
        if opcode(s) != Some(LLVMOpcode::LLVMLoad) {
            return v;
        }
        // (The slot's address may itself sit in such slots: a lambda
        // passed by reference through the wrappers.)
        let slot = strip_casts(slot_value(operand(s, 0)));
        if opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
            return v;
        }
        let mut stored = None;
        for u in users(slot) {
            match opcode(u) {
                Some(LLVMOpcode::LLVMLoad) => {}
                Some(LLVMOpcode::LLVMStore) if operand(u, 1) == slot && operand(u, 0) != slot => {
                    if stored.replace(operand(u, 0)).is_some() {
                        return v;
                    }
                }
                Some(LLVMOpcode::LLVMStore)
                    if operand(u, 0) == slot && only_read_through(operand(u, 1), 8) => {}
                Some(LLVMOpcode::LLVMCall) => {
                    let n = called_function(u).map(name).unwrap_or_default();
                    if !(n.starts_with("llvm.lifetime.") || n.starts_with("llvm.dbg.")) {
                        return v;
                    }
                }
                _ => return v,
            }
        }
        match stored {
            Some(x) if type_of(x) == type_of(s) => v = x,
            _ => return v,
        }
    }
    v
}

/// Whether the slot `slot` (an alloca holding an address) is only loaded,
/// and what is loaded from it only read through or put in such slots:
/// nothing can write through the address kept there.
fn only_read_through(slot: V, depth: u32) -> bool {
    if depth == 0 || opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
        return false;
    }
    users(slot).into_iter().all(|u| match opcode(u) {
        Some(LLVMOpcode::LLVMStore) => operand(u, 1) == slot && operand(u, 0) != slot,
        Some(LLVMOpcode::LLVMLoad) => users(u).into_iter().all(|l| match opcode(l) {
            // (Reads through it, or a sanitizer's checks of the address.)
            Some(LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMICmp | LLVMOpcode::LLVMPtrToInt) => true,
            Some(LLVMOpcode::LLVMStore) => {
                operand(l, 0) == u && only_read_through(operand(l, 1), depth - 1)
            }
            _ => false,
        }),
        Some(LLVMOpcode::LLVMCall) => {
            let n = called_function(u).map(name).unwrap_or_default();
            n.starts_with("llvm.lifetime.") || n.starts_with("llvm.dbg.")
        }
        _ => false,
    })
}

/// The function a call's callee returns on every path, when it is one
/// constant function.
fn constant_returned_function(call: V) -> Option<V> {
    if opcode(call) != Some(LLVMOpcode::LLVMCall) {
        return None;
    }
    let callee = called_function(call)?;
    if is_declaration(callee) {
        return None;
    }
    let mut found = None;
    for b in blocks(callee) {
        for i in instructions(b) {
            if opcode(i) != Some(LLVMOpcode::LLVMRet) {
                continue;
            }
            if num_operands(i) == 0 {
                return None;
            }
            let r = strip_casts(operand(i, 0));
            if !is_function(r) || found.is_some_and(|f| f != r) {
                return None;
            }
            found = Some(r);
        }
    }
    found
}

/// Resolve the function being differentiated from the first argument.
pub fn resolve_function(call: V, v: V) -> Result<V> {
    let s = strip_casts(v);
    if is_function(s) {
        if is_declaration(s) {
            // A declaration is allowed when a custom derivative exists; the
            // modes check that. Here it is still "a function".
        }
        return Ok(s);
    }
    // A load of a constant global holding a function pointer.
    if opcode(s) == Some(LLVMOpcode::LLVMLoad) {
        let g = strip_casts(operand(s, 0));
        if is_global_var(g) && is_global_constant(g) {
            if let Some(init) = global_initializer(g) {
                let f = strip_casts(init);
                if is_function(f) {
                    return Ok(f);
                }
            }
        }
    }
    // A local slot stored exactly once with a function (or a chain of
    // them, as always-inlined C++ wrappers leave at -O0).
    let f = strip_casts(slot_value(s));
    if is_function(f) {
        return Ok(f);
    }
    // A call of a function that always returns the same function (a C++
    // lambda's conversion to a function pointer, `+lambda`, at -O0).
    if let Some(f) = constant_returned_function(f) {
        return Ok(f);
    }
    let runtime = if is_constant(s) {
        ""
    } else {
        " (a function pointer only known at run time cannot be differentiated; pass the function itself)"
    };
    Err(Error::bad_call(
        call,
        format!(
            "the first argument of {} must be a function (or a cast of one, or a load of a constant function pointer){runtime}; got: {}",
            name(called_value(call)),
            print_value(v).trim()
        ),
    ))
}
