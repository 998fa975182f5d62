// EXPECT-ERROR: enzyme-rs: cannot differentiate
// EXPECT-ERROR: vec_alloc.rs:9
// EXPECT-ERROR: while differentiating for 'vec_alloc::d_f'
// A Vec allocated inside the differentiated function: not supported yet
// (std's allocation returns the buffer with no shadow); a compile error,
// not a crash and not a wrong derivative.
#![feature(autodiff)]
use std::autodiff::autodiff_reverse;
#[autodiff_reverse(d_f, Duplicated, Active)]
fn f(x: &[f64]) -> f64 {
    let t: Vec<f64> = x.iter().map(|v| v * v).collect();
    t.iter().sum()
}
fn main() {
    let x = [1.0, 2.0];
    let mut dx = [0.0; 2];
    println!("{:?}", d_f(&x, &mut dx, 1.0));
}
