//! Safe wrappers over the C++ shim (`cpp/shim.cc`): LLVM facilities the C API
//! lacks. Each wrapper is one LLVM call; no differentiation logic.
use super::llvm::{BB, V};
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_uint, c_void};

extern "C" {
    fn ers_opt_bool(name: *const c_char) -> c_int;
    fn ers_opt_function() -> *const c_char;
    fn ers_opt_inactive_file(k: u32) -> *const c_char;
    fn ers_opt_rerun_budget() -> *const c_char;
    fn ers_diagnose(f: V, inst: V, msg: *const c_char, warning: c_int);
    fn ers_add_loop_property(br: V, name: *const c_char, a: i64, b: i64, no_unroll: c_int);
    fn ers_loop_property(br: V, name: *const c_char, a: *mut i64, b: *mut i64) -> c_int;
    fn ers_remark_enabled(f: V, kind: c_int) -> c_int;
    fn ers_remark(f: V, inst: V, kind: c_int, name: *const c_char, msg: *const c_char);
    fn ers_clone_function_into(new_fn: V, old_fn: V, arg_map: *mut V) -> *mut c_void;
    fn ers_vmap_lookup(vmap: *mut c_void, v: V) -> V;
    fn ers_vmap_free(vmap: *mut c_void);
    fn ers_strip_derivative_attrs(f: V);
    fn ers_run_function_pipeline(
        fns: *mut V,
        n: c_uint,
        pipeline: *const c_char,
        err: *mut *mut c_char,
    ) -> c_int;
    fn ers_free(p: *mut c_char);
    fn ers_inline_call(call: V) -> c_int;
    fn ers_drop_params(f: V, drop: *const u8) -> V;
    fn ers_set_reassoc(v: V);
    fn ers_version_kept_check(f: V, br: V) -> c_int;
    fn ers_mark_commuting_loop(br: V);
    fn ers_forward_reverse_loops(f: V, turn: c_int, why: *mut *mut c_char) -> c_uint;
    fn ers_zfuse_kept(f: V, dx: V, len_load: V, store: V, esz: c_uint) -> c_int;
    fn ers_inplace_guard(
        f: V,
        stores: *mut V,
        ns: c_uint,
        xloads: *mut V,
        nl: c_uint,
        xtags: *mut V,
        nxt: c_uint,
        dtags: *mut V,
        ndt: c_uint,
        dcalls: *mut V,
        dbases: *mut V,
        nc: c_uint,
        esz: c_uint,
    ) -> c_int;
    fn ers_mark_pure_decl(f: V);
    fn ers_set_branch_weights(br: V, t: c_uint, f: c_uint);
    fn ers_split_large_blocks(f: V, limit: c_uint) -> c_uint;
    fn ers_hoist_sunk_into_returns(f: V) -> c_uint;
    fn ers_guard_insts(cond: V, at: V, insts: *mut V, n: c_uint);
    fn ers_layout_blocks_rpo(f: V);
    fn ers_loops_new(f: V) -> *mut c_void;
    fn ers_loops_free(h: *mut c_void);
    fn ers_loop_depth(h: *mut c_void, bb: BB) -> c_uint;
    fn ers_loop_header(h: *mut c_void, bb: BB) -> BB;
    fn ers_loop_parent_header(h: *mut c_void, header: BB) -> BB;
    fn ers_loop_contains(h: *mut c_void, header: BB, bb: BB) -> c_int;
    fn ers_loop_preheader(h: *mut c_void, header: BB) -> BB;
    fn ers_dominates(h: *mut c_void, def: V, user: V) -> c_int;
    fn ers_idom(h: *mut c_void, bb: BB) -> BB;
    fn ers_block_dominates(h: *mut c_void, a: BB, b: BB) -> c_int;
    fn ers_debug_line(inst: V, file: *mut *const c_char) -> c_uint;
}

/// A boolean cl::opt of the plugin: None when not given on the command line.
pub fn opt_bool(name: &str) -> Option<bool> {
    let c = CString::new(name).unwrap();
    match unsafe { ers_opt_bool(c.as_ptr()) } {
        -1 => None,
        v => Some(v != 0),
    }
}

/// The paths given with `-enzyme-load-inactive-file` (files naming
/// inactive functions, one per line).
pub fn opt_inactive_files() -> Vec<String> {
    let mut out = Vec::new();
    loop {
        let p = unsafe { ers_opt_inactive_file(out.len() as u32) };
        if p.is_null() {
            return out;
        }
        out.push(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned());
    }
}

