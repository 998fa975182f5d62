//! Module-level registrations read from the user's globals, built once per
//! module by the driver:
//!
//! - `void* __enzyme_register_derivative_NAME[] = {f, df};` (forward mode)
//! - `void* __enzyme_register_gradient_NAME[] = {f, aug_f, rev_f};` (reverse)
//! - `void* __enzyme_inactivefn[] = {f, g, ...};` (also
//!   `__enzyme_inactivenoblockfn`) and the `"enzyme_inactive"` function
//!   attribute: calls carry no derivative
//! - `void *__enzyme_inactive_global_X = (void *)&g;`: global `g` is constant
//! - `void* __enzyme_function_like[] = {f, "malloc"};` (or "free", "calloc",
//!   "realloc"): `f` is treated like that library function
//! - `void* __enzyme_allocation_like[] = {f, (void*)SIZE_ARG, ..., free_fn};`
//! - source attributes (`annotations.rs`): `"enzyme_function_like"` on a
//!   function, `enzyme_inactive` and `enzyme_shadow` on globals
//!
//! Global names are matched by prefix (any suffix, so several registrations
//! can coexist). The pass owns the registry: `driver::run_with` builds it
//! into the `Session`, and the modes ask the session's registry (custom
//! derivatives, user shadows); the activity analysis is given it with the
//! active globals. The call classifier (`classify`, reached from every
//! analysis) reads the same registry through [`install`], for the duration
//! of the pass run, so the name-based queries of the rule table
//! (`is_inactive_function`, `alloc_kind`) honour it everywhere.
use crate::ir::llvm::*;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

#[derive(Default, Debug)]
pub struct Registry {
    /// Names of functions whose calls carry no derivative.
    pub inactive: HashSet<String>,
    /// Function name -> the library function it behaves like.
    pub like: HashMap<String, String>,
    /// Allocation-like functions: name -> index of the size argument.
    pub alloc_like: HashMap<String, u32>,
    /// Allocation-like functions with a deallocator: name -> (deallocator,
    /// what it is passed: -1 the allocation, k the allocation call's
    /// argument k), from `__enzyme_allocation_like`'s "-1,2"-style string.
    pub alloc_free: HashMap<String, (V, Vec<i64>)>,
    /// f -> custom forward derivative.
    pub forward: HashMap<V, V>,
    /// f -> (augmented forward, reverse) custom gradient.
    pub gradient: HashMap<V, (V, V)>,
    /// Globals marked `enzyme_inactive` (source attribute).
    pub inactive_globals: HashSet<V>,
    /// Global -> its shadow, from `enzyme_shadow(s)` (source attribute).
    pub shadows: HashMap<V, V>,
    /// In a module that queries shadows of globals (`__enzyme_shadow`,
    /// `__enzyme_context`: `modes::iface::shadows`), every writable global
    /// holding floats: active, with a shadow.
    pub queried: HashSet<V>,
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<Registry>>> = const { RefCell::new(None) };
}

/// Removes the installed registry when dropped.
pub struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        CURRENT.with(|c| *c.borrow_mut() = None);
    }
}

/// Make `r` (the pass's registry) the one the call classifier's queries
/// see until the guard is dropped.
pub fn install(r: Rc<Registry>) -> Installed {
    CURRENT.with(|c| *c.borrow_mut() = Some(r));
    Installed
}

fn with<R>(f: impl FnOnce(&Registry) -> R) -> Option<R> {
    CURRENT.with(|c| c.borrow().as_deref().map(f))
}

pub fn is_inactive(n: &str) -> bool {
    !n.is_empty() && with(|r| r.inactive.contains(n)).unwrap_or(false)
}

/// The library function `n` was registered to behave like.
pub fn like(n: &str) -> Option<String> {
    if n.is_empty() {
        return None;
    }
    with(|r| r.like.get(n).cloned()).flatten()
}

pub fn alloc_like(n: &str) -> Option<u32> {
    if n.is_empty() {
        return None;
    }
    with(|r| r.alloc_like.get(n).copied()).flatten()
}

/// The deallocator registered for allocation-like function `n`, and the
/// arguments it takes (-1: the allocation; k: argument k of the allocation).
pub fn alloc_free(n: &str) -> Option<(V, Vec<i64>)> {
    if n.is_empty() {
        return None;
    }
    with(|r| r.alloc_free.get(n).cloned()).flatten()
}

/// For the classifier: the custom forward derivative of `f`.
pub(super) fn custom_forward(f: V) -> Option<V> {
    with(|r| r.custom_forward(f)).flatten()
}

/// For the classifier: the custom gradient of `f`.
pub(super) fn custom_gradient(f: V) -> Option<(V, V)> {
    with(|r| r.custom_gradient(f)).flatten()
}

