//! Reverse mode, a slice (Duplicated) backed by a Vec, and a loop with an
//! index.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_sines, Duplicated, Active)]
fn sines(x: &[f64]) -> f64 {
    x.iter().map(|v| v.sin()).sum()
}

#[autodiff_reverse(d_poly, Duplicated, Active)]
fn poly(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        s += x[i] * x[i - 1] * (i as f64);
    }
    s
}

pub fn run(c: &mut Check) {
    let v = vec![0.1, 0.2, 0.3, -0.7, 1.3];
    let mut dv = vec![0.0; v.len()];
    let s = d_sines(&v, &mut dv, 1.0);
    c.exact("sines primal", s, sines(&v));
    for i in 0..v.len() {
        c.exact(&format!("sines d/dx{i}"), dv[i], v[i].cos());
    }
    let mut dp = vec![0.0; v.len()];
    d_poly(&v, &mut dp, 1.0);
    let g = fd_grad(poly, &v);
    for i in 0..v.len() {
        c.fd(&format!("poly d/dx{i}"), dp[i], g[i]);
    }
}
