//! Loops with their own reverse mode: `__enzyme_checkpoint_for`,
//! `__enzyme_checkpoint_while` (checkpointing: snapshots of the loop's
//! state at some steps, the other steps run again in the reverse sweep)
//! and `__enzyme_fixed_point` (a converged iteration differentiated by its
//! adjoint fixed point). See include/enzyme/checkpoint.h and fixed_point.h.
//!
//! Before any differentiation, [`lower`] replaces each such call by a call
//! to a generated *loop function* that runs the plain loop (so the primal,
//! forward mode and the analyses see ordinary code). Its parameters are
//! `HEAD` values (for/while: start, n, scheme, data; fixed point:
//! max_iters, reduction bits, control, null), then a (pointer, bytes) pair
//! per region (fixed point: the states first), then the step's arguments
//! after the index. The attribute `"enzyme_rs_loop"` (`for:R`, `while:R`,
//! `fp:S:R`) marks it; reverse mode builds its pair with `pair::build`
//! (called from `reverse::get_pair`), which drives the runtime in
//! runtime/loops_rt.c.
pub mod annotated;
pub mod fwdfp;
pub mod pair;
pub mod tangent;

use crate::callsite::{convert_arg, marker_name, resolve_function};
use crate::diag::{Error, Result};
use crate::ir::attrs::{fn_string_attr, set_fn_string_attr};
use crate::ir::llvm::*;
use crate::ir::Builder;

pub const ATTR: &str = "enzyme_rs_loop";
/// On a loop function the automatic re-run made (`reverse::rerun`): its
/// pair calls the runtime's own re-run driver (`__enzyme_rs_loops_rerun_*`),
/// not the generic scheme driver.
pub const RERUN_DRIVER: &str = "enzyme_rs_loop_rerun";
/// Parameters of a loop function before the regions.
pub const HEAD: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    For,
    While,
    FixedPoint,
}

/// What a loop function's attribute says.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub kind: Kind,
    /// Fixed point: state regions (the first ones).
    pub states: usize,
    /// All regions (states included).
    pub regions: usize,
}

impl Shape {
    /// Index of the first step argument among the loop function's params.
    pub fn first_arg(&self) -> usize {
        HEAD + 2 * self.regions
    }
}

/// The shape of loop function `f`, if it is one.
pub fn shape(f: V) -> Option<Shape> {
    let s = fn_string_attr(f, ATTR)?;
    let mut it = s.split(':');
    let kind = match it.next()? {
        "for" => Kind::For,
        "while" => Kind::While,
        "fp" => Kind::FixedPoint,
        _ => return None,
    };
    let nums: Vec<usize> = it.filter_map(|x| x.parse().ok()).collect();
    Some(match kind {
        Kind::FixedPoint => Shape {
            kind,
            states: *nums.first()?,
            regions: nums.first()? + nums.get(1)?,
        },
        _ => Shape {
            kind,
            states: 0,
            regions: *nums.first()?,
        },
    })
}

/// The step function a loop function calls.
pub fn step_of(f: V) -> Option<V> {
    blocks(f)
        .into_iter()
        .flat_map(instructions)
        .filter(|i| is_call(*i))
        .find_map(called_function)
}

fn kind_of_callee(n: &str) -> Option<Kind> {
    if n.starts_with("__enzyme_checkpoint_for") {
        Some(Kind::For)
    } else if n.starts_with("__enzyme_checkpoint_while") {
        Some(Kind::While)
    } else if n.starts_with("__enzyme_fixed_point") {
        Some(Kind::FixedPoint)
    } else {
        None
    }
}

/// Lower every loop call of module `m`; errors are reported here (the call
/// is removed). Returns whether the module changed.
pub fn lower(m: LLVMModuleRef) -> bool {
    // Loops marked from inside become __enzyme_fixed_point loop functions
    // (`modes::iface::fixed_point`).
    let marked = crate::modes::iface::fixed_point::lower_all(m);
    let mut calls = Vec::new();
    for f in functions(m) {
        let n = name(f);
        let Some(kind) = kind_of_callee(&n) else {
            continue;
        };
        for u in users(f) {
            if is_call(u) && strip_casts(called_value(u)) == f {
                calls.push((u, Ok(kind)));
            }
        }
    }
    let changed = marked || !calls.is_empty();
    for (call, kind) in calls {
        if let Err(e) = kind.and_then(|k| lower_call(m, call, k)) {
            crate::driver::fail_call(&e, call, inst_fn(call));
        }
    }
    changed
}

