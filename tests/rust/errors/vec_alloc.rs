// EXPECT-ERROR: enzyme-rs: cannot differentiate
// LEVELS: 0
// A Vec allocated inside the differentiated function, without LTO: at
// opt-level 0 the RawVec constructor is a separate function returning the
// buffer in a struct the backend cannot give a shadow; a compile error with
// the source line, not a crash and not a wrong derivative. (At opt-levels
// 1..3 it is differentiated: `__rust_alloc` & co. are allocation functions,
// and the gradient is right, [2, 4].)
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
