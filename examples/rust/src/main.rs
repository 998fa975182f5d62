//! Rust functions differentiated by enzyme-rs inside rustc (`-Z
//! llvm-plugins`, see .cargo/config.toml): scalars, slices, `#[repr(C)]`
//! structs and their methods, data in `Vec`s, in forward and reverse mode.
//! Every derivative is checked against central finite differences (and an
//! analytic value where one is short); the program exits non-zero on any
//! mismatch. `cargo run` (any profile: o0..o3 are the optimization levels).
#[macro_use]
mod enzyme;

use std::ffi::c_void;

// ----- functions to differentiate ------------------------------------------

/// A scalar function of one variable.
pub extern "C" fn damped(x: f64) -> f64 {
    (-0.5 * x).exp() * (3.0 * x).sin()
}

/// The same in single precision.
pub extern "C" fn soft(x: f32) -> f32 {
    (x * x + 1.0).sqrt().ln() * x
}

/// Rosenbrock's function of two scalars.
pub extern "C" fn rosenbrock(x: f64, y: f64) -> f64 {
    (1.0 - x).powi(2) + 100.0 * (y - x * x).powi(2)
}

/// The Euclidean norm of a slice (pointer + length), through an iterator.
pub extern "C" fn norm(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// log(sum(exp(x))) computed stably: a max, then a sum.
pub extern "C" fn logsumexp(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
}

/// Indexing with bounds checks: a ring of products.
pub extern "C" fn ring(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut s = 0.0;
    for i in 0..n {
        s += x[i] * x[(i + 1) % n].cos();
    }
    s
}

/// A particle in a central field.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Particle {
    pub pos: [f64; 3],
    pub vel: [f64; 3],
    pub mass: f64,
}

impl Particle {
    /// Kinetic plus potential energy (a method: `&self` is the pointer).
    pub extern "C" fn energy(&self) -> f64 {
        let v2: f64 = self.vel.iter().map(|v| v * v).sum();
        let r = self.pos.iter().map(|p| p * p).sum::<f64>().sqrt();
        0.5 * self.mass * v2 - self.mass / r
    }
}

/// One observation of a linear model.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub x: [f64; 2],
    pub y: f64,
}

/// Mean squared error of the model w[0] x0 + w[1] x1 + w[2] over the
/// samples (data that carries no derivative).
pub extern "C" fn mse(w: *const f64, nw: usize, data: *const Sample, m: usize) -> f64 {
    let w = unsafe { std::slice::from_raw_parts(w, nw) };
    let data = unsafe { std::slice::from_raw_parts(data, m) };
    let mut s = 0.0;
    for d in data {
        let p = w[0] * d.x[0] + w[1] * d.x[1] + w[2];
        s += (p - d.y) * (p - d.y);
    }
    s / m as f64
}

// ----- checks ----------------------------------------------------------------

struct Checks {
    failures: usize,
    count: usize,
}

impl Checks {
    fn check(&mut self, name: &str, got: f64, want: f64, tol: f64) {
        self.count += 1;
        let scale = want.abs().max(1.0);
        if (got - want).abs() <= tol * scale && got.is_finite() {
            println!("ok   {name}: {got:.12}");
        } else {
            println!("FAIL {name}: got {got:.17} expected {want:.17}");
            self.failures += 1;
        }
    }
}

