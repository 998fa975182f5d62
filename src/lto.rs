//! Link-time differentiation (`-flto`, `-flto=thin`).
//!
//! With LTO the plugin runs twice: in each file's compile (pre-link) and in
//! the link. Pre-link, a differentiation call whose target (or a function
//! it calls) has no body in this file is *deferred*: left in place for the
//! link, with everything resolvable done at once. The link then has the
//! bodies:
//!
//! - full LTO: the link merges every file into one module and runs the
//!   FullLTO-early callback, which differentiates the deferred calls;
//! - ThinLTO (-O1..-O3): each file stays a module; the ThinLTO importer
//!   copies the bodies a module calls into it (as `available_externally`).
//!   A deferred call's target is only *referenced*, not called, so the
//!   pre-link half adds an *anchor*: an internal function that calls the
//!   target and the external functions it reaches, and reads each one's
//!   published registrations (below), called just before the deferred
//!   call. The importer follows the anchor's calls; the post-link half
//!   (at the pipeline-early-simplification callback, before the optimizer
//!   drops `available_externally` bodies) removes the anchor and
//!   differentiates. A module that imports a function holding a deferred
//!   call imports its anchor too, so it can differentiate that copy (higher
//!   order across files); when it cannot (bodies over the import limit),
//!   the copy becomes a declaration and the defining module does the call.
//! - ThinLTO at -O0: the link neither imports bodies nor runs a plugin
//!   callback, so a call that needs a body from another file is an error at
//!   compile time naming the flags that work; calls whose bodies are all in
//!   the file are differentiated at compile time as usual.
//!
//! Custom derivatives registered in one file for a function differentiated
//! in another: in ThinLTO each registration is also published as a
//! `weak_odr` constant with a predictable name
//! (`__enzyme_register_gradient_lto.<function>`), which the anchor reads,
//! and which every function calling an external function without a rule
//! references (dead `freeze`s, dropped at the post-link start), so the
//! importer brings it into the module that needs it. Full LTO keeps the
//! registrations in `llvm.compiler.used` (the link prunes unreferenced
//! symbols before the plugin runs).
//!
//! A deferred call's callee is renamed so that a link that does not run
//! enzyme-rs fails with a readable undefined symbol instead of linking a
//! program with a dangling `__enzyme_*` call.
use crate::callsite;
use crate::diag::{Error, ErrorKind};
use crate::driver::{self, Handling};
use crate::ir::link::{self, Linkage};
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::options::Options;

/// Where the pass was scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `opt -passes=enzyme`: a plain module, no LTO semantics.
    Opt,
    /// clang's OptimizerEarly callback (per-file compiles, LTO pre-link,
    /// ThinLTO post-link at -O1..-O3).
    OptimizerEarly,
    /// The pipeline-early-simplification callback: acts only in a ThinLTO
    /// post-link (a module the pre-link half has seen).
    EarlySimplification,
    /// The full LTO link.
    FullLtoEarly,
    /// `opt -passes=enzyme-lto-prelink` / `enzyme-lto-postlink` (lit tests).
    Prelink,
    Postlink,
}

/// What the run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Normal,
    PreLink { thin: bool },
    PostLink,
    Skip,
}

/// Named metadata set on every module the pre-link half has seen.
const STAMP: &str = "enzyme_rs.lto.prelink";
/// The anchor function's name (ThinLTO may add a `.llvm.<hash>` suffix).
const ANCHOR: &str = "enzyme_rs.lto.anchor";
/// What a deferred callee's name gets appended (see the module comment).
const DEFERRED: &str = " [deferred by enzyme-rs to the link: load the plugin in the link too (-Wl,--load-pass-plugin=libenzyme_rs.so), and link ThinLTO at -O1 or above]";
/// Registration kinds published for ThinLTO, with their array length.
const PUBLISHED: [(&str, u32); 3] = [
    ("__enzyme_register_gradient", 3),
    ("__enzyme_register_derivative", 2),
    ("__enzyme_inactivefn", 1),
];

fn phase(m: LLVMModuleRef, slot: Slot) -> Phase {
    let stamped = link::has_named_metadata(m, STAMP);
    let thin = !link::has_module_flag(m, "ThinLTO");
    let lto = link::has_module_flag(m, "ThinLTO") || link::has_module_flag(m, "EnableSplitLTOUnit");
    match slot {
        Slot::Opt => Phase::Normal,
        Slot::Prelink => Phase::PreLink { thin },
        Slot::Postlink | Slot::FullLtoEarly => Phase::PostLink,
        Slot::EarlySimplification if stamped => Phase::PostLink,
        Slot::EarlySimplification => Phase::Skip,
        Slot::OptimizerEarly if stamped => Phase::PostLink,
        Slot::OptimizerEarly if lto => Phase::PreLink { thin },
        Slot::OptimizerEarly => Phase::Normal,
    }
}

