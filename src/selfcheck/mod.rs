//! Self-check mode (`-enzyme-check`, `ENZYME_CHECK=1`): each checked
//! `__enzyme_autodiff` / `__enzyme_fwddiff` call site first calls the
//! runtime checker (runtime/selfcheck_rt.c), which compares the derivative
//! on its first calls against central finite differences of the primal and
//! against the other mode, along a random direction, and reports a
//! mismatch on stderr with the function's name and the call's source line.
//!
//! This module runs before the pass looks for `__enzyme_*` calls: per call
//! site it makes a [`Plan`] (which arguments are perturbed scalars, which
//! are buffers of known size, which are passed as they are) or a reason the
//! site cannot be checked, then (`thunks.rs`) three functions of one
//! signature the runtime calls: the primal, and new `__enzyme_autodiff` /
//! `__enzyme_fwddiff` calls on the same function, which the pass then
//! differentiates like any other (the one of the site's own mode is the
//! derivative the site gets, from the cache). A derivative of the other
//! mode that cannot be built is no error: [`absorb_failure`] marks it
//! missing and the runtime skips that comparison.
//!
//! The checker works on copies: the buffers' memory is copied from the
//! program's (read only), perturbed, and handed to the thunks; the user's
//! shadows are never touched. Memory the function reaches in other ways
//! (globals, pointers stored inside the buffers) is not copied: see the
//! README's "Self-check mode" for what that means.
mod thunks;

use crate::analysis::types::layout::Layout;
use crate::callsite::{self, Activity, Mode};
use crate::ir::llvm::*;
use crate::ir::metadata;
use std::collections::HashSet;

/// Name prefix of everything the self-check adds to a module.
pub const PREFIX: &str = "__enzyme_rs_check_";
/// Metadata flag on a call site already instrumented (a later run of the
/// pass, e.g. post-link, must not instrument it again).
const DONE: &str = "enzyme_rs.checked";

/// Element kinds as the runtime knows them.
pub const KIND_DOUBLE: i64 = 0;
pub const KIND_FLOAT: i64 = 1;
pub const KIND_RAW: i64 = 2;

/// What one parameter of the checked function gets.
#[derive(Clone, Copy, Debug)]
pub enum Role {
    /// Passed as at the call site (env field).
    Const(u32),
    /// A perturbed float scalar (index into the runtime's scalars).
    Scalar(usize, Activity),
    /// A buffer the runtime copies: index, activity (Const: copied only).
    Buffer(usize, Activity),
}

/// The size of a buffer: bytes known at compile time, or `size - offset`
/// with `size` a value available at the call site.
#[derive(Clone, Copy, Debug)]
pub enum Extent {
    Bytes(i64),
    Dynamic(V, i64),
}

#[derive(Clone, Debug)]
pub struct Buffer {
    pub ptr: V,
    pub extent: Extent,
    pub kind: i64,
}

/// How one call site is checked.
pub struct Plan {
    pub call: V,
    pub mode: Mode,
    pub func: V,
    pub roles: Vec<Role>,
    /// Values of the perturbed scalars at the call site, and their kinds.
    pub scalars: Vec<(V, i64)>,
    pub buffers: Vec<Buffer>,
    /// Values of the env fields (constant arguments as passed).
    pub env: Vec<V>,
    /// The result is a float whose derivative the site asks for.
    pub ret_active: bool,
    /// The result is a float the site declares constant.
    pub ret_const: bool,
}

/// Instrument every eligible call site of `m`. Returns whether the module
/// changed.
pub fn instrument(m: LLVMModuleRef, abort: bool) -> bool {
    if crate::modes::gpu::is_device(m) {
        return false;
    }
    let sites = sites(m);
    if sites.is_empty() {
        return false;
    }
    let inner = differentiated_functions(&sites);
    let mut changed = false;
    for (k, (call, mode)) in sites.into_iter().enumerate() {
        if metadata::has_flag(call, DONE) || inner.contains(&inst_fn(call)) {
            continue;
        }
        metadata::set_flag(call, DONE);
        let id = format!("{}_{k}", unique_tag(m));
        let r = plan(m, call, mode).and_then(|p| thunks::emit(m, &p, &id, abort));
        if let Err(why) = r {
            log::info!("enzyme-rs: self-check: site not checked: {why}");
            thunks::emit_skip(m, call, &why);
        }
        changed = true;
    }
    changed
}

/// A tag that keeps names of several runs over one module apart.
fn unique_tag(m: LLVMModuleRef) -> usize {
    functions(m)
        .into_iter()
        .filter(|f| name(*f).starts_with(PREFIX))
        .count()
}

/// The combined-mode call sites (`__enzyme_autodiff`, `__enzyme_fwddiff`)
/// outside the self-check's own functions.
fn sites(m: LLVMModuleRef) -> Vec<(V, Mode)> {
    let mut out = Vec::new();
    for f in functions(m) {
        let Some(mode) = Mode::from_callee(&name(f)) else {
            continue;
        };
        if !matches!(mode, Mode::Forward | Mode::Reverse) {
            continue;
        }
        for u in users(f) {
            if is_call(u)
                && strip_casts(called_value(u)) == f
                && !name(inst_fn(u)).starts_with(PREFIX)
            {
                out.push((u, mode));
            }
        }
    }
    out
}

