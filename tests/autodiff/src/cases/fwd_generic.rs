//! Forward mode on a generic function at f32 and f64, and a generic
//! method through a trait bound.
use crate::check::*;
use std::autodiff::autodiff_forward;
use std::ops::{Add, Mul};

#[autodiff_forward(f_horner, Dual, Const, Dual)]
fn horner<T: Mul<Output = T> + Add<Output = T> + Copy>(x: T, c: &[T; 4]) -> T {
    ((c[3] * x + c[2]) * x + c[1]) * x + c[0]
}

pub fn run(c: &mut Check) {
    let k = [1.0f64, -2.0, 0.5, 0.25];
    for x in [-1.0f64, 0.5, 2.0] {
        let (v, t) = f_horner(x, 1.0, &k);
        c.exact("f64 primal", v, horner(x, &k));
        c.exact(&format!("f64 p'({x})"), t, -2.0 + 2.0 * 0.5 * x + 3.0 * 0.25 * x * x);
    }
    let kf = [1.0f32, -2.0, 0.5, 0.25];
    let (_, t) = f_horner(2.0f32, 1.0, &kf);
    c.f32("f32 p'(2)", t, -2.0 + 2.0 + 3.0);
}
