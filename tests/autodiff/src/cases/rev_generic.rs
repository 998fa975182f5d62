//! Reverse mode on generic functions, instantiated at f64 and f32.
use crate::check::*;
use std::autodiff::autodiff_reverse;
use std::ops::{Add, Mul};

#[autodiff_reverse(d_cube_sum, Duplicated, Active)]
fn cube_sum<T: Mul<Output = T> + Add<Output = T> + Copy>(x: &[T; 3]) -> T {
    x[0] * x[0] * x[0] + x[1] * x[1] * x[1] + x[2] * x[1]
}

#[autodiff_reverse(d_square, Duplicated, Active)]
fn square<T: Mul<Output = T> + Copy>(x: &T) -> T {
    *x * *x
}

pub fn run(c: &mut Check) {
    let x = [0.5f64, -1.25, 2.0];
    let mut dx = [0.0f64; 3];
    let v = d_cube_sum(&x, &mut dx, 1.0);
    c.exact("f64 primal", v, cube_sum(&x));
    c.exact("f64 d/dx0", dx[0], 3.0 * x[0] * x[0]);
    c.exact("f64 d/dx1", dx[1], 3.0 * x[1] * x[1] + x[2]);
    c.exact("f64 d/dx2", dx[2], x[1]);
    let xf = [0.5f32, -1.25, 2.0];
    let mut dxf = [0.0f32; 3];
    d_cube_sum(&xf, &mut dxf, 1.0);
    c.f32("f32 d/dx0", dxf[0], 0.75);
    c.f32("f32 d/dx1", dxf[1], 3.0 * 1.5625 + 2.0);
    c.f32("f32 d/dx2", dxf[2], -1.25);
    let mut d = 0.0f64;
    d_square(&3.0f64, &mut d, 1.0);
    c.exact("square f64", d, 6.0);
    let mut d = 0.0f32;
    d_square(&3.0f32, &mut d, 1.0);
    c.f32("square f32", d, 6.0);
}
