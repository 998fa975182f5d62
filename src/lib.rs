//! enzyme-rs: an LLVM pass plugin that synthesizes derivatives of LLVM IR,
//! speaking Enzyme's interface (`__enzyme_fwddiff`, `__enzyme_autodiff`...).
//!
//! This file is the plugin entry: registration of the pass with opt's
//! pipeline parser and clang's optimizer pipeline (LLVM 16 here, through the
//! llvm-plugin crate; LLVM 22 in cpp/plugin22.cc). See ARCHITECTURE.md.
// LLVM 22 deprecates LLVM-C calls the LLVM 16 API offers no replacement for
// (LLVMGetArrayLength, LLVMArrayType, LLVMBuildGlobalStringPtr); they still
// work the same.
#![cfg_attr(feature = "llvm22-1", allow(deprecated))]
pub mod analysis;
pub mod callsite;
pub mod diag;
pub mod driver;
pub mod ir;
pub mod modes;
pub mod options;
pub mod rules;

// The LLVM the plugin is built against: exactly one of the features.
#[cfg(all(feature = "llvm16-0", feature = "llvm22-1"))]
compile_error!("choose one LLVM: features llvm16-0 and llvm22-1 exclude each other");
#[cfg(not(any(feature = "llvm16-0", feature = "llvm22-1")))]
compile_error!("choose an LLVM: feature llvm16-0 (default) or llvm22-1");
// LLVM 22's bindings under the crate-wide name `llvm_sys`.
#[cfg(all(feature = "llvm22-1", not(feature = "llvm16-0")))]
extern crate llvm_sys_221 as llvm_sys;

/// The passes the plugin registers, numbered as in cpp/plugin22.cc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassKind {
    /// Differentiate (`enzyme`, `enzyme-opt`, the clang callbacks).
    Enzyme,
    /// Pipeline start: keep registered functions (custom derivatives,
    /// inactive and library-like functions) from being inlined before the
    /// differentiation pass sees their calls.
    Protect,
    /// Analysis printers (opt pipeline names).
    Printer(Printer),
}

/// Which analysis a printer pass shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printer {
    Types,
    Activity,
    Both,
    Cost,
}

impl PassKind {
    fn from_code(k: u32) -> Option<PassKind> {
        Some(match k {
            0 => PassKind::Enzyme,
            1 => PassKind::Protect,
            2 => PassKind::Printer(Printer::Types),
            3 => PassKind::Printer(Printer::Activity),
            4 => PassKind::Printer(Printer::Both),
            5 => PassKind::Printer(Printer::Cost),
            _ => return None,
        })
    }
}

/// Runs one pass over a module; true when the module changed.
pub fn run_module_pass(m: ir::llvm::LLVMModuleRef, kind: PassKind, opt_level: u32) -> bool {
    init_logging();
    match kind {
        PassKind::Enzyme => {
            let opts = options::Options::load(opt_level);
            guarded(m, || driver::run(m, opts)) != Some(false)
        }
        PassKind::Protect => guarded(m, || rules::registry::protect_registered(m)) != Some(false),
        PassKind::Printer(p) => {
            let opts = options::Options::load(0);
            guarded(m, || {
                use analysis::printer::*;
                if matches!(p, Printer::Types | Printer::Both) {
                    print_module_types(m, &opts);
                }
                if matches!(p, Printer::Activity | Printer::Both) {
                    print_module_activity(m, &opts);
                }
                if matches!(p, Printer::Cost) {
                    print_module_cost(m);
                }
            });
            false
        }
    }
}

/// The pass entry the C++ registration (cpp/plugin22.cc) calls: `kind` is
/// a `PassKind` code. Returns 1 when the module changed.
#[no_mangle]
pub extern "C" fn enzyme_rs_run_module_pass(
    m: ir::llvm::LLVMModuleRef,
    kind: u32,
    opt_level: u32,
) -> i32 {
    match PassKind::from_code(kind) {
        Some(k) => run_module_pass(m, k, opt_level) as i32,
        None => 0,
    }
}

