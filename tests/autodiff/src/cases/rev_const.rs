//! Reverse mode with Const arguments: a scalar parameter, a data slice and
//! an integer; only the Active / Duplicated ones get derivatives.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_loss, Duplicated, Const, Const, Active, Active)]
fn loss(w: &[f64], data: &[f64], n: usize, scale: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        let r = w[0] * data[i] + w[1] - data[i] * data[i];
        s += r * r;
    }
    scale * s / n as f64
}

#[autodiff_reverse(d_mix, Const, Active, Active)]
fn mix(a: f64, b: f64) -> f64 {
    a * b.exp() + b * b
}

pub fn run(c: &mut Check) {
    let w = [0.5, -0.25];
    let data = [0.1, 0.4, 0.9, 1.6, 2.5];
    let mut dw = [0.0; 2];
    let (l, dscale) = d_loss(&w, &mut dw, &data, 5, 2.0, 1.0);
    c.exact("primal", l, loss(&w, &data, 5, 2.0));
    let g = fd_grad(|x| loss(x, &data, 5, 2.0), &w);
    c.fd("d/dw0", dw[0], g[0]);
    c.fd("d/dw1", dw[1], g[1]);
    c.fd("d/dscale", dscale, fd1(|s| loss(&w, &data, 5, s), 2.0));
    let (v, db) = d_mix(1.5, 0.5, 1.0);
    c.exact("mix primal", v, mix(1.5, 0.5));
    c.exact("mix d/db", db, 1.5 * 0.5f64.exp() + 1.0);
}
