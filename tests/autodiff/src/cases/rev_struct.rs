//! Reverse mode on a struct by reference: the shadow is a struct of the
//! same type that receives the gradient field by field.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[derive(Clone, Copy, Default, Debug)]
pub struct Params {
    a: f64,
    b: f64,
    w: [f64; 3],
    n: usize,
}

#[autodiff_reverse(d_model, Duplicated, Active, Active)]
fn model(p: &Params, x: f64) -> f64 {
    let mut s = p.a * x.sin() + p.b * p.b;
    for i in 0..p.n {
        s += p.w[i] * x.powi(i as i32 + 1);
    }
    s
}

pub fn run(c: &mut Check) {
    let p = Params { a: 1.5, b: -0.5, w: [0.3, 0.2, 0.1], n: 3 };
    let x = 0.8;
    let mut dp = Params::default();
    let (y, dx) = d_model(&p, &mut dp, x, 1.0);
    c.exact("primal", y, model(&p, x));
    c.fd("d/dx", dx, fd1(|t| model(&p, t), x));
    c.fd("d/da", dp.a, fd1(|t| model(&Params { a: t, ..p }, x), p.a));
    c.fd("d/db", dp.b, fd1(|t| model(&Params { b: t, ..p }, x), p.b));
    for i in 0..3 {
        let f = |t: f64| {
            let mut q = p;
            q.w[i] = t;
            model(&q, x)
        };
        c.fd(&format!("d/dw{i}"), dp.w[i], fd1(f, p.w[i]));
    }
    c.exact("integer field untouched", dp.n as f64, 0.0);
}
