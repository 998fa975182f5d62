//! Reverse mode, as a pair of functions per (function, activities):
//!
//! - the augmented forward sweep `aug` (`aug.rs`): a clone of the primal
//!   that also builds shadow pointers and pushes onto the tape what the
//!   reverse sweep cannot recompute;
//! - the reverse sweep `rev` (`rev.rs`): one reverse block per primal
//!   block, visited in reverse execution order (the branch taken into each
//!   block with several predecessors is on the tape), accumulating adjoints.
//!
//! Combined mode (`__enzyme_autodiff`) calls `aug` then `rev` with a local
//! tape; calls inside a differentiated function call the callee's pair with
//! the same tape, so recursion and split mode need nothing more.
pub mod aug;
pub mod custom;
pub mod decisions;
pub mod dedup;
pub mod distinct;
pub mod freelist;
pub mod gather;
pub mod inplace;
pub mod keep;
pub mod memlayout;
pub mod memory;
pub mod moverec;
pub mod packed;
pub mod pickrec;
pub mod promote;
pub mod remarks;
pub mod rerun;
pub mod rerun_cost;
mod rerun_mem;
pub mod rev;
pub mod selfargs;
pub mod tape;
pub mod tapelocal;
pub mod zfuse;
use rev::shadowtape;

use super::Session;
use crate::callsite::{self, Activity, Request};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;

/// Activity of a parameter of a reverse-mode derivative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    Const,
    /// A pointer (or other value) with a shadow parameter.
    Dup,
    /// A float scalar whose adjoint the reverse sweep returns.
    Active,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub func: V,
    pub acts: Vec<Act>,
    /// Whether the (float) result is active: `rev` then takes its seed.
    pub ret_active: bool,
    /// Whether the caller needs a shadow of the returned pointer although
    /// no parameter is duplicated (a callee returning fresh memory from
    /// malloc/new that the caller fills with active data: Eigen's
    /// `conditional_aligned_new_auto` at -O0). `aug` then returns
    /// `{primal, shadow}` and its activity analysis starts from the
    /// returned value's sources too (`ret_shadow_seeds`). Always false when
    /// a parameter is duplicated (the result is shadowed then anyway).
    pub ret_shadow: bool,
    /// Per parameter: whether the caller may overwrite memory reached
    /// through it after the call returns and before the reverse sweep (the
    /// reverse sweep then keeps what it reads there on the tape instead of
    /// reading it again).
    pub overwritten: Vec<bool>,
    /// Whether the caller may overwrite non-constant globals likewise.
    pub globals_overwritten: bool,
    /// Whether memory the function reaches through pointers it loads from
    /// memory may be overwritten likewise (or die: the caller's stack).
    pub others_overwritten: bool,
    /// Per parameter: whether the caller proved its memory distinct from
    /// everything else the callee reaches (`distinct.rs`); `aug` marks it
    /// so and the memory analysis takes it like `noalias`.
    pub distinct: Vec<bool>,
    /// Vector lanes (`enzyme_width`): each duplicated parameter takes this
    /// many shadows; `aug` runs the primal once and builds every lane's
    /// shadows, and there is one reverse function per lane (see
    /// [`Pair::lane_revs`]). 1 outside vector reverse mode.
    pub width: u32,
}

impl Key {
    /// The `aug` parameters whose memory the caller may overwrite before
    /// the reverse sweep (primal ones, and their shadows).
    pub fn overwritten_params(&self, aug: V) -> Vec<V> {
        let ps = params(aug);
        let mut out = Vec::new();
        let mut j = 0;
        for (k, act) in self.acts.iter().enumerate() {
            if self.overwritten.get(k).copied().unwrap_or(false) {
                out.push(ps[j]);
                // The augmented sweep writes a shadow where it writes its
                // primal: what overwrites the primal's memory later (a
                // C++ object's cleanup nulling a pointer field) overwrites
                // its shadow's too, so pointers loaded from the shadow are
                // not read again in the reverse sweep.
                if *act == Act::Dup {
                    out.extend(ps.iter().skip(j + 1).take(self.lanes()).copied());
                }
            }
            j += if *act == Act::Dup {
                1 + self.lanes()
            } else {
                1
            };
        }
        out
    }

