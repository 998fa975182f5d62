//! Cutting a huge function into a chain of functions before code
//! generation (`cpp/chain.cc`; used by `driver::split_for_codegen`).
//!
//! Parts of LLVM's code generator grow faster than linearly with the number
//! of calls in one function (LLVM 16's two-address pass walks a physical
//! register's per-function use list at each call's argument copies;
//! register allocation and stack-slot colouring compare live ranges across
//! the whole function), so cutting blocks does not help them. [`chain`]
//! moves consecutive single-entry regions of a function into internal
//! noinline functions, each of at most a bounded number of calls and
//! instructions, called one after the other.
use super::llvm::V;
use std::os::raw::{c_int, c_uint};

extern "C" {
    fn ers_opt_chunk_calls() -> c_int;
    fn ers_count_calls(f: V) -> c_uint;
    fn ers_outline_chain(
        f: V,
        max_calls: c_uint,
        max_insts: c_uint,
        out: *mut V,
        cap: c_uint,
    ) -> c_uint;
}

/// The default of [`chunk_calls`].
pub const DEFAULT_CHUNK_CALLS: u32 = 512;

/// Instructions a chunk may hold per call of [`chunk_calls`].
pub const INSTS_PER_CALL: u32 = 40;

/// The most calls a derivative keeps in one function before [`chain`] cuts
/// it (`-mllvm -enzyme-rs-chunk-calls=N` or `ENZYME_RS_CHUNK_CALLS=N`;
/// 0: never).
pub fn chunk_calls() -> u32 {
    let o = unsafe { ers_opt_chunk_calls() };
    if o >= 0 {
        return o as u32;
    }
    crate::options::switches::chunk_calls().unwrap_or(DEFAULT_CHUNK_CALLS)
}

/// Calls of `f` that the code generator lowers as calls (no debug or
/// marker intrinsics, no intrinsics lowered to instructions).
pub fn count_calls(f: V) -> u32 {
    unsafe { ers_count_calls(f) }
}

/// Cut `f` into a chain of internal noinline functions of at most
/// `max_calls` calls and `max_insts` instructions each (regions between
/// the blocks every path from the entry to the one return goes through;
/// nothing with allocas, exception handling, musttail or variadic
/// intrinsics moves). Returns the new functions.
pub fn chain(f: V, max_calls: u32, max_insts: u32) -> Vec<V> {
    let cap = super::llvm::blocks(f).len();
    let mut out: Vec<V> = vec![std::ptr::null_mut(); cap.max(1)];
    let n = unsafe { ers_outline_chain(f, max_calls, max_insts, out.as_mut_ptr(), cap as c_uint) };
    out.truncate((n as usize).min(cap));
    out
}
