//! GPU device code (NVPTX, AMDGPU): what derivatives of `__device__`
//! functions need beyond host code.
//!
//! - The tape lives in the calling thread's local memory (an `alloca` in
//!   the function that calls `__enzyme_autodiff`), sized by a static bound
//!   on what the augmented sweep pushes; no thread-local cache, no heap.
//!   A derivative whose tape has no static bound (values kept per
//!   iteration of a loop, recursion) is a compile error with the line.
//! - Thread/block indices and sizes carry no derivative (`rules/gpu.rs`).
//! - Block barriers run again at the mirrored point of the reverse sweep.
//! - Workgroup ("shared") memory gets shadows in workgroup memory, zeroed
//!   by the block before the augmented sweep.
//! - Every function on a device runs in parallel: adjoints added into
//!   memory that is not the thread's own are added atomically (the OpenMP
//!   machinery in the reverse sweep, see `runs_in_parallel`).
//! - Device math: the `__nv_*` / `__ocml_*` functions share the C math
//!   library's rules; derivative code's math intrinsics and C math calls
//!   that the backends cannot select are rewritten to them at the end.
use crate::diag::{Error, Result};
use crate::ir::gpu::{self as ir, Device};
use crate::ir::llvm::*;
use crate::ir::shim;
use crate::ir::Builder;
use crate::rules::gpu::GpuCall;
use std::collections::HashSet;

pub mod math;

pub use ir::device_of;

/// Whether module `m` is GPU device code.
pub fn is_device(m: LLVMModuleRef) -> bool {
    ir::device_of(m).is_some()
}

/// The augmented clone `aug`, before any analysis: promote local
/// variables to registers (an -O0 clone keeps its parameters in stack
/// slots, whose shadows would otherwise need heap memory living until the
/// reverse sweep).
pub fn prepare_aug(aug: V) -> Result<()> {
    if !is_device(module_of(aug)) {
        return Ok(());
    }
    shim::run_function_pipeline(&mut [aug], "mem2reg").map_err(Error::internal)
}

/// The error for a GPU call that cannot be differentiated.
pub fn unsupported(i: V, k: GpuCall) -> Error {
    let what = match k {
        GpuCall::Unsupported(s) => s,
        _ => "this GPU operation",
    };
    Error::unsupported(i, format!("GPU device code: {what} is not supported"))
}

/// Forward mode and the augmented sweep: barriers stay where they are;
/// unsupported calls are errors.
pub fn check_call(i: V, k: GpuCall) -> Result<()> {
    match k {
        GpuCall::Unsupported(_) => Err(unsupported(i, k)),
        GpuCall::Barrier | GpuCall::WarpBarrier => Ok(()),
    }
}

/// The reverse sweep at a barrier: the same barrier again (every thread
/// of the block reaches it in the mirrored order, so adjoints written by
/// one thread before it are read by others after it). `ops` are the call's
/// operands made available in the reverse sweep.
pub fn reverse_mirror(b: &Builder, i: V, k: GpuCall, ops: &[V]) -> Result<()> {
    match k {
        GpuCall::Unsupported(_) => Err(unsupported(i, k)),
        GpuCall::Barrier | GpuCall::WarpBarrier => {
            let mut ops: Vec<(u32, V)> = ops
                .iter()
                .enumerate()
                .map(|(n, v)| (n as u32, *v))
                .collect();
            let dev = device_of(b.module);
            if dev == Some(Device::Amdgpu) && ops.is_empty() {
                ir::block_barrier(b, Device::Amdgpu);
            } else {
                b.clone_call_with(i, &ops);
            }
            ops.clear();
            Ok(())
        }
    }
}

/// The operands of barrier `i` the reverse sweep needs (a named barrier's
/// id, a warp barrier's mask).
pub fn mirror_operands(i: V) -> Vec<V> {
    call_args(i)
}

/// The bound, in bytes, of what the augmented sweep `aug` pushes on the
/// tape in one run, including the augmented callees it hands the tape to.
/// An error names the loop (or recursive call) that keeps values without
/// a static bound.
pub fn tape_bound(aug: V, primal: V) -> Result<u64> {
    let mut seen = HashSet::new();
    bound_of(aug, primal, &mut seen)
}

