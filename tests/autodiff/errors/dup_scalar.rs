// EXPECT-ERROR: Duplicated
// Duplicated on an f64 passed by value: reverse mode needs Active for a
// scalar (there is no memory for a shadow to accumulate into).
#![feature(autodiff)]
use std::autodiff::autodiff_reverse;
#[autodiff_reverse(d_f, Duplicated, Active)]
fn f(x: f64) -> f64 {
    x * x
}
fn main() {
    let (y, dx) = d_f(1.5, 2.0, 1.0);
    println!("{y} {dx:?}");
}
