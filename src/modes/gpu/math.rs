//! Device math: after differentiation, calls the device backends cannot
//! select (`llvm.sin.f64`, `llvm.exp.f32`, ... which rules emit, and C math
//! library calls such as `cosh` which have no device definition) are
//! redirected to the device math libraries: `__nv_*` (libdevice) on NVPTX,
//! `__ocml_*` on AMDGPU. Their rules are the C library's
//! (`rules::gpu::device_math_libm_name`).
use crate::ir::gpu::Device;
use crate::ir::llvm::*;
use crate::rules::gpu::device_math_name;

/// Intrinsics without a device instruction (on at least one target).
const INTRINSICS: &[&str] = &[
    "sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "pow",
];

/// The C math library name a declaration stands for, when the device
/// cannot call it as it is: `llvm.cos.f64` -> `cos`, `llvm.exp.f32` ->
/// `expf`, `coshf` -> `coshf`.
fn libm_name(n: &str) -> Option<String> {
    if let Some(rest) = n.strip_prefix("llvm.") {
        let mut parts = rest.split('.');
        let (base, ty) = (parts.next()?, parts.next()?);
        if parts.next().is_some() || !INTRINSICS.contains(&base) {
            return None;
        }
        return match ty {
            "f64" => Some(base.to_string()),
            "f32" => Some(format!("{base}f")),
            _ => None,
        };
    }
    if n.starts_with("__") {
        return None;
    }
    crate::rules::math_base(n).map(|_| n.to_string())
}

/// Redirect the module's unselectable math calls (see the module doc).
/// Returns how many declarations were redirected.
pub fn lower_device_math(m: LLVMModuleRef, dev: Device) -> usize {
    let mut n = 0;
    for f in functions(m) {
        if !is_declaration(f) || !has_uses(f) {
            continue;
        }
        let Some(libm) = libm_name(&name(f)) else {
            continue;
        };
        let to = device_math_name(&libm, dev == Device::Amdgpu);
        let g = get_or_declare(m, &to, fn_type(f));
        if g == f {
            continue;
        }
        replace_all_uses(f, g);
        n += 1;
    }
    n
}
