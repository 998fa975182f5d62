//! `__enzyme_set_fixed_point(reduction, max_iters, control, [state,
//! bytes]...)` at the start of a loop body: the loop is a fixed-point
//! iteration, differentiated by its implicit adjoint like
//! `__enzyme_fixed_point` (`modes/loops`).
//!
//! Before any differentiation the loop is outlined: one iteration, from
//! the marker's block around the loop back to it, becomes a step function
//! `int step(int64_t i, live-ins...)` (returning 1 when the loop goes on,
//! 0 when it leaves), and the marker's block becomes a call to
//! `__enzyme_fixed_point(step, enzyme_fp_state, state, bytes, ...,
//! enzyme_checkpoint_region, slot, bytes, ..., live-ins...)`, lowered at
//! once to a loop function. To make an iteration self-contained, the
//! function's values crossing blocks are first put in stack slots (LLVM's
//! reg2mem); the slots the loop uses are the loop function's checkpoint
//! regions (kept with the converged state). The loop must leave to one
//! block, and nothing before the marker in its block may have effects.
use crate::diag::{Error, Result};
use crate::ir::blocks::{block_as_value, move_to_front, set_successor, value_as_block};
use crate::ir::llvm::*;
use crate::ir::shim;
use crate::ir::Builder;
use std::collections::HashSet;

const MARKER: &str = "__enzyme_set_fixed_point";

/// At pipeline start: keep each loop a marker is in from being unrolled
/// (a short counted loop is fully unrolled at -O2 before the pass could
/// lower the marker, which then is in no loop). Enzyme keeps them too.
pub fn protect(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for (f, cs) in by_function(super::calls_named(m, MARKER)) {
        let loops = shim::Loops::new(f);
        for c in cs {
            let Some(h) = loops.header(inst_block(c)) else {
                continue;
            };
            for b in blocks(f) {
                if loops.contains(h, b) && successors(b).contains(&h) {
                    shim::add_loop_property(terminator(b), "enzyme_rs.fixed_point", 0, 0, true);
                    changed = true;
                }
            }
        }
    }
    changed
}

/// The checked arguments of one marker call.
struct Marker {
    reduction: V,
    max_iters: V,
    control: V,
    states: Vec<(V, V)>,
}

fn parse(call: V) -> Result<Marker> {
    let args = call_args(call);
    let bad = |what: String| {
        Error::bad_call(
            call,
            format!("{MARKER}(reduction, max_iters, control, [state, bytes]...): {what}"),
        )
    };
    if args.len() < 3 || (args.len() - 3) % 2 != 0 {
        return Err(bad(format!(
            "{} arguments given; it takes three, then (state, bytes) pairs",
            args.len()
        )));
    }
    // Fortran passes each by reference.
    let number = |v: V, fp: bool| {
        is_ptr(type_of(v))
            || if fp {
                is_fp(type_of(v))
            } else {
                is_int(type_of(v))
            }
    };
    if !number(args[0], true) || !number(args[1], false) || !is_ptr(type_of(args[2])) {
        return Err(bad("the reduction must be a double, max_iters an integer and control a function pointer (or null)".into()));
    }
    let mut states = Vec::new();
    for pair in args[3..].chunks(2) {
        if !is_ptr(type_of(pair[0])) || !number(pair[1], false) {
            return Err(bad(
                "each state is a pointer followed by its size in bytes".into()
            ));
        }
        states.push((pair[0], pair[1]));
    }
    if states.is_empty() {
        return Err(bad("name the iterated state: a (state, bytes) pair after control (the implicit adjoint iterates its adjoint)".into()));
    }
    Ok(Marker {
        reduction: args[0],
        max_iters: args[1],
        control: args[2],
        states,
    })
}

/// Outline every marked loop of module `m` (one at a time: outlining one
/// removes or moves others). Errors are reported at their call.
pub fn lower_all(m: LLVMModuleRef) -> bool {
    let mut failed: HashSet<V> = HashSet::new();
    let mut changed = false;
    loop {
        let next = super::calls_named(m, MARKER)
            .into_iter()
            .find(|c| !failed.contains(&inst_fn(*c)));
        let Some(call) = next else { break };
        changed = true;
        if let Err(e) = outline(m, call) {
            let f = inst_fn(call);
            failed.insert(f);
            super::fail(e, call);
            // The other markers of a function that failed go too.
            for c in super::calls_named(m, MARKER) {
                if inst_fn(c) == f {
                    erase(c);
                }
            }
        }
    }
    changed
}