    /// Number of lanes (shadows per duplicated parameter).
    pub fn lanes(&self) -> usize {
        self.width.max(1) as usize
    }
}

/// What `aug` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AugRet {
    Void,
    Primal,
    /// `{primal, shadow}` of a returned pointer.
    PrimalShadow,
}

#[derive(Clone, Debug)]
pub struct Pair {
    pub aug: V,
    pub rev: V,
    pub aug_ret: AugRet,
    /// Parameters whose adjoints `rev` returns, in order.
    pub active_params: Vec<usize>,
    /// Whether `rev` takes the seed of the result.
    pub takes_seed: bool,
    /// Reverse functions of vector lanes 1.. (`rev` is lane 0's). Each has
    /// `rev`'s signature (every lane's shadows, one seed, the tape) and
    /// reads only its own lane's shadows; all pop the same tape, which one
    /// run of `aug` filled (the caller resets its top between lanes).
    pub lane_revs: Vec<V>,
}

impl Pair {
    /// The reverse function of `lane`.
    pub fn rev_of(&self, lane: usize) -> V {
        if lane == 0 {
            self.rev
        } else {
            self.lane_revs[lane - 1]
        }
    }
}

/// Combined reverse mode. With `enzyme_width, N`, the primal runs once:
/// one augmented sweep builds every lane's shadows into one tape, then the
/// reverse function of each lane runs over that same tape (its top put
/// back to where `aug` left it) with its lane's shadows and the seed; the
/// derivatives come back argument by argument, lane by lane.
pub fn run_request(sess: &mut Session, req: &Request) -> Result<Vec<V>> {
    let ret_ty = fn_return_type(req.func);
    let key = key_of(req);
    let lanes = key.lanes();
    let zeroing = zfuse::zeroing_before(sess, req, lanes);
    // The caller zeroes the shadow first: a pair that may keep values in
    // it between the sweeps (`rev/shadowtape.rs`).
    let zeroed = zeroing
        .filter(|_| shadowtape::may_apply(sess, &key))
        .map(|(m, pos)| (operand(m, 2), pos));
    let zeroed_pair = match zeroed {
        Some((_, pos)) => get_zeroed_pair(sess, &key, req.call, pos)?,
        None => None,
    };
    let zeroed = zeroed.filter(|_| zeroed_pair.is_some());
    let pair = match zeroed_pair {
        Some(p) => p,
        None => get_pair(sess, &key, Some(req.call))?,
    };
    let b = Builder::new(sess.module);
    let ctx = b.ctx;
    let caller = inst_fn(req.call);
    // A fresh tape in the caller's frame.
    b.at_entry_allocas(caller);
    b.clear_debug_loc();
    let tt = tape::tape_type(ctx);
    let tp = crate::modes::gpu::generic_ptr(&b, b.alloca(tt));
    b.before(req.call);
    b.set_debug_loc_from(req.call);
    // Take the thread's cached tape buffer (a gradient called again reuses
    // the memory it grew last time instead of faulting fresh pages in).
    // A derivative that keeps nothing on the tape does not touch it.
    let uses_tape = [pair.aug]
        .into_iter()
        .chain((0..lanes).map(|l| pair.rev_of(l)))
        .any(|f| params(f).last().is_some_and(|t| has_uses(*t)));
    // On a GPU: a local buffer of the tape's static bound, and the
    // block's shadows of workgroup memory zeroed.
    let device = crate::modes::gpu::is_device(sess.module);
    if device {
        // (Vector lanes 1.. have shadow globals of their own.)
        let lane_shadows = sess
            .lane_shadow_globals
            .iter()
            .filter(|((_, l), _)| l & crate::modes::REV_LANE != 0)
            .map(|(_, s)| *s);
        let shadows: Vec<V> = sess
            .shadow_globals
            .values()
            .copied()
            .chain(lane_shadows)
            .collect();
        crate::modes::gpu::zero_shared_shadows(&b, &shadows);
    }
    if uses_tape && device {
        let bytes = crate::modes::gpu::local_tape_bytes(pair.aug, req.func)?;
        crate::modes::gpu::local_tape(&b, caller, req.call, tp, bytes);
    } else if uses_tape {
        tape::take_cached_buffer(&b, tp);
    }
    tape::reset_top(&b, tp);
    // Primal arguments, each duplicated one followed by its lanes' shadows.
    let mut args = Vec::new();
    for a in &req.args {
        args.push(a.primal);
        if a.activity.has_shadow() {
            for lane in 0..lanes {
                args.push(a.shadows[lane.min(a.shadows.len() - 1)]);
            }
        }
    }
    let mut aug_args = args.clone();
    aug_args.push(tp);
    let mark = freelist::mark_at(&b);
    if let Some((len, _)) = zeroed {
        shadowtape::pass_len(&b, len);
    }
    let primal = b.call_fn(pair.aug, &mut aug_args);
    sess.toplevel_calls.push((primal, caller));
    let top = (lanes > 1).then(|| tape::top(&b, tp));
    let mut per_lane: Vec<Vec<V>> = Vec::new();
    for lane in 0..lanes {
        if let (Some(t), true) = (top, lane > 0) {
            tape::set_top(&b, tp, t);
        }
        let mut rev_args = args.clone();
        if pair.takes_seed {
            rev_args.push(req.ret_seed.unwrap_or_else(|| const_real(ret_ty, 1.0)));
        }
        rev_args.push(tp);
        if let Some((len, _)) = zeroed {
            shadowtape::pass_len(&b, len);
        }
        let d = b.call_fn(pair.rev_of(lane), &mut rev_args);
        sess.toplevel_calls.push((d, caller));
        if let Some((memset, pos)) = zeroing {
            sess.zero_sites.push(zfuse::Site {
                memset,
                len: operand(memset, 2),
                pos,
                aug: primal,
                rev: d,
            });
        }
        let ds = if is_void(type_of(d)) {
            vec![]
        } else if pair.active_params.len() == 1 {
            vec![d]
        } else {
            (0..pair.active_params.len() as u32)
                .map(|k| b.extract_value(d, k))
                .collect()
        };
        per_lane.push(ds);
    }
    if uses_tape && device {
        crate::modes::gpu::release_tape(&b, tp);
    } else if uses_tape {
        tape::return_cached_buffer(&b, tp);
    }
    if let Some(m) = mark {
        freelist::release_at(&b, m);
    }
    let mut leaves = Vec::new();
    if req.primal_return && !is_void(ret_ty) {
        let p = if pair.aug_ret == AugRet::PrimalShadow {
            b.extract_value(primal, 0)
        } else {
            primal
        };
        leaves.extend(callsite::unpack(&b, p));
    }
    for k in 0..pair.active_params.len() {
        for lane in per_lane.iter() {
            leaves.extend(callsite::unpack(&b, lane[k]));
        }
    }
    callsite::replace_call(req, &b, &leaves)?;
    Ok(leaves)
}