/// Whether module `m` calls `__enzyme_shadow`, `__enzyme_context` or
/// `__enzyme_zero_shadows`.
pub fn queries_shadows(m: LLVMModuleRef) -> bool {
    functions(m).into_iter().any(|f| {
        let n = name(f);
        let head = crate::callsite::unmangled_head(&n);
        [
            "__enzyme_shadow",
            "__enzyme_context",
            "__enzyme_zero_shadows",
        ]
        .iter()
        .any(|q| head.starts_with(q))
            && has_uses(f)
    })
}

impl Registry {
    /// The custom forward derivative registered for `f`.
    pub fn custom_forward(&self, f: V) -> Option<V> {
        self.forward.get(&f).copied()
    }

    /// The custom gradient (augmented forward, reverse) registered for `f`.
    pub fn custom_gradient(&self, f: V) -> Option<(V, V)> {
        self.gradient.get(&f).copied()
    }

    /// The shadow the user gave global `g` (`enzyme_shadow`).
    pub fn user_shadow(&self, g: V) -> Option<V> {
        self.shadows.get(&g).copied()
    }

    /// The globals given a shadow with `enzyme_shadow`, and in a module
    /// that queries shadows of globals, every writable global holding
    /// floats.
    pub fn shadowed_globals(&self) -> impl Iterator<Item = V> + '_ {
        self.shadows.keys().chain(self.queried.iter()).copied()
    }

    /// Whether global `g` is marked `enzyme_inactive`.
    pub fn is_inactive_global(&self, g: V) -> bool {
        self.inactive_globals.contains(&g)
    }
}

/// What a marker global names: the elements of its array initializer, or
/// (`void *__enzyme_x = (void *)&g;`) the initializer itself.
fn listed_or_whole(g: V, elements: &[V]) -> Vec<V> {
    if elements.is_empty() {
        global_initializer(g).into_iter().collect()
    } else {
        elements.to_vec()
    }
}

/// The elements of a constant array/struct initializer.
fn elements(init: V) -> Vec<V> {
    if !is_const_array(init) && !is_const_struct(init) {
        return Vec::new();
    }
    operands(init)
}

/// Strip casts and zero-index GEPs (a C string literal's address).
fn strip(v: V) -> V {
    let mut v = strip_casts(v);
    while is_const_gep(v) {
        v = strip_casts(operand(v, 0));
    }
    v
}

fn as_function(v: V) -> Option<V> {
    let f = strip(v);
    is_function(f).then_some(f)
}

/// The text of a C string constant (`"malloc"`).
fn as_string(v: V) -> Option<String> {
    let g = strip(v);
    if !is_global_var(g) {
        return None;
    }
    let bytes = const_bytes(global_initializer(g)?)?;
    let s = String::from_utf8_lossy(&bytes);
    Some(s.trim_end_matches('\0').to_string())
}

/// An integer smuggled through a pointer (`(void*)2`).
fn as_int(v: V) -> Option<i64> {
    let s = strip_casts(v);
    if is_null(s) {
        return Some(0);
    }
    if let Some(k) = const_int_value(s) {
        return Some(k);
    }
    if const_opcode(s) == Some(LLVMOpcode::LLVMIntToPtr) {
        return const_int_value(operand(s, 0));
    }
    None
}

