//! Forward mode in f32: scalars and an f32 array.
use crate::check::*;
use std::autodiff::autodiff_forward;

#[autodiff_forward(f_f, Dual, Dual, Dual)]
fn f(x: f32, y: f32) -> f32 {
    x.tanh() * y + (x * y).cos()
}

#[autodiff_forward(f_sum, Dual, Dual)]
fn sum_sq(v: &[f32; 4]) -> f32 {
    v.iter().map(|a| a * a * a).sum()
}

pub fn run(c: &mut Check) {
    let (x, y) = (0.6f32, -1.3f32);
    let (v, dx) = f_f(x, 1.0, y, 0.0);
    c.f32("primal", v, f(x, y) as f64);
    let (xd, yd) = (x as f64, y as f64);
    c.f32("d/dx", dx, (1.0 - xd.tanh().powi(2)) * yd - (xd * yd).sin() * yd);
    c.f32("d/dx (fd)", dx, fd1_f32(|t| f(t, y), x));
    let (_, dy) = f_f(x, 0.0, y, 1.0);
    c.f32("d/dy", dy, xd.tanh() - (xd * yd).sin() * xd);
    let a = [1.0f32, -0.5, 2.0, 0.25];
    let t = [1.0f32, 1.0, 0.0, 2.0];
    let (_, d) = f_sum(&a, &t);
    let want: f64 = a.iter().zip(&t).map(|(p, q)| 3.0 * (*p as f64).powi(2) * *q as f64).sum();
    c.f32("array directional", d, want);
}
