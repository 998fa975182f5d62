//! Forward mode, DualOnly return: only the tangent comes back.
use crate::check::*;
use std::autodiff::autodiff_forward;

#[autodiff_forward(t_h, Dual, Const, DualOnly)]
fn h(x: f64, k: f64) -> f64 {
    (k * x).sin() * x.ln()
}

#[autodiff_forward(t_len, Dual, DualOnly)]
fn len(v: &[f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

pub fn run(c: &mut Check) {
    for x in [0.5, 1.5, 4.0] {
        let t = t_h(x, 1.0, 2.5);
        c.fd(&format!("dh/dx at {x}"), t, fd1(|s| h(s, 2.5), x));
    }
    let v = [1.0, -2.0, 2.0];
    for i in 0..3 {
        let mut e = [0.0; 3];
        e[i] = 1.0;
        let t = t_len(&v, &e);
        c.exact(&format!("dlen/dv{i}"), t, v[i] / 3.0);
    }
}