fn key_of(req: &Request) -> Key {
    let ret_ty = fn_return_type(req.func);
    Key {
        func: req.func,
        acts: req
            .args
            .iter()
            .map(|a| match a.activity {
                Activity::Const => Act::Const,
                Activity::Dup | Activity::DupNoNeed => Act::Dup,
                Activity::Active => Act::Active,
            })
            .collect(),
        ret_active: is_fp(ret_ty) && req.ret_active != Some(false),
        ret_shadow: false,
        // Nothing runs between the two sweeps of a user's call.
        overwritten: vec![false; req.args.len()],
        globals_overwritten: false,
        others_overwritten: false,
        distinct: vec![false; req.args.len()],
        width: req.width.max(1),
    }
}

/// A tag for split-mode tapes of one function pair (checked on reverse).
fn tape_tag(pair: &Pair) -> i64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in name(pair.aug).bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    (h >> 1) as i64
}

/// Split mode: `__enzyme_augmentfwd` runs the augmented forward sweep into
/// a tape object it returns; `__enzyme_reverse` runs the reverse sweep from
/// it (and frees it unless `enzyme_nofree`); `__enzyme_augmentsize` is the
/// size of the tape object. Combined mode uses the same pair of functions.
pub fn run_split(sess: &mut Session, req: &Request) -> Result<Vec<V>> {
    use crate::callsite::Mode;
    let b = Builder::new(sess.module);
    b.before(req.call);
    b.set_debug_loc_from(req.call);
    let ctx = b.ctx;
    if req.mode == Mode::AugmentSize {
        let leaves = vec![const_i64(ctx, tape::TAPE_OBJECT_BYTES)];
        callsite::replace_call(req, &b, &leaves)?;
        return Ok(leaves);
    }
    if let Some(n) = req.allocated {
        if n < tape::TAPE_OBJECT_BYTES {
            return Err(Error::bad_call(
                req.call,
                format!("enzyme_allocated gives {n} bytes for the tape; enzyme-rs needs {} (see __enzyme_augmentsize)", tape::TAPE_OBJECT_BYTES),
            ));
        }
    }
    let key = key_of(req);
    let pair = get_pair(sess, &key, Some(req.call))?;
    let ret_ty = fn_return_type(req.func);
    let tt = tape::tape_type(ctx);
    let tag = const_i64(ctx, tape_tag(&pair));
    let lanes = key.lanes();
    let mut args = Vec::new();
    for a in &req.args {
        args.push(a.primal);
        if a.activity.has_shadow() {
            for lane in 0..lanes {
                args.push(a.shadows[lane.min(a.shadows.len() - 1)]);
            }
        }
    }
    let mut leaves = Vec::new();
    if req.mode == Mode::AugmentFwd {
        let tp = match (req.allocated, req.tape) {
            (Some(_), Some(t)) => t,
            _ => b.malloc(const_i64(ctx, tape::TAPE_OBJECT_BYTES)),
        };
        b.store(zero(tt), tp);
        let tag_p = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 3)]);
        b.store(tag, tag_p);
        args.push(tp);
        // Frees it defers stay with its tape until `__enzyme_reverse`.
        let defers = freelist::defers(pair.aug);
        let mark = defers.then(|| freelist::mark_before(&b));
        let primal = b.call_fn(pair.aug, &mut args);
        if let Some(m) = mark {
            freelist::detach_onto_tape(&b, tp, m);
        }
        let declared = callsite::leaf_types(if req.sret.is_some() {
            ret_ty
        } else {
            req.ret_ty
        });
        // Returned: the tape, then the primal result when the declared
        // result has room for it (or only the primal when the declared
        // result is one float and the tape memory is the caller's).
        let only_primal = declared.len() == 1 && is_fp(declared[0]) && !is_void(ret_ty);
        if !only_primal {
            leaves.push(tp);
        }
        if !is_void(ret_ty) && (only_primal || declared.len() > 1) {
            let p = if pair.aug_ret == AugRet::PrimalShadow {
                b.extract_value(primal, 0)
            } else {
                primal
            };
            leaves.extend(callsite::unpack(&b, p));
        }
        // A result declared with the primal first and the tape last
        // (`struct { double x; void *tape; }`, as some of Enzyme's tests
        // do): the tape goes last when the first field cannot hold it and
        // the last can.
        if !only_primal
            && leaves.len() == declared.len()
            && leaves.len() > 1
            && !is_ptr(declared[0])
            && !is_int(declared[0])
            && is_ptr(declared[leaves.len() - 1])
        {
            leaves.rotate_left(1);
        }
        callsite::replace_call(req, &b, &leaves)?;
        return Ok(leaves);
    }
    // __enzyme_reverse
    let tp = req
        .tape
        .ok_or_else(|| Error::bad_call(req.call, "missing tape"))?;
    let tp = if is_ptr(type_of(tp)) {
        tp
    } else {
        b.cast(LLVMOpcode::LLVMIntToPtr, tp, ptr_type(ctx))
    };
    // A tape from another function pair is caught here.
    let tag_p = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 3)]);
    let msg = format!("enzyme-rs: __enzyme_reverse of '{}' was given a tape from a different function or activity", name(req.func));
    let s = b.global_string(&msg, "enzyme.msg");
    let check = tape::check_fn(sess.module);
    b.call_fn(check, &mut [tag_p, tag, s]);
    b.before(req.call);
    if pair.takes_seed {
        args.push(req.ret_seed.unwrap_or_else(|| const_real(ret_ty, 1.0)));
    }
    args.push(tp);
    let detached = freelist::defers(pair.aug).then(|| freelist::pop_detached(&b, tp));
    // Vector lanes: each lane's reverse sweep pops the same tape (its top
    // put back between lanes); the tape is freed once, after the last.
    let top = (lanes > 1).then(|| tape::top(&b, tp));
    let mut per_lane = Vec::new();
    for lane in 0..lanes {
        if let (Some(t), true) = (top, lane > 0) {
            tape::set_top(&b, tp, t);
        }
        per_lane.push(b.call_fn(pair.rev_of(lane), &mut args.clone()));
    }
    if let Some(blk) = detached {
        freelist::settle(&b, blk);
    }
    if !req.nofree {
        let data = b.load(ptr_type(ctx), tp);
        b.free(data);
        if req.allocated.is_none() {
            b.free(tp);
        }
    }
    let n = pair.active_params.len();
    if n > 0 {
        // Argument by argument, lane by lane (as combined mode).
        for k in 0..n {
            for d in &per_lane {
                let dk = if n == 1 {
                    *d
                } else {
                    b.extract_value(*d, k as u32)
                };
                leaves.extend(callsite::unpack(&b, dk));
            }
        }
    }
    callsite::replace_call(req, &b, &leaves)?;
    Ok(leaves)
}

