//! Indirect calls made direct, so both modes differentiate them like any
//! callee: the clone being differentiated calls a small dispatcher,
//! `enzyme_rs.dispatch.*(fp, args...)`, that compares `fp` with each
//! candidate function and calls the one it is.
//!
//! - Calls through a constant table of functions (`static const fnptr
//!   table[] = {f, g, h}; table[i](x)`), before the activity analysis: the
//!   candidates are the table's entries; a pointer loaded from a constant
//!   table can only be one of them (anything else is undefined behaviour),
//!   so the last candidate needs no comparison.
//! - Any other indirect call that carries derivatives (a virtual call, a
//!   function-pointer parameter at -O0), after the activity analysis: the
//!   candidates are the functions of this module whose address is taken,
//!   whose type is the call's and that the modes can differentiate (a
//!   closed world); any other target prints why and aborts, never a
//!   derivative missing its contribution.
use super::Session;
use crate::ir::llvm::*;
use crate::ir::Builder;

/// Make the calls of a clone differentiable where a rewrite can: calls
/// through constant tables of functions (here), the complex-arithmetic
/// runtime (`complex.rs`), libm's sincos and modf (`libm_out.rs`), and nested gradients' tapes (no thread cache:
/// `tape::uncache_nested_tapes`) and kept shadows (`keep::unkeep_nested`). Both modes run this on the clone before the
/// activity analysis.
pub fn prepare_calls(sess: &mut Session, f: V) {
    super::intptr::pointers_from_integers(sess.module, f);
    promote_table_calls(sess, f);
    super::complex::lower_complex_calls(sess, f);
    super::libm_out::lower_pointer_output_calls(sess, f);
    super::reverse::tape::uncache_nested_tapes(sess.module, f);
    super::reverse::keep::unkeep_nested(sess.module, f);
    super::reverse::freelist::keep_nested(f);
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
            set_operand(call, last, cands[0]);
            continue;
        }
        let d = dispatcher(sess, call_fn_type(call), &cands, false);
        let b = Builder::new(sess.module);
        b.before(call);
        b.set_debug_loc_from(call);
        let mut args = vec![fp];
        args.extend(call_args(call));
        let new = b.call_fn(d, &mut args);
        replace_and_erase(call, new);
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
        let is_gep = opcode(p) == Some(LLVMOpcode::LLVMGetElementPtr) || is_const_gep(p);
        if !is_gep {
            break;
        }
        p = strip_casts(operand(p, 0));
    }
    if !is_global_var(p) {
        return None;
    }
    if !is_global_constant(p) || is_externally_initialized(p) {
        return None;
    }
    let init = global_initializer(p)?;
    let mut fns = Vec::new();
    collect_functions(init, &mut fns)?;
    let fty = call_fn_type(call);
    let nargs = num_param_types(fty);
    let ret = ret_type(fty);
    fns.retain(|g| {
        let gty = global_type(*g);
        num_param_types(gty) == nargs && ret_type(gty) == ret
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
    if is_function(s) {
        if !out.contains(&s) {
            out.push(s);
        }
        return Some(());
    }
    if is_global_var(s)
        || is_const_null_ptr(s)
        || is_const_aggregate_zero(s)
        || is_undef(s)
        || is_const_int(s)
        || is_const_fp(s)
        || is_const_data_seq(s)
    {
        return Some(());
    }
    if is_const_array(s) || is_const_struct(s) || is_const_vector(s) {
        for i in 0..num_operands(s) {
            collect_functions(operand(s, i), out)?;
        }
        return Some(());
    }
    None
}

/// `R enzyme_rs.dispatch(ptr fp, P...)`: call whichever candidate `fp` is.
/// `open`: the candidates may not be all `fp` can be; the dispatcher then
/// takes a second pointer, `R enzyme_rs.dispatch.open(ptr fp, ptr site,
/// P...)`, the call site's message, and any other target prints it (with
/// the target's name) and aborts.
fn dispatcher(sess: &mut Session, fty: T, cands: &[V], open: bool) -> V {
    let names: Vec<String> = cands.iter().map(|c| name(*c)).collect();
    let fname = format!(
        "enzyme_rs.dispatch{}.{}",
        if open { ".open" } else { "" },
        names.join(".")
    );
    let ret = ret_type(fty);
    let ptys = param_types(fty);
    let ctx = module_context(sess.module);
    let mut dtys = vec![ptr_type(ctx)];
    if open {
        dtys.push(ptr_type(ctx));
    }
    dtys.extend(ptys);
    let dty = fn_type_of(ret, &mut dtys, false);
    if let Some(d) = get_function(sess.module, &fname) {
        if global_type(d) == dty {
            return d;
        }
    }
    let d = add_internal_function(sess.module, &fname, dty);
    sess.created.push(d);
    let ps = params(d);
    let skip = if open { 2 } else { 1 };
    let (fp, args) = (ps[0], &ps[skip..]);
    let b = Builder::new(sess.module);
    let block = |n: &str| append_block(d, n);
    let mut test = block("entry");
    for (k, cand) in cands.iter().enumerate() {
        let case = block("case");
        b.at_end(test);
        if open || k + 1 < cands.len() {
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
        copy_call_conv(*cand, r);
        if is_void(ret) {
            b.ret_void();
        } else {
            b.ret(r);
        }
    }
    if open {
        b.at_end(test);
        let stop = unknown_target_reporter(sess);
        let call = b.call_fn(stop, &mut [ps[1], fp]);
        // The report carries no derivative: no mode looks inside it.
        add_call_string_attr(call, "enzyme_inactive");
        b.unreachable();
    }
    d
}

/// The message of an open dispatcher's call site: what happened, in which
/// function, at which source line, and the candidates it knew.
fn site_message(primal: V, call: V, cands: &[V]) -> String {
    let at = match crate::ir::shim::debug_location(call) {
        Some((file, line)) => format!(" at {file}:{line}"),
        None => String::new(),
    };
    let names: Vec<String> = cands.iter().map(|c| format!("'{}'", name(*c))).collect();
    format!(
        "enzyme-rs: an indirect call in function '{}'{at}, being differentiated, \
         reached a function that is not one of its candidates (the functions of \
         this module of its type whose address is taken: {}); its derivative is \
         unknown, so the program stops",
        name(primal),
        names.join(", ")
    )
}

/// `void enzyme_rs.unknown_target(ptr site, ptr fp)`: flush the program's
/// output, print the call site's message and the target (its symbol name
/// from `dladdr` where the dynamic linker knows it, and its address) on
/// standard error, and abort.
fn unknown_target_reporter(sess: &mut Session) -> V {
    const NAME: &str = "enzyme_rs.unknown_target";
    if let Some(f) = get_function(sess.module, NAME) {
        return f;
    }
    let m = sess.module;
    let ctx = module_context(m);
    let (p, i32t) = (ptr_type(ctx), i32_type(ctx));
    let f = add_internal_function(m, NAME, fn_type_of(void_type(ctx), &mut [p, p], false));
    sess.created.push(f);
    add_fn_attr(f, "noinline");
    add_fn_attr(f, "cold");
    let ps = params(f);
    let (site, fp) = (ps[0], ps[1]);
    let b = Builder::new(m);
    b.at_end(append_block(f, "entry"));
    let fflush = get_or_declare(m, "fflush", fn_type_of(i32t, &mut [p], false));
    b.call_fn(fflush, &mut [zero(p)]);
    // Dl_info: {dli_fname, dli_fbase, dli_sname, dli_saddr}.
    let info_ty = array_type(p, 4);
    let info = b.alloca(info_ty);
    b.store(zero(info_ty), info);
    let dladdr = get_or_declare(m, "dladdr", fn_type_of(i32t, &mut [p, p], false));
    b.call_fn(dladdr, &mut [fp, info]);
    let sname_at = b.gep(info_ty, info, &mut [const_int(i32t, 0), const_int(i32t, 2)]);
    let sname = b.load(p, sname_at);
    let unnamed = b.global_string("(no symbol name)", "enzyme_rs.unknown_target.unnamed");
    let is_null = b.icmp(LLVMIntPredicate::LLVMIntEQ, sname, zero(p));
    let shown = b.select(is_null, unnamed, sname);
    let fmt = b.global_string(
        "%s\n  the target: %s at %p\n",
        "enzyme_rs.unknown_target.fmt",
    );
    let dprintf = get_or_declare(m, "dprintf", fn_type_of(i32t, &mut [i32t, p], true));
    b.call_fn(dprintf, &mut [const_int(i32t, 2), fmt, site, shown, fp]);
    let abort = get_or_declare(m, "abort", fn_type_of(void_type(ctx), &mut [], false));
    b.call_fn(abort, &mut []);
    b.unreachable();
    f
}

/// Whether `f`'s address is used other than as the callee of a call.
fn address_taken(f: V) -> bool {
    users(f)
        .into_iter()
        .any(|u| !((is_call(u) || is_invoke(u)) && called_value(u) == f))
}

/// Whether the modes can differentiate a call of `f`: it has a body, or
/// the rule table or a registered custom derivative covers it.
fn differentiable(reg: &crate::rules::registry::Registry, f: V) -> bool {
    if !is_declaration(f) {
        return true;
    }
    crate::rules::math_base(&name(f)).is_some()
        || reg.custom_forward(f).is_some()
        || reg.custom_gradient(f).is_some()
}

/// The functions an open indirect call of type `fty` may reach: those of
/// this module whose address is taken, whose type is `fty` and that the
/// modes can differentiate.
fn open_candidates(sess: &Session, fty: T) -> Vec<V> {
    functions(sess.module)
        .into_iter()
        .filter(|f| {
            fn_type(*f) == fty
                && differentiable(&sess.registry, *f)
                && !name(*f).starts_with("enzyme_rs.")
                && address_taken(*f)
        })
        .collect()
}

/// Indirect calls that `active` says carry derivatives become calls of an
/// open dispatcher over `open_candidates`. Calls with ABI attributes on
/// their arguments (byval, sret...), variadic ones, and calls no function
/// matches are left alone (differentiating them is an error). Returns how
/// many calls were rewritten; the caller then redoes the activity analysis.
pub fn dispatch_active_indirect_calls(
    sess: &mut Session,
    f: V,
    primal: V,
    active: impl Fn(V) -> bool,
) -> usize {
    let mut todo = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            if !is_call(i) || called_function(i).is_some() || is_inline_asm(called_value(i)) {
                continue;
            }
            let args = call_args(i);
            if !(active(i) || args.iter().any(|a| active(*a))) || has_abi_attrs(i, args.len()) {
                continue;
            }
            let fty = call_fn_type(i);
            if is_vararg(fty) {
                continue;
            }
            let cands = open_candidates(sess, fty);
            if !cands.is_empty() {
                todo.push((i, fty, cands));
            }
        }
    }
    let b = Builder::new(sess.module);
    for (i, fty, cands) in &todo {
        let d = dispatcher(sess, *fty, cands, true);
        b.before(*i);
        let site = b.global_string(&site_message(primal, *i, cands), "enzyme_rs.dispatch.site");
        let mut args = vec![called_value(*i), site];
        args.extend(call_args(*i));
        b.set_debug_loc_from(*i);
        let c = b.call_fn(d, &mut args);
        replace_all_uses(*i, c);
        erase(*i);
    }
    todo.len()
}

/// Whether a call passes any argument with an ABI attribute (byval, sret,
/// inalloca, preallocated) the dispatcher would not repeat.
fn has_abi_attrs(call: V, nargs: usize) -> bool {
    ["byval", "sret", "inalloca", "preallocated"]
        .iter()
        .any(|a| (1..=nargs as u32).any(|i| call_has_attr_at(call, i, a)))
}