/// The parsed arguments of one loop call.
struct Parsed {
    step: V,
    head: [V; HEAD],
    states: Vec<(V, V)>,
    regions: Vec<(V, V)>,
    args: Vec<V>,
}

/// A number passed by value or (Fortran) by reference.
fn scalar(b: &Builder, v: V, to: T) -> V {
    let v = if is_ptr(type_of(v)) { b.load(to, v) } else { v };
    if is_fp(to) && is_fp(type_of(v)) {
        return b.fp_cast(v, to);
    }
    if is_int(to) && is_int(type_of(v)) {
        return b.int_cast(v, to, true);
    }
    v
}

fn parse(m: LLVMModuleRef, call: V, kind: Kind) -> Result<Parsed> {
    let b = Builder::new(m);
    b.before(call);
    let ctx = b.ctx;
    let (i64t, p, f64t) = (i64_type(ctx), ptr_type(ctx), double_type(ctx));
    let all = call_args(call);
    let callee = name(called_value(call));
    if all.is_empty() {
        return Err(Error::bad_call(
            call,
            format!("{callee} needs the step function first"),
        ));
    }
    let step = resolve_function(call, all[0])?;
    let mut k = 1;
    let mut head = [const_i64(ctx, 0), const_i64(ctx, -1), zero(p), zero(p)];
    if kind == Kind::For {
        if all.len() < 3 {
            return Err(Error::bad_call(call, "__enzyme_checkpoint_for(step, start, n, ...) needs the first step and the number of steps"));
        }
        head[0] = scalar(&b, all[1], i64t);
        head[1] = scalar(&b, all[2], i64t);
        k = 3;
    }
    if kind == Kind::FixedPoint {
        head[0] = const_i64(ctx, -1);
        head[1] = b.bitcast(const_real(f64t, -1.0), i64t);
    }
    let (mut states, mut regions) = (Vec::new(), Vec::new());
    let need = |k: usize, n: usize, what: &str| -> Result<()> {
        if k + n >= all.len() + 1 || k + n > all.len() {
            return Err(Error::bad_call(
                call,
                format!("{callee}: {what} is missing its value(s)"),
            ));
        }
        Ok(())
    };
    while k < all.len() {
        let Some(mk) = marker_name(all[k]) else { break };
        match (mk.as_str(), kind) {
            ("enzyme_scheme", Kind::For | Kind::While) => {
                need(k + 1, 2, "enzyme_scheme (scheme, data)")?;
                head[2] = as_ptr(&b, all[k + 1]);
                head[3] = as_ptr(&b, all[k + 2]);
                k += 3;
            }
            ("enzyme_checkpoint_region", _) | ("enzyme_fp_state", Kind::FixedPoint) => {
                need(k + 1, 2, &mk)?;
                let ptr = as_ptr(&b, all[k + 1]);
                let bytes = scalar(&b, all[k + 2], i64t);
                if mk == "enzyme_fp_state" {
                    states.push((ptr, bytes));
                } else {
                    regions.push((ptr, bytes));
                }
                k += 3;
            }
            ("enzyme_fp_reduction", Kind::FixedPoint) => {
                need(k + 1, 1, &mk)?;
                head[1] = b.bitcast(scalar(&b, all[k + 1], f64t), i64t);
                k += 2;
            }
            ("enzyme_fp_max_iters", Kind::FixedPoint) => {
                need(k + 1, 1, &mk)?;
                head[0] = scalar(&b, all[k + 1], i64t);
                k += 2;
            }
            ("enzyme_fp_control", Kind::FixedPoint) => {
                need(k + 1, 1, &mk)?;
                head[2] = as_ptr(&b, all[k + 1]);
                k += 2;
            }
            _ => {
                return Err(Error::bad_call(call, format!("{callee}: the marker {mk} does not belong here (markers: enzyme_scheme, enzyme_checkpoint_region; for fixed points enzyme_fp_state, enzyme_fp_reduction, enzyme_fp_max_iters, enzyme_fp_control, enzyme_checkpoint_region)")));
            }
        }
    }
    if kind == Kind::FixedPoint && states.is_empty() {
        return Err(Error::bad_call(
            call,
            "__enzyme_fixed_point needs the iteration's state: enzyme_fp_state, pointer, bytes",
        ));
    }
    if kind != Kind::FixedPoint {
        add_written_globals(m, step, &mut regions);
    }
    if kind != Kind::FixedPoint && regions.is_empty() {
        return Err(Error::bad_call(call, format!("{callee}: name the loop's state (the memory its steps overwrite) with enzyme_checkpoint_region, pointer, bytes: the snapshots hold it")));
    }
    let sps = params(step);
    if sps.is_empty() || !is_int(type_of(sps[0])) {
        return Err(Error::bad_call(
            call,
            format!(
                "{callee}: the step function '{}' must take the step index (int64_t) first",
                name(step)
            ),
        ));
    }
    if kind != Kind::For && !is_int(fn_return_type(step)) {
        return Err(Error::bad_call(
            call,
            format!(
                "{callee}: the step function '{}' must return an int (nonzero: go on)",
                name(step)
            ),
        ));
    }
    let rest = &all[k..];
    if rest.len() != sps.len() - 1 || is_vararg(fn_type(step)) {
        return Err(Error::bad_call(call, format!("{callee}: the step function '{}' takes {} argument(s) after the index, but {} follow the markers", name(step), sps.len() - 1, rest.len())));
    }
    let mut args = Vec::new();
    for (a, sp) in rest.iter().zip(&sps[1..]) {
        let Some(v) = convert_arg(&b, *a, type_of(*sp)) else {
            return Err(Error::bad_call(
                call,
                format!(
                    "{callee}: argument {} does not fit the step's parameter of type {}",
                    print_value(*a).trim(),
                    print_type(type_of(*sp))
                ),
            ));
        };
        args.push(v);
    }
    Ok(Parsed {
        step,
        head,
        states,
        regions,
        args,
    })
}