/// The (aug, rev) pair for `key`, synthesized on first use.
pub fn get_pair(sess: &mut Session, key: &Key, user_call: Option<V>) -> Result<Pair> {
    build_pair(sess, &canonical(key), user_call, None)
}

/// `key` with what cannot change its pair set one way: whether memory
/// reached through loaded pointers may be overwritten before the reverse
/// sweep means nothing to a function that never reaches such memory
/// (`memory::reaches_unknown_memory`), so such keys say "may" (a
/// recursive function's calls of itself and its caller's call then share
/// one pair).
fn canonical(key: &Key) -> std::borrow::Cow<'_, Key> {
    if key.others_overwritten || memory::reaches_unknown_memory(key.func) {
        return std::borrow::Cow::Borrowed(key);
    }
    std::borrow::Cow::Owned(Key {
        others_overwritten: true,
        ..key.clone()
    })
}

/// The variant of `key`'s pair for a call whose caller zeroes the shadow
/// at `pos` first, or None when it keeps nothing in that shadow: then it
/// is the plain pair, which serves the call (built only when `may_keep`
/// sees a candidate; one built in vain becomes the plain pair, or is
/// dropped when that exists already).
fn get_zeroed_pair(sess: &mut Session, key: &Key, call: V, pos: usize) -> Result<Option<Pair>> {
    let key = &*canonical(key);
    let k = (key.clone(), pos);
    if let Some(p) = sess.zeroed_pairs.get(&k) {
        return Ok(Some(p.clone()));
    }
    if sess.zeroed_plain.contains(&k) || !shadowtape::may_keep(key.func) {
        return Ok(None);
    }
    sess.zeroed_kept = false;
    let p = build_pair(sess, key, Some(call), Some(pos))?;
    if std::mem::take(&mut sess.zeroed_kept) {
        return Ok(Some(p));
    }
    sess.zeroed_pairs.remove(&k);
    sess.zeroed_plain.insert(k);
    if sess.rev_cache.contains_key(key) {
        let all: Vec<V> = [p.aug, p.rev].into_iter().chain(p.lane_revs).collect();
        sess.created.retain(|x| !all.contains(x));
        sess.doomed.extend(all);
    } else {
        sess.rev_cache.insert(key.clone(), p);
    }
    Ok(None)
}

