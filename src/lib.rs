//! enzyme-rs: an LLVM pass plugin that synthesizes derivatives of LLVM IR,
//! speaking Enzyme's interface (`__enzyme_fwddiff`, `__enzyme_autodiff`...).
//!
//! This file is the plugin entry: registration of the pass with opt's
//! pipeline parser and clang's optimizer pipeline (LLVM 16 here, through the
//! llvm-plugin crate; LLVM 22 in cpp/plugin22.cc, which calls
//! `enzyme_rs_run_module_pass`). See ARCHITECTURE.md.
// LLVM 22 deprecates LLVM-C calls the LLVM 16 API offers no replacement for
// (LLVMGetArrayLength, LLVMArrayType, LLVMBuildGlobalStringPtr); they still
// work the same.
#![cfg_attr(feature = "llvm22-1", allow(deprecated))]
pub mod analysis;
pub mod callsite;
pub mod diag;
pub mod driver;
pub mod ir;
pub mod lto;
pub mod modes;
pub mod options;
pub mod rules;
pub mod selfcheck;

// The LLVM the plugin is built against: exactly one of the features.
#[cfg(all(feature = "llvm16-0", feature = "llvm22-1"))]
compile_error!("choose one LLVM: features llvm16-0 and llvm22-1 exclude each other");
#[cfg(not(any(feature = "llvm16-0", feature = "llvm22-1")))]
compile_error!("choose an LLVM: feature llvm16-0 (default) or llvm22-1");

/// Analysis printers as opt pipeline names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printer {
    Types,
    Activity,
    Both,
    Cost,
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

/// The pass entry the LLVM 22 registration (cpp/plugin22.cc) calls, with
/// the pass as a code: 0..=4 the enzyme pass in the slots Opt,
/// OptimizerEarly, FullLtoEarly, EarlySimplification, Prelink, 5 Postlink,
/// 10 the pipeline-start protection, 11 the end-of-pipeline block cut
/// (`run_codegen_split`), 20..=23 the printers (types, activity,
/// both, cost). Returns 1 when the module changed.
#[no_mangle]
pub extern "C" fn enzyme_rs_run_module_pass(
    m: ir::llvm::LLVMModuleRef,
    kind: u32,
    opt_level: u32,
) -> i32 {
    use lto::Slot;
    let slot = match kind {
        0 => Slot::Opt,
        1 => Slot::OptimizerEarly,
        2 => Slot::FullLtoEarly,
        3 => Slot::EarlySimplification,
        4 => Slot::Prelink,
        5 => Slot::Postlink,
        10 => {
            return (guarded(m, || {
                rules::registry::protect_registered(m)
                    | callsite::keep_calls_apart(m)
                    | modes::loops::annotated::mark(m)
                    | modes::iface::fixed_point::protect(m)
            }) != Some(false)) as i32
        }
        11 => return run_codegen_split(m) as i32,
        20..=23 => {
            let p = [
                Printer::Types,
                Printer::Activity,
                Printer::Both,
                Printer::Cost,
            ][kind as usize - 20];
            run_printer(m, p);
            return 0;
        }
        _ => return 0,
    };
    run_enzyme(m, opt_level, slot) as i32
}

/// The enzyme pass in one of its slots; true when the module changed.
pub fn run_enzyme(m: ir::llvm::LLVMModuleRef, opt_level: u32, slot: lto::Slot) -> bool {
    init_logging();
    // rustc's std::autodiff wrappers leave their seed out of the call.
    #[cfg(feature = "llvm22-1")]
    let seeds = guarded(m, || {
        let seeds = ir::rustc_autodiff::pass_return_seeds(m);
        // Allocator entry points stay calls (classified as allocations).
        let keep = |f| {
            matches!(
                rules::classify::classify_function(f),
                rules::CallKind::Alloc(_)
            )
        };
        let flat = ir::rustc_autodiff::flatten_unoptimized_primals(m, &keep).unwrap_or_else(|e| {
            log::warn!("rustc primals not simplified: {e}");
            false
        });
        seeds | flat
    }) == Some(true);
    #[cfg(not(feature = "llvm22-1"))]
    let seeds = false;
    let mut opts = options::Options::load(opt_level);
    opts.no_cleanup |= matches!(slot, lto::Slot::Opt) && opt_level == 0;
    (guarded(m, || lto::run(m, opts, slot)) != Some(false)) | seeds
}

