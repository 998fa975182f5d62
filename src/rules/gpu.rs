//! GPU device calls (NVPTX and AMDGPU intrinsics, CUDA/HIP runtime entry
//! points) by name: which carry no derivative (thread and block indices,
//! sizes), which the reverse sweep mirrors (block barriers), which are
//! unsupported; and the device math libraries' names (`__nv_*`,
//! `__ocml_*`), whose rules are the C math library's. The modes' handling
//! is in `modes/gpu`.

/// A GPU call the modes treat specially.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuCall {
    /// A block-wide barrier (`__syncthreads`): placed again at the
    /// mirrored point of the reverse sweep.
    Barrier,
    /// A warp-level barrier (`__syncwarp`): mirrored like a block barrier,
    /// with the same mask.
    WarpBarrier,
    /// What cannot be differentiated on a device (yet): its description.
    Unsupported(&'static str),
}

/// What a GPU intrinsic or runtime function is: `Some(Ok(call))` for one
/// the modes handle, `Some(Err(()))` for one that carries no derivative,
/// None for other names.
pub fn gpu_call(n: &str) -> Option<Result<GpuCall, ()>> {
    use GpuCall::*;
    let c = match n {
        "llvm.nvvm.barrier0" | "llvm.amdgcn.s.barrier" => Barrier,
        "llvm.nvvm.barrier.sync" | "llvm.nvvm.barrier.sync.cnt" => Barrier,
        // LLVM 21 and later spell __syncthreads() this way.
        "llvm.nvvm.barrier.cta.sync.aligned.all"
        | "llvm.nvvm.barrier.cta.sync.all"
        | "llvm.nvvm.barrier.cta.sync.aligned.count"
        | "llvm.nvvm.barrier.cta.sync.count" => Barrier,
        "llvm.nvvm.bar.warp.sync" => WarpBarrier,
        "llvm.nvvm.barrier0.and" | "llvm.nvvm.barrier0.or" | "llvm.nvvm.barrier0.popc" => {
            Unsupported("a barrier with a predicate (__syncthreads_and/or/count)")
        }
        // Cross-block synchronization (cooperative groups' grid.sync()).
        "cudaCGSynchronizeGrid" | "cudaCGSynchronize" | "__ockl_grid_sync" => {
            Unsupported("grid-wide synchronization (a barrier across blocks)")
        }
        _ if n.starts_with("llvm.nvvm.shfl.") || n.starts_with("llvm.amdgcn.ds.bpermute") => {
            Unsupported("a warp shuffle (__shfl_*)")
        }
        _ if n.starts_with("llvm.amdgcn.mov.dpp") || n.starts_with("llvm.amdgcn.update.dpp") => {
            Unsupported("a cross-lane operation (DPP)")
        }
        _ if n.starts_with("llvm.nvvm.ldg.global.") || n.starts_with("llvm.nvvm.ldu.global.") => {
            Unsupported("a read-only cache load (__ldg): use a plain load")
        }
        _ if n.starts_with("llvm.nvvm.atomic.") => {
            Unsupported("an NVVM atomic intrinsic on active memory")
        }
        _ if is_index_query(n) => return Some(Err(())),
        _ => return None,
    };
    Some(Ok(c))
}

/// Thread and block indices, sizes, lane ids, clocks, the dispatch packet:
/// integers (or pointers to integers) with no derivative.
fn is_index_query(n: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "llvm.nvvm.read.ptx.sreg.",
        "llvm.amdgcn.workitem.id.",
        "llvm.amdgcn.workgroup.id.",
        "llvm.amdgcn.dispatch.ptr",
        "llvm.amdgcn.implicitarg.ptr",
        "llvm.amdgcn.kernarg.segment.ptr",
        "llvm.amdgcn.dispatch.id",
        "llvm.amdgcn.queue.ptr",
        "llvm.amdgcn.mbcnt.",
        "llvm.amdgcn.s.memtime",
        "llvm.amdgcn.s.memrealtime",
        "llvm.amdgcn.s.getpc",
        "llvm.nvvm.membar.",
        "llvm.nvvm.fence.",
        "llvm.amdgcn.s.waitcnt",
        "__ockl_get_",
        "__ockl_fence",
        "__ockl_activelane",
        "__ockl_wfid",
        "__ockl_lane_u32",
    ];
    PREFIXES.iter().any(|p| n.starts_with(p))
}

/// The C math library name behind a device math function, whose rule it
/// shares: `__nv_sin` -> `sin`, `__nv_sinf` -> `sinf`, `__nv_fast_expf`
/// -> `expf`, `__ocml_sin_f64` -> `sin`, `__ocml_exp_f32` -> `expf`.
pub fn device_math_libm_name(n: &str) -> Option<String> {
    if let Some(rest) = n.strip_prefix("__nv_") {
        let rest = rest.strip_prefix("fast_").unwrap_or(rest);
        return Some(rest.to_string());
    }
    if let Some(rest) = n.strip_prefix("__ocml_") {
        let rest = rest.strip_prefix("native_").unwrap_or(rest);
        if let Some(b) = rest.strip_suffix("_f64") {
            return Some(b.to_string());
        }
        if let Some(b) = rest.strip_suffix("_f32") {
            return Some(format!("{b}f"));
        }
    }
    None
}

/// The device math function for the C math library name `libm` (a rule's
/// derivative calls `cosh`, `coshf`, ...): `__nv_cosh` / `__ocml_cosh_f64`.
pub fn device_math_name(libm: &str, amdgpu: bool) -> String {
    if !amdgpu {
        return format!("__nv_{libm}");
    }
    match libm.strip_suffix('f') {
        // `erf` ends in f too: only names whose stem is a known double
        // function are the float forms.
        Some(stem) if crate::rules::math_base(stem).is_some() => {
            format!("__ocml_{stem}_f32")
        }
        _ => format!("__ocml_{libm}_f64"),
    }
}
