//! Reverse mode through calls: a differentiated function calls other
//! functions, one of which is itself differentiated (its own derivative
//! is also checked), and a helper called twice with different arguments.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[inline(never)]
fn sq(x: f64) -> f64 {
    x * x
}

#[autodiff_reverse(d_inner, Duplicated, Active)]
fn inner(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for x in v {
        s += sq(*x) * x.cos();
    }
    s
}

#[autodiff_reverse(d_outer, Duplicated, Active, Active)]
fn outer(v: &[f64], t: f64) -> f64 {
    let a = inner(v);
    let b = inner(&v[1..]);
    a * t + b.exp() + sq(t)
}

pub fn run(c: &mut Check) {
    let v = vec![0.3, -0.8, 1.1, 0.5];
    let mut dv = vec![0.0; 4];
    let r = d_inner(&v, &mut dv, 1.0);
    c.exact("inner primal", r, inner(&v));
    let g = fd_grad(inner, &v);
    for i in 0..4 {
        c.fd(&format!("inner d/dv{i}"), dv[i], g[i]);
    }
    let t = 0.6;
    let mut dv = vec![0.0; 4];
    let (r, dt) = d_outer(&v, &mut dv, t, 1.0);
    c.exact("outer primal", r, outer(&v, t));
    c.fd("outer d/dt", dt, fd1(|s| outer(&v, s), t));
    let g = fd_grad(|x| outer(x, t), &v);
    for i in 0..4 {
        c.fd(&format!("outer d/dv{i}"), dv[i], g[i]);
    }
}
