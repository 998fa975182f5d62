//! Forward mode, Dual slices: a directional derivative of a reduction and
//! of a vector-valued function written into an output slice.
use crate::check::*;
use std::autodiff::autodiff_forward;

#[autodiff_forward(f_softmax_dot, Dual, Const, Dual)]
fn softmax_dot(x: &[f64], w: &[f64]) -> f64 {
    let m = x.iter().cloned().fold(f64::MIN, f64::max);
    let z: f64 = x.iter().map(|v| (v - m).exp()).sum();
    x.iter().zip(w).map(|(v, wi)| (v - m).exp() / z * wi).sum()
}

#[autodiff_forward(f_map, Dual, Dual)]
fn map(x: &[f64], y: &mut [f64]) {
    for i in 0..y.len() {
        y[i] = x[i] * x[(i + 1) % x.len()] + x[i].sin();
    }
}

pub fn run(c: &mut Check) {
    let x = vec![0.3, -1.2, 0.8, 0.05];
    let w = vec![1.0, 2.0, -1.0, 0.5];
    let v = vec![0.5, 0.25, -1.0, 2.0];
    let (p, t) = f_softmax_dot(&x, &v, &w);
    c.exact("primal", p, softmax_dot(&x, &w));
    let want = fd_dir(|p| vec![softmax_dot(p, &w)], &x, &v)[0];
    c.fd("directional", t, want);
    let mut y = vec![0.0; 4];
    let mut dy = vec![0.0; 4];
    f_map(&x, &v, &mut y, &mut dy);
    let want = fd_dir(
        |p| {
            let mut o = vec![0.0; 4];
            map(p, &mut o);
            o
        },
        &x,
        &v,
    );
    for i in 0..4 {
        c.fd(&format!("dy{i}"), dy[i], want[i]);
    }
}
