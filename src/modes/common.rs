//! What forward and reverse mode share beyond IR helpers: preparing a
//! cloned function's by-value parameters, the sources of a returned pointer
//! that needs a shadow, and the errors and signature text of custom
//! derivatives. Both modes import this module; neither imports
//! the other.
use crate::diag::{Error, ErrorKind};
use crate::ir::llvm::*;
use crate::ir::Builder;

/// The clone keeps the primal's `byval`/`sret` parameter attributes, but its
/// callers pass plain pointers: drop them. A `byval` parameter is the
/// callee's private copy, so the clone makes that copy itself (an alloca
/// filled by memcpy): its shadow then starts at zero and the memcpy's
/// adjoint adds it back into the caller's shadow.
pub fn lower_byval_params(aug: V, primal_params: &[V]) {
    let all = params(aug);
    let b = Builder::for_function(aug);
    for p in primal_params {
        let Some(idx) = all.iter().position(|q| q == p) else {
            continue;
        };
        let ai = idx as u32 + 1;
        if has_attr_at(aug, ai, "sret") {
            remove_attr_at(aug, ai, "sret");
        }
        let Some(ty) = type_attr_at(aug, ai, "byval") else {
            continue;
        };
        remove_attr_at(aug, ai, "byval");
        b.at_entry_allocas(aug);
        b.clear_debug_loc();
        let copy = b.alloca(ty);
        set_name(copy, &format!("{}.byval", name(*p)));
        let align = alignment(copy).max(1);
        replace_all_uses(*p, copy);
        let m = b.memcpy(
            copy,
            *p,
            const_i64(b.ctx, type_alloc_size(module_of(aug), ty) as i64),
            align,
        );
        let _ = m;
    }
}

/// The error for a custom derivative whose signature does not fit.
pub fn custom_mismatch(user_call: Option<V>, msg: String) -> Error {
    Error {
        kind: ErrorKind::BadCall(msg),
        at: user_call.map(|c| crate::diag::At {
            func: inst_fn(c),
            inst: Some(c),
        }),
    }
}

pub fn fn_sig_text(f: V) -> String {
    let ps: Vec<String> = params(f).iter().map(|p| print_type(type_of(*p))).collect();
    format!("{} ({})", print_type(fn_return_type(f)), ps.join(", "))
}

/// Where the values `f` returns come from: calls (allocations, callees
/// returning fresh memory), followed back through phis, selects, GEPs,
/// casts and -O0's return slot. When the caller needs a shadow of the
/// result although no parameter is duplicated (reverse mode's
/// `Key::ret_shadow`, forward mode's `ret_tangent`), the activity analysis
/// starts from these too, so the allocation gets its shadow and a callee
/// is asked for the shadow of its result in turn.
pub fn returned_sources(f: V) -> Vec<V> {
    let mut work: Vec<V> = blocks(f)
        .into_iter()
        .map(terminator)
        .filter(|t| {
            !t.is_null() && opcode(*t) == Some(LLVMOpcode::LLVMRet) && num_operands(*t) == 1
        })
        .map(|t| operand(t, 0))
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        match opcode(v) {
            Some(LLVMOpcode::LLVMPHI) => work.extend(operands(v)),
            Some(LLVMOpcode::LLVMSelect) => work.extend(operands(v).into_iter().skip(1)),
            Some(
                LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMAddrSpaceCast,
            ) => work.push(operand(v, 0)),
            Some(LLVMOpcode::LLVMCall) => out.push(v),
            // -O0's return slot: what is stored into it.
            Some(LLVMOpcode::LLVMLoad) if opcode(operand(v, 0)) == Some(LLVMOpcode::LLVMAlloca) => {
                work.extend(
                    users(operand(v, 0))
                        .into_iter()
                        .filter(|u| {
                            opcode(*u) == Some(LLVMOpcode::LLVMStore)
                                && operand(*u, 1) == operand(v, 0)
                        })
                        .map(|u| operand(u, 0)),
                );
            }
            _ => {}
        }
    }
    out
}

/// Whether `v` is a function, or a constant expression into a constant
/// global whose contents hold no floats (a C++ vtable, a table of function
/// pointers). (A call through such a pointer with active arguments is still
/// an error: see `callee_to_differentiate`.)
pub fn points_into_float_free_constant(v: V) -> bool {
    let mut g = strip_casts(v);
    while is_const_gep(g) {
        g = strip_casts(operand(g, 0));
    }
    is_function(g) || (is_global_var(g) && is_global_constant(g) && !contains_fp(global_type(g)))
}

/// Whether `v` is null moved by GEPs (`gep T, ptr null, %n`), or another
/// address without provenance (an `inttoptr` of a plain integer: Rust's
/// dangling pointer of an empty `Vec`): its own shadow.
pub fn null_based(v: V) -> bool {
    let mut p = strip_casts(v);
    while opcode(p) == Some(LLVMOpcode::LLVMGetElementPtr) {
        p = strip_casts(operand(p, 0));
    }
    (p != v && is_const_null_ptr(p))
        || crate::analysis::activity::without_provenance(
            v,
            crate::analysis::activity::Params::Trusted,
        )
}

/// Refuse to differentiate `f` when it uses a type without a fixed size (a
/// scalable vector `<vscale x N x T>`, a target extension type): the
/// derivative code is built for fixed sizes. The error names the first
/// such value (or `f` itself for its signature).
pub fn check_fixed_sizes(f: V, user_call: Option<V>) -> Result<(), Error> {
    let unsupported = |t: T, at: Option<V>| {
        Error::new(
            ErrorKind::Unsupported(format!(
                "values of type {} (a scalable vector or a target extension type, whose size is not fixed) cannot be differentiated; compile the code for fixed-width vectors (for example without -msve-vector-bits=scalable / RVV autovectorization)",
                print_type(t)
            )),
            f,
            at,
        )
    };
    for t in param_types(fn_type(f))
        .into_iter()
        .chain(std::iter::once(fn_return_type(f)))
    {
        if has_unfixed_size(t) {
            return Err(unsupported(t, user_call));
        }
    }
    for bb in blocks(f) {
        for i in instructions(bb) {
            let t = type_of(i);
            if has_unfixed_size(t) {
                return Err(unsupported(t, Some(i)));
            }
            let inner = match opcode(i) {
                Some(LLVMOpcode::LLVMGetElementPtr) => Some(gep_source_type(i)),
                Some(LLVMOpcode::LLVMAlloca) => Some(allocated_type(i)),
                _ => None,
            };
            for ot in operands(i).into_iter().map(type_of).chain(inner) {
                if has_unfixed_size(ot) {
                    return Err(unsupported(ot, Some(i)));
                }
            }
        }
    }
    Ok(())
}

/// The `posix_memalign(%slot, align, size)` call whose result `v` is:
/// `v = load ptr, %slot` of a local slot, after that call in its block.
pub fn posix_memalign_of(v: V) -> Option<V> {
    if opcode(v) != Some(LLVMOpcode::LLVMLoad) || !is_ptr(type_of(v)) {
        return None;
    }
    let slot = operand(v, 0);
    if opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
        return None;
    }
    let mut pm = None;
    for i in instructions(inst_block(v)) {
        if i == v {
            break;
        }
        if is_call(i)
            && operand(i, 0) == slot
            && matches!(crate::rules::classify(i), crate::rules::CallKind::AllocOut)
        {
            pm = Some(i);
        }
    }
    pm
}