/// Functions reached from the targets of the sites (higher order: a site
/// inside a differentiated function is not instrumented, the checker's
/// call would be differentiated too).
fn differentiated_functions(sites: &[(V, Mode)]) -> HashSet<V> {
    let mut seen = HashSet::new();
    let work: Vec<V> = sites
        .iter()
        .filter_map(|(c, _)| {
            call_args(*c)
                .into_iter()
                .map(strip_casts)
                .find(|a| is_function(*a))
        })
        .collect();
    crate::analysis::callgraph::find_callee(work, &mut seen, |_| false);
    seen
}

/// Whether a call to a derivative of a check thunk failed: then the thunk
/// is marked missing (the runtime skips it) and the call removed; no error
/// is reported (the user's own call reports its own errors).
pub fn absorb_failure(call: V) -> bool {
    let caller = inst_fn(call);
    let n = name(caller);
    if !n.starts_with(PREFIX) || !(n.ends_with("_rev") || n.ends_with("_fwd")) {
        return false;
    }
    log::info!("enzyme-rs: self-check: {n} not built; that comparison is skipped");
    if let Some(g) = crate::ir::globals::named_global(module_of(caller), &format!("{n}_ok")) {
        set_initializer(g, const_i32(context_of(type_of(g)), 0));
    }
    let t = type_of(call);
    if !is_void(t) {
        replace_all_uses(call, zero(t));
    }
    erase(call);
    true
}

/// The plan of one call site, or why it cannot be checked.
fn plan(m: LLVMModuleRef, call: V, mode: Mode) -> Result<Plan, String> {
    let req = callsite::scan(call).map_err(|e| e.message())?;
    if req.width != 1 {
        return Err("vector mode (enzyme_width) is not checked".into());
    }
    if req.sret.is_some() || req.fn_sret.is_some() {
        return Err("results returned through memory (sret) are not checked".into());
    }
    let f = req.func;
    let fret = fn_return_type(f);
    if let Some(t) = param_types(fn_type(f))
        .into_iter()
        .chain(std::iter::once(fret))
        .find(|t| has_unfixed_size(*t))
    {
        return Err(format!(
            "values of type {} (no fixed size) are not checked",
            print_type(t)
        ));
    }
    let ret_fp = float_kind(fret).is_some();
    if !ret_fp && !is_void(fret) && (is_struct(fret) || is_array(fret) || is_vector(fret)) {
        return Err(format!(
            "results of type {} are not checked",
            print_type(fret)
        ));
    }
    let layout = Layout::new(m);
    let mut p = Plan {
        call,
        mode,
        func: f,
        roles: Vec::new(),
        scalars: Vec::new(),
        buffers: Vec::new(),
        env: Vec::new(),
        ret_active: ret_fp && req.ret_active != Some(false),
        ret_const: ret_fp && req.ret_active == Some(false),
    };
    let ps = params(f);
    for (i, a) in req.args.iter().enumerate() {
        let pty = type_of(ps[i]);
        if param_has_attr(f, i as u32 + 1, "byval") || param_has_attr(f, i as u32 + 1, "sret") {
            return Err(format!(
                "argument {} is passed by value in memory (byval)",
                i + 1
            ));
        }
        let role = match a.activity {
            Activity::Active | Activity::Dup | Activity::DupNoNeed if !is_ptr(pty) => {
                let kind = float_kind(pty).ok_or_else(|| {
                    format!(
                        "argument {} of type {} is not checked",
                        i + 1,
                        print_type(pty)
                    )
                })?;
                if !is_fp(type_of(a.primal)) {
                    return Err(format!("argument {} is not passed as a float", i + 1));
                }
                p.scalars.push((a.primal, kind));
                Role::Scalar(p.scalars.len() - 1, a.activity)
            }
            Activity::Dup | Activity::DupNoNeed => {
                let (extent, kind) = extent(&layout, a.primal, || heap_kind(f, i))
                    .map_err(|e| format!("pointer argument {} {e}", i + 1))?;
                if kind == KIND_RAW {
                    return Err(format!(
                        "pointer argument {} points to memory that is not an array of double or float",
                        i + 1
                    ));
                }
                p.buffers.push(Buffer {
                    ptr: a.primal,
                    extent,
                    kind,
                });
                Role::Buffer(p.buffers.len() - 1, a.activity)
            }
            Activity::Active => return Err(format!("argument {} is active but a pointer", i + 1)),
            Activity::Const if is_ptr(type_of(a.primal)) && !passes_as_is(f, i, a.primal) => {
                let (extent, _) = extent(&layout, a.primal, || KIND_RAW).map_err(|e| {
                    format!(
                        "constant pointer argument {} {e}, and the function may write through it",
                        i + 1
                    )
                })?;
                p.buffers.push(Buffer {
                    ptr: a.primal,
                    extent,
                    kind: KIND_RAW,
                });
                Role::Buffer(p.buffers.len() - 1, Activity::Const)
            }
            Activity::Const => {
                p.env.push(a.primal);
                Role::Const(p.env.len() as u32 - 1)
            }
        };
        p.roles.push(role);
    }
    Ok(p)
}

