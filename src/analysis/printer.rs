//! Printers for the analyses, in the spirit of Enzyme's
//! `-print-activity-analysis` / `-print-type-analysis`: one line per argument
//! and instruction with its result. Output goes to **stderr** (so that it
//! mixes with neither `opt -S` output nor a program's stdout); lit tests run
//! `opt ... -disable-output 2>&1 | FileCheck`.
//!
//! Formats:
//! - activity: `  <value> : <class>` where class is `active` (varied and
//!   useful: it gets a tangent/adjoint), `const` (no derivative reaches
//!   it), or `unused` (a derivative reaches it but cannot reach an output);
//! - types: `  <value> : <tree>` (see `types/tree.rs` for the notation).
use super::activity::{Activity, Config};
use super::types::{TypeAnalysis, TypeResults};
use crate::ir::llvm::*;

fn short(v: V) -> String {
    let s = print_value(v);
    s.trim().to_string()
}

fn classify(act: &Activity, v: V) -> &'static str {
    // Instructions without a result (stores, returns, memory calls) are
    // active when they are useful and move an active value or pointer.
    let effect = is_instruction(v) && is_void(type_of(v));
    if act.is_active(v)
        || (effect && act.is_useful(v) && operands(v).into_iter().any(|o| act.is_active(o)))
    {
        "active"
    } else if act.is_reached(v) {
        "unused"
    } else {
        "const"
    }
}

/// Print which arguments and instructions of `f` are active.
pub fn print_activity(f: V, act: &Activity, title: &str) {
    let mut out = format!("activity: {} ({title})\n", name(f));
    for p in params(f) {
        out.push_str(&format!("  arg {} : {}\n", short(p), classify(act, p)));
    }
    for bb in blocks(f) {
        for i in instructions(bb) {
            out.push_str(&format!("  {} : {}\n", short(i), classify(act, i)));
        }
    }
    eprint!("{out}");
}

/// Print the type tree of every argument and of every instruction with a
/// result (stores and other void instructions are skipped: what they say
/// shows in their pointer operand's tree).
pub fn print_types(f: V, types: &TypeResults, title: &str) {
    let mut out = format!("types: {} ({title})\n", name(f));
    for p in params(f) {
        out.push_str(&format!("  arg {} : {}\n", short(p), types.query(p)));
    }
    for bb in blocks(f) {
        for i in instructions(bb) {
            if is_void(type_of(i)) {
                continue;
            }
            out.push_str(&format!("  {} : {}\n", short(i), types.query(i)));
        }
    }
    eprint!("{out}");
}

fn selected(f: V, opts: &crate::options::Options) -> bool {
    if is_declaration(f) {
        return false;
    }
    match &opts.function {
        Some(want) => &name(f) == want,
        None => true,
    }
}

/// `opt -passes=print-activity-analysis`: for every function (or
/// `-enzyme-function=NAME`), the activity with the return as an output and
/// the arguments active as the module's `__enzyme_*` call of that function
/// says, or, without such a call, every float and pointer argument active
/// (enzyme_dup / active).
pub fn print_module_activity(
    m: LLVMModuleRef,
    opts: &crate::options::Options,
    reg: &crate::rules::registry::Registry,
) {
    let globals = super::activity::ActiveGlobals::default().of(m, reg);
    for f in functions(m) {
        if !selected(f, opts) {
            continue;
        }
        let (seeds, title) = match enzyme_call_seeds(m, f) {
            Some(s) => (s, "arguments as at its __enzyme_* call"),
            None => (
                params(f)
                    .into_iter()
                    .filter(|p| may_carry_derivative(type_of(*p)))
                    .collect(),
                "float and pointer arguments active",
            ),
        };
        let cfg = Config {
            loose_types: opts.loose_types,
            ..Config::default()
        };
        match Activity::analyse_with(f, &seeds, f, &cfg, &globals) {
            Ok(a) => print_activity(f, &a, title),
            Err(e) => eprintln!("activity: {}: {}", name(f), e.message()),
        }
    }
}

/// The active parameters of `f` as the first `__enzyme_*` call that
/// differentiates it says (by its argument markers), if there is one.
fn enzyme_call_seeds(m: LLVMModuleRef, f: V) -> Option<Vec<V>> {
    use super::types::engine::{enzyme_call_activity, enzyme_target};
    for g in functions(m) {
        if !name(g).starts_with("__enzyme_") {
            continue;
        }
        for u in users(g) {
            if is_call(u) && enzyme_target(u) == Some(f) {
                let act = enzyme_call_activity(u, f);
                return Some(
                    params(f)
                        .into_iter()
                        .zip(act)
                        .filter(|(_, a)| *a)
                        .map(|(p, _)| p)
                        .collect(),
                );
            }
        }
    }
    None
}

/// `opt -passes=print-type-analysis`: the whole module analysed together
/// (callers type their callees), printed for every function (or
/// `-enzyme-function=NAME`).
pub fn print_module_types(m: LLVMModuleRef, opts: &crate::options::Options) {
    let types = TypeAnalysis::analyse_module(m);
    for f in functions(m) {
        if selected(f, opts) {
            print_types(f, &types, "module");
        }
    }
}

/// `opt -passes=enzyme-analysis-cost`: time both analyses over every
/// function of the module and print the figures (for bench/analysis_cost.sh).
pub fn print_module_cost(m: LLVMModuleRef, reg: &crate::rules::registry::Registry) {
    let fs: Vec<V> = functions(m)
        .into_iter()
        .filter(|f| !is_declaration(*f))
        .collect();
    let insts: usize = fs.iter().map(|f| instruction_count(*f)).sum();
    let t0 = std::time::Instant::now();
    let module_types = TypeAnalysis::analyse_module(m);
    let t_module = t0.elapsed();
    let t1 = std::time::Instant::now();
    let globals = super::activity::ActiveGlobals::default().of(m, reg);
    let mut errors = 0;
    let cfg = Config {
        loose_types: true,
        ..Config::default()
    };
    let seeds_of = |f: V| -> Vec<V> {
        params(f)
            .into_iter()
            .filter(|p| may_carry_derivative(type_of(*p)))
            .collect()
    };
    for f in &fs {
        if Activity::analyse_with(*f, &seeds_of(*f), *f, &cfg, &globals).is_err() {
            errors += 1;
        }
    }
    let t_act = t1.elapsed();
    // Activity of every function against the one module-wide type analysis.
    let t2 = std::time::Instant::now();
    for f in &fs {
        let _ = Activity::analyse_typed(*f, &seeds_of(*f), *f, &cfg, Some(&module_types), &globals);
    }
    let t_shared = t2.elapsed();
    eprintln!("functions: {}", fs.len());
    eprintln!("instructions: {insts}");
    eprintln!(
        "type analysis (whole module, one fixed point): {:.1} ms ({} instruction visits)",
        t_module.as_secs_f64() * 1e3,
        module_types.visits
    );
    eprintln!(
        "activity analysis (every function, each with its own type analysis of it and its callees): {:.1} ms ({errors} errors)",
        t_act.as_secs_f64() * 1e3
    );
    eprintln!(
        "activity analysis (every function, sharing the module's type analysis): {:.1} ms; both analyses together: {:.1} ms",
        t_shared.as_secs_f64() * 1e3,
        (t_module + t_shared).as_secs_f64() * 1e3
    );
}
