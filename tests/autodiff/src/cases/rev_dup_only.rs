//! Reverse mode, DuplicatedOnly: the output buffer's primal need not be
//! written; only the gradient is wanted.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_energy, Duplicated, DuplicatedOnly)]
fn energy(x: &[f64], out: &mut f64) {
    let mut e = 0.0;
    for i in 0..x.len() {
        e += x[i].powi(3) - 2.0 * x[i];
    }
    *out = e;
}

fn energy_v(x: &[f64]) -> f64 {
    let mut o = 0.0;
    energy(x, &mut o);
    o
}

pub fn run(c: &mut Check) {
    let x = vec![0.5, -1.5, 2.0];
    let mut dx = vec![0.0; 3];
    let mut out = 0.0;
    let mut dout = 1.0;
    // DuplicatedOnly derivatives are unsafe: the primal output is not written.
    unsafe { d_energy(&x, &mut dx, &mut out, &mut dout) };
    let g = fd_grad(energy_v, &x);
    for i in 0..3 {
        c.exact(&format!("d/dx{i} analytic"), dx[i], 3.0 * x[i] * x[i] - 2.0);
        c.fd(&format!("d/dx{i}"), dx[i], g[i]);
    }
    c.exact("seed reset", dout, 0.0);
}