/// Runs `f`; no panic may cross into LLVM: one is reported as an internal
/// error diagnostic (so the compiler exits non-zero) and `None` returned.
fn guarded<R>(m: ir::llvm::LLVMModuleRef, f: impl FnOnce() -> R) -> Option<R> {
    let p = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => return Some(r),
        Err(p) => p,
    };
    let msg = p
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into());
    let first = ir::llvm::functions(m)
        .into_iter()
        .find(|f| !ir::llvm::is_declaration(*f));
    let text = format!("enzyme-rs: internal error (please report): {msg}");
    match first {
        Some(f) => ir::shim::diagnose_error(f, None, &text),
        None => eprintln!("error: {text}"),
    }
    None
}

fn init_logging() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let env = env_logger::Env::new().filter("ENZYME_RS_LOG");
        let _ = env_logger::Builder::from_env(env)
            .format_timestamp(None)
            .try_init();
    });
}

/// LLVM 16: registration through the llvm-plugin crate. (LLVM 22 registers
/// the same names and callbacks in cpp/plugin22.cc.)
#[cfg(feature = "llvm16-0")]
mod plugin16 {
    use super::{ir, run_module_pass, PassKind, Printer};
    use llvm_plugin::inkwell::module::Module;
    use llvm_plugin::{
        LlvmModulePass, ModuleAnalysisManager, OptimizationLevel, PassBuilder, PipelineParsing,
        PreservedAnalyses,
    };

    struct Pass {
        kind: PassKind,
        opt_level: u32,
    }

    impl LlvmModulePass for Pass {
        fn run_pass(
            &self,
            module: &mut Module<'_>,
            _manager: &ModuleAnalysisManager,
        ) -> PreservedAnalyses {
            let m = module.as_mut_ptr() as ir::llvm::LLVMModuleRef;
            if run_module_pass(m, self.kind, self.opt_level) {
                PreservedAnalyses::None
            } else {
                PreservedAnalyses::All
            }
        }
    }

    fn level(o: OptimizationLevel) -> u32 {
        match o {
            OptimizationLevel::O0 => 0,
            OptimizationLevel::O1 => 1,
            OptimizationLevel::O2 | OptimizationLevel::Os | OptimizationLevel::Oz => 2,
            OptimizationLevel::O3 => 3,
        }
    }

    #[llvm_plugin::plugin(name = "enzyme-rs", version = "0.1")]
    fn plugin_registrar(builder: &mut PassBuilder) {
        builder.add_module_pipeline_parsing_callback(|name, manager| {
            let (kind, opt_level) = match name {
                // opt -passes=enzyme: differentiate, no cleanup (IR as synthesized).
                "enzyme" => (PassKind::Enzyme, 0),
                // opt -passes=enzyme-opt: differentiate, then clean up like -O2.
                "enzyme-opt" => (PassKind::Enzyme, 2),
                // Analysis printers (stderr); -enzyme-function=NAME picks a function.
                "print-activity-analysis" => (PassKind::Printer(Printer::Activity), 0),
                "print-type-analysis" => (PassKind::Printer(Printer::Types), 0),
                "enzyme-print-analysis" => (PassKind::Printer(Printer::Both), 0),
                // Timing of both analyses over the module (bench/analysis_cost.sh).
                "enzyme-analysis-cost" => (PassKind::Printer(Printer::Cost), 0),
                _ => return PipelineParsing::NotParsed,
            };
            manager.add_pass(Pass { kind, opt_level });
            PipelineParsing::Parsed
        });
        builder.add_pipeline_start_ep_callback(|manager, _opt| {
            manager.add_pass(Pass {
                kind: PassKind::Protect,
                opt_level: 0,
            });
        });
        // clang: after the primal is optimized, before the late optimizer.
        // Runs at -O0 too.
        builder.add_optimizer_early_ep_callback(|manager, opt| {
            manager.add_pass(Pass {
                kind: PassKind::Enzyme,
                opt_level: level(opt),
            });
        });
        // Full LTO link: bodies from other translation units are visible.
        builder.add_full_lto_early_ep_callback(|manager, opt| {
            manager.add_pass(Pass {
                kind: PassKind::Enzyme,
                opt_level: level(opt),
            });
        });
    }
}