/// The pair for `key`; with `zeroed`, the variant for a call whose caller
/// zeroes the shadow at that aug/rev parameter position first (kept apart
/// from the other pairs: `Session::zeroed_pairs`).
fn build_pair(
    sess: &mut Session,
    key: &Key,
    user_call: Option<V>,
    zeroed: Option<usize>,
) -> Result<Pair> {
    let cached = match zeroed {
        None => sess.rev_cache.get(key),
        Some(pos) => sess.zeroed_pairs.get(&(key.clone(), pos)),
    };
    if let Some(p) = cached {
        return Ok(p.clone());
    }
    crate::modes::common::check_fixed_sizes(key.func, user_call)?;
    fn put(sess: &mut Session, key: &Key, zeroed: Option<usize>, p: Option<Pair>) {
        match (zeroed, p) {
            (None, Some(p)) => {
                sess.rev_cache.insert(key.clone(), p);
            }
            (None, None) => {
                sess.rev_cache.remove(key);
            }
            (Some(pos), Some(p)) => {
                sess.zeroed_pairs.insert((key.clone(), pos), p);
            }
            (Some(pos), None) => {
                sess.zeroed_pairs.remove(&(key.clone(), pos));
            }
        }
    }
    let f = key.func;
    let custom = match sess.registry.custom_gradient(f) {
        Some(c) => Some(c),
        None => crate::modes::blas::custom_gradient(sess.module, f)?,
    };
    if is_declaration(f) && custom.is_none() {
        return Err(match user_call {
            Some(c) => Error::new(ErrorKind::UnknownFunction(name(f)), inst_fn(c), Some(c)),
            None => Error::new(ErrorKind::UnknownFunction(name(f)), f, None),
        });
    }
    // A running selection's last pick recorded (pickrec.rs): the pair of
    // a rewritten copy stands for `f`'s.
    if custom.is_none()
        && !crate::modes::loops::pair::is_loop_fn(f)
        && pickrec::may_apply(sess, key)
    {
        let picks = match sess.picks_copies.get(key) {
            Some(c) => Ok(Some(*c)),
            None => pickrec::try_picks(sess, key).map(|r| r.map(|(c, _)| c)),
        };
        match picks {
            Ok(Some(copy)) => {
                sess.picks_copies.insert(key.clone(), copy);
                let ckey = Key {
                    func: copy,
                    ..key.clone()
                };
                let p = build_pair(sess, &ckey, user_call, zeroed)?;
                put(sess, key, zeroed, Some(p.clone()));
                return Ok(p);
            }
            Ok(None) => {}
            Err(e) => log::warn!("pick record of '{}' not made: {e}", name(f)),
        }
    }
    let lanes = key.lanes();
    check_lanes_supported(key, custom.is_some(), user_call)?;
    let ctx = module_context(sess.module);
    let ret_ty = fn_return_type(f);
    let ps = params(f);
    // Signatures: each duplicated parameter is followed by its shadow, one
    // per lane.
    let mut ptys = Vec::new();
    for (i, p) in ps.iter().enumerate() {
        ptys.push(type_of(*p));
        if key.acts[i] == Act::Dup {
            for _ in 0..lanes {
                ptys.push(type_of(*p));
            }
        }
    }
    let ret_is_shadowed_ptr = (is_ptr(ret_ty) || is_ptr_aggregate(ret_ty))
        && (key.ret_shadow || ps.iter().zip(&key.acts).any(|(_, a)| *a == Act::Dup));
    let aug_ret = if is_void(ret_ty) {
        AugRet::Void
    } else if ret_is_shadowed_ptr {
        AugRet::PrimalShadow
    } else {
        AugRet::Primal
    };
    let aug_ret_ty = match aug_ret {
        AugRet::Void => void_type(ctx),
        AugRet::Primal => ret_ty,
        AugRet::PrimalShadow => struct_type(ctx, &mut vec![ret_ty; 1 + lanes]),
    };
    let mut aug_ptys = ptys.clone();
    aug_ptys.push(ptr_type(ctx));
    // Float results and aggregates/vectors of floats (a struct returned by
    // value from a callee) take the seed of their adjoint.
    let takes_seed = key.ret_active && contains_fp(ret_ty) && !contains_ptr(ret_ty);
    let mut rev_ptys = ptys.clone();
    if takes_seed {
        rev_ptys.push(ret_ty);
    }
    rev_ptys.push(ptr_type(ctx));
    let active_params: Vec<usize> = (0..ps.len())
        .filter(|i| key.acts[*i] == Act::Active)
        .collect();
    let mut rets: Vec<T> = active_params.iter().map(|i| type_of(ps[*i])).collect();
    let rev_ret_ty = match rets.len() {
        0 => void_type(ctx),
        1 => rets[0],
        _ => struct_type(ctx, &mut rets),
    };
    let aug = add_internal_fn(
        sess.module,
        &format!("enzyme_rs.aug.{}", name(f)),
        fn_type_of(aug_ret_ty, &mut aug_ptys, false),
    );
    let rev = add_internal_fn(
        sess.module,
        &format!("enzyme_rs.rev.{}", name(f)),
        fn_type_of(rev_ret_ty, &mut rev_ptys, false),
    );
    let rev_fty = fn_type_of(rev_ret_ty, &mut rev_ptys, false);
    let lane_revs: Vec<V> = (1..lanes)
        .map(|k| {
            add_internal_fn(
                sess.module,
                &format!("enzyme_rs.rev{k}.{}", name(f)),
                rev_fty,
            )
        })
        .collect();
    // (Read and removed by driver::cleanup, which -O0 does not run.)
    if crate::options::switches::forward_reverse_loops()
        && sess.opts.opt_level > 0
        && !sess.opts.no_cleanup
    {
        for &r in std::iter::once(&rev).chain(&lane_revs) {
            mark_param_roles(r, &ps, &key.acts, lanes);
        }
    }
    let pair = Pair {
        aug,
        rev,
        aug_ret,
        active_params,
        takes_seed,
        lane_revs,
    };
    put(sess, key, zeroed, Some(pair.clone()));
    let all: Vec<V> = [aug, rev]
        .into_iter()
        .chain(pair.lane_revs.clone())
        .collect();
    sess.created.extend(all.iter().copied());
    let r = (|| -> Result<Option<(Pair, bool)>> {
        if crate::modes::loops::pair::is_loop_fn(f) {
            return crate::modes::loops::pair::build(sess, key, &pair).map(|_| None);
        }
        if let Some(c) = custom {
            return custom::build(sess, key, &pair, &ptys, c, user_call).map(|_| None);
        }
        let mut a = aug::build(sess, key, &pair)?;
        for lane in 0..lanes {
            sess.zeroed_for_rev = zeroed;
            rev::build(sess, key, &pair, &mut a, lane)?;
        }
        rev::finish_pops(&mut a);
        a.finish_pushes(sess)?;
        let mut dispatch = None;
        // A pair for a zeroed shadow that kept nothing there is dropped
        // by get_zeroed_pair when the plain pair exists: no trial of a
        // move record or re-run for it (gmm's benchmark built its whole
        // re-run family again this way).
        let in_vain = zeroed.is_some() && !sess.zeroed_kept && sess.rev_cache.contains_key(key);
        if in_vain {
            log::debug!("zeroed pair of '{}' keeps nothing: no trials", name(f));
        } else if let Some(p) = rerun::try_annotated(sess, key, &pair)? {
            return Ok(Some((p, true)));
        } else if moverec::may_apply(sess, key) {
            match moverec::try_moves(sess, key, &a, &pair) {
                Ok(Some(p)) => return Ok(Some((p, true))),
                Ok(None) => {}
                Err(e) => log::warn!("move record of '{}' not made: {e}", name(f)),
            }
        }
        if !in_vain && rerun::may_apply(sess, key) {
            match rerun::try_rerun(sess, key, &a, &pair) {
                Ok(Some(rerun::Rerun::Replace(p))) => return Ok(Some((p, true))),
                Ok(Some(rerun::Rerun::Dispatch(p))) => dispatch = Some((p, false)),
                Ok(None) => {}
                Err(e) => log::warn!("rerun of '{}' not made: {e}", name(f)),
            }
        }
        if sess.opts.print_tape || sess.opts.print {
            eprint!("{}", a.tape_report());
        }
        remarks::emit(&a, sess.module);
        for &g in &all {
            verify_function(g).map_err(|m| {
                Error::new(
                    ErrorKind::Internal(format!(
                        "reverse-mode derivative of '{}' fails the verifier: {m}",
                        name(f)
                    )),
                    f,
                    None,
                )
            })?;
        }
        Ok(dispatch)
    })();
    match r {
        Err(e) => {
            put(sess, key, zeroed, None);
            sess.created.retain(|x| !all.contains(x));
            sess.doomed.extend(all.iter().copied());
            return Err(e);
        }
        // The loop re-run's pair replaces the trial, or chooses between
        // the two at run time.
        Ok(Some((p, replace))) => {
            put(sess, key, zeroed, Some(p.clone()));
            if replace {
                sess.created.retain(|x| !all.contains(x));
                sess.doomed.extend(all.iter().copied());
            } else {
                sess.created.extend([p.aug, p.rev]);
            }
            return Ok(p);
        }
        Ok(None) => {
            // Complete and kept as it is: what its body does with each
            // parameter is known now.
            if crate::options::switches::mark_aug_params() {
                distinct::mark_finished_aug(pair.aug);
            }
        }
    }
    if sess.opts.print {
        for &g in &all {
            eprintln!("{}", print_value(g));
        }
    }
    Ok(pair)
}

