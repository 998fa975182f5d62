//! The LLVM 22 plugin as `libEnzyme-22.so`, the backend of Rust's nightly
//! `std::autodiff` (`-Z autodiff=Enable`): the symbols rustc looks up when
//! it loads that library. rustc registers the pass through
//! `registerEnzymeAndPassPipeline` and names it `enzyme` in its pipeline;
//! the pass then rewrites rustc's `__enzyme_autodiff_*` / `__enzyme_fwddiff_*`
//! calls like any others. rustc also describes argument types as Enzyme
//! type trees and sets Enzyme's options: enzyme-rs runs its own type
//! analysis, so the type trees are accepted and ignored, and the options are
//! plain storage.
#![allow(non_upper_case_globals, non_snake_case, clippy::missing_safety_doc)]
use std::ffi::{c_char, c_void};

extern "C" {
    fn ers_register_pipeline_names(pb: *mut c_void);
}

/// Registers the pass names (`enzyme`, ...) with rustc's pass builder.
#[no_mangle]
pub extern "C" fn registerEnzymeAndPassPipeline(pb: *mut c_void, _augment: bool) {
    if !pb.is_null() {
        unsafe { ers_register_pipeline_names(pb) }
    }
}

/// Storage for one of Enzyme's options that rustc sets (a bool, a u32 or a
/// C string pointer, in the first bytes).
#[repr(C, align(8))]
pub struct Opt(std::cell::UnsafeCell<[u8; 64]>);
unsafe impl Sync for Opt {}

macro_rules! options {
    ($($name:ident),*) => {$(
        #[no_mangle]
        pub static $name: Opt = Opt(std::cell::UnsafeCell::new([0; 64]));
    )*};
}
options!(
    EnzymePrintPerf,
    EnzymePrintActivity,
    EnzymePrintType,
    EnzymeFunctionToAnalyze,
    EnzymePrint,
    EnzymeStrictAliasing,
    EnzymeInline,
    RustTypeRules,
    looseTypeAnalysis
);
/// Read by rustc as a u32.
#[no_mangle]
pub static EnzymeMaxTypeDepth: Opt = Opt(std::cell::UnsafeCell::new([
    6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]));

#[no_mangle]
pub unsafe extern "C" fn EnzymeSetCLBool(opt: *mut c_void, v: u8) {
    if !opt.is_null() {
        *(opt as *mut u8) = v;
    }
}

#[no_mangle]
pub unsafe extern "C" fn EnzymeSetCLString(opt: *mut c_void, v: *const c_char) {
    if !opt.is_null() {
        *(opt as *mut *const c_char) = v;
    }
}

/// A type tree handle: enzyme-rs keeps none of its content.
pub struct TypeTree;

fn new_tree() -> *mut c_void {
    Box::into_raw(Box::new(TypeTree)) as *mut c_void
}

#[no_mangle]
pub extern "C" fn EnzymeNewTypeTree() -> *mut c_void {
    new_tree()
}
#[no_mangle]
pub extern "C" fn EnzymeNewTypeTreeCT(_ct: u32, _ctx: *mut c_void) -> *mut c_void {
    new_tree()
}
#[no_mangle]
pub extern "C" fn EnzymeNewTypeTreeTR(_tt: *mut c_void) -> *mut c_void {
    new_tree()
}
#[no_mangle]
pub unsafe extern "C" fn EnzymeFreeTypeTree(tt: *mut c_void) {
    if !tt.is_null() {
        drop(Box::from_raw(tt as *mut TypeTree));
    }
}
#[no_mangle]
pub extern "C" fn EnzymeMergeTypeTree(_a: *mut c_void, _b: *mut c_void) -> bool {
    false
}
#[no_mangle]
pub extern "C" fn EnzymeTypeTreeOnlyEq(_tt: *mut c_void, _x: i64) {}
#[no_mangle]
pub extern "C" fn EnzymeTypeTreeData0Eq(_tt: *mut c_void) {}
#[no_mangle]
pub extern "C" fn EnzymeTypeTreeShiftIndiciesEq(
    _tt: *mut c_void,
    _dl: *const c_char,
    _offset: i64,
    _max_size: i64,
    _add_offset: u64,
) {
}
#[no_mangle]
pub extern "C" fn EnzymeTypeTreeInsertEq(
    _tt: *mut c_void,
    _indices: *const i64,
    _len: usize,
    _ct: u32,
    _ctx: *mut c_void,
) {
}
#[no_mangle]
pub extern "C" fn EnzymeTypeTreeToString(_tt: *mut c_void) -> *const c_char {
    std::ffi::CString::new("{}").unwrap().into_raw()
}
#[no_mangle]
pub unsafe extern "C" fn EnzymeTypeTreeToStringFree(s: *const c_char) {
    if !s.is_null() {
        drop(std::ffi::CString::from_raw(s as *mut c_char));
    }
}
