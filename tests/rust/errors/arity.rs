// EXPECT-ERROR: arity.rs:13
// Too few arguments for the function differentiated.
use std::ffi::c_void;
extern "C" {
    fn __enzyme_autodiff_f64(f: *const c_void, ...) -> f64;
}
extern "C" fn product(x: f64, y: f64) -> f64 {
    x * y
}
fn main() {
    let d = unsafe {
        // the call the error points at
        __enzyme_autodiff_f64(product as *const c_void, 2.0f64)
    };
    println!("{d}");
}
