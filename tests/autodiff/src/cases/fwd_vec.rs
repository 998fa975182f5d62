//! Forward mode on functions that allocate on the heap: a collected Vec, a
//! `vec![0.0; n]` scratch, a Vec grown by `push` (reallocated), a
//! `Box<[f64]>` and a Vec of structs, each with a tangent buffer.
use crate::check::*;
use std::autodiff::autodiff_forward;

#[autodiff_forward(f_collect_sum, Dual, Dual)]
fn collect_sum(x: &[f64]) -> f64 {
    let t: Vec<f64> = x.iter().map(|v| v * v.sin()).collect();
    t.iter().sum()
}

#[autodiff_forward(f_scratch, Dual, Dual)]
fn scratch(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = vec![0.0; n];
    for i in 0..n {
        s[i] = x[i].exp() * x[(i + 1) % n];
    }
    s.iter().zip(s.iter().rev()).map(|(a, b)| a * b).sum()
}

#[autodiff_forward(f_pushed, Dual, Dual)]
fn pushed(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    for k in 0..20 {
        let a = x[k % x.len()];
        v.push(a * (k as f64 + 1.0) + a * a);
    }
    v.iter().map(|e| e.cos()).sum()
}

#[autodiff_forward(f_boxed, Dual, Dual)]
fn boxed(x: &[f64]) -> f64 {
    let b: Box<[f64]> = x.iter().map(|v| v.exp()).collect();
    let c = x.to_vec();
    b.iter().zip(c.iter()).map(|(p, q)| p * q).sum()
}

struct Pair {
    a: f64,
    b: f64,
}

#[autodiff_forward(f_pairs, Dual, Dual)]
fn pairs(x: &[f64]) -> f64 {
    let ps: Vec<Pair> = x.windows(2).map(|w| Pair { a: w[0] * w[1], b: w[1] - w[0] }).collect();
    ps.iter().map(|p| p.a * p.b.sin()).sum()
}

fn dir(
    c: &mut Check,
    what: &str,
    x: &[f64],
    v: &[f64],
    f: fn(&[f64]) -> f64,
    d: fn(&[f64], &[f64]) -> (f64, f64),
) {
    let (p, t) = d(x, v);
    c.exact(&format!("{what} primal"), p, f(x));
    let want = fd_dir(|q| vec![f(q)], x, v)[0];
    c.fd(&format!("{what} directional"), t, want);
}

pub fn run(c: &mut Check) {
    let x = vec![0.3, -1.2, 0.8, 0.05, 0.6];
    let v = vec![0.5, 0.25, -1.0, 2.0, -0.3];
    dir(c, "collect_sum", &x, &v, collect_sum, f_collect_sum);
    dir(c, "scratch", &x, &v, scratch, f_scratch);
    dir(c, "pushed", &x, &v, pushed, f_pushed);
    dir(c, "boxed", &x, &v, boxed, f_boxed);
    dir(c, "pairs", &x, &v, pairs, f_pairs);
}
