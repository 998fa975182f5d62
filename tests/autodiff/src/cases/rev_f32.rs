//! Reverse mode in f32: Active scalars and a Duplicated f32 slice.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_f, Active, Active, Active)]
fn f(x: f32, y: f32) -> f32 {
    x * y.sin() + (x * 0.5).exp() - y.sqrt()
}

#[autodiff_reverse(d_dot, Duplicated, Duplicated, Active)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn run(c: &mut Check) {
    let (x, y) = (1.25f32, 0.75f32);
    let (v, dx, dy) = d_f(x, y, 1.0);
    c.f32("primal", v, f(x, y) as f64);
    let (xd, yd) = (x as f64, y as f64);
    c.f32("d/dx", dx, yd.sin() + 0.5 * (xd * 0.5).exp());
    c.f32("d/dy", dy, xd * yd.cos() - 0.5 / yd.sqrt());
    c.f32("d/dx (fd)", dx, fd1_f32(|t| f(t, y), x));
    // An f32 seed (honoured at opt-level 0 only: see rev_scalar).
    let (_, dx2, dy2) = d_f(x, y, 2.0);
    if OPT_LEVEL == "0" {
        c.f32("seed 2: d/dx", dx2, 2.0 * dx as f64);
        c.f32("seed 2: d/dy", dy2, 2.0 * dy as f64);
    } else {
        c.known_issue(
            "seed 2",
            dx2 as f64,
            2.0 * dx as f64,
            "with optimization rustc inlines the wrapper and drops the seed before the backend runs",
        );
    }
    let a = vec![1.0f32, 2.0, 3.0];
    let b = vec![-0.5f32, 0.25, 4.0];
    let mut da = vec![0.0f32; 3];
    let mut db = vec![0.0f32; 3];
    let r = d_dot(&a, &mut da, &b, &mut db, 1.0);
    c.f32("dot primal", r, 12.0);
    for i in 0..3 {
        c.f32(&format!("dot d/da{i}"), da[i], b[i] as f64);
        c.f32(&format!("dot d/db{i}"), db[i], a[i] as f64);
    }
}
