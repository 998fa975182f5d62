//! Reverse mode on a function with a temporary array on the stack and
//! iterator adaptors over it. (Heap allocations: rev_vec.rs.)
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_smooth, Duplicated, Active)]
fn smooth(x: &[f64]) -> f64 {
    let mut t = [0.0; 8];
    let n = x.len().min(8);
    for i in 0..n {
        let l = if i > 0 { x[i - 1] } else { x[i] };
        let r = if i + 1 < n { x[i + 1] } else { x[i] };
        t[i] = 0.25 * l + 0.5 * x[i] + 0.25 * r;
    }
    t[..n]
        .iter().map(|v| v * v).sum::<f64>() + t[..n].iter().fold(0.0, |a, b| a + b.sin())
}

pub fn run(c: &mut Check) {
    let x = vec![0.4, -0.3, 1.2, 0.9, -1.1, 0.05];
    let mut dx = vec![0.0; x.len()];
    let v = d_smooth(&x, &mut dx, 1.0);
    c.exact("primal", v, smooth(&x));
    let g = fd_grad(smooth, &x);
    for i in 0..x.len() {
        c.fd(&format!("d/dx{i}"), dx[i], g[i]);
    }
}