/// Whether `i` (before the marker in its block, after `prev`) may run
/// twice harmlessly.
fn no_effects(i: V, prev: &[V]) -> bool {
    match opcode(i) {
        // reg2mem's slot of a value computed just before: the same value
        // again (unless it was computed from the slot itself).
        Some(LLVMOpcode::LLVMStore) => {
            let (v, slot) = (operand(i, 0), operand(i, 1));
            opcode(slot) == Some(LLVMOpcode::LLVMAlloca)
                && prev.contains(&v)
                && !prev
                    .iter()
                    .any(|p| opcode(*p) == Some(LLVMOpcode::LLVMLoad) && operand(*p, 0) == slot)
        }
        Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => false,
        Some(LLVMOpcode::LLVMCall) => called_function(i).is_some_and(|c| {
            let n = name(c);
            n.starts_with("llvm.dbg.") || n.starts_with("llvm.lifetime.")
        }),
        _ => true,
    }
}

fn outline(m: LLVMModuleRef, call: V) -> Result<()> {
    let mk = parse(call)?;
    let f = inst_fn(call);
    shim::run_function_pipeline(&mut [f], "reg2mem")
        .map_err(|e| Error::bad_call(call, format!("{MARKER}: reg2mem failed: {e}")))?;
    let loops = shim::Loops::new(f);
    let s = inst_block(call);
    let Some(h) = loops.header(s) else {
        return Err(Error::bad_call(call, format!("{MARKER} must be called at the start of the body of the loop it marks; this call is in no loop")));
    };
    let body: Vec<BB> = blocks(f)
        .into_iter()
        .filter(|b| loops.contains(h, *b))
        .collect();
    let in_body: HashSet<BB> = body.iter().copied().collect();
    let before: Vec<V> = instructions(s)
        .into_iter()
        .take_while(|i| *i != call)
        .collect();
    if let Some(i) = (0..before.len())
        .find(|k| !no_effects(before[*k], &before[..*k]))
        .map(|k| before[k])
    {
        return Err(Error::bad_call(call, format!("{MARKER} must come first in the loop body (before it, this block already writes memory or calls a function: {})", print_value(i).trim())));
    }
    let exits: HashSet<BB> = body
        .iter()
        .flat_map(|b| successors(*b))
        .filter(|b| !in_body.contains(b))
        .collect();
    let exit = match exits.len() {
        1 => *exits.iter().next().unwrap(),
        0 => return Err(Error::bad_call(call, format!("{MARKER}: the marked loop never ends"))),
        n => return Err(Error::bad_call(call, format!("{MARKER}: the marked loop leaves to {n} different places (break, return); a fixed-point loop must leave to one"))),
    };
    // Values from outside the loop that the loop uses.
    let mut live_ins: Vec<V> = Vec::new();
    for b in &body {
        for i in instructions(*b) {
            for o in operands(i) {
                let outside =
                    (is_instruction(o) && !in_body.contains(&inst_block(o))) || is_argument(o);
                if outside && !live_ins.contains(&o) {
                    live_ins.push(o);
                }
            }
        }
    }
    let step = build_step(m, f, s, &in_body, &live_ins, "enzyme_rs.fixed_point_step")?;
    // The caller: the marker's block runs the whole loop, then leaves.
    let b = Builder::new(m);
    b.after(call);
    b.set_debug_loc_from(call);
    let fp = fixed_point_call(m, &b, &mk, step, &live_ins);
    let after: Vec<V> = instructions(s)
        .into_iter()
        .skip_while(|i| *i != fp)
        .skip(1)
        .collect();
    for i in after.into_iter().rev() {
        if !is_void(type_of(i)) {
            replace_all_uses(i, undef(type_of(i)));
        }
        erase(i);
    }
    b.at_end(s);
    b.br(exit);
    erase(call);
    crate::ir::omp::delete_unreachable_blocks(f);
    crate::modes::loops::lower_call(m, fp, crate::modes::loops::Kind::FixedPoint).map(|_| ())
}

