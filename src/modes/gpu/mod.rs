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
pub mod private;

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
    prepare_clone(aug);
    shim::run_function_pipeline(&mut [aug], "mem2reg").map_err(Error::internal)
}

/// A clone to differentiate (either mode), on a device: read-only cache
/// loads (`__ldg`: `llvm.nvvm.ldg.global.*` / `ldu`) become plain loads of
/// the same alignment, which the modes differentiate like any load.
pub fn prepare_clone(f: V) {
    if !is_device(module_of(f)) {
        return;
    }
    let b = Builder::for_function(f);
    for bb in blocks(f) {
        for i in instructions(bb) {
            let Some(c) = (if is_call(i) { called_function(i) } else { None }) else {
                continue;
            };
            let n = name(c);
            if !(n.starts_with("llvm.nvvm.ldg.global.") || n.starts_with("llvm.nvvm.ldu.global.")) {
                continue;
            }
            let args = call_args(i);
            b.before(i);
            b.set_debug_loc_from(i);
            let l = b.load(type_of(i), args[0]);
            if let Some(a) = args.get(1).and_then(|a| const_int_value(*a)) {
                set_alignment(l, a as u32);
            }
            replace_all_uses(i, l);
            erase(i);
        }
    }
}

/// A stack slot as a generic pointer (AMDGPU allocas live in the private
/// address space 5; the tape helpers take generic pointers).
pub fn generic_ptr(b: &Builder, v: V) -> V {
    ir::to_generic(b, v)
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

/// What the augmented sweep pushes on the tape in one run: the bytes of
/// the blocks that run at most once, and the first place (if any) that
/// pushes without a static bound (in a loop, or a recursive call).
pub struct TapeBound {
    pub bytes: u64,
    pub unbounded_at: Option<V>,
}

/// Local buffer of a tape without a static bound, beyond its bounded part:
/// it grows into device `malloc` memory only when this is exceeded.
pub const UNBOUNDED_LOCAL_BYTES: u64 = 1024;

/// The [`TapeBound`] of augmented sweep `aug` (with the augmented callees
/// it hands the tape to).
pub fn tape_bound(aug: V) -> TapeBound {
    let mut tb = TapeBound {
        bytes: 0,
        unbounded_at: None,
    };
    bound_of(aug, &mut HashSet::new(), &mut tb);
    tb
}

fn bound_of(f: V, active: &mut HashSet<V>, tb: &mut TapeBound) {
    if !active.insert(f) {
        tb.unbounded_at.get_or_insert(first_located(f).unwrap_or(f));
        return;
    }
    let tape = *params(f).last().expect("aug takes the tape");
    let reserve = crate::modes::reverse::tape::RESERVE;
    for bb in blocks(f) {
        let cyclic = in_cycle(bb);
        for i in instructions(bb) {
            if !is_call(i) {
                continue;
            }
            let Some(c) = called_function(i) else {
                continue;
            };
            let before = tb.bytes;
            if name(c) == reserve {
                match const_int_value(operand(i, 1)) {
                    Some(n) => tb.bytes = tb.bytes.saturating_add(n as u64),
                    None => {
                        tb.unbounded_at.get_or_insert(i);
                    }
                }
            } else if call_args(i).contains(&tape) && !is_declaration(c) {
                bound_of(c, active, tb);
            } else {
                continue;
            }
            if cyclic && tb.bytes != before {
                let at = located_in(bb).or_else(|| first_located(f)).unwrap_or(i);
                tb.unbounded_at.get_or_insert(at);
            }
        }
    }
    active.remove(&f);
}

/// Whether tapes without a static bound may grow into device `malloc`
/// memory (`ENZYME_RS_GPU_HEAP_TAPE`, default yes); if not, they are
/// compile errors.
fn heap_tape_allowed() -> bool {
    crate::options::switches::gpu_heap_tape()
}

/// The local buffer size for the tape of `aug` (the derivative of
/// `primal`), or the error for a tape with no static bound when device
/// `malloc` is not allowed.
pub fn local_tape_bytes(aug: V, primal: V) -> Result<u64> {
    let tb = tape_bound(aug);
    let Some(at) = tb.unbounded_at else {
        return Ok(tb.bytes);
    };
    if heap_tape_allowed() {
        log::info!(
            "enzyme-rs: GPU: the tape of the derivative of '{}' has no static bound: a local buffer of {} bytes, then device malloc",
            name(primal),
            tb.bytes + UNBOUNDED_LOCAL_BYTES
        );
        return Ok(tb.bytes + UNBOUNDED_LOCAL_BYTES);
    }
    let line = shim::debug_location(at)
        .map(|(file, l)| format!(" (at {file}:{l})"))
        .unwrap_or_default();
    Err(Error::unsupported(
        at,
        format!(
            "GPU device code: the derivative of '{}' keeps values for the reverse sweep in every iteration of a loop or a recursion{line}, so its tape has no static bound, and device malloc is off (ENZYME_RS_GPU_HEAP_TAPE=0); make the loop's values recomputable or its trip count constant",
            name(primal)
        ),
    ))
}

/// In the tape's `reserve` on a device, when `end` bytes do not fit: a
/// new buffer of `newcap` bytes from device `malloc`, the `top` bytes in
/// use copied over, the old buffer freed unless it is the caller's local
/// one (whose size the tape's tag field holds: a buffer larger than that
/// came from `malloc`).
pub fn grow_device_tape(b: &Builder, tape: V, top: V, cap: V, newcap: V) {
    let ctx = b.ctx;
    let tt = crate::modes::reverse::tape::tape_type(ctx);
    let p = ptr_type(ctx);
    let old = b.load(p, tape);
    let nd = b.malloc(newcap);
    b.memcpy(nd, old, top, 1);
    let tag_p = b.gep(tt, tape, &mut [const_i32(ctx, 0), const_i32(ctx, 3)]);
    let local = b.load(i64_type(ctx), tag_p);
    let heap = b.icmp(LLVMIntPredicate::LLVMIntUGT, cap, local);
    free_if(b, heap, old);
    b.store(nd, tape);
    let cap_p = b.gep(tt, tape, &mut [const_i32(ctx, 0), const_i32(ctx, 2)]);
    b.store(newcap, cap_p);
}

/// `if (c) free(p)` without new blocks: `free(c ? p : null)` (device
/// `free(NULL)` does nothing).
fn free_if(b: &Builder, c: V, p: V) {
    let q = b.select(c, p, zero(type_of(p)));
    b.free(q);
}

/// After the reverse sweep: free the tape's buffer if it grew into device
/// `malloc` memory.
pub fn release_tape(b: &Builder, tp: V) {
    let ctx = b.ctx;
    let tt = crate::modes::reverse::tape::tape_type(ctx);
    let i64t = i64_type(ctx);
    let cap_p = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 2)]);
    let tag_p = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 3)]);
    let heap = b.icmp(
        LLVMIntPredicate::LLVMIntUGT,
        b.load(i64t, cap_p),
        b.load(i64t, tag_p),
    );
    let data = b.load(ptr_type(ctx), tp);
    free_if(b, heap, data);
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
/// `bytes` bytes: `{buf, 0, bytes, bytes}` (the tag field holds the
/// local size, see [`grow_device_tape`]), stored before instruction `at`
/// (where the builder is left).
pub fn local_tape(b: &Builder, caller: V, at: V, tp: V, bytes: u64) {
    let ctx = b.ctx;
    let words = bytes.div_ceil(8).max(1);
    b.at_entry_allocas(caller);
    let buf = b.array_alloca(i64_type(ctx), const_i64(ctx, words as i64));
    let buf = generic_ptr(b, buf);
    b.before(at);
    let tt = crate::modes::reverse::tape::tape_type(ctx);
    b.store(zero(tt), tp);
    b.store(buf, tp);
    let cap = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 2)]);
    b.store(const_i64(ctx, (words * 8) as i64), cap);
    let tag = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 3)]);
    b.store(const_i64(ctx, (words * 8) as i64), tag);
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
