//! Reverse mode, a matrix-vector product into an output slice: Const
//! matrix, Duplicated input and output (the output's shadow is the seed).
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_matvec, Const, Duplicated, Duplicated)]
fn matvec(a: &[f64], x: &[f64], y: &mut [f64]) {
    let n = x.len();
    for i in 0..y.len() {
        let mut s = 0.0;
        for j in 0..n {
            s += a[i * n + j] * x[j];
        }
        y[i] = s.tanh();
    }
}

pub fn run(c: &mut Check) {
    let a: Vec<f64> = (0..12).map(|k| ((k * 7 % 5) as f64 - 2.0) * 0.3).collect();
    let x = vec![0.2, -0.4, 0.6, 0.1];
    let mut y = vec![0.0; 3];
    // Row i of the Jacobian: seed e_i in the output's shadow.
    for i in 0..3 {
        let mut dx = vec![0.0; 4];
        let mut dy = vec![0.0; 3];
        dy[i] = 1.0;
        d_matvec(&a, &x, &mut dx, &mut y, &mut dy);
        let g = fd_grad(
            |p| {
                let mut o = vec![0.0; 3];
                matvec(&a, p, &mut o);
                o[i]
            },
            &x,
        );
        for j in 0..4 {
            c.fd(&format!("dy{i}/dx{j}"), dx[j], g[j]);
        }
        c.exact(&format!("seed {i} reset"), dy[i], 0.0);
    }
    let mut yy = vec![0.0; 3];
    matvec(&a, &x, &mut yy);
    for i in 0..3 {
        c.exact(&format!("primal y{i}"), y[i], yy[i]);
    }
}
