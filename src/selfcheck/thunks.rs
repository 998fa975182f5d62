//! The IR of the self-check: per checked call site, three thunks of the
//! runtime's signature `void(env, xs, dxs, bufs, dbufs, out)` (the primal,
//! a reverse-mode and a forward-mode derivative as new `__enzyme_*` calls)
//! and, before the user's call, the call of `__enzyme_rs_check_run` with
//! the site's values. See runtime/selfcheck_rt.c for the comparison.
use super::{Extent, Plan, Role, KIND_FLOAT, PREFIX};
use crate::callsite::{convert_arg, Activity, Mode};
use crate::ir::globals::{add_global, named_global, set_internal};
use crate::ir::llvm::*;
use crate::ir::types::{array_type, double_type};
use crate::ir::Builder;

const RUNTIME: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/selfcheck_rt.bc"));

/// The runtime's function `n` (linked into the module on first use).
fn runtime_fn(m: LLVMModuleRef, n: &str) -> Result<V, String> {
    let full = format!("{PREFIX}{n}");
    if let Some(f) = get_function(m, &full).filter(|f| !is_declaration(*f)) {
        return Ok(f);
    }
    crate::ir::bitcode::link_bitcode(m, RUNTIME, PREFIX)?;
    get_function(m, &full).ok_or_else(|| format!("the self-check runtime has no {full}"))
}

/// "file:line" of the call, for the messages.
fn location(call: V) -> String {
    match crate::ir::shim::debug_location(call) {
        Some((file, line)) => format!("{file}:{line}"),
        None => "an unknown line (compile with -g for the source line)".into(),
    }
}

fn fn_display_name(f: V) -> String {
    crate::ir::demangle::demangle(&name(f))
}

/// An internal i32 global of `m` named `n`, holding `init`.
fn i32_global(m: LLVMModuleRef, n: &str, init: i64) -> V {
    let ctx = crate::ir::types::module_context(m);
    let g = add_global(m, i32_type(ctx), n);
    set_initializer(g, const_i32(ctx, init));
    set_internal(g);
    g
}

/// Before a site that cannot be checked: the runtime says so once.
pub fn emit_skip(m: LLVMModuleRef, call: V, why: &str) {
    let Ok(skip) = runtime_fn(m, "skip") else {
        return;
    };
    let b = Builder::new(m);
    b.before(call);
    b.set_debug_loc_from(call);
    let f = callsite_target(call)
        .map(fn_display_name)
        .unwrap_or_default();
    let count = i32_global(m, &format!("{PREFIX}skipped"), 0);
    let mut args = [
        b.global_string(&f, "enzyme_check_fn"),
        b.global_string(&location(call), "enzyme_check_loc"),
        b.global_string(why, "enzyme_check_why"),
        count,
    ];
    b.call_fn(skip, &mut args);
}

fn callsite_target(call: V) -> Option<V> {
    call_args(call)
        .into_iter()
        .map(strip_casts)
        .find(|a| is_function(*a))
}

