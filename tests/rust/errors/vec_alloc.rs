// EXPECT-ERROR: enzyme-rs: cannot differentiate
// A Vec allocated inside the differentiated function: its buffer comes from
// std's allocator, which the plugin cannot see into. A compile error with
// the source line, not a crash and not a wrong derivative.
use std::ffi::c_void;
extern "C" {
    static enzyme_dup: i32;
    static enzyme_const: i32;
    fn __enzyme_autodiff_void(f: *const c_void, ...);
}
extern "C" fn squares(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut t: Vec<f64> = Vec::with_capacity(n);
    for v in x {
        t.push(v * v);
    }
    t.iter().sum()
}
fn main() {
    let x = vec![1.0, 2.0];
    let mut dx = vec![0.0; 2];
    unsafe {
        __enzyme_autodiff_void(squares as *const c_void, &enzyme_dup as *const i32, x.as_ptr(), dx.as_mut_ptr(), &enzyme_const as *const i32, x.len());
    }
    println!("{dx:?}");
}
