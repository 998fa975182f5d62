// EXPECT-ERROR: of 'active_ref::f' cannot be enzyme_out (Active)
// EXPECT-ERROR: active_ref.rs:6
// Active on a reference: only floating-point scalars can be Active.
#![feature(autodiff)]
use std::autodiff::autodiff_reverse;
#[autodiff_reverse(d_f, Active, Active)]
fn f(x: &f64) -> f64 {
    *x * *x
}
fn main() {
    println!("{:?}", d_f(&1.5, 1.0));
}
