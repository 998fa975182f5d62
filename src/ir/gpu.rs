//! GPU targets (NVPTX, AMDGPU): the module's target, address spaces of
//! globals, shared-memory shadows, barriers and fences. Nothing here knows
//! about derivatives (see `modes/gpu`).
use super::llvm::*;
use super::sys::core::*;
use super::sys::LLVMAtomicOrdering;
use super::Builder;
use std::ffi::CStr;

/// Address space of a GPU's workgroup ("shared") memory, NVPTX and AMDGPU.
pub const SHARED_AS: u32 = 3;

/// The device a module is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Nvptx,
    Amdgpu,
}

/// The module's target triple.
pub fn module_triple(m: LLVMModuleRef) -> String {
    unsafe {
        let p = LLVMGetTarget(m);
        if p.is_null() {
            return String::new();
        }
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// The GPU a module is compiled for, if any (`nvptx64-*`, `amdgcn-*`).
pub fn device_of(m: LLVMModuleRef) -> Option<Device> {
    let t = module_triple(m);
    if t.starts_with("nvptx") {
        Some(Device::Nvptx)
    } else if t.starts_with("amdgcn") {
        Some(Device::Amdgpu)
    } else {
        None
    }
}

/// The address space of a pointer type / global.
pub fn global_addr_space(g: V) -> u32 {
    unsafe { LLVMGetPointerAddressSpace(LLVMTypeOf(g)) }
}

/// A shadow for global `like` in the same address space: zero-initialized,
/// or (workgroup memory, which takes no initializer on GPUs) undef; the
/// caller zeroes it before use.
pub fn add_shadow_global_like(m: LLVMModuleRef, like: V, n: &str) -> V {
    let ty = global_type(like);
    let a = global_addr_space(like);
    let c = cstr(n);
    let s = unsafe { LLVMAddGlobalInAddressSpace(m, ty, c.as_ptr(), a) };
    let init = if a == SHARED_AS {
        unsafe { LLVMGetUndef(ty) }
    } else {
        zero(ty)
    };
    set_initializer(s, init);
    set_internal(s);
    copy_alignment(like, s);
    // A thread-local variable's shadow is thread-local too: each thread
    // accumulates its own derivative, as each has its own variable.
    unsafe {
        if LLVMIsThreadLocal(like) != 0 {
            LLVMSetThreadLocalMode(s, LLVMGetThreadLocalMode(like));
        }
    }
    s
}

/// `ptr addrspace(AS)` in `ctx`.
pub fn ptr_in(ctx: LLVMContextRef, a: u32) -> T {
    unsafe { LLVMPointerTypeInContext(ctx, a) }
}

/// `addrspacecast` of `v` to a generic pointer (a no-op cast on generic ones).
pub fn to_generic(b: &Builder, v: V) -> V {
    if global_addr_space(v) == 0 {
        return v;
    }
    let c = cstr("");
    unsafe { LLVMBuildAddrSpaceCast(b.raw, v, ptr_type(b.ctx), c.as_ptr()) }
}

/// Whether this LLVM knows intrinsic `name`.
fn intrinsic_exists(name: &str) -> bool {
    unsafe { LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len()) != 0 }
}

/// A call of the declaration `n` (no parameters, returning `ret`).
fn call0(b: &Builder, n: &str, ret: T) -> V {
    let fty = fn_type_of(ret, &mut [], false);
    let f = get_or_declare(b.module, n, fty);
    b.call(fty, f, &mut [])
}

/// A fence with ordering `ord` (AMDGPU: around its barriers). LLVM-C of
/// LLVM 16 cannot name the workgroup scope HIP uses: this one has system
/// scope (stronger, so still correct).
fn fence(b: &Builder, ord: LLVMAtomicOrdering) {
    let c = cstr("");
    unsafe {
        LLVMBuildFence(b.raw, ord, 0, c.as_ptr());
    }
}

/// `__syncthreads()` for `dev`: the barrier (and on AMDGPU the workgroup
/// fences HIP puts around it).
pub fn block_barrier(b: &Builder, dev: Device) {
    let ctx = b.ctx;
    match dev {
        Device::Nvptx if intrinsic_exists("llvm.nvvm.barrier0") => {
            call0(b, "llvm.nvvm.barrier0", void_type(ctx));
        }
        Device::Nvptx => {
            // LLVM 21 and later: barrier 0 for all threads of the block.
            let name = "llvm.nvvm.barrier.cta.sync.aligned.all";
            let i32t = i32_type(ctx);
            let fty = fn_type_of(void_type(ctx), &mut [i32t], false);
            let f = get_or_declare(b.module, name, fty);
            b.call(fty, f, &mut [const_i32(ctx, 0)]);
        }
        Device::Amdgpu => {
            fence(b, LLVMAtomicOrdering::LLVMAtomicOrderingRelease);
            call0(b, "llvm.amdgcn.s.barrier", void_type(ctx));
            fence(b, LLVMAtomicOrdering::LLVMAtomicOrderingAcquire);
        }
    }
}

/// The calling thread's linear index in its block and the block's size
/// (both i32), from the target's index intrinsics.
pub fn linear_thread(b: &Builder, dev: Device) -> (V, V) {
    let ctx = b.ctx;
    let i32t = i32_type(ctx);
    let (tid, ntid): (Vec<V>, Vec<V>) = match dev {
        Device::Nvptx => ["x", "y", "z"]
            .iter()
            .map(|d| {
                (
                    call0(b, &format!("llvm.nvvm.read.ptx.sreg.tid.{d}"), i32t),
                    call0(b, &format!("llvm.nvvm.read.ptx.sreg.ntid.{d}"), i32t),
                )
            })
            .unzip(),
        Device::Amdgpu => {
            // workgroup_size_{x,y,z}: i16 at bytes 4, 6, 8 of the dispatch packet.
            let dp = call0(b, "llvm.amdgcn.dispatch.ptr", ptr_in(ctx, 4));
            ["x", "y", "z"]
                .iter()
                .enumerate()
                .map(|(k, d)| {
                    let t = call0(b, &format!("llvm.amdgcn.workitem.id.{d}"), i32t);
                    let off = const_i64(ctx, 4 + 2 * k as i64);
                    let p = b.gep(i8_type(ctx), dp, &mut [off]);
                    let s = b.load(unsafe { LLVMInt16TypeInContext(ctx) }, p);
                    (t, b.int_cast(s, i32t, false))
                })
                .unzip()
        }
    };
    // t = x + nx * (y + ny * z)
    let lin = b.add(
        tid[0],
        b.mul(ntid[0], b.add(tid[1], b.mul(ntid[1], tid[2]))),
    );
    let size = b.mul(ntid[0], b.mul(ntid[1], ntid[2]));
    (lin, size)
}