impl Registry {
    /// Read the registrations of module `m`.
    pub fn build(m: LLVMModuleRef) -> Registry {
        let mut r = Registry::default();
        // Source attributes (the clang plugin's annotations) first.
        for ga in super::annotations::apply(m) {
            match ga {
                super::annotations::GlobalAttr::Inactive(g) => {
                    r.inactive_globals.insert(g);
                }
                super::annotations::GlobalAttr::Shadow(g, s) => {
                    r.shadows.insert(g, s);
                }
            }
        }
        // Functions named in -enzyme-load-inactive-file lists (a name per
        // line; a file that cannot be read is a warning).
        for path in crate::ir::shim::opt_inactive_files() {
            match std::fs::read_to_string(&path) {
                Ok(text) => {
                    for n in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                        r.inactive.insert(n.to_string());
                    }
                }
                Err(e) => eprintln!("enzyme-rs: warning: -enzyme-load-inactive-file={path}: {e} (no functions made inactive from it)"),
            }
        }
        for f in functions(m) {
            if fn_has_attr(f, "enzyme_inactive") {
                r.inactive.insert(name(f));
            }
            if let Some(like) = crate::ir::attrs::fn_string_attr(f, "enzyme_function_like") {
                r.like.insert(name(f), like);
            }
        }
        for g in globals(m) {
            let n = name(g);
            if !n.starts_with("__enzyme_") {
                continue;
            }
            let el = global_initializer(g).map(elements).unwrap_or_default();
            if n.starts_with("__enzyme_register_derivative") {
                if let (Some(f), Some(df)) = (
                    el.first().and_then(|v| as_function(*v)),
                    el.get(1).and_then(|v| as_function(*v)),
                ) {
                    r.forward.insert(f, df);
                }
            } else if n.starts_with("__enzyme_register_gradient") {
                let fs: Vec<Option<V>> = el.iter().map(|v| as_function(*v)).collect();
                if let [Some(f), Some(a), Some(rv)] = fs.as_slice() {
                    r.gradient.insert(*f, (*a, *rv));
                }
            } else if n.starts_with("__enzyme_inactive_global") {
                // `void *__enzyme_inactive_global_X = (void *)&g;` (or an
                // array of such addresses): `g` carries no derivative.
                for v in listed_or_whole(g, &el) {
                    let t = strip(v);
                    if is_global_var(t) {
                        r.inactive_globals.insert(t);
                    }
                }
            } else if n.starts_with("__enzyme_inactivefn")
                || n.starts_with("__enzyme_inactivenoblockfn")
            {
                for v in &el {
                    if let Some(f) = as_function(*v) {
                        r.inactive.insert(name(f));
                    }
                }
            } else if n.starts_with("__enzyme_shouldrecompute")
                || n.starts_with("__enzyme_no_escaping_allocation")
            {
                // Hints, as the source attributes of the same names.
                let attr = if n.starts_with("__enzyme_shouldrecompute") {
                    "enzyme_shouldrecompute"
                } else {
                    "enzyme_no_escaping_allocation"
                };
                for v in listed_or_whole(g, &el) {
                    if let Some(f) = as_function(v) {
                        crate::ir::attrs::set_fn_string_attr(f, attr, "");
                    }
                }
            } else if n.starts_with("__enzyme_function_like") {
                if let (Some(f), Some(s)) = (
                    el.first().and_then(|v| as_function(*v)),
                    el.get(1).and_then(|v| as_string(*v)),
                ) {
                    r.like.insert(name(f), s);
                }
            } else if n.starts_with("__enzyme_allocation_like") {
                if let (Some(f), Some(k)) = (
                    el.first().and_then(|v| as_function(*v)),
                    el.get(1).and_then(|v| as_int(*v)),
                ) {
                    r.alloc_like.insert(name(f), k as u32);
                    // The deallocation function, when one is named, and
                    // its arguments ("-1": the allocation alone).
                    if let Some(free) = el.iter().skip(2).find_map(|v| as_function(*v)) {
                        r.like.insert(name(free), "free".into());
                        let idx: Vec<i64> = el
                            .get(2)
                            .and_then(|v| as_string(*v))
                            .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
                            .filter(|v: &Vec<i64>| !v.is_empty())
                            .unwrap_or_else(|| vec![-1]);
                        r.alloc_free.insert(name(f), (free, idx));
                    }
                }
            }
        }
        if queries_shadows(m) {
            for g in globals(m) {
                // A pointer global whose shadow the program asks for
                // (`__enzyme_shadow(ctx, &a, 0)`, a's memory allocated by
                // the program): its memory is active too.
                let asked = || {
                    is_ptr(global_type(g))
                        && users(g).into_iter().any(|u| {
                            is_call(u)
                                && called_function(u).is_some_and(|f| name(f) == "__enzyme_shadow")
                        })
                };
                if !is_global_constant(g)
                    && (contains_fp(global_type(g)) || asked())
                    && !name(g).starts_with("__enzyme_")
                    && !r.inactive_globals.contains(&g)
                {
                    r.queried.insert(g);
                }
            }
        }
        log::debug!("enzyme-rs: registry {r:?}");
        r
    }

    /// Functions whose identity must survive the optimizer until the pass
    /// runs: the primals of custom derivatives and inactive or
    /// library-like functions (inlining them would lose the registration).
    pub fn protected(&self, m: LLVMModuleRef) -> Vec<V> {
        let mut out: Vec<V> = self.forward.keys().copied().collect();
        out.extend(self.gradient.keys().copied());
        for f in functions(m) {
            let n = name(f);
            if self.inactive.contains(&n)
                || self.like.contains_key(&n)
                || self.alloc_like.contains_key(&n)
            {
                out.push(f);
            }
        }
        out
    }
}

/// Pipeline-start pass body: mark registered functions `noinline`.
pub fn protect_registered(m: LLVMModuleRef) -> bool {
    let r = Registry::build(m);
    let mut changed = false;
    for f in r.protected(m) {
        if !is_declaration(f) && !fn_has_attr(f, "noinline") {
            remove_fn_attr(f, "alwaysinline");
            add_fn_attr(f, "noinline");
            changed = true;
        }
    }
    changed
}
