//! Reverse mode, a fixed-size array by reference (Duplicated).
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_norm, Duplicated, Active)]
fn norm(x: &[f64; 4]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

pub fn run(c: &mut Check) {
    let a = [1.0, 2.0, 3.0, 4.0];
    let mut da = [0.0; 4];
    let n = d_norm(&a, &mut da, 1.0);
    c.exact("primal", n, norm(&a));
    let g = fd_grad(|x| norm(&[x[0], x[1], x[2], x[3]]), &a);
    for i in 0..4 {
        c.exact(&format!("d/dx{i} analytic"), da[i], a[i] / n);
        c.fd(&format!("d/dx{i}"), da[i], g[i]);
    }
    // Reverse mode accumulates into the shadow.
    d_norm(&a, &mut da, 1.0);
    c.exact("accumulated", da[2], 2.0 * a[2] / n);
}