/// Vector lanes are not split through custom gradients (the user's pair
/// has one tape per call) nor checkpointed loops yet: a clear error.
fn check_lanes_supported(key: &Key, custom: bool, user_call: Option<V>) -> Result<()> {
    let f = key.func;
    let fixed_point = crate::modes::loops::shape(f)
        .map_or(false, |s| s.kind == crate::modes::loops::Kind::FixedPoint);
    if key.lanes() == 1 || !(custom || fixed_point) {
        return Ok(());
    }
    let what = if custom {
        format!("a registered custom gradient ('{}')", name(f))
    } else {
        let step = crate::modes::loops::step_of(f)
            .map(name)
            .unwrap_or_default();
        format!("a fixed point (__enzyme_fixed_point of '{step}')")
    };
    let msg = format!(
        "vector reverse mode (enzyme_width {}) through {what} is not supported yet",
        key.width
    );
    // A loop function (generated) is reported at the user's loop call it
    // replaced, which has the call's line.
    let site = users(f)
        .into_iter()
        .filter(|u| is_call(*u))
        .find(|u| !name(inst_fn(*u)).starts_with("enzyme_rs."));
    Err(match (user_call, site) {
        (Some(c), _) => Error::bad_call(c, msg),
        (None, Some(s)) if !custom => Error::new(ErrorKind::Unsupported(msg), inst_fn(s), Some(s)),
        _ => Error::new(ErrorKind::Unsupported(msg), f, None),
    })
}

