//! Forward mode through calls between functions that are themselves
//! differentiated, and a helper returning a tuple.
use crate::check::*;
use std::autodiff::autodiff_forward;

#[autodiff_forward(f_sig, Dual, Dual)]
fn sig(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[inline(never)]
fn polar(r: f64, th: f64) -> (f64, f64) {
    (r * th.cos(), r * th.sin())
}

#[autodiff_forward(f_net, Dual, Dual, Dual)]
fn net(w: &[f64; 4], x: f64) -> f64 {
    let h1 = sig(w[0] * x + w[1]);
    let h2 = sig(w[2] * h1 + w[3]);
    let (a, b) = polar(h2, x);
    a * b + h1
}

pub fn run(c: &mut Check) {
    let (s, t) = f_sig(0.3, 1.0);
    c.exact("sig", s, sig(0.3));
    c.exact("sig'", t, s * (1.0 - s));
    let w = [0.5, -0.2, 1.5, 0.1];
    let x = 0.7;
    let (v, t) = f_net(&w, &[0.0; 4], x, 1.0);
    c.exact("net primal", v, net(&w, x));
    c.fd("dnet/dx", t, fd1(|s| net(&w, s), x));
    for i in 0..4 {
        let mut e = [0.0; 4];
        e[i] = 1.0;
        let (_, t) = f_net(&w, &e, x, 0.0);
        let f = |s: f64| {
            let mut u = w;
            u[i] = s;
            net(&u, x)
        };
        c.fd(&format!("dnet/dw{i}"), t, fd1(f, w[i]));
    }
}