/// Add to `regions` the mutable globals `step` (or a function it calls)
/// writes that no region names: they are the loop's state too (Enzyme
/// snapshots them), and a step run again from a snapshot must see them as
/// they were. Without this a counter or an accumulator in a global would
/// make the recomputed steps, and the derivative, silently wrong.
fn add_written_globals(m: LLVMModuleRef, step: V, regions: &mut Vec<(V, V)>) {
    let ctx = module_context(m);
    for g in globals_written(step) {
        if regions.iter().any(|(p, _)| strip_casts(*p) == g) {
            continue;
        }
        let bytes = type_alloc_size(m, crate::ir::globals::global_type(g));
        log::debug!(
            "enzyme-rs: checkpointed loop of '{}': global '{}' ({bytes} bytes) is written by the step: a region",
            name(step),
            name(g)
        );
        regions.push((g, const_i64(ctx, bytes as i64)));
    }
}

/// The mutable globals `f` or a function it calls (with a body) may store
/// to, in a fixed order. Functions passed to a call count as called (the
/// step of a checkpointed loop inside the step, not lowered yet).
fn globals_written(f: V) -> Vec<V> {
    use crate::analysis::activity::underlying_objects;
    use crate::rules::{classify, CallKind};
    let mut out: Vec<V> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![f];
    while let Some(f) = work.pop() {
        if !seen.insert(f) || is_declaration(f) {
            continue;
        }
        for i in blocks(f).into_iter().flat_map(instructions) {
            let dst = match opcode(i) {
                Some(LLVMOpcode::LLVMStore) => Some(operand(i, 1)),
                Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
                    Some(operand(i, 0))
                }
                Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke) => {
                    if let Some(c) = called_function(i) {
                        work.push(c);
                    }
                    work.extend(
                        call_args(i)
                            .into_iter()
                            .map(strip_casts)
                            .filter(|a| is_function(*a)),
                    );
                    match classify(i) {
                        CallKind::MemTransfer(_) => Some(operand(i, 0)),
                        _ => None,
                    }
                }
                _ => None,
            };
            for o in dst.map(underlying_objects).unwrap_or_default() {
                if is_global_var(o) && !is_global_constant(o) && !out.contains(&o) {
                    out.push(o);
                }
            }
        }
    }
    out
}