fn bound_of(f: V, primal: V, active: &mut HashSet<V>) -> Result<u64> {
    if !active.insert(f) {
        return Err(Error::unsupported(
            first_located(f).unwrap_or(primal),
            format!(
                "GPU device code: the derivative of '{}' is recursive, so its tape has no static bound (device code has no tape allocator)",
                name(primal)
            ),
        ));
    }
    let tape = *params(f).last().expect("aug takes the tape");
    let reserve = crate::modes::reverse::tape::RESERVE;
    let mut total = 0u64;
    for bb in blocks(f) {
        let cyclic = in_cycle(bb);
        for i in instructions(bb) {
            if !is_call(i) {
                continue;
            }
            let Some(c) = called_function(i) else {
                continue;
            };
            let bytes = if name(c) == reserve {
                const_int_value(operand(i, 1)).unwrap_or(i64::MAX) as u64
            } else if call_args(i).contains(&tape) && !is_declaration(c) {
                bound_of(c, primal, active)?
            } else {
                continue;
            };
            if bytes == 0 {
                continue;
            }
            if cyclic {
                let at = located_in(bb).or_else(|| first_located(f)).unwrap_or(i);
                let line = shim::debug_location(at)
                    .map(|(file, l)| format!(" (the loop at {file}:{l})"))
                    .unwrap_or_default();
                return Err(Error::unsupported(
                    at,
                    format!(
                        "GPU device code: the derivative of '{}' keeps values for the reverse sweep in every iteration of a loop{line}, so its tape has no static bound, and device code has no tape allocator; make the loop's values recomputable (read memory the function does not write) or give the loop a constant trip count and unroll it",
                        name(primal)
                    ),
                ));
            }
            total = total.saturating_add(bytes);
        }
    }
    active.remove(&f);
    Ok(total)
}

/// Whether block `bb` lies on a cycle of the CFG.
fn in_cycle(bb: BB) -> bool {
    let mut seen = HashSet::new();
    let mut work = successors(bb);
    while let Some(s) = work.pop() {
        if s == bb {
            return true;
        }
        if seen.insert(s) {
            work.extend(successors(s));
        }
    }
    false
}

fn located_in(bb: BB) -> Option<V> {
    instructions(bb)
        .into_iter()
        .find(|i| shim::debug_location(*i).is_some())
}

fn first_located(f: V) -> Option<V> {
    blocks(f).into_iter().find_map(located_in)
}

/// Start the tape object at `tp` (in `caller`) on a local buffer of
/// `bytes` bytes: `{buf, 0, bytes, 0}`, stored before instruction `at`
/// (where the builder is left).
pub fn local_tape(b: &Builder, caller: V, at: V, tp: V, bytes: u64) {
    let ctx = b.ctx;
    let words = bytes.div_ceil(8).max(1);
    b.at_entry_allocas(caller);
    let buf = b.array_alloca(i64_type(ctx), const_i64(ctx, words as i64));
    b.before(at);
    let tt = crate::modes::reverse::tape::tape_type(ctx);
    b.store(zero(tt), tp);
    b.store(buf, tp);
    let cap = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 2)]);
    b.store(const_i64(ctx, (words * 8) as i64), cap);
}

/// Before the augmented sweep: every thread of the block zeroes its share
/// of the shadows of workgroup memory among `shadows`, then waits for the
/// others. Needs every thread of the block to reach the call (as any
/// derivative with barriers does).
pub fn zero_shared_shadows(b: &Builder, shadows: &[V]) {
    let Some(dev) = device_of(b.module) else {
        return;
    };
    let shared: Vec<V> = shadows
        .iter()
        .copied()
        .filter(|g| ir::global_addr_space(*g) == ir::SHARED_AS)
        .collect();
    if shared.is_empty() {
        return;
    }
    let ctx = b.ctx;
    let f = zero_fn(b.module, dev);
    for g in shared {
        let n = type_alloc_size(b.module, global_type(g));
        b.call_fn(f, &mut [g, const_i32(ctx, n as i64)]);
    }
    ir::block_barrier(b, dev);
}

/// `void zero(ptr addrspace(3) p, i32 n)`: the calling thread zeroes the
/// bytes k of p with k = its linear index in the block, plus multiples of
/// the block's size.
fn zero_fn(m: LLVMModuleRef, dev: Device) -> V {
    const NAME: &str = "enzyme_rs.gpu.zero_shared";
    if let Some(f) = get_function(m, NAME) {
        return f;
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let i32t = i32_type(ctx);
    let fty = fn_type_of(
        void_type(ctx),
        &mut [ir::ptr_in(ctx, ir::SHARED_AS), i32t],
        false,
    );
    let f = get_or_declare(m, NAME, fty);
    set_internal(f);
    let ps = params(f);
    let entry = append_block(f, "entry");
    let head = append_block(f, "head");
    let body = append_block(f, "body");
    let done = append_block(f, "done");
    b.at_end(entry);
    let (lin, size) = ir::linear_thread(&b, dev);
    b.br(head);
    b.at_end(head);
    let k = b.phi(i32t);
    let more = b.icmp(LLVMIntPredicate::LLVMIntULT, k, ps[1]);
    b.cond_br(more, body, done);
    b.at_end(body);
    let p = b.gep(i8_type(ctx), ps[0], &mut [k]);
    b.store(const_int(i8_type(ctx), 0), p);
    let next = b.add(k, size);
    b.br(head);
    add_incoming(k, &[(lin, entry), (next, body)]);
    b.at_end(done);
    b.ret_void();
    f
}
