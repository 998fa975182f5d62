//! The reverse-mode pair of a loop function (see `mod.rs`).
//!
//! The step's arguments (and the shadows of the duplicated ones) go into an
//! *env* struct, which two generated thunks read: `fwd(env, i)` runs step i
//! untaped (returning whether a while loop goes on) and `adj(env, i)`
//! differentiates step i at the current state, with a tape of its own
//! that is freed before it returns (the step's reverse-mode pair, built as
//! for any callee with the loop's activities). Active float arguments get
//! an accumulator in the env, summed over the steps and returned by `rev`.
//!
//! - `aug`: env, the regions as `EnzymeCkptRegion[]`, then the runtime's
//!   forward sweep (`__enzyme_rs_loops_ckpt_fwd`: the loop driven by the
//!   scheme, snapshots stored; `__enzyme_rs_loops_fp_fwd`: the iteration
//!   run to its end, its state kept); the runtime's context goes on the
//!   enzyme-rs tape.
//! - `rev`: pops the context and runs the runtime's reverse sweep
//!   (`..._ckpt_rev`: restore, recompute, `adj` per step, last first;
//!   `..._fp_rev`: `adj` at the converged state until the state's adjoint
//!   vanishes).
//! - Vector reverse mode (`enzyme_width` W, loops only): a scheme's
//!   schedule serves one reverse sweep, so `aug` runs the forward sweep
//!   once per lane, each from the state before the loop (kept by the
//!   runtime's `state_save`), and puts the W contexts on the tape; the
//!   reverse function of lane l runs the reverse sweep of context l with
//!   an env holding lane l's shadows.
use super::{shape, step_of, Kind, Shape, HEAD};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::attrs::fn_string_attr;
use crate::ir::llvm::*;
use crate::ir::metadata::set_flag;
use crate::ir::Builder;
use crate::modes::reverse::{get_pair, tape, Act, Key, Pair};
use crate::modes::Session;

const RUNTIME: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/loops_rt.bc"));
/// Flags the env's stores and loads of a constant pointer argument, and
/// the stores of a constant region's pointer: the activity analysis does
/// not follow them (`analysis::activity`).
pub const CONST_ARG: &str = "enzyme_rs.loop_const_arg";
/// The names of the loop runtime's functions once linked.
pub const RUNTIME_PREFIX: &str = "__enzyme_rs_loops_";

/// Whether `f` is a loop function whose pair [`build`] makes.
pub fn is_loop_fn(f: V) -> bool {
    shape(f).is_some()
}

pub(super) fn helper(m: LLVMModuleRef, n: &str) -> Result<V> {
    let full = format!("{RUNTIME_PREFIX}{n}");
    if let Some(f) = get_function(m, &full).filter(|f| !is_declaration(*f)) {
        return Ok(f);
    }
    crate::ir::bitcode::link_bitcode(m, RUNTIME, RUNTIME_PREFIX)
        .map_err(|e| Error::internal(format!("loop runtime: {e}")))?;
    get_function(m, &full).ok_or_else(|| Error::internal(format!("loop runtime has no {full}")))
}

/// The runtime's driver of a for or while loop function's forward sweep
/// (`forward`) or reverse sweep: the automatic re-run's own (it ignores
/// the scheme argument) or the generic one, which follows any scheme's
/// actions.
fn driver(lf: V, forward: bool) -> &'static str {
    let rerun = fn_string_attr(lf, super::RERUN_DRIVER).is_some();
    match (rerun, forward) {
        (true, true) => "rerun_fwd",
        (true, false) => "rerun_rev",
        (false, true) => "ckpt_fwd",
        (false, false) => "ckpt_rev",
    }
}

/// Per parameter of a pair function: the primal and its shadow of vector
/// lane `lane` (of `lanes`: each duplicated parameter is followed by one
/// shadow per lane).
pub(super) fn split(g: V, acts: &[Act], lanes: usize, lane: usize) -> Vec<(V, Option<V>)> {
    let ps = params(g);
    let mut out = Vec::new();
    let mut j = 0;
    for a in acts {
        let s = (*a == Act::Dup).then(|| ps[j + 1 + lane]);
        out.push((ps[j], s));
        j += if *a == Act::Dup { 1 + lanes } else { 1 };
    }
    out
}