/// The thunks of `p` and the runtime call before its site.
pub fn emit(m: LLVMModuleRef, p: &Plan, id: &str, abort: bool) -> Result<(), String> {
    let run = runtime_fn(m, "run")?;
    let ctx = crate::ir::types::module_context(m);
    let mut env_fields: Vec<T> = p.env.iter().map(|v| type_of(*v)).collect();
    let env_ty = struct_type(ctx, &mut env_fields);
    let primal = primal_thunk(m, p, &format!("{PREFIX}{id}_primal"), env_ty);
    let rev = diff_thunk(m, p, &format!("{PREFIX}{id}_rev"), env_ty, Mode::Reverse);
    let fwd = diff_thunk(m, p, &format!("{PREFIX}{id}_fwd"), env_ty, Mode::Forward);
    let rev_ok = i32_global(m, &format!("{}_ok", name(rev)), 1);
    let fwd_ok = i32_global(m, &format!("{}_ok", name(fwd)), 1);
    let count = i32_global(m, &format!("{PREFIX}{id}_count"), 0);

    let b = Builder::new(m);
    let (i32t, i64t, pt, dt) = (
        i32_type(ctx),
        i64_type(ctx),
        ptr_type(ctx),
        double_type(ctx),
    );
    let (nx, nb) = (p.scalars.len() as u32, p.buffers.len() as u32);
    b.at_entry_allocas(inst_fn(p.call));
    b.clear_debug_loc();
    let env = b.alloca(env_ty);
    let xs = b.alloca(array_type(dt, nx + 1));
    let xk = b.alloca(array_type(i32t, nx + 1));
    let ub = b.alloca(array_type(pt, nb + 1));
    let bk = b.alloca(array_type(i32t, nb + 1));
    let by = b.alloca(array_type(i64t, nb + 1));
    b.before(p.call);
    b.set_debug_loc_from(p.call);
    let zero32 = const_i32(ctx, 0);
    for (k, v) in p.env.iter().enumerate() {
        let slot = b.gep(env_ty, env, &mut [zero32, const_i32(ctx, k as i64)]);
        b.store(*v, slot);
    }
    let at = |t: T, base: V, k: usize| b.gep(t, base, &mut [const_i64(ctx, k as i64)]);
    for (k, (v, kind)) in p.scalars.iter().enumerate() {
        b.store(b.fp_cast(*v, dt), at(dt, xs, k));
        b.store(const_i32(ctx, *kind), at(i32t, xk, k));
    }
    for (j, buf) in p.buffers.iter().enumerate() {
        b.store(buf.ptr, at(pt, ub, j));
        b.store(const_i32(ctx, buf.kind), at(i32t, bk, j));
        let bytes = match buf.extent {
            Extent::Bytes(n) => const_i64(ctx, n),
            Extent::Dynamic(size, off) => {
                let s = b.int_cast(size, i64t, false);
                b.sub(s, const_i64(ctx, off))
            }
        };
        b.store(bytes, at(i64t, by, j));
    }
    let ret_float = float_ret(p.func) == Some(KIND_FLOAT);
    let flags = (p.mode == Mode::Reverse) as i64
        | (abort as i64) << 1
        | (p.ret_active as i64) << 2
        | (ret_float as i64) << 3;
    let mut args = [
        b.global_string(&fn_display_name(p.func), "enzyme_check_fn"),
        b.global_string(&location(p.call), "enzyme_check_loc"),
        const_i32(ctx, flags),
        count,
        const_i32(ctx, nx as i64),
        xk,
        xs,
        const_i32(ctx, nb as i64),
        bk,
        by,
        ub,
        env,
        primal,
        rev,
        rev_ok,
        fwd,
        fwd_ok,
    ];
    b.call_fn(run, &mut args);
    Ok(())
}

fn float_ret(f: V) -> Option<i64> {
    super::float_kind(fn_return_type(f))
}

/// The thunk's parameters: env, xs, dxs, bufs, dbufs, out.
struct Thunk {
    f: V,
    b: Builder,
    env_ty: T,
    ps: Vec<V>,
}

impl Thunk {
    fn new(m: LLVMModuleRef, n: &str, env_ty: T) -> Thunk {
        let ctx = crate::ir::types::module_context(m);
        let pt = ptr_type(ctx);
        let fty = fn_type_of(void_type(ctx), &mut [pt; 6], false);
        let f = crate::ir::globals::add_internal_function(m, n, fty);
        let bb = crate::ir::globals::append_block(f, "entry");
        let b = Builder::new(m);
        b.at_end(bb);
        Thunk {
            f,
            b,
            env_ty,
            ps: params(f),
        }
    }

    fn env(&self, k: u32) -> V {
        let ctx = self.b.ctx;
        let slot = self.b.gep(
            self.env_ty,
            self.ps[0],
            &mut [const_i32(ctx, 0), const_i32(ctx, k as i64)],
        );
        self.b.load(struct_fields(self.env_ty)[k as usize], slot)
    }

    fn slot(&self, param: usize, t: T, k: usize) -> V {
        self.b
            .gep(t, self.ps[param], &mut [const_i64(self.b.ctx, k as i64)])
    }

    /// xs[k] (param 1) or dxs[k] (param 2) as type `t`.
    fn scalar(&self, param: usize, k: usize, t: T) -> V {
        let dt = double_type(self.b.ctx);
        self.b.fp_cast(self.b.load(dt, self.slot(param, dt, k)), t)
    }

    fn store_scalar(&self, param: usize, k: usize, v: V) {
        let dt = double_type(self.b.ctx);
        self.b.store(self.b.fp_cast(v, dt), self.slot(param, dt, k));
    }

    /// bufs[j] (param 3) or dbufs[j] (param 4).
    fn buffer(&self, param: usize, j: usize) -> V {
        let pt = ptr_type(self.b.ctx);
        self.b.load(pt, self.slot(param, pt, j))
    }
}

