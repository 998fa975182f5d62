// EXPECT-ERROR: no derivative known for external function 'vendor_model'
// EXPECT-ERROR: unknown_extern.rs:14
// EXPECT-ERROR: in function 'unknown_extern::model'
// A differentiated function calls a C function with no body and no rule
// (a vendor library's): a compile error naming the function (its Rust
// name, not the mangled one) and the Rust line of the call.
#![feature(autodiff)]
use std::autodiff::autodiff_reverse;
extern "C" {
    fn vendor_model(x: f64, state: *mut i32) -> f64;
}
#[autodiff_reverse(d_model, Active, Const, Active)]
fn model(x: f64, state: &mut i32) -> f64 {
    x * unsafe { vendor_model(x, state) }
}
fn main() {
    let mut state = 0;
    println!("{:?}", d_model(1.5, &mut state, 1.0));
}
