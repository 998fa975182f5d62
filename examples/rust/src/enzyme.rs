//! A small safe layer over enzyme-rs's C interface, for Rust.
//!
//! enzyme-rs rewrites every call to a function whose name starts with
//! `__enzyme_autodiff` (reverse mode) or `__enzyme_fwddiff` (forward mode):
//! the first argument is the function to differentiate, then its arguments,
//! each optionally after a marker (`enzyme_dup` x, dx: x with its shadow;
//! `enzyme_const` x: no derivative; `enzyme_out` x: active scalar whose
//! derivative reverse mode returns). The declared result type says what comes
//! back. Rust needs one declaration per result type, hence the suffixes.
//!
//! The functions differentiated are `extern "C"` (a stable ABI: scalars as
//! scalars, slices as pointer + length, `#[repr(C)]` structs by reference).
//! The macros below check the function's signature at compile time, pass
//! the function itself (not a pointer in a variable) to the `__enzyme_*`
//! call, and return the derivative as an ordinary Rust value.
#![allow(dead_code)]
use std::ffi::c_void;

/// Two `f64`s returned by value (`{ double, double }` in the C ABI).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F64x2(pub f64, pub f64);

#[allow(non_upper_case_globals)]
extern "C" {
    /// Markers: their address or value tells enzyme-rs what follows.
    pub static enzyme_dup: i32;
    pub static enzyme_const: i32;
    pub static enzyme_out: i32;

    /// Reverse mode, one active scalar argument: its derivative.
    pub fn __enzyme_autodiff_f64(f: *const c_void, ...) -> f64;
    /// Reverse mode, two active scalar arguments: both derivatives.
    pub fn __enzyme_autodiff_f64x2(f: *const c_void, ...) -> F64x2;
    /// Reverse mode, derivatives only through shadow memory (`enzyme_dup`).
    pub fn __enzyme_autodiff_void(f: *const c_void, ...);
    /// Forward mode: the tangent of an `f64` result.
    pub fn __enzyme_fwddiff_f64(f: *const c_void, ...) -> f64;
    /// Forward mode: the tangent of an `f32` result (variadic arguments are
    /// promoted to `f64`, as in C; enzyme-rs converts them back).
    pub fn __enzyme_fwddiff_f32(f: *const c_void, ...) -> f32;
}

/// A zeroed shadow for `f`'s argument `_x` (adjoints are added into it);
/// also checks at compile time that `f` takes a `&T` and returns `f64`.
pub fn shadow_for<T: Default>(_f: extern "C" fn(&T) -> f64, _x: &T) -> T {
    T::default()
}

/// Checks at compile time that `f` takes a `&T` and returns `f64`.
pub fn check_ref_fn<T>(_f: extern "C" fn(&T) -> f64, _x: &T) {}

/// f'(x) for `f: extern "C" fn(f64) -> f64`, in forward mode.
#[macro_export]
macro_rules! derivative {
    ($f:path, $x:expr) => {{
        let _: extern "C" fn(f64) -> f64 = $f;
        let x: f64 = $x;
        unsafe { $crate::enzyme::__enzyme_fwddiff_f64($f as *const ::std::ffi::c_void, x, 1.0f64) }
    }};
}

/// f'(x) for `f: extern "C" fn(f32) -> f32`, in forward mode.
#[macro_export]
macro_rules! derivative_f32 {
    ($f:path, $x:expr) => {{
        let _: extern "C" fn(f32) -> f32 = $f;
        let x: f32 = $x;
        unsafe {
            $crate::enzyme::__enzyme_fwddiff_f32($f as *const ::std::ffi::c_void, x as f64, 1.0f64)
        }
    }};
}

/// (df/dx, df/dy) for `f: extern "C" fn(f64, f64) -> f64`, in reverse mode.
#[macro_export]
macro_rules! gradient2 {
    ($f:path, $x:expr, $y:expr) => {{
        let _: extern "C" fn(f64, f64) -> f64 = $f;
        let (x, y): (f64, f64) = ($x, $y);
        let g = unsafe {
            use $crate::enzyme::*;
            __enzyme_autodiff_f64x2(
                $f as *const ::std::ffi::c_void,
                &enzyme_out as *const i32,
                x,
                &enzyme_out as *const i32,
                y,
            )
        };
        (g.0, g.1)
    }};
}

/// The gradient of `f: extern "C" fn(*const f64, usize) -> f64` (a function
/// of a slice) at `xs`, in reverse mode.
#[macro_export]
macro_rules! gradient_slice {
    ($f:path, $xs:expr) => {{
        let _: extern "C" fn(*const f64, usize) -> f64 = $f;
        let xs: &[f64] = $xs;
        let mut dx = vec![0.0f64; xs.len()];
        unsafe {
            use $crate::enzyme::*;
            __enzyme_autodiff_void(
                $f as *const ::std::ffi::c_void,
                &enzyme_dup as *const i32,
                xs.as_ptr(),
                dx.as_mut_ptr(),
                &enzyme_const as *const i32,
                xs.len(),
            )
        };
        dx
    }};
}

/// The derivative of `f: extern "C" fn(*const f64, usize) -> f64` at `xs`
/// in the direction `v`, in forward mode.
#[macro_export]
macro_rules! directional_slice {
    ($f:path, $xs:expr, $v:expr) => {{
        let _: extern "C" fn(*const f64, usize) -> f64 = $f;
        let xs: &[f64] = $xs;
        let v: &[f64] = $v;
        assert_eq!(xs.len(), v.len(), "direction and point differ in length");
        unsafe {
            use $crate::enzyme::*;
            __enzyme_fwddiff_f64(
                $f as *const ::std::ffi::c_void,
                &enzyme_dup as *const i32,
                xs.as_ptr(),
                v.as_ptr(),
                &enzyme_const as *const i32,
                xs.len(),
            )
        }
    }};
}

/// The gradient of `f: extern "C" fn(&T) -> f64` (a `#[repr(C)]` struct of
/// floats, `T: Default`) at `s`, as a `T` of partial derivatives, in
/// reverse mode.
#[macro_export]
macro_rules! gradient_ref {
    ($f:path, $s:expr) => {{
        let s = $s;
        let mut d = $crate::enzyme::shadow_for($f, s);
        unsafe {
            use $crate::enzyme::*;
            __enzyme_autodiff_void(
                $f as *const ::std::ffi::c_void,
                &enzyme_dup as *const i32,
                s as *const _,
                &mut d as *mut _,
            )
        };
        d
    }};
}

/// The derivative of `f: extern "C" fn(&T) -> f64` at `s` in the direction
/// `ds` (a `T` of tangents), in forward mode.
#[macro_export]
macro_rules! directional_ref {
    ($f:path, $s:expr, $ds:expr) => {{
        let s = $s;
        let ds = $ds;
        $crate::enzyme::check_ref_fn($f, s);
        $crate::enzyme::check_ref_fn($f, ds);
        unsafe {
            use $crate::enzyme::*;
            __enzyme_fwddiff_f64(
                $f as *const ::std::ffi::c_void,
                &enzyme_dup as *const i32,
                s as *const _,
                ds as *const _,
            )
        }
    }};
}
