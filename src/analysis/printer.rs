//! Printers for the analyses, in the spirit of Enzyme's
//! `-print-activity-analysis` / `-print-type-analysis`: one line per argument
//! and instruction with its result. Output goes to stderr.
use super::activity::Activity;
use crate::ir::llvm::*;

fn short(v: V) -> String {
    let s = print_value(v);
    s.trim().to_string()
}

/// Print which arguments and instructions of `f` are varied (active).
pub fn print_activity(f: V, act: &Activity, title: &str) {
    let mut out = format!("activity: {} ({title})\n", name(f));
    for p in params(f) {
        let a = if act.is_varied(p) { "active" } else { "const" };
        out.push_str(&format!("  arg {} : {a}\n", short(p)));
    }
    for bb in blocks(f) {
        for i in instructions(bb) {
            let a = if act.is_varied(i) { "active" } else { "const" };
            out.push_str(&format!("  {} : {a}\n", short(i)));
        }
    }
    eprint!("{out}");
}

/// The opt printer pass: for every function (or `-enzyme-function=NAME`),
/// the activity with every float/pointer argument taken as active.
pub fn print_module(m: LLVMModuleRef, opts: &crate::options::Options) {
    for f in functions(m) {
        if is_declaration(f) {
            continue;
        }
        if let Some(want) = &opts.function {
            if &name(f) != want {
                continue;
            }
        }
        let seeds: Vec<V> = params(f)
            .into_iter()
            .filter(|p| may_carry_derivative(type_of(*p)))
            .collect();
        match Activity::analyse(f, &seeds, f) {
            Ok(a) => print_activity(f, &a, "float and pointer arguments active"),
            Err(e) => eprintln!("activity: {}: {}", name(f), e.message()),
        }
    }
}
