//! New functions the pass made, after it: the ones nothing calls are
//! deleted (before the cleanup and at the end of the pass), and under a
//! sanitizer they get the module's sanitizer attributes.
use crate::ir::llvm::*;
use crate::modes::Session;

/// The function attributes by which clang asks a sanitizer pass to
/// instrument a function (`-fsanitize=address` puts `sanitize_address` on
/// every function it defines, except `no_sanitize` ones).
const SANITIZER_ATTRS: &[&str] = &[
    "sanitize_address",
    "sanitize_hwaddress",
    "sanitize_memory",
    "sanitize_thread",
    "sanitize_memtag",
];

/// The functions the pass made (reverse and forward derivatives, tape
/// helpers, the runtime's bitcode) are instrumented like the module's
/// own: each sanitizer attribute some function there before carries goes
/// on every new function with a body. The sanitizer passes run at the end
/// of the optimizer, after this pass, and instrument only functions with
/// the attribute: without it a reverse sweep's loads and stores go
/// unchecked (a read through a taped pointer into the augmented sweep's
/// dead frame, an overflow in a shadow). Clones of a primal (augmented
/// sweeps) already carry the primal's. `ENZYME_RS_SANITIZE_DERIVATIVES=0`
/// turns it off.
pub(super) fn sanitize_new_functions(m: LLVMModuleRef, before: &std::collections::HashSet<V>) {
    // Only functions still in the module are looked at: some of `before`
    // may have been deleted (replaced, inlined) since.
    let (old, new): (Vec<V>, Vec<V>) = functions(m)
        .into_iter()
        .filter(|f| !is_declaration(*f))
        .partition(|f| before.contains(f));
    let wanted: Vec<&str> = SANITIZER_ATTRS
        .iter()
        .copied()
        .filter(|a| old.iter().any(|f| fn_has_attr(*f, a)))
        .collect();
    if wanted.is_empty() {
        return;
    }
    let old_names: Vec<(String, V)> = old.iter().map(|f| (name(*f), *f)).collect();
    let mut n = 0;
    for f in new {
        // A derivative of a function the user left uninstrumented
        // (`no_sanitize("address")`) is left so too; helpers and runtime
        // code, made from no primal, take the module's.
        let primal = primal_named_in(&name(f), &old_names);
        for a in &wanted {
            if primal.is_some_and(|p| !fn_has_attr(p, a)) {
                continue;
            }
            if !fn_has_attr(f, a) {
                add_fn_attr(f, a);
                n += 1;
            }
        }
    }
    log::debug!("enzyme-rs: {n} sanitizer attribute(s) put on new functions ({wanted:?})");
}

/// The user function a new function was made from, read off its name
/// (`enzyme_rs.rev.F`, `enzyme_rs.aug.enzyme_rs.picks.F.31.zfuse`): the
/// longest name in `old` that stands in `new` between dots (or at its end).
fn primal_named_in(new: &str, old: &[(String, V)]) -> Option<V> {
    let between_dots = |o: &str| {
        new.match_indices(o).any(|(k, _)| {
            let end = k + o.len();
            k > 0
                && new.as_bytes()[k - 1] == b'.'
                && (end == new.len() || new.as_bytes()[end] == b'.')
        })
    };
    old.iter()
        .filter(|(o, _)| !o.is_empty() && between_dots(o))
        .max_by_key(|(o, _)| o.len())
        .map(|(_, f)| *f)
}

/// Before the cleanup pipelines: delete the session's new functions that
/// nothing calls any more, until none is left, so they are not cleaned up
/// in vain (the end of the pass, [`drop_dead_functions`], would delete
/// them anyway). A pair built for a zeroed shadow that kept nothing there
/// is deleted as soon as it is built (`Session::doomed`), but the functions
/// it called stay until here: gmm's benchmark built its taped pair and its
/// whole re-run family a second time this way.
pub(super) fn drop_dead_created(sess: &mut Session) {
    if !crate::options::switches::drop_dead() {
        return;
    }
    let mut n = 0;
    loop {
        let dead: Vec<V> = sess
            .created
            .iter()
            .copied()
            .filter(|f| unused(*f))
            .collect();
        if dead.is_empty() {
            break;
        }
        n += dead.len();
        sess.doomed.extend(dead);
        sess.delete_doomed();
    }
    log::debug!("enzyme-rs: {n} new function(s) unused before the cleanup: deleted");
}

/// An internal function with a body that nothing outside itself uses.
fn unused(f: V) -> bool {
    use crate::ir::link::{linkage, Linkage};
    !is_declaration(f)
        && linkage(f) == Linkage::Internal
        && users(f)
            .into_iter()
            .all(|u| is_instruction(u) && inst_fn(u) == f)
}

/// Delete the internal functions the pass made (not in `before`) that
/// nothing uses any more, until none is left: a replaced trial pair, a
/// derivative inlined at every site, a runtime helper no derivative
/// calls. LLVM's GlobalDCE would delete them too, but only after the late
/// function pipeline has vectorized and unrolled them (gmm's benchmark:
/// 2,100 of 13,600 instructions), and at -O0 not at all.
pub(super) fn drop_dead_functions(m: LLVMModuleRef, before: &std::collections::HashSet<V>) {
    let dead = |f: V| !before.contains(&f) && unused(f);
    let mut n = 0;
    loop {
        let gone: Vec<V> = functions(m).into_iter().filter(|f| dead(*f)).collect();
        if gone.is_empty() {
            break;
        }
        for f in gone {
            log::debug!("enzyme-rs: unused '{}' deleted", name(f));
            delete_function(f);
            n += 1;
        }
    }
    if n > 0 {
        log::debug!("enzyme-rs: {n} unused new function(s) deleted");
    }
}