fn add_internal_fn(m: LLVMModuleRef, n: &str, fty: T) -> V {
    add_internal_function(m, n, fty)
}

/// The roles of a reverse sweep's pointer parameters, for cpp/revorder.cc
/// (which reorders a loop's reads of primal memory against its additions
/// into shadows only when they are these): `enzyme_rs.primal` on a
/// duplicated parameter, `enzyme_rs.shadow` on its shadows,
/// `enzyme_rs.tape` on the tape (the last parameter). A shadow is a
/// buffer of its own: it overlaps no duplicated parameter's memory.
fn mark_param_roles(rev: V, ps: &[V], acts: &[Act], lanes: usize) {
    use crate::ir::attrs::add_param_string_attr;
    let mut k = 0u32;
    for (i, p) in ps.iter().enumerate() {
        let dup = acts[i] == Act::Dup;
        if dup && is_ptr(type_of(*p)) {
            add_param_string_attr(rev, k, "enzyme_rs.primal");
            for l in 0..lanes as u32 {
                add_param_string_attr(rev, k + 1 + l, "enzyme_rs.shadow");
            }
        }
        k += 1 + if dup { lanes as u32 } else { 0 };
    }
    let n = params(rev).len() as u32;
    if n > 0 {
        add_param_string_attr(rev, n - 1, "enzyme_rs.tape");
    }
}