/// Where each step argument lives in the env struct.
pub(super) struct Env {
    ty: T,
    /// Per argument: field of the primal, of the shadow, of the accumulator.
    primal: Vec<u32>,
    shadow: Vec<Option<u32>>,
    acc: Vec<Option<u32>>,
    tys: Vec<T>,
    /// Per argument: a constant pointer. Its store into the env and its
    /// loads from it are flagged [`CONST_ARG`]: in forward mode over the
    /// gradient (`tangent.rs`) the env has a shadow, and the activity
    /// analysis would otherwise ask a shadow of the pointer (which has
    /// none) and hand a null one to the step's derivative.
    constant: Vec<bool>,
}

impl Env {
    pub(super) fn new(ctx: LLVMContextRef, tys: &[T], acts: &[Act]) -> Env {
        let mut fields = Vec::new();
        let (mut primal, mut shadow, mut acc) = (Vec::new(), Vec::new(), Vec::new());
        let constant: Vec<bool> = tys
            .iter()
            .zip(acts)
            .map(|(t, a)| *a == Act::Const && is_ptr(*t))
            .collect();
        for (t, a) in tys.iter().zip(acts) {
            primal.push(fields.len() as u32);
            fields.push(*t);
            shadow.push((*a == Act::Dup).then(|| {
                fields.push(*t);
                fields.len() as u32 - 1
            }));
        }
        for (t, a) in tys.iter().zip(acts) {
            acc.push((*a == Act::Active).then(|| {
                fields.push(*t);
                fields.len() as u32 - 1
            }));
        }
        if fields.is_empty() {
            fields.push(i64_type(ctx));
        }
        Env {
            ty: struct_type(ctx, &mut fields),
            primal,
            shadow,
            acc,
            tys: tys.to_vec(),
            constant,
        }
    }

    fn field(&self, b: &Builder, env: V, k: u32) -> V {
        let ctx = b.ctx;
        b.gep(
            self.ty,
            env,
            &mut [const_i32(ctx, 0), const_i32(ctx, k as i64)],
        )
    }

    /// Fill a new env from the arguments (and shadows); zero accumulators.
    pub(super) fn fill(&self, b: &Builder, vals: &[(V, Option<V>)]) -> V {
        let env = b.alloca(self.ty);
        for (k, (v, s)) in vals.iter().enumerate() {
            let st = b.store(*v, self.field(b, env, self.primal[k]));
            if self.constant[k] {
                set_flag(st, CONST_ARG);
            }
            if let (Some(f), Some(s)) = (self.shadow[k], s) {
                b.store(*s, self.field(b, env, f));
            }
            if let Some(f) = self.acc[k] {
                b.store(zero(self.tys[k]), self.field(b, env, f));
            }
        }
        env
    }

    /// The step's arguments after the index (with shadows when `shadows`).
    pub(super) fn load_args(&self, b: &Builder, env: V, shadows: bool) -> Vec<V> {
        let mut out = Vec::new();
        for k in 0..self.primal.len() {
            let v = b.load(self.tys[k], self.field(b, env, self.primal[k]));
            if self.constant[k] {
                set_flag(v, CONST_ARG);
            }
            out.push(v);
            if let (true, Some(f)) = (shadows, self.shadow[k]) {
                out.push(b.load(self.tys[k], self.field(b, env, f)));
            }
        }
        out
    }
}

