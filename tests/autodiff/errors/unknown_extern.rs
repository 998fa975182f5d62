// EXPECT-ERROR: no derivative known for external function 'lgamma_r'
// EXPECT-ERROR: unknown_extern.rs:14
// EXPECT-ERROR: in function 'unknown_extern::log_gamma'
// A differentiated function calls a C function (libm's lgamma_r) with no
// rule: a compile error naming the function (its Rust name, not the
// mangled one) and the Rust line of the call.
#![feature(autodiff)]
use std::autodiff::autodiff_reverse;
extern "C" {
    fn lgamma_r(x: f64, sign: *mut i32) -> f64;
}
#[autodiff_reverse(d_log_gamma, Active, Const, Active)]
fn log_gamma(x: f64, sign: &mut i32) -> f64 {
    x * unsafe { lgamma_r(x, sign) }
}
fn main() {
    let mut sign = 0;
    println!("{:?}", d_log_gamma(1.5, &mut sign, 1.0));
}
