// std::autodiff reverse mode, one Active scalar argument.
#![feature(autodiff)]
use std::autodiff::autodiff_reverse;

#[autodiff_reverse(d_f, Active, Active)]
fn f(x: f64) -> f64 {
    x * x * x.sin()
}

fn main() {
    let x = 3.0f64;
    let (y, dy) = d_f(x, 1.0);
    let want = 2.0 * x * x.sin() + x * x * x.cos();
    let h = 1e-6;
    let fd = (f(x + h) - f(x - h)) / (2.0 * h);
    let ok = (y - f(x)).abs() < 1e-12 && (dy - want).abs() < 1e-12 && (dy - fd).abs() < 1e-6;
    println!("f({x}) = {y}, f' = {dy} (analytic {want}, fd {fd})");
    std::process::exit(if ok { 0 } else { 1 });
}