/// Build `pair` (declared by `get_pair`) for loop function `key.func`.
pub fn build(sess: &mut Session, key: &Key, pair: &Pair) -> Result<()> {
    let lf = key.func;
    let sh = shape(lf).ok_or_else(|| Error::internal("not a loop function"))?;
    let step = step_of(lf).ok_or_else(|| Error::internal("loop function without a step"))?;
    let first = sh.first_arg();
    let arg_acts = key.acts[first..].to_vec();
    let mut acts = vec![Act::Const];
    acts.extend(arg_acts.iter().copied());
    let n = acts.len();
    let skey = Key {
        func: step,
        acts,
        ret_active: false,
        ret_shadow: false,
        overwritten: vec![false; n],
        globals_overwritten: false,
        others_overwritten: true,
        distinct: vec![false; n],
        width: 1,
    };
    let spair = get_pair(sess, &skey, None)?;
    let ctx = module_context(sess.module);
    let tys: Vec<T> = params(lf)[first..].iter().map(|p| type_of(*p)).collect();
    let env = Env::new(ctx, &tys, &arg_acts);
    let fwd = fwd_thunk(sess, step, sh.kind, &env);
    let adj = adj_thunk(sess, step, &spair, &env);
    build_aug(sess, key, pair, sh, &env, fwd)?;
    for lane in 0..key.lanes() {
        build_rev(sess, key, pair, lane, sh, &env, (fwd, adj))?;
    }
    let built = [fwd, adj, pair.aug].into_iter().chain(pair_revs(pair));
    for g in built {
        verify_function(g).map_err(|m| {
            Error::new(
                ErrorKind::Internal(format!(
                    "loop derivative of '{}' fails the verifier: {m}",
                    name(step)
                )),
                lf,
                None,
            )
        })?;
    }
    if sess.opts.print {
        for g in [fwd, adj, pair.aug].into_iter().chain(pair_revs(pair)) {
            eprintln!("{}", print_value(g));
        }
    }
    Ok(())
}

/// The reverse functions of every lane.
fn pair_revs(pair: &Pair) -> Vec<V> {
    std::iter::once(pair.rev)
        .chain(pair.lane_revs.iter().copied())
        .collect()
}

/// `i32 fwd(ptr env, i64 i)`: step i, untaped; whether a while loop goes on.
pub(super) fn fwd_thunk(sess: &mut Session, step: V, kind: Kind, env: &Env) -> V {
    let i32t = i32_type(module_context(sess.module));
    let (f, b, _, mut args) = open_thunk(sess, "fwd", step, i32t, env, false);
    let ctx = b.ctx;
    let r = b.call_fn(step, &mut args);
    if kind == Kind::For || !is_int(type_of(r)) {
        b.ret(const_i32(ctx, 1));
    } else {
        let more = b.icmp(LLVMIntPredicate::LLVMIntNE, r, zero(type_of(r)));
        b.ret(b.int_cast(more, i32t, false));
    }
    f
}

/// A new thunk `ret enzyme_rs.loop.<what>.<step>(ptr env, i64 i)` with its
/// builder in the entry block, its env parameter, and the step's arguments
/// (the index, then the env's values, with shadows when `shadows`).
pub(super) fn open_thunk(
    sess: &mut Session,
    what: &str,
    step: V,
    ret: T,
    env: &Env,
    shadows: bool,
) -> (V, Builder, V, Vec<V>) {
    let m = sess.module;
    let b = Builder::new(m);
    let (i64t, p) = (i64_type(b.ctx), ptr_type(b.ctx));
    let f = add_internal_function(
        m,
        &format!("enzyme_rs.loop.{what}.{}", name(step)),
        fn_type_of(ret, &mut [p, i64t], false),
    );
    sess.created.push(f);
    b.at_end(append_block(f, "entry"));
    let ps = params(f);
    let mut args = vec![b.int_cast(ps[1], type_of(params(step)[0]), true)];
    args.extend(env.load_args(&b, ps[0], shadows));
    (f, b, ps[0], args)
}

