//! Forward mode of a fixed point (`__enzyme_fixed_point`, as Enzyme does
//! it): the iteration runs to its end untouched; then the tangent is
//! iterated at the converged state, each pass the forward derivative of
//! one step with the state put back first, until the state's tangent stops
//! changing, under the fixed point's reduction or its control function
//! (runtime/loops_rt.c `__enzyme_rs_loops_fp_tangent`). The result does
//! not depend on the tangent the state started with, and the primal state
//! is left as the iteration left it. Scalar forward mode; vector forward
//! mode differentiates the iterations themselves.
use super::pair::{fwd_thunk, helper, open_thunk, regions, split, state_arrays, Env};
use super::{shape, step_of, Kind};
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::modes::forward::{derivative, Key};
use crate::modes::reverse::Act;
use crate::modes::Session;

/// Whether forward mode builds `key`'s derivative here.
pub fn applies(key: &Key) -> bool {
    key.width <= 1 && shape(key.func).is_some_and(|s| s.kind == Kind::FixedPoint)
}

/// `void tan(ptr env, i64 i)`: the forward derivative of step i, the
/// arguments' tangents in the env.
fn tan_thunk(sess: &mut Session, step: V, env: &Env, shadow: &[bool]) -> Result<V> {
    let mut sh = vec![false];
    sh.extend(shadow.iter().copied());
    let skey = Key {
        func: step,
        shadow: sh,
        ret_tangent: false,
        width: 1,
        noneed: Vec::new(),
    };
    let d = derivative(sess, &skey, None)?;
    let void = void_type(module_context(sess.module));
    let (f, b, _, mut args) = open_thunk(sess, "tan", step, void, env, true);
    b.call_fn(d.func, &mut args);
    b.ret_void();
    Ok(f)
}

/// Build forward derivative `nf` (declared with `key`'s signature) of the
/// fixed point's loop function `key.func`.
pub fn build(sess: &mut Session, key: &Key, nf: V) -> Result<()> {
    let lf = key.func;
    let sh = shape(lf).ok_or_else(|| Error::internal("not a loop function"))?;
    let step = step_of(lf).ok_or_else(|| Error::internal("loop function without a step"))?;
    let acts: Vec<Act> = key
        .shadow
        .iter()
        .map(|s| if *s { Act::Dup } else { Act::Const })
        .collect();
    let first = sh.first_arg();
    let ctx = module_context(sess.module);
    let tys: Vec<T> = params(lf)[first..].iter().map(|p| type_of(*p)).collect();
    let env = Env::new(ctx, &tys, &acts[first..]);
    let fwd = fwd_thunk(sess, step, Kind::FixedPoint, &env);
    let tan = tan_thunk(sess, step, &env, &key.shadow[first..])?;
    let m = sess.module;
    let b = Builder::new(m);
    b.at_end(append_block(nf, "entry"));
    let ps = split(nf, &acts, 1, 0);
    let rs = regions(&b, &ps, sh.regions);
    let e = env.fill(&b, &ps[first..]);
    let (shadows, bytes, ns) = state_arrays(&b, &ps, sh.states);
    let red = b.bitcast(ps[1].0, double_type(ctx));
    let nr = const_i64(ctx, sh.regions as i64);
    let f = helper(m, "fp_tangent")?;
    b.call_fn(
        f,
        &mut [
            rs, nr, e, fwd, tan, shadows, bytes, ns, red, ps[0].0, ps[2].0,
        ],
    );
    b.ret_void();
    make_internal(nf);
    for g in [fwd, tan, nf] {
        verify_function(g).map_err(|msg| {
            Error::internal(format!(
                "forward derivative of the fixed point of '{}' fails the verifier: {msg}",
                name(step)
            ))
        })?;
    }
    if sess.opts.print {
        for g in [fwd, tan, nf] {
            eprintln!("{}", print_value(g));
        }
    }
    Ok(())
}
