//! Forward mode with a width (vector mode): several tangents in one call.
use crate::check::*;
use std::autodiff::autodiff_forward;

#[autodiff_forward(f_sq4, 4, Dual, Dual)]
#[autodiff_forward(t_sq4, 4, Dual, DualOnly)]
fn cube(x: &f64) -> f64 {
    x * x * x
}

#[autodiff_forward(f_grad2, 2, Dual, Dual, Dual)]
fn prod(x: f64, y: f64) -> f64 {
    x * y * y + x.sin()
}

pub fn run(c: &mut Check) {
    let x = 1.5;
    let r = f_sq4(&x, &1.0, &2.0, &0.0, &-1.0);
    c.exact("primal", r[0], 3.375);
    c.exact("tangent 0", r[1], 3.0 * 2.25);
    c.exact("tangent 1", r[2], 2.0 * 3.0 * 2.25);
    c.exact("tangent 2", r[3], 0.0);
    c.exact("tangent 3", r[4], -3.0 * 2.25);
    let t = t_sq4(&x, &1.0, &0.5, &0.25, &0.0);
    c.exact("only 0", t[0], 6.75);
    c.exact("only 1", t[1], 3.375);
    c.exact("only 3", t[3], 0.0);
    // The whole gradient of prod in one call: seeds e_x and e_y.
    let (x, y) = (0.4, -1.5);
    let r = f_grad2(x, 1.0, 0.0, y, 0.0, 1.0);
    c.exact("batched primal", r[0], prod(x, y));
    c.fd("batched d/dx", r[1], fd1(|s| prod(s, y), x));
    c.fd("batched d/dy", r[2], fd1(|s| prod(x, s), y));
}
