//! Forward mode with Const arguments (scalar, integer, slice) between Dual
//! ones, and a Const return (the derivative only writes through a Dual
//! reference).
use crate::check::*;
use std::autodiff::autodiff_forward;

#[autodiff_forward(f_fit, Const, Dual, Const, Dual, Dual)]
fn fit(data: &[f64], a: f64, n: usize, b: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        let r = a * data[i] + b - (i as f64).sqrt();
        s += r * r;
    }
    s
}

#[autodiff_forward(f_square, Dual, Const)]
fn square(x: f64) -> f64 {
    x * x
}

#[autodiff_forward(f_store, Dual, Const, Dual, Const)]
fn store(x: f64, k: i32, out: &mut f64) -> i32 {
    *out = x.powi(k) + x;
    k + 1
}

pub fn run(c: &mut Check) {
    let data = [0.5, 1.0, 1.5, 2.0];
    let (v, da) = f_fit(&data, 0.7, 1.0, 4, -0.2, 0.0);
    c.exact("primal", v, fit(&data, 0.7, 4, -0.2));
    c.fd("d/da", da, fd1(|t| fit(&data, t, 4, -0.2), 0.7));
    let (_, db) = f_fit(&data, 0.7, 0.0, 4, -0.2, 1.0);
    c.fd("d/db", db, fd1(|t| fit(&data, 0.7, 4, t), -0.2));
    let mut out = 0.0;
    let mut dout = 0.0;
    let r = f_store(1.5, 1.0, 3, &mut out, &mut dout);
    c.exact("const return (the primal)", r as f64, 4.0);
    // A Const float return: rustc emits the very call it emits for a
    // DualOnly return (`__enzyme_fwddiff(f, enzyme_dup, x, dx)`, no marker
    // for the return), so the backend returns the tangent.
    c.known_issue(
        "const float return",
        f_square(3.0, 1.0),
        9.0,
        "rustc emits the same call for a Const float return as for DualOnly: the tangent comes back",
    );
    c.exact("out", out, 1.5f64.powi(3) + 1.5);
    c.exact("dout", dout, 3.0 * 1.5 * 1.5 + 1.0);
}