/// Central finite difference of `f` at `x`.
fn fd(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * x.abs().max(1.0);
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// Central finite difference of a function of a slice in coordinate `i`.
fn fd_slice(f: impl Fn(&[f64]) -> f64, x: &[f64], i: usize) -> f64 {
    fd(
        |t| {
            let mut y = x.to_vec();
            y[i] = t;
            f(&y)
        },
        x[i],
    )
}

fn main() {
    let mut c = Checks {
        failures: 0,
        count: 0,
    };

    // Scalars, forward mode.
    let x: f64 = 0.7;
    let want = (-0.5 * x).exp() * (3.0 * (3.0 * x).cos() - 0.5 * (3.0 * x).sin());
    c.check("damped' (forward)", derivative!(damped, x), want, 1e-12);
    c.check(
        "damped' (forward) vs fd",
        derivative!(damped, x),
        fd(|t| damped(t), x),
        1e-6,
    );
    let df = derivative_f32!(soft, 1.5f32) as f64;
    // (single precision: a wider step)
    let want = ((soft(1.5 + 1e-2) - soft(1.5 - 1e-2)) / 2e-2) as f64;
    c.check("soft' f32 (forward) vs fd", df, want, 1e-3);
    let t = 1.5f64;
    let analytic = (t * t + 1.0).sqrt().ln() + t * t / (t * t + 1.0);
    c.check("soft' f32 (forward)", df, analytic, 1e-5);

    // Scalars, reverse mode: two active arguments.
    let (x, y) = (-1.2, 1.0);
    let (dx, dy) = gradient2!(rosenbrock, x, y);
    c.check(
        "rosenbrock d/dx",
        dx,
        -2.0 * (1.0 - x) - 400.0 * x * (y - x * x),
        1e-12,
    );
    c.check("rosenbrock d/dy", dy, 200.0 * (y - x * x), 1e-12);
    c.check(
        "rosenbrock d/dx vs fd",
        dx,
        fd(|t| rosenbrock(t, y), x),
        1e-6,
    );

    // Slices: reverse gradient and forward directional derivative.
    let xs: Vec<f64> = vec![0.3, -1.1, 2.0, 0.25, 1.7];
    let v: Vec<f64> = vec![1.0, 0.5, -0.25, 2.0, -1.0];
    let call = |f: extern "C" fn(*const f64, usize) -> f64| move |s: &[f64]| f(s.as_ptr(), s.len());
    for (name, f, g, dd) in [
        (
            "norm",
            norm as extern "C" fn(*const f64, usize) -> f64,
            gradient_slice!(norm, &xs),
            directional_slice!(norm, &xs, &v),
        ),
        (
            "logsumexp",
            logsumexp,
            gradient_slice!(logsumexp, &xs),
            directional_slice!(logsumexp, &xs, &v),
        ),
        (
            "ring",
            ring,
            gradient_slice!(ring, &xs),
            directional_slice!(ring, &xs, &v),
        ),
    ] {
        let mut dir = 0.0;
        for i in 0..xs.len() {
            let want = fd_slice(call(f), &xs, i);
            c.check(
                &format!("{name} gradient[{i}] (reverse) vs fd"),
                g[i],
                want,
                1e-6,
            );
            dir += want * v[i];
        }
        c.check(&format!("{name} along v (forward) vs fd"), dd, dir, 1e-6);
    }
    let n = norm(xs.as_ptr(), xs.len());
    let g = gradient_slice!(norm, &xs);
    c.check("norm gradient[2] analytic", g[2], xs[2] / n, 1e-12);

    // A #[repr(C)] struct through a method, both modes.
    let p = Particle {
        pos: [1.0, -0.5, 2.0],
        vel: [0.3, 0.1, -0.7],
        mass: 1.5,
    };
    let dp = gradient_ref!(Particle::energy, &p);
    let r = (1.0f64 + 0.25 + 4.0).sqrt();
    c.check(
        "energy d/dvel[2] analytic",
        dp.vel[2],
        p.mass * p.vel[2],
        1e-12,
    );
    c.check(
        "energy d/dpos[0] analytic",
        dp.pos[0],
        p.mass * p.pos[0] / (r * r * r),
        1e-12,
    );
    c.check(
        "energy d/dmass analytic",
        dp.mass,
        0.5 * 0.59 - 1.0 / r,
        1e-12,
    );
    let tangent = Particle {
        pos: [0.0, 1.0, 0.0],
        vel: [1.0, 0.0, 0.0],
        mass: 0.5,
    };
    let dd = directional_ref!(Particle::energy, &p, &tangent);
    let along = fd(
        |t| {
            let mut q = p;
            for k in 0..3 {
                q.pos[k] += t * tangent.pos[k];
                q.vel[k] += t * tangent.vel[k];
            }
            q.mass += t * tangent.mass;
            q.energy()
        },
        0.0,
    );
    c.check("energy along tangent (forward) vs fd", dd, along, 1e-6);
    let want = dp.pos[1] * tangent.pos[1] + dp.vel[0] * tangent.vel[0] + dp.mass * tangent.mass;
    c.check("energy forward = reverse . tangent", dd, want, 1e-12);

    // Data in a Vec (constant) and parameters in a Vec (active), through
    // the extern "C" interface directly.
    let data: Vec<Sample> = (0..40)
        .map(|k| {
            let a = k as f64 * 0.1;
            Sample {
                x: [a.sin(), a * a],
                y: 2.0 * a - 0.5,
            }
        })
        .collect();
    let w: Vec<f64> = vec![0.5, -0.2, 0.1];
    let mut dw = vec![0.0; w.len()];
    unsafe {
        use enzyme::*;
        __enzyme_autodiff_void(
            mse as *const c_void,
            &enzyme_dup as *const i32,
            w.as_ptr(),
            dw.as_mut_ptr(),
            &enzyme_const as *const i32,
            w.len(),
            &enzyme_const as *const i32,
            data.as_ptr(),
            &enzyme_const as *const i32,
            data.len(),
        )
    };
    for i in 0..w.len() {
        let want = fd_slice(
            |s| mse(s.as_ptr(), s.len(), data.as_ptr(), data.len()),
            &w,
            i,
        );
        c.check(&format!("mse d/dw[{i}] (reverse) vs fd"), dw[i], want, 1e-6);
    }

    println!("{} of {} checks pass", c.count - c.failures, c.count);
    if c.failures > 0 {
        std::process::exit(1);
    }
}