fn as_ptr(b: &Builder, v: V) -> V {
    let p = ptr_type(b.ctx);
    if is_ptr(type_of(v)) {
        v
    } else if is_int(type_of(v)) {
        b.cast(LLVMOpcode::LLVMIntToPtr, v, p)
    } else {
        v
    }
}

/// Lower one loop call to a call of a new loop function, which is returned.
pub(crate) fn lower_call(m: LLVMModuleRef, call: V, kind: Kind) -> Result<V> {
    let pa = parse(m, call, kind)?;
    let b = Builder::new(m);
    let ctx = b.ctx;
    let (i64t, p) = (i64_type(ctx), ptr_type(ctx));
    let mut vals: Vec<V> = pa.head.to_vec();
    for (ptr, bytes) in pa.states.iter().chain(pa.regions.iter()) {
        vals.push(*ptr);
        vals.push(*bytes);
    }
    vals.extend(pa.args.iter().copied());
    let mut ptys: Vec<T> = vec![i64t, i64t, p, p];
    for _ in 0..pa.states.len() + pa.regions.len() {
        ptys.push(p);
        ptys.push(i64t);
    }
    ptys.extend(pa.args.iter().map(|a| type_of(*a)));
    let (tag, attr) = match kind {
        Kind::For => ("for", format!("for:{}", pa.regions.len())),
        Kind::While => ("while", format!("while:{}", pa.regions.len())),
        Kind::FixedPoint => ("fp", format!("fp:{}:{}", pa.states.len(), pa.regions.len())),
    };
    let lf = add_internal_function(
        m,
        &format!("enzyme_rs.loop.{tag}.{}", name(pa.step)),
        fn_type_of(void_type(ctx), &mut ptys, false),
    );
    add_fn_attr(lf, "noinline");
    set_fn_string_attr(lf, ATTR, &attr);
    build_body(
        &b,
        lf,
        pa.step,
        kind,
        pa.head.len() + 2 * (pa.states.len() + pa.regions.len()),
    );
    b.before(call);
    b.set_debug_loc_from(call);
    b.call_fn(lf, &mut vals);
    let t = type_of(call);
    if !is_void(t) {
        replace_all_uses(call, zero(t));
    }
    erase(call);
    Ok(lf)
}

/// The plain loop: `for (j = 0; j < n; j++) step(start + j, args)`, or
/// `i = 0; while (step(i++, args));`.
fn build_body(b: &Builder, lf: V, step: V, kind: Kind, first_arg: usize) {
    let ctx = b.ctx;
    let i64t = i64_type(ctx);
    let ps = params(lf);
    let entry = append_block(lf, "entry");
    let head = append_block(lf, "loop");
    let body = append_block(lf, "body");
    let exit = append_block(lf, "exit");
    b.at_end(entry);
    b.br(head);
    b.at_end(head);
    let j = b.phi(i64t);
    add_incoming(j, &[(const_i64(ctx, 0), entry)]);
    let go = if kind == Kind::For {
        b.icmp(LLVMIntPredicate::LLVMIntSLT, j, ps[1])
    } else {
        const_i1(ctx, true)
    };
    b.cond_br(go, body, exit);
    b.at_end(body);
    let i = if kind == Kind::For {
        b.add(j, ps[0])
    } else {
        j
    };
    let mut args = vec![b.int_cast(i, type_of(params(step)[0]), true)];
    args.extend(ps[first_arg..].iter().copied());
    let r = b.call_fn(step, &mut args);
    let next = b.add(j, const_i64(ctx, 1));
    add_incoming(j, &[(next, body)]);
    if kind == Kind::For {
        b.br(head);
    } else {
        let more = b.icmp(LLVMIntPredicate::LLVMIntNE, r, zero(type_of(r)));
        b.cond_br(more, head, exit);
    }
    b.at_end(exit);
    b.ret_void();
}
