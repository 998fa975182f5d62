//! Forward mode on structs: a struct by reference with a Dual shadow
//! struct, nested arrays of structs, and a method.
use crate::check::*;
use std::autodiff::autodiff_forward;

#[derive(Clone, Copy, Default)]
pub struct Point {
    x: f64,
    y: f64,
}

#[derive(Clone, Copy, Default)]
pub struct Poly {
    p: [Point; 3],
    weight: f64,
}

#[autodiff_forward(f_area, Dual, Dual)]
fn area(q: &Poly) -> f64 {
    let [a, b, c] = q.p;
    q.weight * 0.5 * ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y))
}

impl Point {
    #[autodiff_forward(f_dist, Dual, Dual, Dual)]
    fn dist(&self, o: &Point) -> f64 {
        ((self.x - o.x).powi(2) + (self.y - o.y).powi(2)).sqrt()
    }
}

pub fn run(c: &mut Check) {
    let q = Poly {
        p: [Point { x: 0.0, y: 0.0 }, Point { x: 2.0, y: 0.5 }, Point { x: 0.5, y: 1.5 }],
        weight: 1.5,
    };
    let mut dq = Poly::default();
    dq.p[1].x = 1.0;
    let (a, t) = f_area(&q, &dq);
    c.exact("primal", a, area(&q));
    let f = |s: f64| {
        let mut r = q;
        r.p[1].x = s;
        area(&r)
    };
    c.fd("d/dp1x", t, fd1(f, 2.0));
    let mut dq = Poly::default();
    dq.weight = 1.0;
    let (_, t) = f_area(&q, &dq);
    c.exact("d/dweight", t, a / 1.5);
    let p = Point { x: 1.0, y: 2.0 };
    let o = Point { x: 4.0, y: 6.0 };
    let (d, t) = p.f_dist(&Point { x: 1.0, y: 0.0 }, &o, &Point::default());
    c.exact("dist", d, 5.0);
    c.exact("ddist/dpx", t, -3.0 / 5.0);
}
