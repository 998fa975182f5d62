//! Forward mode, Dual scalars: value and tangent; seeding one argument
//! at a time gives the partials, seeding both their sum.
use crate::check::*;
use std::autodiff::autodiff_forward;

#[autodiff_forward(f_rb, Dual, Dual, Dual)]
fn rosenbrock(x: f64, y: f64) -> f64 {
    (1.0 - x).powi(2) + 100.0 * (y - x.powi(2)).powi(2)
}

#[autodiff_forward(f_g, Dual, Dual)]
fn g(x: f64) -> f64 {
    x.exp() * x.cos() / (1.0 + x * x).sqrt()
}

pub fn run(c: &mut Check) {
    let (v, dx) = f_rb(1.0, 1.0, 3.0, 0.0);
    c.exact("primal", v, 400.0);
    c.exact("d/dx", dx, -800.0);
    let (_, dy) = f_rb(1.0, 0.0, 3.0, 1.0);
    c.exact("d/dy", dy, 400.0);
    let (_, dxy) = f_rb(1.0, 1.0, 3.0, 1.0);
    c.exact("d/dx + d/dy", dxy, -400.0);
    for x in [-1.2, 0.0, 0.9, 2.4] {
        let (v, t) = f_g(x, 1.0);
        c.exact("g primal", v, g(x));
        c.fd(&format!("g' at {x}"), t, fd1(g, x));
    }
}