/// `-enzyme-function=NAME`, when given.
pub fn opt_function() -> Option<String> {
    let p = unsafe { ers_opt_function() };
    if p.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }
}

/// `-enzyme-rs-rerun-budget=BYTES`, when given.
pub fn opt_rerun_budget() -> Option<String> {
    let p = unsafe { ers_opt_rerun_budget() };
    if p.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }
}

/// Report an error through the LLVM context (clang: `error:`, non-zero exit).
pub fn diagnose_error(f: V, inst: Option<V>, msg: &str) {
    let c = CString::new(msg.replace('\0', "")).unwrap();
    unsafe { ers_diagnose(f, inst.unwrap_or(std::ptr::null_mut()), c.as_ptr(), 0) }
}

/// A warning at `inst` (or `f`), as [`diagnose_error`] places errors.
pub fn diagnose_warning(f: V, inst: Option<V>, msg: &str) {
    let c = CString::new(msg.replace('\0', "")).unwrap();
    unsafe { ers_diagnose(f, inst.unwrap_or(std::ptr::null_mut()), c.as_ptr(), 1) }
}

/// Add the property `!{!"name", i64 a, i64 b}` to the `llvm.loop`
/// metadata of the loop whose latch ends in `br` (and
/// `llvm.loop.unroll.disable` with `no_unroll`).
pub fn add_loop_property(br: V, name: &str, a: i64, b: i64, no_unroll: bool) {
    let c = CString::new(name).unwrap();
    unsafe { ers_add_loop_property(br, c.as_ptr(), a, b, no_unroll as c_int) }
}

/// The values of property `name` in the `llvm.loop` metadata on `br`.
pub fn loop_property(br: V, name: &str) -> Option<(i64, i64)> {
    let c = CString::new(name).unwrap();
    let (mut a, mut b) = (0i64, 0i64);
    (unsafe { ers_loop_property(br, c.as_ptr(), &mut a, &mut b) } != 0).then_some((a, b))
}

/// The map from primal values to cloned values produced by [`clone_into`].
pub struct ValueMap(*mut c_void);

impl ValueMap {
    pub fn get(&self, v: V) -> Option<V> {
        let r = unsafe { ers_vmap_lookup(self.0, v) };
        if r.is_null() {
            None
        } else {
            Some(r)
        }
    }
}

impl Drop for ValueMap {
    fn drop(&mut self) {
        unsafe { ers_vmap_free(self.0) }
    }
}

/// Clone the body of `old` into the empty function `new`; old argument i
/// becomes `arg_map[i]`.
pub fn clone_into(new: V, old: V, arg_map: &mut [V]) -> ValueMap {
    let m = ValueMap(unsafe { ers_clone_function_into(new, old, arg_map.as_mut_ptr()) });
    // Cloning copies the primal's calling convention (fastcc for internal
    // functions at -O1 and above); derivatives are called with the C one.
    unsafe {
        crate::ir::sys::core::LLVMSetFunctionCallConv(
            new,
            crate::ir::sys::LLVMCallConv::LLVMCCallConv as u32,
        )
    };
    m
}

pub fn strip_derivative_attrs(f: V) {
    unsafe { ers_strip_derivative_attrs(f) }
}

/// Run a textual function pass pipeline over `fns`.
pub fn run_function_pipeline(fns: &mut [V], pipeline: &str) -> Result<(), String> {
    let c = CString::new(pipeline).unwrap();
    let mut err: *mut c_char = std::ptr::null_mut();
    let rc = unsafe {
        ers_run_function_pipeline(fns.as_mut_ptr(), fns.len() as c_uint, c.as_ptr(), &mut err)
    };
    if rc == 0 {
        return Ok(());
    }
    let msg = if err.is_null() {
        "unknown error".to_string()
    } else {
        let s = unsafe { CStr::from_ptr(err) }
            .to_string_lossy()
            .into_owned();
        unsafe { ers_free(err) };
        s
    };
    Err(msg)
}

/// Split the blocks of `f` longer than `limit` instructions (the entry
/// keeps its allocas); returns the number of splits.
pub fn split_large_blocks(f: V, limit: u32) -> u32 {
    unsafe { ers_split_large_blocks(f, limit) }
}

/// Split the block before `at` and move `insts` (in order) into a new
/// block that runs only when `cond` (an `i1` available at `at`) holds.
pub fn guard_insts(cond: V, at: V, insts: &[V]) {
    let mut v = insts.to_vec();
    unsafe { ers_guard_insts(cond, at, v.as_mut_ptr(), v.len() as c_uint) }
}

