// EXPECT-ERROR: bad_marker.rs:13
// enzyme_out (an active scalar) given for a pointer argument.
use std::ffi::c_void;
extern "C" {
    static enzyme_out: i32;
    fn __enzyme_autodiff_f64(f: *const c_void, ...) -> f64;
}
extern "C" fn first(x: *const f64) -> f64 {
    unsafe { *x * 2.0 }
}
fn main() {
    let x = [1.0f64];
    let d = unsafe { __enzyme_autodiff_f64(first as *const c_void, &enzyme_out as *const i32, x.as_ptr()) };
    println!("{d}");
}