/// The pass body for a slot. Returns whether the module changed.
pub fn run(m: LLVMModuleRef, opts: Options, slot: Slot) -> bool {
    let ph = phase(m, slot);
    log::debug!("enzyme-rs: {slot:?} -> {ph:?}");
    match ph {
        Phase::Skip => false,
        Phase::Normal => driver::run(m, opts),
        Phase::PreLink { thin } => prelink(m, opts, thin),
        Phase::PostLink => postlink(m, opts),
    }
}

/// The function a differentiation call names.
fn target_of(call: V) -> Option<V> {
    call_args(call)
        .into_iter()
        .find_map(|a| callsite::resolve_function(call, a).ok())
}

fn prelink(m: LLVMModuleRef, opts: Options, thin: bool) -> bool {
    let level = opts.opt_level;
    // (A ThinLTO link at -O0 imports nothing: no need to publish.)
    if thin && level > 0 {
        publish_registrations(m);
    } else if !thin {
        keep_registrations(m);
    }
    let mut deferred = Vec::new();
    let mut defer = |e: Error, _call: V| match e.kind {
        ErrorKind::UnknownFunction(_) => Handling::Defer,
        _ => Handling::Fail(e),
    };
    let mut changed = driver::run_with(m, opts, &mut defer, &mut deferred);
    if thin && level == 0 {
        // No import and no plugin callback in a ThinLTO -O0 link.
        for call in deferred.drain(..) {
            let what = target_of(call).map(name).unwrap_or_default();
            let e = Error::bad_call(
                call,
                format!(
                    "'{what}' (or a function it calls) has no body in this file, and a ThinLTO link at -O0 neither imports bodies nor runs enzyme-rs; build with -flto=full (any -O level) or -flto=thin at -O1 or above, or keep the function in the file that differentiates it"
                ),
            );
            driver::fail_call(&e, call, inst_fn(call));
            changed = true;
        }
    }
    if !deferred.is_empty() {
        log::info!("enzyme-rs: {} call(s) deferred to the link", deferred.len());
        if thin {
            anchor(m, &deferred);
        }
        for call in &deferred {
            rename_deferred(m, *call);
        }
        changed = true;
    }
    if thin && level > 0 {
        // After the driver, so derivatives made now never see them. The
        // classifier asks the module's registry (inactive functions).
        let registry = std::rc::Rc::new(crate::rules::registry::Registry::build(m));
        let _installed = crate::rules::registry::install(registry);
        reference_callee_registrations(m);
    }
    link::add_named_metadata(m, STAMP, if thin { "thin" } else { "full" });
    changed
}

fn postlink(m: LLVMModuleRef, opts: Options) -> bool {
    let thin = !link::has_module_flag(m, "ThinLTO");
    let mut changed = restore_deferred(m);
    changed |= drop_anchors(m);
    let mut deferred = Vec::new();
    let mut hint = |e: Error, call: V| {
        if link::linkage(inst_fn(call)) == Linkage::AvailableExternally {
            // An imported copy: its own module does the call (below).
            return Handling::Defer;
        }
        match &e.kind {
            ErrorKind::UnknownFunction(f) if thin => Handling::Fail(Error {
                kind: ErrorKind::BadCall(not_imported(f)),
                at: e.at,
            }),
            _ => Handling::Fail(e),
        }
    };
    changed |= driver::run_with(m, opts, &mut hint, &mut deferred);
    changed |= drop_unresolved_copies(deferred);
    changed |= driver::report_escaped_entries(m);
    changed
}

fn not_imported(f: &str) -> String {
    format!(
        "no derivative known for external function '{f}' at link time: it has no body in this module. If another file defines it, ThinLTO did not import it (the importer takes only functions under -import-instr-limit instructions, 100 by default, that are not noinline): link with -Wl,-mllvm,-import-instr-limit=N or use -flto=full. Otherwise declare a custom derivative (__enzyme_register_gradient_{f} / __enzyme_register_derivative_{f}) or mark it inactive"
    )
}

