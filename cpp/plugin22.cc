// Pass registration for LLVM 22 (built only with the `llvm22-1` feature).
//
// The llvm-plugin crate, which registers the passes for LLVM 16 (src/lib.rs),
// stops at LLVM 18, so for LLVM 22 the plugin entry `llvmGetPassPluginInfo`
// is here. It registers the same pipeline names and extension points as the
// LLVM 16 registration; each pass calls back into Rust
// (`enzyme_rs_run_module_pass` in src/lib.rs) with the module and the kind of
// pass. No differentiation logic here.

#include "llvm-c/Core.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

// The kinds of pass, in the numbering of `enzyme_rs_run_module_pass` in
// src/lib.rs: the enzyme pass in its slots (src/lto.rs), the pipeline-start
// protection, the printers.
enum ErsPassKind : unsigned {
  ErsOpt = 0,
  ErsOptimizerEarly = 1,
  ErsFullLtoEarly = 2,
  ErsEarlySimplification = 3,
  ErsPrelink = 4,
  ErsPostlink = 5,
  ErsProtect = 10,
  ErsSplitBlocks = 11,
  ErsPrintTypes = 20,
  ErsPrintActivity = 21,
  ErsPrintBoth = 22,
  ErsCost = 23,
};

// Returns 1 when the module changed.
extern "C" int enzyme_rs_run_module_pass(LLVMModuleRef m, unsigned kind, unsigned opt_level);

namespace {
struct ErsModulePass : PassInfoMixin<ErsModulePass> {
  unsigned Kind;
  unsigned Level;
  ErsModulePass(unsigned K, unsigned L) : Kind(K), Level(L) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return enzyme_rs_run_module_pass(wrap(&M), Kind, Level) ? PreservedAnalyses::none()
                                                            : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
  static StringRef name() { return "enzyme-rs"; }
};

unsigned speedup(OptimizationLevel O) {
  unsigned s = O.getSpeedupLevel();
  return s > 3 ? 3 : s;
}

bool parse(StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
  // opt -passes=enzyme: differentiate, no cleanup (IR as synthesized);
  // enzyme-opt: then clean up like -O2. The others are analysis printers
  // (stderr; -enzyme-function=NAME picks a function) and the analysis timing.
  struct {
    const char *name;
    unsigned kind, level;
  } names[] = {
      {"enzyme", ErsOpt, 0},
      {"enzyme-opt", ErsOpt, 2},
      {"enzyme-lto-prelink", ErsPrelink, 1},
      {"enzyme-lto-prelink-O0", ErsPrelink, 0},
      {"enzyme-lto-postlink", ErsPostlink, 1},
      {"enzyme-split-blocks", ErsSplitBlocks, 0},
      {"print-activity-analysis", ErsPrintActivity, 0},
      {"print-type-analysis", ErsPrintTypes, 0},
      {"enzyme-print-analysis", ErsPrintBoth, 0},
      {"enzyme-analysis-cost", ErsCost, 0},
  };
  for (auto &n : names)
    if (Name == n.name) {
      MPM.addPass(ErsModulePass(n.kind, n.level));
      return true;
    }
  return false;
}

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(parse);
  // Pipeline start: keep registered functions from being inlined early.
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(ErsModulePass(ErsProtect, 0));
  });
  // clang/rustc: after the primal is optimized, before the late optimizer.
  // Runs at -O0 too.
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel O, ThinOrFullLTOPhase) {
        MPM.addPass(ErsModulePass(ErsOptimizerEarly, speedup(O)));
      });
  // End of the optimizer, before code generation (-O0 too): cut the
  // derivatives' huge blocks (driver::split_for_codegen in src/driver.rs).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(ErsModulePass(ErsSplitBlocks, 0));
      });
  // Full LTO link: bodies from other translation units are visible.
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel O) {
        MPM.addPass(ErsModulePass(ErsFullLtoEarly, speedup(O)));
      });
  // ThinLTO post-link: imported bodies are still there (src/lto.rs).
  PB.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel O, ThinOrFullLTOPhase) {
        MPM.addPass(ErsModulePass(ErsEarlySimplification, speedup(O)));
      });
}
} // namespace


// The plugin information, for the Rust-exported `llvmGetPassPluginInfo`
// (src/ir/plugin22.rs): a cdylib exports only symbols defined in Rust.
// (LLVM_PLUGIN_API_VERSION is that of llvm/Plugins/PassPlugin.h: 2 in LLVM 22.)
extern "C" PassPluginLibraryInfo ers_plugin22_info() {
  return {LLVM_PLUGIN_API_VERSION, "enzyme-rs", "0.1", registerCallbacks};
}

// Rust's `std::autodiff` (nightly, `-Z autodiff=Enable`) loads the LLVM 22
// plugin as `libEnzyme-22.so` and calls `registerEnzymeAndPassPipeline`
// (exported from src/ir/rustc_autodiff.rs); its pipeline then names the
// pass `enzyme`.
extern "C" void ers_register_pipeline_names(void *pb) {
  static_cast<PassBuilder *>(pb)->registerPipelineParsingCallback(parse);
}
