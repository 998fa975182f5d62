//! Reverse mode, ActiveOnly return: the derivative returns only the
//! gradient, not the primal.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_g, Active, Active, ActiveOnly)]
fn g(x: f64, y: f64) -> f64 {
    (x * y).sin() / (1.0 + x * x)
}

pub fn run(c: &mut Check) {
    for (x, y) in [(0.7, 1.2), (-1.3, 0.4)] {
        let (dx, dy) = d_g(x, y, 1.0);
        c.fd("d/dx", dx, fd1(|t| g(t, y), x));
        c.fd("d/dy", dy, fd1(|t| g(x, t), y));
    }
}
