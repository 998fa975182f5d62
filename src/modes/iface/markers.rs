//! Argument markers of Enzyme's interface that change how the caller's
//! values are read, not what is differentiated (`callsite.rs` reads the
//! markers and calls these):
//!
//! - `enzyme_dupv, stride, x, dx` / `enzyme_dupnoneedv, stride, x, dx`: a
//!   duplicated pointer whose vector-mode shadows lie at a byte stride in
//!   one buffer: lane k's shadow is `(char *)dx + k * stride`. With width 1
//!   it is plain `enzyme_dup` (`enzyme_dupnoneed`).
//! - `enzyme_byref, bytes, p`: the next value (a parameter's primal, or the
//!   seed of the result of `__enzyme_reverse`) is passed by pointer: it is
//!   loaded from `p`, which must point to `bytes` bytes, the size of the
//!   parameter's type.
//! - `enzyme_interleave`: all primals (with their markers) before it, the
//!   shadows after it in the same order (`callsite.rs`).
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;

/// The `width` shadows of an `enzyme_dupv` argument: `base + lane * stride`
/// bytes. When only reading the call (`b` is None), `base` for each lane.
pub fn strided_shadows(
    call: V,
    b: Option<&Builder>,
    base: V,
    stride: V,
    width: u32,
    pdesc: &str,
) -> Result<Vec<V>> {
    if !is_ptr(type_of(base)) {
        return Err(Error::bad_call(
            call,
            format!(
                "enzyme_dupv / enzyme_dupnoneedv: the shadow of {pdesc} must be a pointer (lane k's shadow is the pointer plus k times the stride in bytes), got {}",
                print_type(type_of(base))
            ),
        ));
    }
    if !is_int(type_of(stride)) {
        return Err(Error::bad_call(
            call,
            format!(
                "enzyme_dupv / enzyme_dupnoneedv must be followed by the stride in bytes (an integer), then the primal and one shadow pointer; got {}",
                print_value(stride).trim()
            ),
        ));
    }
    let Some(b) = b else {
        return Ok(vec![base; width as usize]);
    };
    Ok(byte_strided(b, base, stride, width))
}

/// `width` pointers `base + lane * stride` bytes (lane 0 is `base`); the
/// stride is any integer value, sign-extended to 64 bits.
pub fn byte_strided(b: &Builder, base: V, stride: V, width: u32) -> Vec<V> {
    let i64t = i64_type(b.ctx);
    let stride = b.int_cast(stride, i64t, true);
    let i8t = i8_type(b.ctx);
    (0..width)
        .map(|lane| {
            if lane == 0 {
                base
            } else {
                let off = b.mul(stride, const_i64(b.ctx, lane as i64));
                b.gep(i8t, base, &mut [off])
            }
        })
        .collect()
}

/// The value of type `to` that an `enzyme_byref, bytes` argument `p`
/// points to. When only reading the call (`b` is None), a placeholder.
pub fn load_byref(call: V, b: Option<&Builder>, p: V, bytes: i64, to: T, what: &str) -> Result<V> {
    let m = module_of(inst_fn(call));
    let size = type_alloc_size(m, to) as i64;
    if !is_ptr(type_of(p)) {
        return Err(Error::bad_call(
            call,
            format!(
                "enzyme_byref: {what} must be passed as a pointer to its value, got {}",
                print_value(p).trim()
            ),
        ));
    }
    if bytes != size {
        return Err(Error::bad_call(
            call,
            format!("enzyme_byref gives {bytes} bytes, but {what} has {size}"),
        ));
    }
    Ok(match b {
        Some(b) => b.load(to, p),
        None => undef(to),
    })
}

/// Why a marker enzyme-rs knows of is refused where it stands.
pub fn hint(marker: &str) -> &'static str {
    match marker {
        "enzyme_dupv" | "enzyme_dupnoneedv" => {
            " (it takes the stride in bytes, the primal and one shadow pointer)"
        }
        _ => "",
    }
}
