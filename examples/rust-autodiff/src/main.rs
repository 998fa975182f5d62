//! Rust's `std::autodiff` with enzyme-rs as its backend: a gradient in
//! reverse mode and a directional derivative in forward mode, each checked
//! against central finite differences.
//!
//!   cargo run             # opt-level 0
//!   cargo run --release   # opt-level 3
#![feature(autodiff)]
use std::autodiff::{autodiff_forward, autodiff_reverse};

/// The Rosenbrock function of a slice.
#[autodiff_reverse(d_rosenbrock, Duplicated, Active)]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += 100.0 * (x[i + 1] - x[i] * x[i]).powi(2) + (1.0 - x[i]).powi(2);
    }
    s
}

/// A point moved along a circle: (r cos t, r sin t).
#[autodiff_forward(d_polar, Dual, Dual, Dual)]
fn polar(r: f64, t: f64, out: &mut [f64; 2]) {
    out[0] = r * t.cos();
    out[1] = r * t.sin();
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

fn main() {
    let h = 1e-6;
    let mut ok = true;

    // Reverse mode: the gradient accumulates into dx; the seed is 1.
    let x = [-1.2, 1.0, 0.5];
    let mut dx = [0.0; 3];
    let y = d_rosenbrock(&x, &mut dx, 1.0);
    println!("rosenbrock({x:?}) = {y}");
    println!("gradient           = {dx:?}");
    for i in 0..x.len() {
        let (mut hi, mut lo) = (x, x);
        hi[i] += h;
        lo[i] -= h;
        let fd = (rosenbrock(&hi) - rosenbrock(&lo)) / (2.0 * h);
        ok &= close(dx[i], fd);
    }

    // Forward mode: the tangent of out along (dr, dt) = (0, 1).
    let (mut out, mut dout) = ([0.0; 2], [0.0; 2]);
    d_polar(2.0, 0.0, 0.5, 1.0, &mut out, &mut dout);
    println!("polar(2, 0.5) = {out:?}, d/dt = {dout:?}");
    ok &= close(dout[0], -2.0 * 0.5f64.sin()) && close(dout[1], 2.0 * 0.5f64.cos());

    if ok {
        println!("derivatives match finite differences");
    } else {
        println!("MISMATCH against finite differences");
        std::process::exit(1);
    }
}