/// `void adj(ptr env, i64 i)`: differentiate step i at the current state.
fn adj_thunk(sess: &mut Session, step: V, spair: &Pair, env: &Env) -> V {
    let void = void_type(module_context(sess.module));
    let (f, b, e, args) = open_thunk(sess, "adj", step, void, env, true);
    let ctx = b.ctx;
    let p = ptr_type(ctx);
    let tt = tape::tape_type(ctx);
    let tp = b.alloca(tt);
    b.store(zero(tt), tp);
    let mut aug_args = args.clone();
    aug_args.push(tp);
    b.call_fn(spair.aug, &mut aug_args);
    let mut rev_args = args;
    rev_args.push(tp);
    let d = b.call_fn(spair.rev, &mut rev_args);
    for (pos, idx) in spair.active_params.iter().enumerate() {
        let Some(acc) = idx.checked_sub(1).and_then(|k| env.acc[k]) else {
            continue;
        };
        let v = if spair.active_params.len() == 1 {
            d
        } else {
            b.extract_value(d, pos as u32)
        };
        let slot = env.field(&b, e, acc);
        let old = b.load(type_of(v), slot);
        b.store(b.fadd(old, v), slot);
    }
    let data = b.load(p, tp);
    b.free(data);
    b.ret_void();
    f
}

/// A fixed point's states for the runtime: the array of their shadows
/// (null where a state has none), the array of their sizes, and their
/// number.
pub(super) fn state_arrays(b: &Builder, ps: &[(V, Option<V>)], states: usize) -> (V, V, V) {
    let ctx = b.ctx;
    let (i64t, p) = (i64_type(ctx), ptr_type(ctx));
    let n = states.max(1) as u32;
    let shadows = b.alloca(array_type(p, n));
    let bytes = b.alloca(array_type(i64t, n));
    for s in 0..states {
        let idx = &mut [const_i64(ctx, 0), const_i64(ctx, s as i64)];
        let sp = b.gep(array_type(p, n), shadows, idx);
        b.store(ps[HEAD + 2 * s].1.unwrap_or_else(|| zero(p)), sp);
        let idx = &mut [const_i64(ctx, 0), const_i64(ctx, s as i64)];
        let bp = b.gep(array_type(i64t, n), bytes, idx);
        b.store(ps[HEAD + 2 * s + 1].0, bp);
    }
    (shadows, bytes, const_i64(ctx, states as i64))
}

/// The regions as an `EnzymeCkptRegion` array (`{ptr, i64, i32, i32}`).
pub(super) fn regions(b: &Builder, ps: &[(V, Option<V>)], count: usize) -> V {
    let ctx = b.ctx;
    let (i32t, i64t, p) = (i32_type(ctx), i64_type(ctx), ptr_type(ctx));
    let rt = struct_type(ctx, &mut [p, i64t, i32t, i32t]);
    let arr = b.alloca(array_type(rt, count.max(1) as u32));
    for r in 0..count {
        let (ptr, bytes) = (ps[HEAD + 2 * r].0, ps[HEAD + 2 * r + 1].0);
        let e = b.gep(
            array_type(rt, count.max(1) as u32),
            arr,
            &mut [const_i64(ctx, 0), const_i64(ctx, r as i64)],
        );
        let f = |k: i64| b.gep(rt, e, &mut [const_i32(ctx, 0), const_i32(ctx, k)]);
        let st = b.store(ptr, f(0));
        if ps[HEAD + 2 * r].1.is_none() {
            // A region without a shadow, beside ones with (see CONST_ARG).
            set_flag(st, CONST_ARG);
        }
        b.store(bytes, f(1));
        b.store(const_i32(ctx, 0), f(2));
        b.store(const_i32(ctx, 0), f(3));
    }
    arr
}