/// End of the optimizer: cut the huge blocks of the derivatives marked by
/// the enzyme pass (`driver::split_for_codegen`); true when the module
/// changed.
pub fn run_codegen_split(m: ir::llvm::LLVMModuleRef) -> bool {
    init_logging();
    guarded(m, || driver::split_for_codegen(m)) != Some(false)
}

/// An analysis printer pass.
pub fn run_printer(m: ir::llvm::LLVMModuleRef, p: Printer) {
    init_logging();
    let opts = options::Options::load(0);
    guarded(m, || {
        use analysis::printer::*;
        // The printers see the module's registrations (inactive functions,
        // custom derivatives, function-like) as the enzyme pass does.
        let registry = std::rc::Rc::new(rules::registry::Registry::build(m));
        let _installed = rules::registry::install(registry.clone());
        if matches!(p, Printer::Types | Printer::Both) {
            print_module_types(m, &opts);
        }
        if matches!(p, Printer::Activity | Printer::Both) {
            print_module_activity(m, &opts, &registry);
        }
        if matches!(p, Printer::Cost) {
            print_module_cost(m, &registry);
        }
    });
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
    use super::*;
    use llvm_plugin::inkwell::module::Module;
    use llvm_plugin::{
        LlvmModulePass, ModuleAnalysisManager, OptimizationLevel, PassBuilder, PipelineParsing,
        PreservedAnalyses,
    };

    /// The `enzyme` module pass.
    struct EnzymePass {
        opt_level: u32,
        slot: lto::Slot,
    }

    impl LlvmModulePass for EnzymePass {
        fn run_pass(
            &self,
            module: &mut Module<'_>,
            _manager: &ModuleAnalysisManager,
        ) -> PreservedAnalyses {
            init_logging();
            let m = module.as_mut_ptr() as ir::llvm::LLVMModuleRef;
            let mut opts = options::Options::load(self.opt_level);
            // opt -passes=enzyme: the IR exactly as synthesized.
            opts.no_cleanup |= matches!(self.slot, lto::Slot::Opt) && self.opt_level == 0;
            match guarded(m, || lto::run(m, opts, self.slot)) {
                Some(false) => PreservedAnalyses::All,
                _ => PreservedAnalyses::None,
            }
        }
    }

    /// Pipeline start: keep registered functions (custom derivatives,
    /// inactive and library-like functions) from being inlined before the
    /// differentiation pass sees their calls.
    struct ProtectPass;

    impl LlvmModulePass for ProtectPass {
        fn run_pass(
            &self,
            module: &mut Module<'_>,
            _manager: &ModuleAnalysisManager,
        ) -> PreservedAnalyses {
            let m = module.as_mut_ptr() as ir::llvm::LLVMModuleRef;
            match guarded(m, || {
                rules::registry::protect_registered(m)
                    | callsite::keep_calls_apart(m)
                    | modes::loops::annotated::mark(m)
                    | modes::iface::fixed_point::protect(m)
            }) {
                Some(false) => PreservedAnalyses::All,
                _ => PreservedAnalyses::None,
            }
        }
    }

    /// End of the optimizer: `run_codegen_split`.
    struct SplitPass;

    impl LlvmModulePass for SplitPass {
        fn run_pass(
            &self,
            module: &mut Module<'_>,
            _manager: &ModuleAnalysisManager,
        ) -> PreservedAnalyses {
            match run_codegen_split(module.as_mut_ptr() as ir::llvm::LLVMModuleRef) {
                false => PreservedAnalyses::All,
                true => PreservedAnalyses::None,
            }
        }
    }

    struct PrinterPass(Printer);

    impl LlvmModulePass for PrinterPass {
        fn run_pass(
            &self,
            module: &mut Module<'_>,
            _manager: &ModuleAnalysisManager,
        ) -> PreservedAnalyses {
            run_printer(module.as_mut_ptr() as ir::llvm::LLVMModuleRef, self.0);
            PreservedAnalyses::All
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
        builder.add_module_pipeline_parsing_callback(|name, manager| match name {
            // opt -passes=enzyme: differentiate, no cleanup (IR as synthesized).
            "enzyme" => {
                manager.add_pass(EnzymePass {
                    opt_level: 0,
                    slot: lto::Slot::Opt,
                });
                PipelineParsing::Parsed
            }
            // opt -passes=enzyme-opt: differentiate, then clean up like -O2.
            "enzyme-opt" => {
                manager.add_pass(EnzymePass {
                    opt_level: 2,
                    slot: lto::Slot::Opt,
                });
                PipelineParsing::Parsed
            }
            // Link-time differentiation halves, for lit tests (src/lto.rs).
            "enzyme-lto-prelink" | "enzyme-lto-prelink-O0" | "enzyme-lto-postlink" => {
                let (opt_level, slot) = match name {
                    "enzyme-lto-prelink" => (1, lto::Slot::Prelink),
                    "enzyme-lto-prelink-O0" => (0, lto::Slot::Prelink),
                    _ => (1, lto::Slot::Postlink),
                };
                manager.add_pass(EnzymePass { opt_level, slot });
                PipelineParsing::Parsed
            }
            // The end-of-pipeline cut of huge derivative blocks.
            "enzyme-split-blocks" => {
                manager.add_pass(SplitPass);
                PipelineParsing::Parsed
            }
            // Analysis printers (stderr); -enzyme-function=NAME picks a function.
            "print-activity-analysis" => {
                manager.add_pass(PrinterPass(Printer::Activity));
                PipelineParsing::Parsed
            }
            "print-type-analysis" => {
                manager.add_pass(PrinterPass(Printer::Types));
                PipelineParsing::Parsed
            }
            "enzyme-print-analysis" => {
                manager.add_pass(PrinterPass(Printer::Both));
                PipelineParsing::Parsed
            }
            // Timing of both analyses over the module (bench/analysis_cost.sh).
            "enzyme-analysis-cost" => {
                manager.add_pass(PrinterPass(Printer::Cost));
                PipelineParsing::Parsed
            }
            _ => PipelineParsing::NotParsed,
        });
        builder.add_pipeline_start_ep_callback(|manager, _opt| {
            manager.add_pass(ProtectPass);
        });
        // clang: after the primal is optimized, before the late optimizer. Runs
        // at -O0 too.
        builder.add_optimizer_early_ep_callback(|manager, opt| {
            manager.add_pass(EnzymePass {
                opt_level: level(opt),
                slot: lto::Slot::OptimizerEarly,
            });
        });
        // End of the optimizer, before code generation (-O0 too): cut the
        // derivatives' huge blocks (`driver::split_for_codegen`).
        builder.add_optimizer_last_ep_callback(|manager, _opt| {
            manager.add_pass(SplitPass);
        });
        // Full LTO link: bodies from other translation units are visible.
        builder.add_full_lto_early_ep_callback(|manager, opt| {
            manager.add_pass(EnzymePass {
                opt_level: level(opt),
                slot: lto::Slot::FullLtoEarly,
            });
        });
        // ThinLTO post-link: imported bodies are still there (src/lto.rs).
        builder.add_pipeline_early_simplification_ep_callback(|manager, opt| {
            manager.add_pass(EnzymePass {
                opt_level: level(opt),
                slot: lto::Slot::EarlySimplification,
            });
        });
    }
}