/// Move the side-effect-free instructions of `f`'s returning blocks back
/// up behind their last operand when that lies in an earlier block (outside
/// loops): InstCombine sinks whole chains of arithmetic into a returning
/// block. Returns the number moved.
pub fn hoist_sunk_into_returns(f: V) -> u32 {
    unsafe { ers_hoist_sunk_into_returns(f) }
}

/// Lay the blocks of `f` out in reverse post-order.
pub fn layout_blocks_rpo(f: V) {
    unsafe { ers_layout_blocks_rpo(f) }
}

/// Replace function `f` by one without the parameters marked in `drop`
/// (which nothing may use), every call rebuilt without those arguments
/// (cpp/shim.cc). Every use of `f` must be a plain call of it; `None`
/// (nothing changed) otherwise. The old `f` is deleted.
pub fn drop_params(f: V, drop: &[bool]) -> Option<V> {
    let bytes: Vec<u8> = drop.iter().map(|d| *d as u8).collect();
    let nf = unsafe { ers_drop_params(f, bytes.as_ptr()) };
    (!nf.is_null()).then_some(nf)
}

pub fn inline_call(call: V) -> bool {
    unsafe { ers_inline_call(call) != 0 }
}

/// Allow reassociation on floating-point instruction `v` (an adjoint sum:
/// the derivative chooses the order of its terms).
pub fn set_reassoc(v: V) {
    unsafe { ers_set_reassoc(v) }
}

/// Mark the loop whose latch ends in branch `br` as one whose iterations
/// commute (cpp/revorder.cc).
pub fn mark_commuting_loop(br: V) {
    unsafe { ers_mark_commuting_loop(br) }
}

/// Run the marked loops of `f` that pass cpp/revorder.cc's checks in the
/// other order (with `turn`; else none); drops every mark. Returns how
/// many were turned and, per marked loop left as it was, its header and
/// why.
pub fn forward_reverse_loops(f: V, turn: bool) -> (u32, Vec<String>) {
    let mut why: *mut c_char = std::ptr::null_mut();
    let n = unsafe { ers_forward_reverse_loops(f, turn as c_int, &mut why) };
    let mut left = Vec::new();
    if !why.is_null() {
        let s = unsafe { CStr::from_ptr(why) }
            .to_string_lossy()
            .into_owned();
        unsafe { ers_free(why) };
        left = s.lines().map(str::to_string).collect();
    }
    (n, left)
}

/// Version the loop of `br` (a branch on `idx < count`, see
/// cpp/zfuse.cc): a copy where the branch always takes its first
/// successor runs when every iteration's `idx` is below `count`. Returns 1
/// when done, <= 0 when not applicable (nothing changed).
pub fn version_kept_check(f: V, br: V) -> i32 {
    unsafe { ers_version_kept_check(f, br) }
}

/// Zero fusion of a shadow-tape pair's augmented function copy `f` (see
/// cpp/zfuse.cc): 1 when done, <= 0 when not applicable (nothing changed).
pub fn zfuse_kept(f: V, dx: V, len_load: V, store: V, esz: u32) -> i32 {
    unsafe { ers_zfuse_kept(f, dx, len_load, store, esz) }
}

/// The in-place shadow's proof and guard (`modes/reverse/inplace.rs`,
/// cpp/zfuse.cc `ers_inplace_guard`): 1 when `f` was changed, <= 0 (the
/// failed check) when not (nothing changed).
#[allow(clippy::too_many_arguments)]
pub fn inplace_guard(
    f: V,
    stores: &[V],
    xloads: &[V],
    xtags: &[V],
    dtags: &[V],
    dcalls: &[(V, V)],
    esz: u32,
) -> i32 {
    let mut st = stores.to_vec();
    let mut xl = xloads.to_vec();
    let mut xt = xtags.to_vec();
    let mut dt = dtags.to_vec();
    let mut dc: Vec<V> = dcalls.iter().map(|c| c.0).collect();
    let mut db: Vec<V> = dcalls.iter().map(|c| c.1).collect();
    unsafe {
        ers_inplace_guard(
            f,
            st.as_mut_ptr(),
            st.len() as c_uint,
            xl.as_mut_ptr(),
            xl.len() as c_uint,
            xt.as_mut_ptr(),
            xt.len() as c_uint,
            dt.as_mut_ptr(),
            dt.len() as c_uint,
            dc.as_mut_ptr(),
            db.as_mut_ptr(),
            dc.len() as c_uint,
            esz,
        )
    }
}

/// Mark declaration `f` as touching no memory, returning and not unwinding.
pub fn mark_pure_decl(f: V) {
    unsafe { ers_mark_pure_decl(f) }
}