/// Post-link: imported (`available_externally`) copies of functions whose
/// differentiation calls cannot be done in this module become
/// declarations (their defining module does them); a call of this module
/// left waiting on one is an error.
fn drop_unresolved_copies(deferred: Vec<V>) -> bool {
    let mut copies: Vec<V> = Vec::new();
    let mut waiting = Vec::new();
    for call in deferred {
        let f = inst_fn(call);
        if link::linkage(f) == Linkage::AvailableExternally {
            if !copies.contains(&f) {
                copies.push(f);
            }
        } else {
            waiting.push(call);
        }
    }
    for call in waiting {
        let what = target_of(call).map(name).unwrap_or_default();
        let e = Error::bad_call(
            call,
            format!(
                "'{what}' (or a function it calls) holds a differentiation call that cannot be done in this module at link time (ThinLTO imports the bodies it needs only up to its size limit); use -flto=full"
            ),
        );
        driver::fail_call(&e, call, inst_fn(call));
    }
    let changed = !copies.is_empty();
    for f in copies {
        log::debug!("enzyme-rs: dropping the imported copy of '{}'", name(f));
        link::delete_body(f);
    }
    changed
}

/// Give the deferred call's callee a name that explains itself if the link
/// leaves it undefined.
fn rename_deferred(m: LLVMModuleRef, call: V) {
    let Some(f) = called_function(call) else {
        return;
    };
    let n = name(f);
    if n.ends_with(DEFERRED) {
        return;
    }
    let renamed = get_or_declare(m, &format!("{n}{DEFERRED}"), fn_type(f));
    link::set_callee(call, renamed);
}

/// Undo [`rename_deferred`] (post-link): point the calls at the original
/// entry point again.
fn restore_deferred(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for f in functions(m) {
        let n = name(f);
        let Some(orig) = n.strip_suffix(DEFERRED) else {
            continue;
        };
        let o = get_or_declare(m, orig, fn_type(f));
        link::replace_uses(f, o);
        link::delete_function(f);
        changed = true;
    }
    changed
}

/// The external functions reached from `f` through direct calls (with `f`
/// itself when it has no body).
fn reached_declarations(f: V) -> Vec<V> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut work = vec![f];
    while let Some(g) = work.pop() {
        if !seen.insert(g) {
            continue;
        }
        if is_declaration(g) {
            if !link::is_intrinsic(g) && callsite::Mode::from_callee(&name(g)).is_none() {
                out.push(g);
            }
            continue;
        }
        for bb in blocks(g) {
            for i in instructions(bb) {
                if let Some(c) = is_call(i).then(|| called_function(i)).flatten() {
                    work.push(c);
                }
            }
        }
    }
    out
}

/// ThinLTO pre-link: the anchor that makes the importer bring the bodies
/// (and published registrations) the deferred calls need into this module.
fn anchor(m: LLVMModuleRef, deferred: &[V]) {
    let ctx = link::module_context(m);
    let mut targets: Vec<V> = Vec::new();
    for call in deferred {
        if let Some(t) = target_of(*call) {
            if !targets.contains(&t) {
                targets.push(t);
            }
            for d in reached_declarations(t) {
                if !targets.contains(&d) {
                    targets.push(d);
                }
            }
        }
    }
    let a = link::add_function(m, ANCHOR, fn_type_of(void_type(ctx), &mut [], false));
    // Internal, but neither noinline nor optnone: a module importing the
    // caller imports the anchor too, and through it the bodies (higher
    // order across files). Nothing inlines it before the post-link drops it.
    link::set_linkage(a, Linkage::Internal);
    let b = Builder::new(m);
    b.at_end(link::append_block(a, "entry"));
    let slot = b.alloca(ptr_type(ctx));
    for t in &targets {
        let mut args: Vec<V> = params(*t).into_iter().map(|p| zero(type_of(p))).collect();
        let c = b.call_fn(*t, &mut args);
        link::match_calling_convention(c, *t);
        let n = name(*t);
        if link::linkage(*t) == Linkage::Internal || n.is_empty() {
            continue;
        }
        for (kind, len) in PUBLISHED {
            let g = published(m, kind, len, &n);
            let st = b.store(g, slot);
            link::set_volatile(st);
        }
    }
    b.ret_void();
    for call in deferred {
        b.before(*call);
        b.call_fn(a, &mut []);
    }
}

/// The published registration `kind` of function `n`: this module's own
/// when it registers one, else an `extern_weak` declaration (null unless
/// another file publishes one).
fn published(m: LLVMModuleRef, kind: &str, len: u32, n: &str) -> V {
    let g_name = format!("{kind}_lto.{n}");
    if let Some(g) = link::get_global(m, &g_name) {
        return g;
    }
    let ctx = link::module_context(m);
    let ty = link::ptr_array_type(ctx, len);
    let g = link::add_global(m, &g_name, ty, None, true);
    link::set_linkage(g, Linkage::ExternWeak);
    g
}

