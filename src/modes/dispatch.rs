//! Calls through a constant table of functions (`static const fnptr
//! table[] = {f, g, h}; table[i](x)`) made direct: the clone being
//! differentiated calls a small dispatcher, `enzyme_rs.dispatch.*(fp,
//! args...)`, that compares `fp` with each function of the table and calls
//! the one it is. The dispatcher is an ordinary function with a body, so
//! both modes differentiate it (and the table's functions) like any
//! callee. A pointer loaded from a constant table can only be one of its
//! entries (anything else is undefined behaviour), so the last candidate
//! needs no comparison.
use super::Session;
use crate::ir::llvm::*;
use crate::ir::Builder;

/// Make the calls of a clone differentiable where a rewrite can: calls
/// through constant tables of functions (here), the complex-arithmetic
/// runtime (`complex.rs`), and nested gradients' tapes (no thread cache:
/// `tape::uncache_nested_tapes`). Both modes run this on the clone before the
/// activity analysis.
pub fn prepare_calls(sess: &mut Session, f: V) {
    promote_table_calls(sess, f);
    super::complex::lower_complex_calls(sess, f);
    super::reverse::tape::uncache_nested_tapes(sess.module, f);
}

/// Rewrite the calls of `f` whose callee is loaded from a constant global
/// table of functions. Returns how many calls were rewritten.
pub fn promote_table_calls(sess: &mut Session, f: V) -> usize {
    let mut calls = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            if is_call(i) && known_target(i).is_none() && !is_inline_asm(called_value(i)) {
                if let Some(c) = table_candidates(i) {
                    calls.push((i, c));
                }
            }
        }
    }
    let n = calls.len();
    for (call, cands) in calls {
        let fp = strip_casts(called_value(call));
        if cands.len() == 1 {
            let last = num_operands(call) - 1;
            unsafe { LLVMSetOperand(call, last, cands[0]) };
            continue;
        }
        let d = dispatcher(sess, call_fn_type(call), &cands);
        let b = Builder::new(sess.module);
        b.before(call);
        b.set_debug_loc_from(call);
        let mut args = vec![fp];
        args.extend(call_args(call));
        let new = b.call_fn(d, &mut args);
        unsafe {
            if !is_void(type_of(call)) {
                LLVMReplaceAllUsesWith(call, new);
            }
            LLVMInstructionEraseFromParent(call);
        }
    }
    n
}

/// The functions a call's callee may be: the callee is a load from (an
/// element of) a constant global whose initializer holds functions of the
/// call's shape. None when that is not the case.
fn table_candidates(call: V) -> Option<Vec<V>> {
    let load = strip_casts(called_value(call));
    if opcode(load) != Some(LLVMOpcode::LLVMLoad) {
        return None;
    }
    let mut p = strip_casts(operand(load, 0));
    loop {
        let is_gep = opcode(p) == Some(LLVMOpcode::LLVMGetElementPtr)
            || unsafe {
                !LLVMIsAConstantExpr(p).is_null()
                    && LLVMGetConstOpcode(p) == LLVMOpcode::LLVMGetElementPtr
            };
        if !is_gep {
            break;
        }
        p = strip_casts(operand(p, 0));
    }
    if !is_global_var(p) {
        return None;
    }
    let init = unsafe {
        if LLVMIsGlobalConstant(p) == 0 || LLVMIsExternallyInitialized(p) != 0 {
            return None;
        }
        LLVMGetInitializer(p)
    };
    if init.is_null() {
        return None;
    }
    let mut fns = Vec::new();
    collect_functions(init, &mut fns)?;
    let fty = call_fn_type(call);
    let nargs = unsafe { LLVMCountParamTypes(fty) };
    let ret = unsafe { LLVMGetReturnType(fty) };
    fns.retain(|g| {
        let gty = unsafe { LLVMGlobalGetValueType(*g) };
        unsafe { LLVMCountParamTypes(gty) == nargs && LLVMGetReturnType(gty) == ret }
    });
    if fns.is_empty() {
        None
    } else {
        Some(fns)
    }
}

/// The distinct functions in a constant initializer (arrays and structs of
/// them; null entries and other globals, such as name strings, are
/// skipped). None when it holds something else a callee could come from.
fn collect_functions(c: V, out: &mut Vec<V>) -> Option<()> {
    let s = strip_casts(c);
    unsafe {
        if is_function(s) {
            if !out.contains(&s) {
                out.push(s);
            }
            return Some(());
        }
        if is_global_var(s)
            || !LLVMIsAConstantPointerNull(s).is_null()
            || !LLVMIsAConstantAggregateZero(s).is_null()
            || !LLVMIsAUndefValue(s).is_null()
            || !LLVMIsAConstantInt(s).is_null()
            || !LLVMIsAConstantFP(s).is_null()
            || !LLVMIsAConstantDataSequential(s).is_null()
        {
            return Some(());
        }
        if !LLVMIsAConstantArray(s).is_null()
            || !LLVMIsAConstantStruct(s).is_null()
            || !LLVMIsAConstantVector(s).is_null()
        {
            for i in 0..num_operands(s) {
                collect_functions(operand(s, i), out)?;
            }
            return Some(());
        }
    }
    None
}

/// `R enzyme_rs.dispatch(ptr fp, P...)`: call whichever candidate `fp` is.
fn dispatcher(sess: &mut Session, fty: T, cands: &[V]) -> V {
    let names: Vec<String> = cands.iter().map(|c| name(*c)).collect();
    let fname = format!("enzyme_rs.dispatch.{}", names.join("."));
    let ret = unsafe { LLVMGetReturnType(fty) };
    let n = unsafe { LLVMCountParamTypes(fty) } as usize;
    let mut ptys = vec![std::ptr::null_mut(); n];
    unsafe { LLVMGetParamTypes(fty, ptys.as_mut_ptr()) };
    let ctx = unsafe { LLVMGetModuleContext(sess.module) };
    let mut dtys = vec![ptr_type(ctx)];
    dtys.extend(ptys);
    let dty = fn_type_of(ret, &mut dtys, false);
    if let Some(d) = get_function(sess.module, &fname) {
        if unsafe { LLVMGlobalGetValueType(d) } == dty {
            return d;
        }
    }
    let c = cstr(&fname);
    let d = unsafe { LLVMAddFunction(sess.module, c.as_ptr(), dty) };
    unsafe { LLVMSetLinkage(d, llvm_sys::LLVMLinkage::LLVMInternalLinkage) };
    sess.created.push(d);
    let ps = params(d);
    let (fp, args) = (ps[0], &ps[1..]);
    let b = Builder::new(sess.module);
    let block = |n: &str| {
        let c = cstr(n);
        unsafe { LLVMAppendBasicBlockInContext(ctx, d, c.as_ptr()) }
    };
    let mut test = block("entry");
    for (k, cand) in cands.iter().enumerate() {
        let case = block("case");
        b.at_end(test);
        if k + 1 < cands.len() {
            let next = block("test");
            let is = b.icmp(LLVMIntPredicate::LLVMIntEQ, fp, *cand);
            b.cond_br(is, case, next);
            test = next;
        } else {
            b.br(case);
        }
        b.at_end(case);
        let mut a = args.to_vec();
        let r = b.call(fty, *cand, &mut a);
        unsafe { LLVMSetInstructionCallConv(r, LLVMGetFunctionCallConv(*cand)) };
        if is_void(ret) {
            b.ret_void();
        } else {
            b.ret(r);
        }
    }
    d
}