/// `!prof` branch weights (taken, not taken) on conditional branch `br`.
pub fn set_branch_weights(br: V, taken: u32, not_taken: u32) {
    unsafe { ers_set_branch_weights(br, taken, not_taken) }
}

/// LLVM's DominatorTree and LoopInfo for one function.
pub struct Loops(*mut c_void);

impl Loops {
    pub fn new(f: V) -> Loops {
        Loops(unsafe { ers_loops_new(f) })
    }
    pub fn depth(&self, bb: BB) -> u32 {
        unsafe { ers_loop_depth(self.0, bb) }
    }
    fn opt(b: BB) -> Option<BB> {
        if b.is_null() {
            None
        } else {
            Some(b)
        }
    }
    /// Header of the innermost loop containing `bb`.
    pub fn header(&self, bb: BB) -> Option<BB> {
        Self::opt(unsafe { ers_loop_header(self.0, bb) })
    }
    pub fn parent_header(&self, header: BB) -> Option<BB> {
        Self::opt(unsafe { ers_loop_parent_header(self.0, header) })
    }
    pub fn contains(&self, header: BB, bb: BB) -> bool {
        unsafe { ers_loop_contains(self.0, header, bb) != 0 }
    }
    pub fn preheader(&self, header: BB) -> Option<BB> {
        Self::opt(unsafe { ers_loop_preheader(self.0, header) })
    }
    pub fn dominates(&self, def: V, user: V) -> bool {
        unsafe { ers_dominates(self.0, def, user) != 0 }
    }
    pub fn block_dominates(&self, a: BB, b: BB) -> bool {
        unsafe { ers_block_dominates(self.0, a, b) != 0 }
    }
    /// Immediate dominator of `bb` (None for the entry block).
    pub fn idom(&self, bb: BB) -> Option<BB> {
        Self::opt(unsafe { ers_idom(self.0, bb) })
    }
}

impl Drop for Loops {
    fn drop(&mut self) {
        unsafe { ers_loops_free(self.0) }
    }
}

/// The kinds of LLVM optimization remarks (pass name `enzyme`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemarkKind {
    /// `-Rpass=enzyme` / `-pass-remarks=enzyme`
    Passed = 0,
    /// `-Rpass-missed=enzyme` / `-pass-remarks-missed=enzyme`
    Missed = 1,
    /// `-Rpass-analysis=enzyme` / `-pass-remarks-analysis=enzyme`
    Analysis = 2,
}

/// Whether remarks of this kind for pass `enzyme` are shown (so callers
/// can skip composing them).
pub fn remark_enabled(f: V, kind: RemarkKind) -> bool {
    unsafe { ers_remark_enabled(f, kind as c_int) != 0 }
}

/// Emit an optimization remark of pass `enzyme` in function `f`, at
/// `inst`'s source location (else the function's).
pub fn remark(f: V, inst: Option<V>, kind: RemarkKind, name: &str, msg: &str) {
    let n = CString::new(name.replace('\0', " ")).unwrap_or_default();
    let m = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    unsafe {
        ers_remark(
            f,
            inst.unwrap_or(std::ptr::null_mut()),
            kind as c_int,
            n.as_ptr(),
            m.as_ptr(),
        )
    }
}

/// `file:line` of an instruction's debug location, if it has one.
pub fn debug_location(inst: V) -> Option<(String, u32)> {
    let mut file: *const c_char = std::ptr::null();
    let line = unsafe { ers_debug_line(inst, &mut file) };
    if line == 0 {
        return None;
    }
    let f = if file.is_null() {
        String::new()
    } else {
        unsafe { CStr::from_ptr(file) }
            .to_string_lossy()
            .into_owned()
    };
    Some((f, line))
}

extern "C" {
    fn ers_scev_new(f: V) -> *mut c_void;
    fn ers_scev_free(h: *mut c_void);
    fn ers_scev_equal(h: *mut c_void, a: V, b: V) -> c_int;
    fn ers_scev_same_or_enclosing_loop(h: *mut c_void, a: BB, b: BB) -> c_int;
    fn ers_scev_dominates(h: *mut c_void, a: V, b: V) -> c_int;
    fn ers_scev_expand_exit_count(h: *mut c_void, header: BB) -> V;
    fn ers_scev_load_recurrence(h: *mut c_void, phi: V, stride: *mut i64, inner: *mut V) -> V;
}

/// LLVM's ScalarEvolution (with its dominator tree and loop info) for one
/// function.
pub struct Scev(*mut c_void);

