//! Reverse mode, two Active arguments (powi, exp).
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_rb, Active, Active, Active)]
fn rosenbrock(x: f64, y: f64) -> f64 {
    (1.0 - x).powi(2) + 100.0 * (y - x.powi(2)).powi(2) + (0.1 * x * y).exp()
}

pub fn run(c: &mut Check) {
    for (x, y) in [(1.0, 3.0), (-0.5, 0.25), (0.3, -1.1)] {
        let (v, dx, dy) = d_rb(x, y, 1.0);
        c.exact("primal", v, rosenbrock(x, y));
        c.fd("d/dx", dx, fd1(|t| rosenbrock(t, y), x));
        c.fd("d/dy", dy, fd1(|t| rosenbrock(x, t), y));
    }
}
