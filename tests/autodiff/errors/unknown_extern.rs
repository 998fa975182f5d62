// EXPECT-ERROR: no derivative known for external function 'j0'
// EXPECT-ERROR: unknown_extern.rs:14
// EXPECT-ERROR: in function 'unknown_extern::bessel'
// A differentiated function calls a C function (libm's Bessel j0) with no
// body and no derivative rule: a compile error naming the function (its
// Rust name, not the mangled one) and the Rust line of the call.
#![feature(autodiff)]
use std::autodiff::autodiff_reverse;
extern "C" {
    fn j0(x: f64) -> f64;
}
#[autodiff_reverse(d_bessel, Active, Active)]
fn bessel(x: f64) -> f64 {
    x * unsafe { j0(x) }
}
fn main() {
    println!("{:?}", d_bessel(1.5, 1.0));
}