/// ThinLTO pre-link: publish each registration of an external function
/// under a predictable name, per function (see the module comment).
fn publish_registrations(m: LLVMModuleRef) {
    let ctx = link::module_context(m);
    for g in globals(m) {
        let gn = name(g);
        let Some((kind, len)) = PUBLISHED
            .iter()
            .copied()
            .find(|(k, _)| gn.starts_with(k) && !gn.contains("_lto."))
        else {
            continue;
        };
        let Some(init) = link::initializer(g) else {
            continue;
        };
        let elems: Vec<V> = operands(init);
        let groups: Vec<Vec<V>> = if len == 1 {
            elems.iter().map(|e| vec![*e]).collect()
        } else if elems.len() >= len as usize {
            vec![elems[..len as usize].to_vec()]
        } else {
            continue;
        };
        for mut group in groups {
            let f = strip_casts(group[0]);
            if !is_function(f) || link::linkage(f) == Linkage::Internal {
                continue;
            }
            let p_name = format!("{kind}_lto.{}", name(f));
            if link::get_global(m, &p_name).is_some() {
                continue;
            }
            let init = link::const_ptr_array(ctx, &mut group);
            let p = link::add_global(m, &p_name, type_of(init), Some(init), true);
            link::set_linkage(p, Linkage::WeakOdr);
        }
    }
}

/// Whether `g` is a registration global written by the user.
fn is_registration(g: V) -> bool {
    let n = name(g);
    [
        "__enzyme_register_gradient",
        "__enzyme_register_derivative",
        "__enzyme_inactivefn",
        "__enzyme_function_like",
        "__enzyme_allocation_like",
    ]
    .iter()
    .any(|k| n.starts_with(k))
        && link::initializer(g).is_some()
}

/// Full LTO pre-link: nothing references a registration, so the link would
/// prune it as dead before the plugin runs; keep them.
fn keep_registrations(m: LLVMModuleRef) {
    let regs: Vec<V> = globals(m)
        .into_iter()
        .filter(|g| is_registration(*g))
        .collect();
    link::append_compiler_used(m, &regs);
}

/// ThinLTO pre-link: each function that calls an external function with
/// no rule holds references to that function's published registrations,
/// so a module importing the caller imports the registrations too (a
/// custom gradient registered in a third file for a function the
/// differentiated code calls).
fn reference_callee_registrations(m: LLVMModuleRef) {
    let b = Builder::new(m);
    for f in functions(m) {
        if is_declaration(f)
            || link::linkage(f) == Linkage::AvailableExternally
            || name(f).starts_with(ANCHOR)
        {
            continue;
        }
        let mut callees: Vec<V> = Vec::new();
        for bb in blocks(f) {
            for i in instructions(bb) {
                let Some(c) = is_call(i).then(|| called_function(i)).flatten() else {
                    continue;
                };
                if !is_declaration(c) || link::is_intrinsic(c) || callees.contains(&c) {
                    continue;
                }
                let n = name(c);
                let carries = may_carry_derivative(fn_return_type(c))
                    || params(c).iter().any(|p| may_carry_derivative(type_of(*p)));
                // Only functions no rule covers (classify: Unknown).
                let unknown = matches!(
                    crate::rules::classify::classify_function(c),
                    crate::rules::classify::CallKind::Unknown(_)
                );
                if n.is_empty() || !carries || !unknown || n.starts_with("__enzyme") {
                    continue;
                }
                callees.push(c);
            }
        }
        if callees.is_empty() {
            continue;
        }
        let Some(entry) = blocks(f).first().copied() else {
            continue;
        };
        b.at_first_non_phi(entry);
        for c in callees {
            for (kind, len) in PUBLISHED {
                link::hold_reference(&b, published(m, kind, len, &name(c)));
            }
        }
    }
}

/// ThinLTO post-link: remove the anchors and their calls, and the
/// references held to published registrations.
fn drop_anchors(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for f in functions(m) {
        if !name(f).starts_with(ANCHOR) {
            continue;
        }
        for u in users(f) {
            if is_call(u) {
                link::erase_instruction(u);
            }
        }
        if !has_uses(f) {
            link::delete_function(f);
        }
        changed = true;
    }
    // The references callers hold to published registrations have done
    // their job (the import is over): drop them, then the declarations
    // nobody defined.
    for g in globals(m) {
        let n = name(g);
        if !(n.starts_with("__enzyme_") && n.contains("_lto.")) {
            continue;
        }
        for u in users(g) {
            if link::is_freeze(u) && !has_uses(u) {
                link::erase_instruction(u);
                changed = true;
            }
        }
        if link::initializer(g).is_none() && !has_uses(g) {
            link::delete_global(g);
            changed = true;
        }
    }
    changed
}
