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
use super::llvm::*;
use super::values::{gep_source_type, replace_and_erase};
use super::{shim, Builder};
use std::collections::HashSet;
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

/// The prefix of the reverse-mode calls rustc emits: `__enzyme_autodiff_`
/// followed by the wrapper's symbol without its leading `_`.
const REVERSE_PREFIX: &str = "__enzyme_autodiff_";

/// rustc's `#[autodiff_reverse(d_f, ..., Active)]` wrapper takes the seed of
/// `f`'s result as its last parameter, but its call
/// `__enzyme_autodiff_<d_f>(f, ...)` does not pass it: left unused, the
/// seed is gone once the wrapper is inlined. Appends that last parameter
/// to the call as the trailing seed argument (which the call parser reads
/// as the seed of an active float result), in every wrapper where it is
/// still unused; run before differentiating. At opt-level 0 the wrapper is
/// still there then; with optimization rustc's pre-LTO inliner has already
/// dropped the seed (rustc registers the backend only for the pipeline
/// after LTO), so nothing here can recover it. True when the module
/// changed.
pub fn pass_return_seeds(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for decl in functions(m) {
        let dname = name(decl);
        let Some(wrapper_sym) = dname.strip_prefix(REVERSE_PREFIX) else {
            continue;
        };
        if !is_declaration(decl) {
            continue;
        }
        for call in users(decl) {
            if !is_call(call) || called_value(call) != decl {
                continue;
            }
            if let Some(seed) = unpassed_seed(call, wrapper_sym) {
                let b = Builder::new(m);
                b.before(call);
                b.set_debug_loc_from(call);
                let mut args = call_args(call);
                args.push(seed);
                let new = b.call(call_fn_type(call), decl, &mut args);
                replace_and_erase(call, new);
                changed = true;
            }
        }
    }
    changed
}

/// The wrapper's seed parameter when `call` (in the wrapper named
/// `_<wrapper_sym>`) differentiates a function with a float result and the
/// wrapper's last parameter, of that type, is not used.
fn unpassed_seed(call: V, wrapper_sym: &str) -> Option<V> {
    let w = inst_fn(call);
    if name(w).strip_prefix('_') != Some(wrapper_sym) {
        return None;
    }
    let primal = strip_casts(*call_args(call).first()?);
    if !is_function(primal) {
        return None;
    }
    let rt = fn_return_type(primal);
    let seed = *params(w).last()?;
    (is_fp(rt) && type_of(seed) == rt && unused_but_spilled(seed, call)).then_some(seed)
}

/// No use of `v` but stores into stack slots that the call `call` does
/// not read back: with debug info rustc spills each parameter to a slot,
/// and it packs the wrapper's arguments, seed included, into a tuple slot
/// from which it loads only the others for the call.
fn unused_but_spilled(v: V, call: V) -> bool {
    let read: Vec<(V, i64)> = call_args(call)
        .into_iter()
        .filter(|a| opcode(*a) == Some(LLVMOpcode::LLVMLoad))
        .filter_map(|l| stack_slot(operand(l, 0)))
        .collect();
    users(v).into_iter().all(|u| {
        opcode(u) == Some(LLVMOpcode::LLVMStore)
            && operand(u, 0) == v
            && stack_slot(operand(u, 1)).is_some_and(|s| !read.contains(&s))
    })
}

/// A stack allocation and a constant byte offset into it: `p` is the
/// alloca or an `i8` GEP of it by a constant.
fn stack_slot(p: V) -> Option<(V, i64)> {
    if opcode(p) == Some(LLVMOpcode::LLVMAlloca) {
        return Some((p, 0));
    }
    if opcode(p) != Some(LLVMOpcode::LLVMGetElementPtr)
        || num_operands(p) != 2
        || gep_source_type(p) != i8_type(context_of(type_of(p)))
    {
        return None;
    }
    let base = operand(p, 0);
    let off = const_int_value(operand(p, 1))?;
    (opcode(base) == Some(LLVMOpcode::LLVMAlloca)).then_some((base, off))
}

/// The prefixes of the calls rustc emits for `#[autodiff_reverse]` and
/// `#[autodiff_forward]` wrappers.
const PREFIXES: [&str; 2] = [REVERSE_PREFIX, "__enzyme_fwddiff_"];

/// A callee larger than this (instructions) is not inlined by [`flatten`].
const INLINE_MAX_CALLEE: usize = 600;
/// [`flatten`] stops growing a function past this many instructions.
const INLINE_BUDGET: usize = 30_000;
/// Rounds of inlining (each inlines the calls the previous one exposed).
const INLINE_ROUNDS: usize = 12;

/// Unoptimized rustc code (opt-level 0) as the backend sees it: every
/// iterator adapter, slice index and `Zip::new` a separate function, and
/// their structs in stack memory (a `Zip` of an active and a `Const` slice
/// iterator mixes a pointer with a shadow and one without in one
/// allocation). With optimization rustc inlines and promotes all that
/// before the backend runs. So where a std::autodiff wrapper is still
/// there at the pass (rustc did not inline it: opt-level 0), the functions
/// it differentiates get the same treatment first: their small callees
/// inlined (not those `keep` names: Rust's allocator entry points, which
/// the backend handles as allocation functions), then SROA and
/// simplification. Returns whether anything changed.
pub fn flatten_unoptimized_primals(
    m: LLVMModuleRef,
    keep: &dyn Fn(V) -> bool,
) -> Result<bool, String> {
    let mut done = HashSet::new();
    for decl in functions(m) {
        let dname = name(decl);
        let Some(wrapper_sym) = PREFIXES.iter().find_map(|p| dname.strip_prefix(p)) else {
            continue;
        };
        if !is_declaration(decl) {
            continue;
        }
        for call in users(decl) {
            if !is_call(call) || called_value(call) != decl {
                continue;
            }
            if name(inst_fn(call)).strip_prefix('_') != Some(wrapper_sym) {
                continue; // the wrapper was inlined: optimized code
            }
            let Some(primal) = call_args(call).first().map(|a| strip_casts(*a)) else {
                continue;
            };
            if is_function(primal) && !is_declaration(primal) && done.insert(primal) {
                flatten(primal, keep)?;
            }
        }
    }
    Ok(!done.is_empty())
}

/// Inline `f`'s calls to small defined functions (not panics, not `f`
/// itself, not those `keep` names) round by round within a budget, then
/// promote and simplify.
fn flatten(f: V, keep: &dyn Fn(V) -> bool) -> Result<(), String> {
    let mut total = instruction_count(f);
    for _ in 0..INLINE_ROUNDS {
        let calls: Vec<V> = blocks(f)
            .into_iter()
            .flat_map(instructions)
            .filter(|i| is_call_or_invoke(*i))
            .collect();
        let mut progress = false;
        for call in calls {
            let Some(callee) = called_function(call) else {
                continue;
            };
            if callee == f
                || is_declaration(callee)
                || name(callee).starts_with("__enzyme")
                || fn_has_attr(callee, "cold")
                || fn_has_attr(callee, "noreturn")
                || keep(callee)
            {
                continue;
            }
            let n = instruction_count(callee);
            if n > INLINE_MAX_CALLEE || total + n > INLINE_BUDGET {
                continue;
            }
            if shim::inline_call(call) {
                total += n;
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    shim::run_function_pipeline(
        &mut [f],
        "sroa,early-cse<memssa>,instcombine,simplifycfg,sroa,instcombine",
    )
}
