//! Reverse mode, the output through a `&mut f64` (Duplicated, seeded with
//! 1 in its shadow, reset to 0 by the derivative), no return value.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_rb, Active, Active, Duplicated)]
fn rosenbrock_inp(x: f64, y: f64, out: &mut f64) {
    *out = (1.0 - x).powi(2) + 100.0 * (y - x.powi(2)).powi(2);
}

fn rb(x: f64, y: f64) -> f64 {
    let mut o = 0.0;
    rosenbrock_inp(x, y, &mut o);
    o
}

pub fn run(c: &mut Check) {
    let (x, y) = (1.0, 3.0);
    let mut out = 0.0;
    let mut seed = 1.0;
    let (dx, dy) = d_rb(x, y, &mut out, &mut seed);
    c.exact("primal", out, 400.0);
    c.exact("d/dx", dx, -800.0);
    c.exact("d/dy", dy, 400.0);
    c.exact("seed reset", seed, 0.0);
    let (x, y) = (0.4, -0.3);
    let mut seed = 1.0;
    let (dx, dy) = d_rb(x, y, &mut out, &mut seed);
    c.fd("d/dx (fd)", dx, fd1(|t| rb(t, y), x));
    c.fd("d/dy (fd)", dy, fd1(|t| rb(x, t), y));
}