/// `int step(int64_t i, live-ins...)` (named `prefix.f`): a copy of `f`
/// entered at block `s` of the loop `in_body`, returning 1 on coming back
/// to `s` and 0 on leaving the loop. Also used by the reverse sweep's
/// automatic re-run (`modes/reverse/rerun.rs`), entered at the header.
pub(crate) fn build_step(
    m: LLVMModuleRef,
    f: V,
    s: BB,
    in_body: &HashSet<BB>,
    live_ins: &[V],
    prefix: &str,
) -> Result<V> {
    let ctx = module_context(m);
    let i32t = i32_type(ctx);
    let mut ptys = vec![i64_type(ctx)];
    ptys.extend(live_ins.iter().map(|v| type_of(*v)));
    let sf = add_internal_function(
        m,
        &format!("{prefix}.{}", name(f)),
        fn_type_of(i32t, &mut ptys, false),
    );
    add_fn_attr(sf, "noinline");
    let sps = params(sf);
    let mut arg_map: Vec<V> = params(f)
        .iter()
        .map(|p| {
            live_ins
                .iter()
                .position(|l| l == p)
                .map(|k| sps[k + 1])
                .unwrap_or_else(|| undef(type_of(*p)))
        })
        .collect();
    let vmap = shim::clone_into(sf, f, &mut arg_map);
    for (k, l) in live_ins.iter().enumerate() {
        if is_instruction(*l) {
            if let Some(c) = vmap.get(*l) {
                replace_all_uses(c, sps[k + 1]);
            }
        }
    }
    let body: HashSet<BB> = in_body
        .iter()
        .filter_map(|b| vmap.get(block_as_value(*b)).map(value_as_block))
        .collect();
    let start = vmap
        .get(block_as_value(s))
        .map(value_as_block)
        .ok_or_else(|| Error::internal("fixed point: the marker's block was not cloned"))?;
    let b = Builder::new(m);
    let entry = append_block(sf, "fp.entry");
    let cont = append_block(sf, "fp.continue");
    let stop = append_block(sf, "fp.stop");
    b.at_end(entry);
    b.br(start);
    b.at_end(cont);
    b.ret(const_int(i32t, 1));
    b.at_end(stop);
    b.ret(const_int(i32t, 0));
    for bb in &body {
        let t = terminator(*bb);
        for (k, succ) in successors(*bb).into_iter().enumerate() {
            if succ == start {
                set_successor(t, k as u32, cont);
            } else if !body.contains(&succ) {
                set_successor(t, k as u32, stop);
            }
        }
    }
    move_to_front(sf, entry);
    crate::ir::omp::delete_unreachable_blocks(sf);
    // The loop's stack slots are parameters here: their lifetime markers
    // (only legal on allocas) go; the caller keeps the slots alive.
    for bb in blocks(sf) {
        for i in instructions(bb) {
            if is_call(i) && is_lifetime_marker(i) {
                erase(i);
            }
        }
    }
    for c in super::calls_named(m, MARKER) {
        if inst_fn(c) == sf {
            erase(c);
        }
    }
    Ok(sf)
}

/// The `__enzyme_fixed_point` call running the outlined loop: the marked
/// states, the reduction, iteration limit and control, the loop's stack
/// slots as checkpoint regions, then the live-ins.
fn fixed_point_call(m: LLVMModuleRef, b: &Builder, mk: &Marker, step: V, live_ins: &[V]) -> V {
    let ctx = module_context(m);
    let p = ptr_type(ctx);
    let marker = |n: &str| named_global(m, n).unwrap_or_else(|| add_global(m, i32_type(ctx), n));
    let mut args = vec![step];
    for (st, bytes) in &mk.states {
        args.extend([marker("enzyme_fp_state"), *st, *bytes]);
    }
    args.extend([marker("enzyme_fp_reduction"), mk.reduction]);
    args.extend([marker("enzyme_fp_max_iters"), mk.max_iters]);
    args.extend([marker("enzyme_fp_control"), mk.control]);
    let state_objs: HashSet<V> = mk
        .states
        .iter()
        .flat_map(|(st, _)| crate::analysis::activity::underlying_objects(*st))
        .collect();
    for l in live_ins {
        if opcode(*l) == Some(LLVMOpcode::LLVMAlloca) && !state_objs.contains(l) {
            let n = const_int_value(operand(*l, 0)).unwrap_or(1).max(1);
            let bytes = type_alloc_size(m, allocated_type(*l)) as i64 * n;
            args.extend([
                marker("enzyme_checkpoint_region"),
                *l,
                const_i64(ctx, bytes),
            ]);
        }
    }
    args.extend(live_ins.iter().copied());
    let decl = get_or_declare(
        m,
        "__enzyme_fixed_point",
        fn_type_of(void_type(ctx), &mut [p], true),
    );
    b.call_fn(decl, &mut args)
}
