// std::autodiff: two Active scalars, Duplicated arrays and slices, forward
// Dual scalars; checked against analytic values and finite differences.
#![feature(autodiff)]
use std::autodiff::{autodiff_forward, autodiff_reverse};

#[autodiff_reverse(d_two, Active, Active, Active)]
fn two(x: f64, y: f64) -> f64 {
    x * y.exp() + y * y
}

#[autodiff_reverse(d_norm, Duplicated, Active)]
fn norm(x: &[f64; 4]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

#[autodiff_forward(f_two, Dual, Dual, Dual)]
fn two_f(x: f64, y: f64) -> f64 {
    x * y.exp() + y * y
}

#[autodiff_reverse(d_slice, Duplicated, Active)]
fn sines(x: &[f64]) -> f64 {
    x.iter().map(|v| v.sin()).sum()
}

fn close(name: &str, got: f64, want: f64, bad: &mut bool) {
    let ok = (got - want).abs() <= 1e-9 * want.abs().max(1.0);
    println!("{} {name}: {got} (want {want})", if ok { "ok  " } else { "FAIL" });
    *bad |= !ok;
}

fn main() {
    let mut bad = false;
    let (x, y) = (1.5f64, 0.5f64);
    let (p, dx, dy) = d_two(x, y, 1.0);
    close("two", p, two(x, y), &mut bad);
    close("two d/dx", dx, y.exp(), &mut bad);
    close("two d/dy", dy, x * y.exp() + 2.0 * y, &mut bad);
    let (p, t) = f_two(x, 1.0, y, 0.0);
    close("two (forward)", p, two(x, y), &mut bad);
    close("two d/dx (forward)", t, y.exp(), &mut bad);
    let a = [1.0, 2.0, 3.0, 4.0];
    let mut da = [0.0; 4];
    let n = d_norm(&a, &mut da, 1.0);
    for i in 0..4 {
        close(&format!("norm d/dx{i}"), da[i], a[i] / n, &mut bad);
    }
    let v = vec![0.1, 0.2, 0.3];
    let mut dv = vec![0.0; 3];
    let _ = d_slice(&v, &mut dv, 1.0);
    for i in 0..3 {
        close(&format!("sines d/dx{i}"), dv[i], v[i].cos(), &mut bad);
    }
    std::process::exit(if bad { 1 } else { 0 });
}
