// EXPECT-ERROR: of 'dual_int::f' cannot be enzyme_dup (Dual / Duplicated): an integer carries no derivative
// EXPECT-ERROR: dual_int.rs:6
// Dual on an integer argument: an integer has no tangent.
#![feature(autodiff)]
use std::autodiff::autodiff_forward;
#[autodiff_forward(d_f, Dual, Dual, Dual)]
fn f(x: f64, n: i32) -> f64 {
    x.powi(n)
}
fn main() {
    println!("{:?}", d_f(1.5, 1.0, 3, 1));
}