impl Scev {
    pub fn new(f: V) -> Scev {
        Scev(unsafe { ers_scev_new(f) })
    }
    /// Same SCEV expression.
    pub fn equal(&self, a: V, b: V) -> bool {
        unsafe { ers_scev_equal(self.0, a, b) != 0 }
    }
    /// a's loop is b's loop or encloses it.
    pub fn same_or_enclosing_loop(&self, a: BB, b: BB) -> bool {
        unsafe { ers_scev_same_or_enclosing_loop(self.0, a, b) != 0 }
    }
    pub fn dominates(&self, a: V, b: V) -> bool {
        unsafe { ers_scev_dominates(self.0, a, b) != 0 }
    }
    /// The loop's backedge-taken count as an i64 computed in its preheader
    /// (inserted there), when SCEV knows it and the loop exits from one
    /// block only.
    pub fn expand_exit_count(&self, header: BB) -> Option<V> {
        let v = unsafe { ers_scev_expand_exit_count(self.0, header) };
        (!v.is_null()).then_some(v)
    }
    /// A loop-header phi that replays a load recurrence: its value at
    /// iteration k is loaded from `base + k*stride` (bytes), `base` being
    /// the address of the preheader load it starts from. Returns (that
    /// preheader load, stride, the load inside the loop the chain ends at).
    pub fn load_recurrence(&self, phi: V) -> Option<LoadRecurrence> {
        let mut stride = 0i64;
        let mut inner: V = std::ptr::null_mut();
        let init = unsafe { ers_scev_load_recurrence(self.0, phi, &mut stride, &mut inner) };
        (!init.is_null() && !inner.is_null()).then_some(LoadRecurrence {
            init,
            stride,
            inner,
        })
    }
}

/// See `Scev::load_recurrence`.
#[derive(Clone, Copy, Debug)]
pub struct LoadRecurrence {
    /// The load in the preheader (the phi's value at iteration 0).
    pub init: V,
    /// Bytes between the addresses of consecutive iterations.
    pub stride: i64,
    /// The load in the loop whose value the next iteration's phi carries.
    pub inner: V,
}

impl Drop for Scev {
    fn drop(&mut self) {
        unsafe { ers_scev_free(self.0) }
    }
}

extern "C" {
    fn ers_invoke_to_call(inv: V) -> V;
    fn ers_invokes_to_calls(f: V) -> c_uint;
}

/// Turn one `invoke` into a call followed by a branch to its normal
/// destination; returns the call.
pub fn invoke_to_call(i: V) -> V {
    unsafe { ers_invoke_to_call(i) }
}

/// Turn every `invoke` of `f` into a call (the derivative assumes no
/// exception is thrown) and drop the landing pads; returns how many.
pub fn invokes_to_calls(f: V) -> u32 {
    unsafe { ers_invokes_to_calls(f) }
}

extern "C" {
    fn ers_zfuse_guard(
        f: V,
        shadow: V,
        len: V,
        fallback: V,
        stores: *mut V,
        n: c_uint,
        esz: c_uint,
        first: *mut u8,
    ) -> c_int;
}

/// Zero fusion (`modes/reverse/zfuse.rs`, cpp/zfuse.cc): when the
/// accumulations `stores` (of `esz` bytes) into `shadow`'s memory write one
/// contiguous range from `shadow` on exactly once, in one outermost loop,
/// guard `f` (a copy of `fallback` taking the caller's zeroing length
/// `len` last): where the range's size differs from `len`, or the loop is
/// skipped, `len` bytes at `shadow` are zeroed (and `fallback` is called).
/// A store may also be in a loop nested in that loop, tiling the range
/// with the outer loop or writing the same range in every outer iteration;
/// for the latter the first outer iteration's load is replaced by 0.0 in
/// `f` and the store is flagged in the result (left an accumulation).
/// Returns, per store, whether it stays an accumulation (Err: the failed
/// check's number; `f` is then unchanged).
pub fn zfuse_guard(
    f: V,
    shadow: V,
    len: V,
    fallback: V,
    stores: &[V],
    esz: u32,
) -> Result<Vec<bool>, i32> {
    let mut v = stores.to_vec();
    let mut first = vec![0u8; v.len()];
    let rc = unsafe {
        ers_zfuse_guard(
            f,
            shadow,
            len,
            fallback,
            v.as_mut_ptr(),
            v.len() as c_uint,
            esz,
            first.as_mut_ptr(),
        )
    };
    if rc > 0 {
        Ok(first.into_iter().map(|b| b != 0).collect())
    } else {
        Err(rc)
    }
}
