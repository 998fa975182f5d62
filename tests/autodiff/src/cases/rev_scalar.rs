//! Reverse mode, one Active f64 argument, Active return.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_f, Active, Active)]
fn f(x: f64) -> f64 {
    x * x * x.sin()
}

pub fn run(c: &mut Check) {
    for x in [0.3, 1.7, -2.5] {
        let (y, dx) = d_f(x, 1.0);
        c.exact("primal", y, f(x));
        c.exact("d/dx analytic", dx, 2.0 * x * x.sin() + x * x * x.cos());
        c.fd("d/dx", dx, fd1(f, x));
        // The seed scales the derivative. rustc's call to the backend
        // leaves the seed out; the backend takes it from the wrapper's
        // last parameter, which exists only while the wrapper is not
        // inlined (opt-level 0): with optimization the seed is gone
        // before the backend runs (see the README).
        let (_, dx3) = d_f(x, 3.0);
        if OPT_LEVEL == "0" {
            c.exact("seed 3", dx3, 3.0 * dx);
        } else {
            c.known_issue(
                "seed 3",
                dx3,
                3.0 * dx,
                "with optimization rustc inlines the wrapper and drops the seed before the backend runs",
            );
        }
    }
}