/// `primal(env, xs, _, bufs, _, out)`: out[0] = f(args).
fn primal_thunk(m: LLVMModuleRef, p: &Plan, n: &str, env_ty: T) -> V {
    let t = Thunk::new(m, n, env_ty);
    let ps = params(p.func);
    let mut args = Vec::new();
    for (i, role) in p.roles.iter().enumerate() {
        let pty = type_of(ps[i]);
        let v = match *role {
            Role::Const(e) => {
                let v = t.env(e);
                convert_arg(&t.b, v, pty).unwrap_or(v)
            }
            Role::Scalar(k, _) => t.scalar(1, k, pty),
            Role::Buffer(j, _) => t.buffer(3, j),
        };
        args.push(v);
    }
    let r = t.b.call_fn(p.func, &mut args);
    crate::ir::globals::copy_call_conv(p.func, r);
    if float_ret(p.func).is_some() {
        t.store_scalar(5, 0, r);
    }
    t.b.ret_void();
    t.f
}

/// The marker global `enzyme_...` of the module, loaded.
fn marker(b: &Builder, n: &str) -> V {
    let i32t = i32_type(b.ctx);
    let g = named_global(b.module, n).unwrap_or_else(|| add_global(b.module, i32t, n));
    b.load(i32t, g)
}

/// A new `__enzyme_autodiff` / `__enzyme_fwddiff` call on the site's
/// function with the thunk's values: in the site's own mode its own
/// activities, in the other mode the matching ones (enzyme_out <-> dup).
fn diff_thunk(m: LLVMModuleRef, p: &Plan, n: &str, env_ty: T, mode: Mode) -> V {
    let t = Thunk::new(m, n, env_ty);
    let b = &t.b;
    let own = mode == p.mode;
    let ps = params(p.func);
    let dup = |a: Activity| {
        if own && a == Activity::DupNoNeed {
            "enzyme_dupnoneed"
        } else {
            "enzyme_dup"
        }
    };
    let mut args = vec![p.func];
    if p.ret_const {
        args.push(marker(b, "enzyme_const_return"));
    }
    let mut outs = Vec::new();
    for (i, role) in p.roles.iter().enumerate() {
        let pty = type_of(ps[i]);
        match *role {
            Role::Const(e) => {
                args.push(marker(b, "enzyme_const"));
                args.push(t.env(e));
            }
            Role::Scalar(k, a) if mode == Mode::Reverse => {
                let _ = a;
                args.push(marker(b, "enzyme_out"));
                args.push(t.scalar(1, k, pty));
                outs.push((k, pty));
            }
            Role::Scalar(k, a) => {
                args.push(marker(b, dup(a)));
                args.push(t.scalar(1, k, pty));
                args.push(t.scalar(2, k, pty));
            }
            Role::Buffer(j, Activity::Const) => {
                args.push(marker(b, "enzyme_const"));
                args.push(t.buffer(3, j));
            }
            Role::Buffer(j, a) => {
                args.push(marker(b, dup(a)));
                args.push(t.buffer(3, j));
                args.push(t.buffer(4, j));
            }
        }
    }
    let ctx = b.ctx;
    let ret = match mode {
        Mode::Reverse if outs.len() == 1 => outs[0].1,
        Mode::Reverse if !outs.is_empty() => {
            let mut f: Vec<T> = outs.iter().map(|o| o.1).collect();
            struct_type(ctx, &mut f)
        }
        Mode::Forward if p.ret_active => fn_return_type(p.func),
        _ => void_type(ctx),
    };
    let entry = if mode == Mode::Reverse {
        "__enzyme_autodiff_rs_check"
    } else {
        "__enzyme_fwddiff_rs_check"
    };
    let pt = ptr_type(ctx);
    let decl = get_or_declare(m, entry, fn_type_of(void_type(ctx), &mut [pt], true));
    let fty = fn_type_of(ret, &mut [pt], true);
    let r = b.call(fty, decl, &mut args);
    if mode == Mode::Reverse {
        for (n, (k, _)) in outs.iter().enumerate() {
            let v = if outs.len() == 1 {
                r
            } else {
                b.extract_value(r, n as u32)
            };
            t.store_scalar(2, *k, v);
        }
    } else if p.ret_active {
        t.store_scalar(5, 1, r);
    }
    b.ret_void();
    t.f
}
