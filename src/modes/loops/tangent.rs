//! Forward mode over the gradient of a checkpointed loop (forward over
//! reverse: Hessian-vector products through `__enzyme_checkpoint_for` and
//! `__enzyme_checkpoint_while`).
//!
//! The gradient drives the loop runtime with an env and two thunks
//! (`pair.rs`). Its forward derivative keeps the driver calls and the
//! schedule, and changes what they are given:
//! - the env becomes an *env pair*, `[1 + width x ptr]`: the env and the
//!   tangent env of each lane (the env's shadow in the forward derivative);
//! - each thunk becomes a *tangent thunk* with the thunk's signature, which
//!   calls the forward derivative of the thunk on the env pair: `fwd` runs
//!   a step with its tangents, `adj` differentiates it with its tangents
//!   (forward over reverse of the step);
//! - the forward sweep's regions get the tangent of each region (the
//!   shadow of its pointer, as the forward derivative stored it into the
//!   regions array's shadow, or none), so every snapshot holds the state
//!   and its tangent and a restored step starts from both.
//!
//! Fixed points are refused by the caller (their adjoint iteration stops
//! on the adjoint's norm, which has no tangent here).
use super::pair::helper;
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::modes::forward::{derivative, Key, Ret};
use crate::modes::Session;
use crate::rules::classify::LoopDriver;

/// Position of the env among a driver call's arguments, per
/// [`LoopDriver`] (`ckpt_fwd(scheme, data, start, n, is_while, regions,
/// nregions, env, fwd)`, `ckpt_rev(ctx, env, fwd, adj)`).
pub const ENV_ARG: [usize; 3] = [7, 1, 0];
/// Position of the regions array in a forward sweep's driver call.
pub const REGIONS_ARG: usize = 5;
const NREGIONS_ARG: usize = 6;

/// Rewrite driver call `call` (the builder is before it) to run the
/// tangents with the primal: `env` and `regions` are the tangents (one per
/// lane) of its env and regions array.
pub fn rewrite(
    sess: &mut Session,
    b: &Builder,
    call: V,
    k: LoopDriver,
    env: &[V],
    regions: Option<&[V]>,
    width: u32,
) -> Result<(), String> {
    let args = call_args(call);
    let env_at = ENV_ARG[k as usize];
    let pair = env_pair(b, args[env_at], env, width);
    let thunks: &[usize] = match k {
        LoopDriver::Forward => &[8],
        LoopDriver::Reverse => &[2, 3],
        LoopDriver::FixedPoint => return Err("a fixed point's driver has no tangent".into()),
    };
    let mut new_thunks = Vec::new();
    for &t in thunks {
        let f = strip_casts(args[t]);
        if !is_function(f) {
            return Err("the loop's thunk is not a known function".into());
        }
        new_thunks.push((t, tangent_thunk(sess, f, width)?));
    }
    if k == LoopDriver::Forward {
        let check = helper(sess.module, "tangent_check").map_err(|e| e.to_string())?;
        b.call_fn(check, &mut [args[0]]);
        if let Some(lanes) = regions {
            let (rs, n) = regions_with_tangents(b, args[REGIONS_ARG], args[NREGIONS_ARG], lanes)?;
            set_operand(call, REGIONS_ARG as u32, rs);
            set_operand(call, NREGIONS_ARG as u32, n);
        }
    }
    set_operand(call, env_at as u32, pair);
    for (t, f) in new_thunks {
        set_operand(call, t as u32, f);
    }
    Ok(())
}

/// `[1 + width x ptr]` holding the env and each lane's tangent env.
fn env_pair(b: &Builder, env: V, lanes: &[V], width: u32) -> V {
    let ctx = b.ctx;
    let p = ptr_type(ctx);
    let ty = array_type(p, 1 + width);
    let slot = b.alloca(ty);
    for (k, v) in std::iter::once(&env).chain(lanes).enumerate() {
        let at = b.gep(ty, slot, &mut [const_i64(ctx, 0), const_i64(ctx, k as i64)]);
        b.store(*v, at);
    }
    slot
}

/// A new regions array: the `n` regions, then per lane each region's
/// tangent (its bytes when the tangent pointer is set, else none).
fn regions_with_tangents(b: &Builder, rs: V, n: V, lanes: &[V]) -> Result<(V, V), String> {
    let ctx = b.ctx;
    let count = const_int_value(n)
        .ok_or_else(|| "the number of regions is not a constant".to_string())?
        as usize;
    let (i32t, i64t, p) = (i32_type(ctx), i64_type(ctx), ptr_type(ctx));
    let rt = struct_type(ctx, &mut [p, i64t, i32t, i32t]);
    let total = count * (1 + lanes.len());
    let ty = array_type(rt, total.max(1) as u32);
    let out = b.alloca(ty);
    let entry = |base: V, t: T, r: usize| {
        b.gep(t, base, &mut [const_i64(ctx, 0), const_i64(ctx, r as i64)])
    };
    let src_ty = array_type(rt, count.max(1) as u32);
    for r in 0..count {
        let e = b.load(rt, entry(rs, src_ty, r));
        b.store(e, entry(out, ty, r));
        let bytes = b.extract_value(e, 1);
        for (l, lane) in lanes.iter().enumerate() {
            let sp = b.load(p, entry(*lane, src_ty, r));
            let none = b.icmp(LLVMIntPredicate::LLVMIntEQ, sp, zero(p));
            let sb = b.select(none, zero(i64t), bytes);
            let mut v = zero(rt);
            v = b.insert_value(v, sp, 0);
            v = b.insert_value(v, sb, 1);
            b.store(v, entry(out, ty, count * (1 + l) + r));
        }
    }
    Ok((out, const_i64(ctx, total as i64)))
}

/// The tangent thunk of `thunk` (`fwd` or `adj`, `(ptr env, i64 i)`):
/// same signature, its first argument an env pair.
fn tangent_thunk(sess: &mut Session, thunk: V, width: u32) -> Result<V, String> {
    let m = sess.module;
    let n = format!("enzyme_rs.loop.tan{width}.{}", name(thunk));
    if let Some(f) = get_function(m, &n) {
        return Ok(f);
    }
    let key = Key {
        func: thunk,
        shadow: vec![true, false],
        ret_tangent: false,
        width,
        noneed: Vec::new(),
    };
    let d = derivative(sess, &key, None).map_err(|e| e.to_string())?;
    let f = add_internal_function(m, &n, fn_type(thunk));
    sess.created.push(f);
    let b = Builder::new(m);
    let ctx = b.ctx;
    let p = ptr_type(ctx);
    b.at_end(append_block(f, "entry"));
    let ps = params(f);
    let ty = array_type(p, 1 + width);
    let mut args = Vec::new();
    for k in 0..=width {
        let at = b.gep(
            ty,
            ps[0],
            &mut [const_i64(ctx, 0), const_i64(ctx, k as i64)],
        );
        args.push(b.load(p, at));
    }
    args.push(ps[1]);
    let r = b.call_fn(d.func, &mut args);
    match d.ret {
        Ret::Void => b.ret_void(),
        _ => b.ret(r),
    };
    Ok(f)
}
