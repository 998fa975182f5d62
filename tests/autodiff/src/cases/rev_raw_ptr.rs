//! Reverse mode on raw pointers (DuplicatedOnly input pointer whose
//! primal is not needed after the call, as in rustc's own tests) and a
//! `&mut` accumulation.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_axpy, Const, Duplicated, Duplicated)]
fn axpy(a: f64, x: &[f64; 3], y: &mut [f64; 3]) {
    for i in 0..3 {
        y[i] = a * x[i] * y[i] + x[i];
    }
}

#[autodiff_reverse(d_ptr, Duplicated, Active)]
fn ptr_sum(p: *const f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += unsafe { *p.add(i) }.powi(2) * (i as f64 + 1.0);
    }
    s
}

pub fn run(c: &mut Check) {
    let x = [1.0, 2.0, 3.0];
    let mut y = [0.5, -1.0, 2.0];
    let y0 = y;
    let mut dx = [0.0; 3];
    let mut dy = [1.0, 1.0, 1.0];
    d_axpy(2.0, &x, &mut dx, &mut y, &mut dy);
    for i in 0..3 {
        c.exact(&format!("y{i}"), y[i], 2.0 * x[i] * y0[i] + x[i]);
        c.exact(&format!("d/dx{i}"), dx[i], 2.0 * y0[i] + 1.0);
        c.exact(&format!("d/dy{i} (in)"), dy[i], 2.0 * x[i]);
    }
    let v = [0.5, -1.5, 2.0];
    let mut dv = [0.0; 3];
    let s = d_ptr(v.as_ptr(), dv.as_mut_ptr(), 1.0);
    c.exact("ptr primal", s, ptr_sum(v.as_ptr()));
    for i in 0..3 {
        c.exact(&format!("ptr d/dv{i}"), dv[i], 2.0 * v[i] * (i as f64 + 1.0));
    }
}