fn build_aug(
    sess: &mut Session,
    key: &Key,
    pair: &Pair,
    sh: Shape,
    env: &Env,
    fwd: V,
) -> Result<()> {
    let m = sess.module;
    let b = Builder::new(m);
    let ctx = b.ctx;
    let g = pair.aug;
    b.at_end(append_block(g, "entry"));
    let lanes = key.lanes();
    let tape_arg = *params(g).last().unwrap();
    let first = sh.first_arg();
    let ps = split(g, &key.acts, lanes, 0);
    let rs = regions(&b, &ps, sh.regions);
    let nr = const_i64(ctx, sh.regions as i64);
    // Vector lanes: each lane's reverse sweep consumes a forward sweep of
    // its own (a scheme's schedule runs once), each started from the state
    // before the loop.
    let start = (lanes > 1)
        .then(|| helper(m, "state_save"))
        .transpose()?
        .map(|f| b.call_fn(f, &mut [rs, nr]));
    let slot = b.call_fn(
        tape::reserve_fn(m),
        &mut [tape_arg, const_i64(ctx, 8 * lanes as i64)],
    );
    for lane in 0..lanes {
        if let (Some(buf), true) = (start, lane > 0) {
            b.call_fn(helper(m, "state_load")?, &mut [buf, rs, nr]);
        }
        let ps = split(g, &key.acts, lanes, lane);
        let e = env.fill(&b, &ps[first..]);
        let c = match sh.kind {
            Kind::FixedPoint => b.call_fn(helper(m, "fp_fwd")?, &mut [rs, nr, e, fwd]),
            k => {
                let is_while = const_i32(ctx, (k == Kind::While) as i64);
                let f = helper(m, driver(key.func, true))?;
                b.call_fn(
                    f,
                    &mut [ps[2].0, ps[3].0, ps[0].0, ps[1].0, is_while, rs, nr, e, fwd],
                )
            }
        };
        let at = b.gep(i8_type(ctx), slot, &mut [const_i64(ctx, 8 * lane as i64)]);
        set_alignment(b.store(c, at), 8);
    }
    if let Some(buf) = start {
        b.free(buf);
    }
    b.ret_void();
    make_internal(g);
    Ok(())
}

/// The reverse function of vector lane `lane`: the reverse sweep of the
/// lane's own forward sweep (its context in the tape's slot `lane`).
fn build_rev(
    sess: &mut Session,
    key: &Key,
    pair: &Pair,
    lane: usize,
    sh: Shape,
    env: &Env,
    (fwd, adj): (V, V),
) -> Result<()> {
    let m = sess.module;
    let b = Builder::new(m);
    let ctx = b.ctx;
    let p = ptr_type(ctx);
    let lanes = key.lanes();
    let g = pair.rev_of(lane);
    b.at_end(append_block(g, "entry"));
    let ps = split(g, &key.acts, lanes, lane);
    let tape_arg = *params(g).last().unwrap();
    let first = sh.first_arg();
    let slot = b.call_fn(
        tape::pop_fn(m),
        &mut [tape_arg, const_i64(ctx, 8 * lanes as i64)],
    );
    let at = b.gep(i8_type(ctx), slot, &mut [const_i64(ctx, 8 * lane as i64)]);
    let c = b.load(p, at);
    set_alignment(c, 8);
    let e = env.fill(&b, &ps[first..]);
    match sh.kind {
        Kind::FixedPoint => {
            let (shadows, bytes, ns) = state_arrays(&b, &ps, sh.states);
            let red = b.bitcast(ps[1].0, double_type(ctx));
            let f = helper(m, "fp_rev")?;
            b.call_fn(
                f,
                &mut [c, e, adj, shadows, bytes, ns, red, ps[0].0, ps[2].0],
            );
        }
        _ => {
            let f = helper(m, driver(key.func, false))?;
            b.call_fn(f, &mut [c, e, fwd, adj]);
        }
    }
    let mut outs = Vec::new();
    for idx in &pair.active_params {
        let k = idx
            .checked_sub(first)
            .and_then(|k| env.acc.get(k).copied().flatten());
        let Some(acc) = k else {
            return Err(Error::internal(format!(
                "loop function parameter {idx} is active"
            )));
        };
        outs.push(b.load(env.tys[idx - first], env.field(&b, e, acc)));
    }
    match outs.len() {
        0 => b.ret_void(),
        1 => b.ret(outs[0]),
        _ => {
            let rt = fn_return_type(g);
            let mut v = undef(rt);
            for (k, o) in outs.iter().enumerate() {
                v = b.insert_value(v, *o, k as u32);
            }
            b.ret(v)
        }
    };
    make_internal(g);
    Ok(())
}
