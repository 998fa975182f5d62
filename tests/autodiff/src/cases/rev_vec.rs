//! Reverse mode on functions that allocate on the heap: a Vec collected
//! from an iterator, `vec![0.0; n]` scratch written and read, a Vec grown
//! by `push` (std reallocates it), `to_vec`, a `Box<[f64]>`, a `Box` of a
//! struct and a Vec of structs. Rust's allocator entry points
//! (`__rust_alloc`, `__rust_realloc`, `__rust_dealloc`) are allocation
//! functions to the backend: each buffer gets a zeroed shadow.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_collect_sum, Duplicated, Active)]
fn collect_sum(x: &[f64]) -> f64 {
    let t: Vec<f64> = x.iter().map(|v| v * v).collect();
    t.iter().sum()
}

#[autodiff_reverse(d_scratch, Duplicated, Active)]
fn scratch(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = vec![0.0; n];
    for i in 0..n {
        s[i] = x[i].sin() * x[(i + 1) % n];
    }
    let mut acc = 0.0;
    for i in 0..n {
        acc += s[i] * s[(i + 2) % n];
    }
    acc
}

/// Grows from empty past several capacities (4, 8, 16, 32): each growth
/// is a `__rust_realloc` of a buffer that holds active values.
#[autodiff_reverse(d_pushed, Duplicated, Active)]
fn pushed(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    for k in 0..20 {
        let a = x[k % x.len()];
        v.push(a * (k as f64 + 1.0) + a * a);
    }
    let mut w = Vec::with_capacity(1);
    for (k, e) in v.iter().enumerate() {
        w.push(e.cos() * (k as f64 * 0.1));
    }
    w.iter().zip(&v).map(|(a, b)| a * b).sum()
}

#[autodiff_reverse(d_boxed, Duplicated, Active)]
fn boxed(x: &[f64]) -> f64 {
    let b: Box<[f64]> = x.iter().map(|v| v.exp()).collect();
    let c = x.to_vec();
    b.iter().zip(c.iter()).map(|(p, q)| p * q).sum::<f64>() / b.len() as f64
}

#[derive(Clone, Copy)]
struct Particle {
    pos: f64,
    vel: f64,
    id: usize,
}

#[autodiff_reverse(d_particles, Duplicated, Active)]
fn particles(x: &[f64]) -> f64 {
    let mut ps: Vec<Particle> = Vec::new();
    for (k, v) in x.iter().enumerate() {
        ps.push(Particle {
            pos: *v,
            vel: v * v,
            id: k,
        });
    }
    for _ in 0..3 {
        for p in ps.iter_mut() {
            p.pos += 0.1 * p.vel;
            p.vel -= 0.1 * p.pos.sin();
        }
    }
    let centre = Box::new(Particle {
        pos: ps[0].pos,
        vel: ps[ps.len() - 1].vel,
        id: 0,
    });
    ps.iter()
        .map(|p| (p.pos - centre.pos) * (p.id as f64 + 1.0) + p.vel * centre.vel)
        .sum()
}

fn grad(
    c: &mut Check,
    what: &str,
    x: &[f64],
    f: fn(&[f64]) -> f64,
    d: fn(&[f64], &mut [f64], f64) -> f64,
) {
    let mut dx = vec![0.0; x.len()];
    let v = d(x, &mut dx, 1.0);
    c.exact(&format!("{what} primal"), v, f(x));
    let g = fd_grad(f, x);
    for i in 0..x.len() {
        c.fd(&format!("{what} d/dx{i}"), dx[i], g[i]);
    }
}

pub fn run(c: &mut Check) {
    let x = vec![0.4, -0.3, 1.2, 0.9, -1.1, 0.05];
    grad(c, "collect_sum", &x, collect_sum, d_collect_sum);
    // Analytic: d/dxi sum xi^2 = 2 xi.
    let mut dx = vec![0.0; x.len()];
    d_collect_sum(&x, &mut dx, 1.0);
    for i in 0..x.len() {
        c.exact(&format!("collect_sum analytic {i}"), dx[i], 2.0 * x[i]);
    }
    grad(c, "scratch", &x, scratch, d_scratch);
    grad(c, "pushed", &x, pushed, d_pushed);
    grad(c, "boxed", &x, boxed, d_boxed);
    grad(c, "particles", &x, particles, d_particles);
    // An empty input: the Vec stays unallocated (a dangling pointer).
    let mut dz: Vec<f64> = vec![];
    c.exact("collect_sum empty", d_collect_sum(&[], &mut dz, 1.0), 0.0);
    // Called twice (the shadow buffers are fresh each time).
    let mut dx = vec![0.0; x.len()];
    d_scratch(&x, &mut dx, 1.0);
    d_scratch(&x, &mut dx, 1.0);
    let g = fd_grad(scratch, &x);
    for i in 0..x.len() {
        c.fd(&format!("scratch twice d/dx{i}"), dx[i], 2.0 * g[i]);
    }
}
