// EXPECT-ERROR: fn_pointer.rs:11
// LEVELS: 0
// The function to differentiate must be known at compile time: here it is
// a parameter of a function that is not inlined.
use std::ffi::c_void;
extern "C" {
    fn __enzyme_fwddiff_f64(f: *const c_void, ...) -> f64;
}
#[inline(never)]
fn deriv(f: extern "C" fn(f64) -> f64, x: f64) -> f64 {
    unsafe { __enzyme_fwddiff_f64(f as *const c_void, x, 1.0f64) }
}
extern "C" fn square(x: f64) -> f64 {
    x * x
}
fn main() {
    println!("{}", deriv(square, 3.0));
}
