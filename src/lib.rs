//! enzyme-rs: an LLVM pass plugin that synthesizes derivatives of LLVM IR,
//! speaking Enzyme's interface (`__enzyme_fwddiff`, `__enzyme_autodiff`...).
//!
//! This file is the plugin entry: registration of the pass with opt's
//! pipeline parser and clang's optimizer pipeline. See ARCHITECTURE.md.
pub mod analysis;
pub mod callsite;
pub mod diag;
pub mod driver;
pub mod ir;
pub mod modes;
pub mod options;
pub mod rules;

use llvm_plugin::inkwell::module::Module;
use llvm_plugin::{
    LlvmModulePass, ModuleAnalysisManager, OptimizationLevel, PassBuilder, PipelineParsing,
    PreservedAnalyses,
};

/// The `enzyme` module pass.
struct EnzymePass {
    opt_level: u32,
}

impl LlvmModulePass for EnzymePass {
    fn run_pass(
        &self,
        module: &mut Module<'_>,
        _manager: &ModuleAnalysisManager,
    ) -> PreservedAnalyses {
        init_logging();
        let m = module.as_mut_ptr() as ir::llvm::LLVMModuleRef;
        let opts = options::Options::load(self.opt_level);
        match guarded(m, || driver::run(m, opts)) {
            Some(false) => PreservedAnalyses::All,
            _ => PreservedAnalyses::None,
        }
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
        match guarded(m, || rules::registry::protect_registered(m)) {
            Some(false) => PreservedAnalyses::All,
            _ => PreservedAnalyses::None,
        }
    }
}

/// Analysis printers as opt pipeline names.
#[derive(Clone, Copy)]
enum Printer {
    Types,
    Activity,
    Both,
    Cost,
}

struct PrinterPass(Printer);

impl LlvmModulePass for PrinterPass {
    fn run_pass(
        &self,
        module: &mut Module<'_>,
        _manager: &ModuleAnalysisManager,
    ) -> PreservedAnalyses {
        init_logging();
        let m = module.as_mut_ptr() as ir::llvm::LLVMModuleRef;
        let opts = options::Options::load(0);
        guarded(m, || {
            use analysis::printer::*;
            if matches!(self.0, Printer::Types | Printer::Both) {
                print_module_types(m, &opts);
            }
            if matches!(self.0, Printer::Activity | Printer::Both) {
                print_module_activity(m, &opts);
            }
            if matches!(self.0, Printer::Cost) {
                print_module_cost(m);
            }
        });
        PreservedAnalyses::All
    }
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
            manager.add_pass(EnzymePass { opt_level: 0 });
            PipelineParsing::Parsed
        }
        // opt -passes=enzyme-opt: differentiate, then clean up like -O2.
        "enzyme-opt" => {
            manager.add_pass(EnzymePass { opt_level: 2 });
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
        });
    });
    // Full LTO link: bodies from other translation units are visible.
    builder.add_full_lto_early_ep_callback(|manager, opt| {
        manager.add_pass(EnzymePass {
            opt_level: level(opt),
        });
    });
}
