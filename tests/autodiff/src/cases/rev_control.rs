//! Reverse mode through control flow: branches on the data, a while loop
//! with a data-dependent trip count, early return, max/min/abs.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_piece, Active, Active)]
fn piece(x: f64) -> f64 {
    if x < 0.0 {
        return x * x * 0.5;
    }
    let mut y = x;
    let mut k = 0;
    while y > 0.1 && k < 50 {
        y = y * 0.5 + 0.01 * y.sin();
        k += 1;
    }
    y + x.max(1.0) + (x - 2.0).abs().min(0.5)
}

#[autodiff_reverse(d_clamp_sum, Duplicated, Active)]
fn clamp_sum(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in v {
        s += if x > 1.0 { x.ln() } else if x < -1.0 { -x * x } else { x.clamp(-0.5, 0.5) };
    }
    s
}

pub fn run(c: &mut Check) {
    for x in [-1.5, 0.05, 0.7, 1.6, 2.3, 3.1] {
        let (y, dx) = d_piece(x, 1.0);
        c.exact(&format!("primal at {x}"), y, piece(x));
        c.fd(&format!("d/dx at {x}"), dx, fd1(piece, x));
    }
    let v = vec![2.5, -1.7, 0.3, 0.8, -0.2];
    let mut dv = vec![0.0; 5];
    d_clamp_sum(&v, &mut dv, 1.0);
    let g = fd_grad(clamp_sum, &v);
    for i in 0..5 {
        c.fd(&format!("clamp d/dv{i}"), dv[i], g[i]);
    }
}