/// A constant pointer argument the checker may pass as it is: null,
/// functions and constant globals, or a parameter the function only reads.
fn passes_as_is(f: V, i: usize, v: V) -> bool {
    let s = strip_casts(v);
    is_null(s)
        || is_function(s)
        || (is_global_var(s) && is_global_constant(s))
        || param_has_attr(f, i as u32 + 1, "readonly")
        || param_has_attr(f, i as u32 + 1, "readnone")
}

/// 0 for double, 1 for float.
fn float_kind(t: T) -> Option<i64> {
    let ctx = context_of(t);
    if t == crate::ir::types::double_type(ctx) {
        Some(KIND_DOUBLE)
    } else if t == crate::ir::types::float_type(ctx) {
        Some(KIND_FLOAT)
    } else {
        None
    }
}

/// The one float kind of every scalar in `t`, or KIND_RAW.
fn elem_kind(t: T) -> i64 {
    if let Some(k) = float_kind(t) {
        return k;
    }
    if is_array(t) || is_vector(t) {
        return elem_kind(elem_type(t));
    }
    if is_struct(t) {
        let kinds: Vec<i64> = struct_fields(t).into_iter().map(elem_kind).collect();
        if let Some(k) = kinds.first() {
            if kinds.iter().all(|x| x == k) {
                return *k;
            }
        }
    }
    KIND_RAW
}

/// The memory a pointer at the call site may be used through: from the
/// pointer to the end of its object (a local array, a global, or a heap
/// block whose size is known at the call site), and its element kind.
fn extent(layout: &Layout, v: V, heap: impl Fn() -> i64) -> Result<(Extent, i64), String> {
    let mut p = v;
    let mut off = 0i64;
    for _ in 0..64 {
        p = strip_casts(callsite::slot_value(p));
        let gep = opcode(p) == Some(LLVMOpcode::LLVMGetElementPtr)
            || const_opcode(p) == Some(LLVMOpcode::LLVMGetElementPtr);
        if !gep {
            break;
        }
        let idx: Vec<V> = (1..num_operands(p)).map(|k| operand(p, k)).collect();
        if idx.iter().any(|i| const_int_value(*i).is_none()) {
            return Err("has a variable offset into its object".into());
        }
        let (o, strides) = layout.gep_offset(p, gep_source_type(p), &idx);
        if !strides.is_empty() {
            return Err("has a variable offset into its object".into());
        }
        off += o;
        p = operand(p, 0);
    }
    let unknown = || {
        "points to memory of unknown size (not a local array, a global, or a heap block allocated with its size in this function)".to_string()
    };
    let (bytes, t) = if opcode(p) == Some(LLVMOpcode::LLVMAlloca) {
        let t = allocated_type(p);
        let n = const_int_value(operand(p, 0)).ok_or_else(unknown)?;
        (layout.alloc_size(t) as i64 * n, Some(t))
    } else if is_global_var(p) && !is_declaration_global(p) {
        let t = crate::ir::globals::global_type(p);
        (layout.alloc_size(t) as i64, Some(t))
    } else if let Some(size) = heap_size(p) {
        return Ok((Extent::Dynamic(size, off), heap()));
    } else {
        return Err(unknown());
    };
    if off < 0 || bytes - off <= 0 {
        return Err("points outside its object".into());
    }
    let kind = t.map(elem_kind).unwrap_or(KIND_RAW);
    Ok((Extent::Bytes(bytes - off), kind))
}

fn is_declaration_global(g: V) -> bool {
    global_initializer(g).is_none()
}

/// The size operand of `malloc(n)` / `operator new(n)` (a value available
/// wherever the block is).
fn heap_size(p: V) -> Option<V> {
    if !is_call(p) {
        return None;
    }
    let n = name(called_function(p)?);
    let sized = matches!(n.as_str(), "malloc" | "_Znwm" | "_Znam");
    (sized && call_num_args(p) == 1).then(|| operand(p, 0))
}

/// The element kind of a heap block passed as parameter `i` of `f`: what
/// the type analysis of `f` finds at the start of the parameter's memory
/// (raw, i.e. not checked, when it finds no float there).
fn heap_kind(f: V, i: usize) -> i64 {
    use crate::analysis::types::{Base, FloatKind, TypeAnalysis};
    if is_declaration(f) {
        return KIND_RAW;
    }
    let m = module_of(f);
    let r = TypeAnalysis::analyse(m, f, &[]);
    match r.base_at(params(f)[i], 0) {
        Base::Float(FloatKind::Double) => KIND_DOUBLE,
        Base::Float(FloatKind::Float) => KIND_FLOAT,
        _ => KIND_RAW,
    }
}
