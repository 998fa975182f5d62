//! Remarks about the tape, in LLVM's optimization-remark format under the
//! pass name `enzyme`: `-Rpass=enzyme` (clang) / `-pass-remarks=enzyme`
//! (opt) say, per differentiated function and per loop, what is taped and
//! how many bytes per iteration; `-Rpass-missed=enzyme` /
//! `-pass-remarks-missed=enzyme` name each value that is taped rather than
//! recomputed, and why (memory overwritten at file:line, a call, a phi the
//! reverse sweep cannot replay, ...).
use super::aug::Aug;
use crate::ir::llvm::*;
use crate::ir::shim::{debug_location, remark, remark_enabled, RemarkKind};
use std::collections::BTreeMap;

/// A value in words: `%name` or its opcode, its type and size, and its
/// source line.
fn describe(v: V, m: LLVMModuleRef) -> String {
    let n = name(v);
    let what = if !n.is_empty() {
        format!("'%{n}'")
    } else {
        match opcode(v) {
            Some(LLVMOpcode::LLVMCall) => match called_function(v) {
                Some(f) => format!("the call to '{}'", name(f)),
                None => "an indirect call".into(),
            },
            Some(op) => format!("a '{}'", opcode_name(op).to_lowercase()),
            None => "a value".into(),
        }
    };
    let t = type_of(v);
    let size = type_alloc_size(m, t);
    let bytes = if size == 1 { "byte" } else { "bytes" };
    match debug_location(v) {
        Some((f, l)) => format!("{what} ({}, {size} {bytes}, {f}:{l})", print_type(t)),
        None => format!("{what} ({}, {size} {bytes})", print_type(t)),
    }
}

fn loop_place(header: BB) -> String {
    let at = instructions(header)
        .into_iter()
        .chain(successors(header).into_iter().flat_map(instructions))
        .find_map(debug_location);
    match at {
        Some((f, l)) => format!("loop at {f}:{l}"),
        None => format!("loop '{}'", block_name(header)),
    }
}

/// Emit the remarks for one synthesized pair (after `finish_pushes`).
pub fn emit(a: &Aug, m: LLVMModuleRef) {
    let primal = a.primal;
    let passed = remark_enabled(primal, RemarkKind::Passed);
    let missed = remark_enabled(primal, RemarkKind::Missed);
    if !passed && !missed {
        return;
    }
    let fname = name(primal);
    // Bytes and values per innermost loop (None: outside loops).
    let mut groups: BTreeMap<Option<usize>, (Option<BB>, u64, Vec<V>)> = BTreeMap::new();
    let mut order: Vec<BB> = Vec::new();
    for bb in blocks(a.func) {
        let Some(l) = a.layouts.get(&bb) else {
            continue;
        };
        if l.total == 0 {
            continue;
        }
        let h = a.loops.header(bb);
        let key = h.map(|h| match order.iter().position(|x| *x == h) {
            Some(k) => k,
            None => {
                order.push(h);
                order.len() - 1
            }
        });
        let g = groups.entry(key).or_insert((h, 0, Vec::new()));
        g.1 += super::packed::bytes(a, bb);
        g.2.extend(a.pushes.get(&bb).cloned().unwrap_or_default());
    }
    let per_value = |v: V| -> String {
        let why = a
            .why
            .get(&v)
            .map(String::as_str)
            .unwrap_or("not recomputable");
        format!("{}: {why}", describe(v, m))
    };
    if passed {
        let loops: u64 = groups
            .iter()
            .filter(|(k, _)| k.is_some())
            .map(|(_, g)| g.1)
            .sum();
        let outside = groups.get(&None).map(|g| g.1).unwrap_or(0);
        let msg = if groups.is_empty() {
            format!("reverse mode of '{fname}': nothing taped")
        } else {
            let n = groups.keys().filter(|k| k.is_some()).count();
            format!(
                "reverse mode of '{fname}': tape {loops} bytes per iteration in loops \
                 ({n} loop{}), {outside} bytes outside loops",
                if n == 1 { "" } else { "s" }
            )
        };
        remark(primal, None, RemarkKind::Passed, "Tape", &msg);
        for (h, bytes, vals) in groups.values() {
            let Some(h) = h else {
                let list: Vec<String> = vals.iter().map(|v| per_value(*v)).collect();
                let msg = format!(
                    "reverse mode of '{fname}': {bytes} bytes taped outside loops: {}",
                    list.join("; ")
                );
                remark(primal, None, RemarkKind::Passed, "TapeOutsideLoops", &msg);
                continue;
            };
            let list: Vec<String> = vals.iter().map(|v| per_value(*v)).collect();
            let msg = format!(
                "reverse mode of '{fname}': {} tapes {bytes} bytes per iteration: {}",
                loop_place(*h),
                list.join("; ")
            );
            let at = instructions(*h)
                .into_iter()
                .find(|i| debug_location(*i).is_some());
            remark(a.func, at, RemarkKind::Passed, "TapeLoop", &msg);
        }
    }
    if missed {
        for (h, _, vals) in groups.values() {
            for v in vals {
                let where_ = match h {
                    Some(h) => format!("per iteration of the {}", loop_place(*h)),
                    None => "once".into(),
                };
                let msg = format!(
                    "reverse mode of '{fname}': {} is taped {where_}, not recomputed: {}",
                    describe(*v, m),
                    a.why
                        .get(v)
                        .map(String::as_str)
                        .unwrap_or("not recomputable")
                );
                let at = is_instruction(*v).then_some(*v);
                remark(a.func, at, RemarkKind::Missed, "Taped", &msg);
            }
        }
    }
}

/// `-Rpass=enzyme`: load `load` of a scratch array (in `func`, the
/// augmented clone of `primal`) is recomputed in the reverse sweep from
/// `store`, the one store that wrote the value it read, not taped.
pub fn forwarded(primal: V, func: V, load: V, store: V) {
    if !remark_enabled(primal, RemarkKind::Passed) {
        return;
    }
    let at = match debug_location(store) {
        Some((f, l)) => format!(" at {f}:{l}"),
        None => String::new(),
    };
    let msg = format!(
        "reverse mode of '{}': a value loaded from memory that is overwritten later is \
         recomputed from the store{at} that wrote it, not taped",
        name(primal)
    );
    remark(func, Some(load), RemarkKind::Passed, "Recomputed", &msg);
}
