// The thin extern "C" shim: LLVM C++ APIs that the LLVM-C API does not expose.
//
// Rule: no differentiation logic here. Each function wraps one LLVM facility
// (options, diagnostics, cloning, pass pipelines, inlining, loop/dominator
// queries) and is called from src/ir/shim.rs. Everything LLVM-version specific
// on the C++ side lives in this file.

#include "llvm-c/Core.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace llvm;

// ---------------------------------------------------------------------------
// Options in Enzyme's spelling. Registered when the plugin is loaded. With
// clang they need `-fplugin=libenzyme_rs.so` as well as `-fpass-plugin=` so
// that the library is loaded before `-mllvm` options are parsed.
// ---------------------------------------------------------------------------
static cl::opt<bool> OptPrint("enzyme-print", cl::init(false), cl::Hidden,
                              cl::desc("enzyme-rs: print each synthesized function"));
static cl::opt<bool> OptPrintType("enzyme-print-type", cl::init(false), cl::Hidden,
                                  cl::desc("enzyme-rs: print type analysis results"));
static cl::opt<bool> OptPrintActivity("enzyme-print-activity", cl::init(false), cl::Hidden,
                                      cl::desc("enzyme-rs: print activity analysis results"));
static cl::opt<bool> OptLooseTypes("enzyme-loose-types", cl::init(false), cl::Hidden,
                                   cl::desc("enzyme-rs: treat unknown types as integers"));
static cl::opt<bool> OptInline("enzyme-inline", cl::init(false), cl::Hidden,
                               cl::desc("enzyme-rs: inline derivatives into their callers"));
static cl::opt<bool> OptDedupLoads("enzyme-dedup-loads", cl::init(true), cl::Hidden,
                                   cl::desc("enzyme-rs: share one cache for identical loads"));
static cl::opt<bool> OptNoCleanup("enzyme-rs-no-cleanup", cl::init(false), cl::Hidden,
                                  cl::desc("enzyme-rs: do not run the cleanup pipeline"));
static cl::opt<bool> OptAutoRerun("enzyme-rs-auto-rerun", cl::init(false), cl::Hidden,
                                  cl::desc("enzyme-rs: 1 re-runs every loop that may be re-run per "
                                           "iteration, 0 none (default: by the cost model)"));
static cl::opt<std::string> OptRerunBudget("enzyme-rs-rerun-budget", cl::init(""), cl::Hidden,
                                          cl::desc("enzyme-rs: bytes of tape a loop may keep "
                                                   "before it is re-run instead"));
static cl::opt<bool> OptPrintTape("enzyme-print-tape", cl::init(false), cl::Hidden,
                                   cl::desc("enzyme-rs: print the tape layout of each reverse-mode function"));
static cl::opt<bool> OptCheck("enzyme-check", cl::init(false), cl::Hidden,
                              cl::desc("enzyme-rs: check each derivative at run time against finite differences and the other mode"));
static cl::opt<bool> OptCheckAbort("enzyme-check-abort", cl::init(false), cl::Hidden,
                                   cl::desc("enzyme-rs: -enzyme-check, aborting at the first mismatch"));
static cl::opt<bool> OptStrongZero("enzyme-strong-zero", cl::init(false), cl::Hidden,
                                   cl::desc("enzyme-rs: a zero tangent or adjoint gives a zero term even where "
                                            "the partial is infinite or NaN"));
static cl::opt<std::string> OptFunction("enzyme-function", cl::init(""), cl::Hidden,
                                        cl::desc("enzyme-rs: function the analysis printers show"));

// Options of Enzyme's that build scripts written for Enzyme pass but that
// change nothing here (tuning knobs of its own pipeline): accepted so that
// such a command line still compiles, and otherwise ignored.
static cl::opt<bool> CompatPreopt("enzyme-preopt", cl::init(true), cl::Hidden,
                                  cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
static cl::opt<bool> CompatPostopt("enzyme-postopt", cl::init(false), cl::Hidden,
                                   cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
static cl::opt<int> CompatInlineCount("enzyme-inline-count", cl::init(10000), cl::Hidden,
                                      cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
static cl::opt<bool> CompatCoalese("enzyme-coalese", cl::init(false), cl::Hidden,
                                   cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
static cl::opt<bool> CompatAttributor("enzyme-attributor", cl::init(false), cl::Hidden,
                                      cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
static cl::opt<bool> CompatPrintPerf("enzyme-print-perf", cl::init(false), cl::Hidden,
                                     cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
static cl::opt<int> CompatMaxTypeOffset("enzyme-max-type-offset", cl::init(500), cl::Hidden,
                                        cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
// Enzyme's automatic sparsity rewrites a Hessian's accumulation into sparse
// stores; here the derivative stays dense (the same values) and
// __enzyme_post_sparse_todense means __enzyme_todense.
static cl::opt<bool> CompatAutoSparsity("enzyme-auto-sparsity", cl::init(false), cl::Hidden,
                                        cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
// Enzyme's checkpointing splits a checkpointed loop's steps into their own
// functions; here they always are (the loop's thunks).
static cl::opt<bool> CompatSplitSteps("enzyme-checkpoint-split-steps", cl::init(false), cl::Hidden,
                                      cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));
// A global holding floats is active here when a derivative reads it.
static cl::opt<bool> CompatGlobalActivity("enzyme-global-activity", cl::init(false), cl::Hidden,
                                          cl::desc("enzyme-rs: accepted for Enzyme compatibility; no effect"));

// Returns -1 when the option was not given on the command line, else its value.
extern "C" int ers_opt_bool(const char *name) {
  cl::opt<bool> *o = nullptr;
  if (!strcmp(name, "enzyme-print")) o = &OptPrint;
  else if (!strcmp(name, "enzyme-print-type")) o = &OptPrintType;
  else if (!strcmp(name, "enzyme-print-activity")) o = &OptPrintActivity;
  else if (!strcmp(name, "enzyme-loose-types")) o = &OptLooseTypes;
  else if (!strcmp(name, "enzyme-inline")) o = &OptInline;
  else if (!strcmp(name, "enzyme-dedup-loads")) o = &OptDedupLoads;
  else if (!strcmp(name, "enzyme-rs-no-cleanup")) o = &OptNoCleanup;
  else if (!strcmp(name, "enzyme-print-tape")) o = &OptPrintTape;
  else if (!strcmp(name, "enzyme-rs-auto-rerun")) o = &OptAutoRerun;
  else if (!strcmp(name, "enzyme-check")) o = &OptCheck;
  else if (!strcmp(name, "enzyme-check-abort")) o = &OptCheckAbort;
  else if (!strcmp(name, "enzyme-strong-zero")) o = &OptStrongZero;
  if (!o || o->getNumOccurrences() == 0) return -1;
  return o->getValue() ? 1 : 0;
}

// The re-run budget's value, or null when not given.
extern "C" const char *ers_opt_rerun_budget() {
  if (OptRerunBudget.getNumOccurrences() == 0) return nullptr;
  return OptRerunBudget.getValue().c_str();
}

// -enzyme-load-inactive-file=PATH (repeatable): files naming functions to
// treat as inactive, one per line (as Enzyme's option).
static cl::list<std::string> OptInactiveFiles("enzyme-load-inactive-file", cl::Hidden,
                                              cl::desc("enzyme-rs: a file naming inactive functions, one per line"));

// The K-th -enzyme-load-inactive-file path, or null past the last.
extern "C" const char *ers_opt_inactive_file(unsigned k) {
  if (k >= OptInactiveFiles.size()) return nullptr;
  return OptInactiveFiles[k].c_str();
}

// The string option's value, or null when not given.
extern "C" const char *ers_opt_function() {
  if (OptFunction.getNumOccurrences() == 0) return nullptr;
  return OptFunction.getValue().c_str();
}

// ---------------------------------------------------------------------------
// Diagnostics: an error through the context's handler. clang prints it as
// `error:` and exits non-zero; opt's default handler prints it and exits 1.
// ---------------------------------------------------------------------------
// rustc prints an LLVM error through the diagnostic's print(), whose
// default names the function by its mangled symbol and LLVM type; our
// message already names it demangled, with its source line. Clang and opt
// keep LLVM's own rendering (clang reads the message and location itself).
namespace {
struct ErsRustDiag : public DiagnosticInfoUnsupported {
  ErsRustDiag(const Function &F, const Twine &Msg, const DiagnosticLocation &Loc,
              DiagnosticSeverity Sev)
      : DiagnosticInfoUnsupported(F, Msg, Loc, Sev) {}
  void print(DiagnosticPrinter &DP) const override {
    if (isLocationAvailable()) DP << getLocationStr() << ": ";
    DP << getMessage();
  }
};

bool fromRustc(const Module &M) {
  if (const NamedMDNode *Ident = M.getNamedMetadata("llvm.ident"))
    for (const MDNode *N : Ident->operands())
      if (N->getNumOperands() > 0)
        if (auto *S = dyn_cast<MDString>(N->getOperand(0)))
          if (S->getString().starts_with("rustc version")) return true;
  return false;
}
} // namespace

// Whether the function's module was made by rustc (messages then also use
// std::autodiff's activity names).
extern "C" int ers_from_rustc(LLVMValueRef fn) {
  auto *F = dyn_cast<Function>(unwrap(fn));
  return F && F->getParent() && fromRustc(*F->getParent());
}

extern "C" void ers_diagnose(LLVMValueRef fn, LLVMValueRef inst, const char *msg, int warning) {
  Function *F = unwrap<Function>(fn);
  DiagnosticLocation loc;
  if (inst) {
    if (auto *I = dyn_cast<Instruction>(unwrap(inst)))
      if (const DebugLoc &DL = I->getDebugLoc())
        loc = DiagnosticLocation(DL);
  }
  if (!loc.isValid())
    if (DISubprogram *SP = F->getSubprogram())
      loc = DiagnosticLocation(SP);
  DiagnosticSeverity sev = warning ? DS_Warning : DS_Error;
  if (F->getParent() && fromRustc(*F->getParent()))
    F->getContext().diagnose(ErsRustDiag(*F, Twine(msg), loc, sev));
  else
    F->getContext().diagnose(DiagnosticInfoUnsupported(*F, Twine(msg), loc, sev));
}

// Loop properties of enzyme-rs's own in a loop's `llvm.loop` metadata (on
// its latch's branch `br`): `!{!"NAME", i64 a, i64 b}`, added beside the
// ones there (with llvm.loop.unroll.disable when `no_unroll`), or read.
extern "C" void ers_add_loop_property(LLVMValueRef br, const char *name, int64_t a, int64_t b,
                                      int no_unroll) {
  auto *I = cast<Instruction>(unwrap(br));
  LLVMContext &C = I->getContext();
  SmallVector<Metadata *, 8> ops{nullptr};
  if (MDNode *old = I->getMetadata(LLVMContext::MD_loop))
    for (unsigned k = 1; k < old->getNumOperands(); k++)
      ops.push_back(old->getOperand(k));
  Type *i64 = Type::getInt64Ty(C);
  ops.push_back(MDNode::get(C, {MDString::get(C, name),
                                ConstantAsMetadata::get(ConstantInt::get(i64, a, true)),
                                ConstantAsMetadata::get(ConstantInt::get(i64, b, true))}));
  if (no_unroll)
    ops.push_back(MDNode::get(C, {MDString::get(C, "llvm.loop.unroll.disable")}));
  MDNode *n = MDNode::getDistinct(C, ops);
  n->replaceOperandWith(0, n);
  I->setMetadata(LLVMContext::MD_loop, n);
}

extern "C" int ers_loop_property(LLVMValueRef br, const char *name, int64_t *a, int64_t *b) {
  auto *I = dyn_cast<Instruction>(unwrap(br));
  MDNode *L = I ? I->getMetadata(LLVMContext::MD_loop) : nullptr;
  if (!L)
    return 0;
  for (unsigned k = 1; k < L->getNumOperands(); k++) {
    auto *N = dyn_cast<MDNode>(L->getOperand(k));
    if (!N || N->getNumOperands() != 3)
      continue;
    auto *S = dyn_cast<MDString>(N->getOperand(0));
    auto *A = mdconst::dyn_extract<ConstantInt>(N->getOperand(1));
    auto *B = mdconst::dyn_extract<ConstantInt>(N->getOperand(2));
    if (S && A && B && S->getString() == name) {
      *a = A->getSExtValue();
      *b = B->getSExtValue();
      return 1;
    }
  }
  return 0;
}

// Optimization remarks under the pass name "enzyme" (clang -Rpass=enzyme /
// -Rpass-missed=enzyme, opt -pass-remarks=enzyme / -pass-remarks-missed):
// kind 0 passed, 1 missed, 2 analysis. Located at `inst`'s debug location
// when it has one, else at the function's. `ers_remark_enabled` says
// whether the context's handler would show one of that kind.
extern "C" int ers_remark_enabled(LLVMValueRef fn, int kind) {
  Function *F = unwrap<Function>(fn);
  const DiagnosticHandler *H = F->getContext().getDiagHandlerPtr();
  if (!H) return 0;
  switch (kind) {
  case 0: return H->isPassedOptRemarkEnabled("enzyme") ? 1 : 0;
  case 1: return H->isMissedOptRemarkEnabled("enzyme") ? 1 : 0;
  default: return H->isAnalysisRemarkEnabled("enzyme") ? 1 : 0;
  }
}

extern "C" void ers_remark(LLVMValueRef fn, LLVMValueRef inst, int kind, const char *name,
                           const char *msg) {
  Function *F = unwrap<Function>(fn);
  DiagnosticLocation loc;
  if (inst) {
    if (auto *I = dyn_cast<Instruction>(unwrap(inst)))
      if (const DebugLoc &DL = I->getDebugLoc())
        loc = DiagnosticLocation(DL);
  }
  if (!loc.isValid())
    if (DISubprogram *SP = F->getSubprogram())
      loc = DiagnosticLocation(SP);
  if (F->empty()) return;
  const BasicBlock *Region = &F->getEntryBlock();
  if (kind == 0) {
    OptimizationRemark R("enzyme", name, loc, Region);
    R << msg;
    F->getContext().diagnose(R);
  } else if (kind == 1) {
    OptimizationRemarkMissed R("enzyme", name, loc, Region);
    R << msg;
    F->getContext().diagnose(R);
  } else {
    OptimizationRemarkAnalysis R("enzyme", name, loc, Region);
    R << msg;
    F->getContext().diagnose(R);
  }
}

// ---------------------------------------------------------------------------
// Cloning: clone `old_fn`'s body into the empty `new_fn`. `arg_map[i]` is the
// value old argument i becomes. Returns a value map handle (ers_vmap_*).
// ---------------------------------------------------------------------------
extern "C" void *ers_clone_function_into(LLVMValueRef new_fn, LLVMValueRef old_fn,
                                         LLVMValueRef *arg_map) {
  Function *NF = unwrap<Function>(new_fn);
  Function *OF = unwrap<Function>(old_fn);
  auto *VMap = new ValueToValueMapTy();
  unsigned i = 0;
  for (Argument &A : OF->args()) {
    (*VMap)[&A] = unwrap(arg_map[i]);
    ++i;
  }
  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(NF, OF, *VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  return VMap;
}

extern "C" LLVMValueRef ers_vmap_lookup(void *vmap, LLVMValueRef v) {
  auto *VMap = static_cast<ValueToValueMapTy *>(vmap);
  auto it = VMap->find(unwrap(v));
  if (it == VMap->end()) return nullptr;
  return wrap(&*it->second);
}

extern "C" void ers_vmap_free(void *vmap) { delete static_cast<ValueToValueMapTy *>(vmap); }

// Attributes a derivative must not inherit from its primal: return attributes
// (the return type changes) and memory effects (a derivative writes shadows).
extern "C" void ers_strip_derivative_attrs(LLVMValueRef fn) {
  Function *F = unwrap<Function>(fn);
  LLVMContext &C = F->getContext();
  AttributeList AL = F->getAttributes();
  AL = AL.removeAttributesAtIndex(C, AttributeList::ReturnIndex);
  for (auto K : {Attribute::Memory, Attribute::Speculatable, Attribute::NoFree,
                 Attribute::WillReturn, Attribute::NoSync})
    AL = AL.removeFnAttribute(C, K);
  for (unsigned i = 0; i < F->arg_size(); ++i) {
#if LLVM_VERSION_MAJOR >= 21
    // `captures(...)` replaced `nocapture` in LLVM 21.
    for (auto K : {Attribute::ReadOnly, Attribute::ReadNone, Attribute::WriteOnly,
                   Attribute::Captures, Attribute::Returned})
#else
    for (auto K : {Attribute::ReadOnly, Attribute::ReadNone, Attribute::WriteOnly,
                   Attribute::NoCapture, Attribute::Returned})
#endif
      AL = AL.removeParamAttribute(C, i, K);
  }
  F->setAttributes(AL);
}

// ---------------------------------------------------------------------------
// Cleanup: run a textual function pipeline over the given functions.
// Returns 0 on success; on failure writes a message (free with ers_free).
// ---------------------------------------------------------------------------
extern "C" int ers_run_function_pipeline(LLVMValueRef *fns, unsigned n, const char *pipeline,
                                         char **err) {
  if (n == 0) return 0;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
#if LLVM_VERSION_MAJOR >= 19
  // A textual `instcombine` verifies that it reached a fixpoint in one
  // iteration (and stops the compiler when not) since LLVM 19; the default
  // pipelines do not, and neither does this cleanup.
  std::string text;
  for (StringRef rest = pipeline; !rest.empty();) {
    size_t at = rest.find("instcombine");
    text += rest.substr(0, at).str();
    if (at == StringRef::npos) break;
    text += "instcombine";
    rest = rest.substr(at + strlen("instcombine"));
    if (!rest.starts_with("<")) text += "<no-verify-fixpoint>";
  }
  pipeline = text.c_str();
#endif
  if (auto E = PB.parsePassPipeline(FPM, pipeline)) {
    std::string s = toString(std::move(E));
    if (err) *err = strdup(s.c_str());
    return 1;
  }
  for (unsigned i = 0; i < n; ++i) {
    Function *F = unwrap<Function>(fns[i]);
    if (F->isDeclaration()) continue;
    FPM.run(*F, FAM);
  }
  return 0;
}

extern "C" void ers_free(char *p) { free(p); }

// Replace `fn` by a function without the parameters marked in `drop` (one
// byte per parameter; none of them may have a use), as LLVM's
// DeadArgumentElimination does. Every use of `fn` must be a plain call of
// it (checked by the caller, modes/reverse/selfargs.rs). The body, name,
// attributes (parameter attributes shifted), calling convention and
// metadata move to the new function; each call is rebuilt without the
// dropped arguments. Returns the new function, or null (nothing changed)
// when a use is not such a call or a marked parameter is used.
extern "C" LLVMValueRef ers_drop_params(LLVMValueRef fn, const unsigned char *drop) {
  Function *F = unwrap<Function>(fn);
  FunctionType *FTy = F->getFunctionType();
  if (FTy->isVarArg() || F->isDeclaration()) return nullptr;
  unsigned n = FTy->getNumParams();
  for (unsigned i = 0; i < n; ++i)
    if (drop[i] && !F->getArg(i)->use_empty()) return nullptr;
  std::vector<CallInst *> Calls;
  for (User *U : F->users()) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || CI->getCalledOperand() != F || CI->isMustTailCall() || CI->arg_size() != n)
      return nullptr;
    for (unsigned i = 0; i < n; ++i)
      if (CI->getArgOperand(i) == F) return nullptr;
    Calls.push_back(CI);
  }
  LLVMContext &C = F->getContext();
  AttributeList PAL = F->getAttributes();
  std::vector<Type *> Params;
  SmallVector<AttributeSet, 8> ArgAttrs;
  for (unsigned i = 0; i < n; ++i)
    if (!drop[i]) {
      Params.push_back(FTy->getParamType(i));
      ArgAttrs.push_back(PAL.getParamAttrs(i));
    }
  FunctionType *NFTy = FunctionType::get(FTy->getReturnType(), Params, false);
  Function *NF = Function::Create(NFTy, F->getLinkage(), F->getAddressSpace());
  NF->copyAttributesFrom(F);
  NF->setComdat(F->getComdat());
  NF->setAttributes(AttributeList::get(C, PAL.getFnAttrs(), PAL.getRetAttrs(), ArgAttrs));
  F->getParent()->getFunctionList().insert(F->getIterator(), NF);
  NF->takeName(F);
  for (CallInst *CI : Calls) {
    AttributeList CAL = CI->getAttributes();
    SmallVector<Value *, 8> Args;
    SmallVector<AttributeSet, 8> CArgAttrs;
    for (unsigned i = 0; i < n; ++i)
      if (!drop[i]) {
        Args.push_back(CI->getArgOperand(i));
        CArgAttrs.push_back(CAL.getParamAttrs(i));
      }
    SmallVector<OperandBundleDef, 1> Bundles;
    CI->getOperandBundlesAsDefs(Bundles);
    CallInst *NC = CallInst::Create(NFTy, NF, Args, Bundles, "", CI);
    NC->setCallingConv(CI->getCallingConv());
    NC->setAttributes(AttributeList::get(C, CAL.getFnAttrs(), CAL.getRetAttrs(), CArgAttrs));
    NC->setTailCallKind(CI->getTailCallKind());
    NC->copyMetadata(*CI);
    NC->takeName(CI);
    CI->replaceAllUsesWith(NC);
    CI->eraseFromParent();
  }
  NF->splice(NF->begin(), F);
  auto NI = NF->arg_begin();
  for (unsigned i = 0; i < n; ++i) {
    if (drop[i]) continue;
    Argument *A = F->getArg(i);
    A->replaceAllUsesWith(&*NI);
    NI->takeName(A);
    ++NI;
  }
  SmallVector<std::pair<unsigned, MDNode *>, 1> MDs;
  F->getAllMetadata(MDs);
  for (auto &KM : MDs) NF->addMetadata(KM.first, *KM.second);
  F->replaceAllUsesWith(NF);
  F->eraseFromParent();
  return wrap(NF);
}

// Inline one call site. Returns 1 when inlined.
extern "C" int ers_inline_call(LLVMValueRef call) {
  auto *CB = dyn_cast<CallBase>(unwrap(call));
  if (!CB) return 0;
  InlineFunctionInfo IFI;
  return InlineFunction(*CB, IFI).isSuccess() ? 1 : 0;
}

// Allow reassociation on a floating-point instruction (an adjoint sum whose
// order the derivative chooses: its terms may be added in any order).
extern "C" void ers_set_reassoc(LLVMValueRef v) {
  if (auto *I = dyn_cast<Instruction>(unwrap(v)))
    if (isa<FPMathOperator>(I)) I->setHasAllowReassoc(true);
}

// Branch weights on a conditional branch (taken, not taken).
extern "C" void ers_set_branch_weights(LLVMValueRef br, unsigned t, unsigned f) {
  if (auto *B = dyn_cast<BranchInst>(unwrap(br)))
    if (B->isConditional()) {
      Metadata *ops[] = {MDString::get(B->getContext(), "branch_weights"),
                         ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(B->getContext()), t)),
                         ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(B->getContext()), f))};
      B->setMetadata(LLVMContext::MD_prof, MDNode::get(B->getContext(), ops));
    }
}

// Lay the blocks of `fn` out in reverse post-order (unreachable ones last).
// A reverse sweep is laid out in the primal's order while its control runs
// backwards; simplifycfg merges a block into its predecessor by moving the
// block's instructions, so merging a chain visited against its direction
// moves the growing block again and again (quadratic).
extern "C" void ers_layout_blocks_rpo(LLVMValueRef fn) {
  Function &F = *unwrap<Function>(fn);
  if (F.empty()) return;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  BasicBlock *prev = nullptr;
  for (BasicBlock *BB : RPOT) {
    if (prev) BB->moveAfter(prev);
    prev = BB;
  }
}

// Split every block of `fn` longer than `limit` instructions into pieces of
// at most `limit` (the entry keeps all its allocas). mem2reg finds where a
// slot is live by scanning each block that both stores and loads it from
// the top, so one huge block makes promotion quadratic in the number of
// slots; in pieces each scan is bounded. Returns the number of splits.
extern "C" unsigned ers_split_large_blocks(LLVMValueRef fn, unsigned limit) {
  Function &F = *unwrap<Function>(fn);
  if (limit < 2) limit = 2;
  std::vector<BasicBlock *> blocks;
  for (BasicBlock &BB : F) blocks.push_back(&BB);
  unsigned made = 0;
  for (BasicBlock *cur : blocks) {
    if (cur->size() <= limit || !cur->getTerminator()) continue;
    BasicBlock::iterator it = cur->getFirstInsertionPt();
    if (cur->isEntryBlock()) {
      for (auto j = cur->begin(); j != cur->end(); ++j)
        if (isa<AllocaInst>(&*j)) it = std::next(j);
    }
    // Split points first, then split from the back: splitBasicBlock moves
    // everything after the point, so front-to-back would be quadratic.
    std::vector<Instruction *> points;
    unsigned count = 0;
    while (it != cur->end() && !it->isTerminator()) {
      Instruction *I = &*it++;
      if (++count < limit) continue;
      auto *CI = dyn_cast<CallInst>(I);
      if ((CI && CI->isMustTailCall()) || it == cur->end() || it->isTerminator()) continue;
      points.push_back(&*it);
      count = 0;
    }
    for (auto p = points.rbegin(); p != points.rend(); ++p) {
      cur->splitBasicBlock(*p, "");
      ++made;
    }
  }
  return made;
}

// Undo the sinking of pure instructions into returning blocks. InstCombine
// sinks an instruction whose users all lie in a block without successors
// into that block from anywhere above it, and repeats that along chains:
// in a long derivative (a reverse sweep of thousands of statements) nearly
// all the arithmetic ends up in the returning block while the values it
// reads stay where they were made, all live at once (register allocation
// then grows faster than linearly). Each side-effect-free, speculatable
// instruction of a returning block outside loops moves back up to just
// after the last of its operands, into the deepest block (in the dominator
// tree) that defines one, when that block is in no loop (at the end of
// the pipeline a straight-line sweep is one block: then the move is within
// it). The returning block post-dominates every block that dominates it,
// so nothing runs more often or on another path. Positions are tracked here (not with
// Instruction::comesBefore, whose renumbering after each move would be
// quadratic). Returns the number of instructions moved.
extern "C" unsigned ers_hoist_sunk_into_returns(LLVMValueRef fn) {
  Function &F = *unwrap<Function>(fn);
  if (F.empty()) return 0;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  // Order keys within a block, with room between them for moved ones.
  const uint64_t gap = uint64_t(1) << 32, step = uint64_t(1) << 12;
  DenseMap<Instruction *, uint64_t> key;
  auto renumber = [&](BasicBlock *BB) {
    uint64_t k = 0;
    for (Instruction &I : *BB) key[&I] = (k += gap);
  };
  for (BasicBlock &BB : F) renumber(&BB);
  // The last instruction moved behind each one (moved ones keep order).
  DenseMap<Instruction *, Instruction *> lastMoved;
  unsigned moved = 0;
  for (BasicBlock &R : F) {
    Instruction *T = R.getTerminator();
    if (!T || !succ_empty(T) || LI.getLoopFor(&R) || !DT.isReachableFromEntry(&R)) continue;
    std::vector<Instruction *> insts;
    for (Instruction &I : R) insts.push_back(&I);
    for (Instruction *I : insts) {
      if (isa<PHINode>(I) || I->isTerminator() || isa<AllocaInst>(I) ||
          I->mayHaveSideEffects() || I->mayReadFromMemory() || !isSafeToSpeculativelyExecute(I))
        continue;
      Instruction *latest = nullptr;
      for (Value *op : I->operands()) {
        auto *O = dyn_cast<Instruction>(op);
        if (!O) continue;
        if (!latest) {
          latest = O;
          continue;
        }
        BasicBlock *a = latest->getParent(), *b = O->getParent();
        if (a != b ? DT.getNode(b)->getLevel() > DT.getNode(a)->getLevel() : key[O] > key[latest])
          latest = O;
      }
      if (!latest || latest->isTerminator()) continue;
      BasicBlock *D = latest->getParent();
      if (LI.getLoopFor(D)) continue;
      Instruction *first = latest;
      if (isa<PHINode>(first))
        while (isa<PHINode>(first->getNextNode())) first = first->getNextNode();
      // Behind the one last moved behind the same place (if any): what was
      // moved behind that one in turn does not feed `I` (it would be the
      // latest operand then), so this keeps the order valid.
      Instruction *&last = lastMoved[first];
      Instruction *at = last ? last : first;
      last = I;
      Instruction *next = at->getNextNode();
      I->moveAfter(at);
      // Chains are moved one behind the other: step by a fixed amount while
      // the gap allows, so a block is renumbered rarely.
      uint64_t room = key[next] - key[at];
      if (room < 2)
        renumber(D);
      else
        key[I] = key[at] + std::min(room / 2, step);
      ++moved;
    }
  }
  return moved;
}

// ---------------------------------------------------------------------------
// Loops and dominators, for the reverse mode's caches.
// ---------------------------------------------------------------------------
struct ErsLoops {
  DominatorTree DT;
  LoopInfo LI;
  explicit ErsLoops(Function &F) : DT(F), LI(DT) {}
};

extern "C" void *ers_loops_new(LLVMValueRef fn) { return new ErsLoops(*unwrap<Function>(fn)); }
extern "C" void ers_loops_free(void *h) { delete static_cast<ErsLoops *>(h); }

// Loop depth of a block (0 = not in a loop).
extern "C" unsigned ers_loop_depth(void *h, LLVMBasicBlockRef bb) {
  return static_cast<ErsLoops *>(h)->LI.getLoopDepth(unwrap(bb));
}

// Header of the innermost loop containing bb, or null.
extern "C" LLVMBasicBlockRef ers_loop_header(void *h, LLVMBasicBlockRef bb) {
  Loop *L = static_cast<ErsLoops *>(h)->LI.getLoopFor(unwrap(bb));
  return L ? wrap(L->getHeader()) : nullptr;
}

// Header of the loop enclosing the loop headed by `header`, or null.
extern "C" LLVMBasicBlockRef ers_loop_parent_header(void *h, LLVMBasicBlockRef header) {
  Loop *L = static_cast<ErsLoops *>(h)->LI.getLoopFor(unwrap(header));
  if (!L || !L->getParentLoop()) return nullptr;
  return wrap(L->getParentLoop()->getHeader());
}

// Whether the loop headed by `header` contains bb.
extern "C" int ers_loop_contains(void *h, LLVMBasicBlockRef header, LLVMBasicBlockRef bb) {
  Loop *L = static_cast<ErsLoops *>(h)->LI.getLoopFor(unwrap(header));
  return L && L->contains(unwrap(bb)) ? 1 : 0;
}

// Preheader of the loop headed by `header`, or null when it has none.
extern "C" LLVMBasicBlockRef ers_loop_preheader(void *h, LLVMBasicBlockRef header) {
  Loop *L = static_cast<ErsLoops *>(h)->LI.getLoopFor(unwrap(header));
  if (!L) return nullptr;
  BasicBlock *P = L->getLoopPreheader();
  return P ? wrap(P) : nullptr;
}

extern "C" int ers_dominates(void *h, LLVMValueRef def, LLVMValueRef user) {
  auto *I = dyn_cast<Instruction>(unwrap(def));
  auto *U = dyn_cast<Instruction>(unwrap(user));
  if (!I || !U) return 1;
  return static_cast<ErsLoops *>(h)->DT.dominates(I, U) ? 1 : 0;
}

extern "C" int ers_block_dominates(void *h, LLVMBasicBlockRef a, LLVMBasicBlockRef b) {
  return static_cast<ErsLoops *>(h)->DT.dominates(unwrap(a), unwrap(b)) ? 1 : 0;
}

// Immediate dominator of bb, or null for the entry block.
extern "C" LLVMBasicBlockRef ers_idom(void *h, LLVMBasicBlockRef bb) {
  DomTreeNode *N = static_cast<ErsLoops *>(h)->DT.getNode(unwrap(bb));
  if (!N || !N->getIDom()) return nullptr;
  return wrap(N->getIDom()->getBlock());
}

// Source location of an instruction (from its debug location), or 0.
// ---------------------------------------------------------------------------
// Demangling for messages: LLVM's demangler (Itanium C++, Rust v0, D; a
// name it does not know comes back unchanged). Legacy Rust symbols are
// Itanium names ending in a hash segment, which src/ir/shim.rs strips.
// Returns a malloc'd string (free with ers_free).
// ---------------------------------------------------------------------------
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
extern "C" char *ers_demangle(const char *name) {
  std::string s = llvm::demangle(std::string(name));
  return strdup(s.c_str());
}

// The line of a function's DISubprogram (its `fn` line), 0 if none.
extern "C" unsigned ers_function_line(LLVMValueRef fn, const char **file) {
  auto *F = dyn_cast<Function>(unwrap(fn));
  if (!F) return 0;
  DISubprogram *SP = F->getSubprogram();
  if (!SP) return 0;
  if (file) {
    static thread_local std::string name;
    name = SP->getFilename().str();
    *file = name.c_str();
  }
  return SP->getLine();
}

extern "C" unsigned ers_debug_line(LLVMValueRef inst, const char **file) {
  auto *I = dyn_cast<Instruction>(unwrap(inst));
  if (!I) return 0;
  const DebugLoc &DL = I->getDebugLoc();
  if (!DL) return 0;
  if (file) {
    static thread_local std::string name;
    name = DL->getFilename().str();
    *file = name.c_str();
  }
  return DL.getLine();
}

// ---------------------------------------------------------------------------
// ScalarEvolution: whether two pointers have the same SCEV expression in
// their function.
// ---------------------------------------------------------------------------
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/TargetParser/Triple.h"
#include "analyses.h"

using ErsScev = ErsAnalyses;

extern "C" void *ers_scev_new(LLVMValueRef fn) { return new ErsScev(*unwrap<Function>(fn)); }
extern "C" void ers_scev_free(void *h) { delete static_cast<ErsScev *>(h); }
extern "C" int ers_scev_equal(void *h, LLVMValueRef a, LLVMValueRef b) {
  auto *S = static_cast<ErsScev *>(h);
  Value *A = unwrap(a), *B = unwrap(b);
  if (A == B) return 1;
  if (!S->SE.isSCEVable(A->getType()) || !S->SE.isSCEVable(B->getType())) return 0;
  return S->SE.getSCEV(A) == S->SE.getSCEV(B) ? 1 : 0;
}
// Whether the loop containing bb_a is the loop containing bb_b or encloses it.
extern "C" int ers_scev_same_or_enclosing_loop(void *h, LLVMBasicBlockRef a, LLVMBasicBlockRef b) {
  auto *S = static_cast<ErsScev *>(h);
  Loop *LA = S->LI.getLoopFor(unwrap(a));
  Loop *LB = S->LI.getLoopFor(unwrap(b));
  if (LA == LB) return 1;
  if (!LA) return 1;
  return LA->contains(LB) ? 1 : 0;
}
extern "C" int ers_scev_dominates(void *h, LLVMValueRef a, LLVMValueRef b) {
  auto *S = static_cast<ErsScev *>(h);
  return S->DT.dominates(cast<Instruction>(unwrap(a)), cast<Instruction>(unwrap(b))) ? 1 : 0;
}

// The number of times the backedge of the loop headed by `header` is taken
// before the loop exits, as an i64 computed in the loop's preheader (from
// SCEV's exit count), or null when the loop has no preheader, more than one
// exiting block, or an exit count SCEV cannot compute or expand cheaply.
// With one exiting block this is the loop's iteration counter at the exit.
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

extern "C" LLVMValueRef ers_scev_expand_exit_count(void *h, LLVMBasicBlockRef header) {
  auto *S = static_cast<ErsScev *>(h);
  BasicBlock *H = unwrap(header);
  Loop *L = S->LI.getLoopFor(H);
  if (!L || L->getHeader() != H) return nullptr;
  BasicBlock *Pre = L->getLoopPreheader();
  BasicBlock *Exiting = L->getExitingBlock();
  if (!Pre || !Exiting) return nullptr;
  const SCEV *EC = S->SE.getExitCount(L, Exiting);
  if (isa<SCEVCouldNotCompute>(EC) || !EC->getType()->isIntegerTy()) return nullptr;
  if (EC->getType()->getIntegerBitWidth() > 64 || EC->getExpressionSize() > 24) return nullptr;
  Type *I64 = Type::getInt64Ty(H->getContext());
  const SCEV *EC64 = S->SE.getZeroExtendExpr(EC, I64);
  const DataLayout &DL = H->getModule()->getDataLayout();
#if LLVM_VERSION_MAJOR >= 20
  (void)DL;
  SCEVExpander Exp(S->SE, "ers.trips");
#else
  SCEVExpander Exp(S->SE, DL, "ers.trips");
#endif
  Instruction *At = Pre->getTerminator();
  if (!Exp.isSafeToExpandAt(EC64, At)) return nullptr;
  Value *V = Exp.expandCodeFor(EC64, I64, At);
  return wrap(V);
}

// A load recurrence: a loop-header phi whose value at iteration k (k = 0
// on entry from the preheader) is the value loaded from `base + k*stride`,
// where base is the address of the load that is its preheader value. GVN
// makes these of neighbour reads: the load of x[i+1] carried to the next
// iteration stands for x[i] there. Chains of such phis are followed (the
// phi of the phi of x[i+1] is x[i-1]). Returns the preheader load (null
// when `phi` is not one), the stride in bytes, and the load inside the loop
// the chain ends at.
static const SCEVAddRecExpr *ersLoadRec(ScalarEvolution &SE, Loop *L, Value *V, LoadInst **Inner,
                                        int Depth) {
  if (Depth > 8) return nullptr;
  if (auto *LD = dyn_cast<LoadInst>(V)) {
    if (!LD->isSimple() || !L->contains(LD)) return nullptr;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(LD->getPointerOperand()));
    if (!AR || AR->getLoop() != L || !AR->isAffine()) return nullptr;
    if (!isa<SCEVConstant>(AR->getStepRecurrence(SE))) return nullptr;
    *Inner = LD;
    return AR;
  }
  auto *P = dyn_cast<PHINode>(V);
  if (!P || P->getParent() != L->getHeader()) return nullptr;
  BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch();
  if (!Pre || !Latch || P->getBasicBlockIndex(Pre) < 0 || P->getBasicBlockIndex(Latch) < 0)
    return nullptr;
  auto *Init = dyn_cast<LoadInst>(P->getIncomingValueForBlock(Pre));
  if (!Init || !Init->isSimple() || L->contains(Init)) return nullptr;
  const SCEVAddRecExpr *N = ersLoadRec(SE, L, P->getIncomingValueForBlock(Latch), Inner, Depth + 1);
  if (!N) return nullptr;
  const SCEV *Step = N->getStepRecurrence(SE);
  const SCEV *Start = SE.getMinusSCEV(N->getStart(), Step);
  if (Start != SE.getSCEV(Init->getPointerOperand())) return nullptr;
  return cast<SCEVAddRecExpr>(SE.getAddRecExpr(Start, Step, L, SCEV::FlagAnyWrap));
}

extern "C" LLVMValueRef ers_scev_load_recurrence(void *h, LLVMValueRef phi, int64_t *stride,
                                                 LLVMValueRef *inner) {
  auto *S = static_cast<ErsScev *>(h);
  auto *P = dyn_cast<PHINode>(unwrap(phi));
  if (!P) return nullptr;
  Loop *L = S->LI.getLoopFor(P->getParent());
  if (!L || L->getHeader() != P->getParent()) return nullptr;
  BasicBlock *Pre = L->getLoopPreheader();
  if (!Pre || P->getBasicBlockIndex(Pre) < 0) return nullptr;
  LoadInst *In = nullptr;
  const SCEVAddRecExpr *AR = ersLoadRec(S->SE, L, P, &In, 0);
  if (!AR || !In) return nullptr;
  *stride = cast<SCEVConstant>(AR->getStepRecurrence(S->SE))->getAPInt().getSExtValue();
  *inner = wrap(In);
  return wrap(P->getIncomingValueForBlock(Pre));
}

// ---------------------------------------------------------------------------
// Exceptions: differentiate as if no exception is thrown. Every invoke
// becomes a call followed by a branch to its normal destination, and the
// landing pads left unreachable are removed. (An exception thrown at run
// time still unwinds out of the derivative, without cleanups in it.)
// Returns the number of invokes changed.
// ---------------------------------------------------------------------------
#include "llvm/Transforms/Utils/Local.h"

// One invoke (of an `__enzyme_*` entry point, say) as a call followed by a
// branch to its normal destination. Returns the call.
extern "C" LLVMValueRef ers_invoke_to_call(LLVMValueRef inv) {
  auto *II = dyn_cast<InvokeInst>(unwrap(inv));
  if (!II) return inv;
  return wrap(changeToCall(II));
}

extern "C" unsigned ers_invokes_to_calls(LLVMValueRef fn) {
  Function *F = unwrap<Function>(fn);
  SmallVector<InvokeInst *, 8> Invokes;
  for (BasicBlock &BB : *F)
    if (auto *II = dyn_cast<InvokeInst>(BB.getTerminator())) Invokes.push_back(II);
  for (InvokeInst *II : Invokes) changeToCall(II);
  if (!Invokes.empty()) removeUnreachableBlocks(*F);
  return Invokes.size();
}

#if LLVM_VERSION_MAJOR == 16 || LLVM_VERSION_MAJOR == 22
// Loaded into clang (-fplugin=libenzyme_rs.so), this plugin also loads the
// clang plugin of Enzyme's source attributes that the build puts beside it
// (libenzyme_rs_clang16.so / _clang22.so, cpp/clang_attrs.cc). That one
// needs clang's symbols, which only a clang process has: in opt and rustc
// it is not loaded.
#include <dlfcn.h>
#include <unistd.h>
namespace {
struct LoadClangAttributes {
  LoadClangAttributes() {
    if (!dlsym(RTLD_DEFAULT, "_ZN4llvm8RegistryIN5clang14ParsedAttrInfoEE4HeadE"))
      return;
    if (std::getenv("ENZYME_RS_NO_CLANG_PLUGIN"))
      return;
    Dl_info info;
    if (!dladdr((void *)&OptPrint, &info) || !info.dli_fname)
      return;
    std::string path(info.dli_fname);
    auto slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    std::string companion =
        dir + "/libenzyme_rs_clang" + std::to_string(LLVM_VERSION_MAJOR) + ".so";
    if (access(companion.c_str(), R_OK) != 0)
      return;
    if (!dlopen(companion.c_str(), RTLD_NOW | RTLD_GLOBAL))
      errs() << "enzyme-rs: cannot load " << companion << ": " << dlerror() << "\n";
  }
} loadClangAttributes;
} // namespace
#endif

// ---------------------------------------------------------------------------
// Guarding a run of instructions with a branch (src/modes/reverse/decisions.rs):
// split the block before `at`, make `if (cond)` around nothing, and move the
// `n` instructions (in order) into the new conditional block. The caller
// checks that nothing else uses them and that moving them is safe.
// ---------------------------------------------------------------------------
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

extern "C" void ers_guard_insts(LLVMValueRef cond, LLVMValueRef at, LLVMValueRef *insts,
                                unsigned n) {
  Instruction *At = unwrap<Instruction>(at);
  Instruction *Term = SplitBlockAndInsertIfThen(unwrap(cond), At, false);
  for (unsigned k = 0; k < n; ++k)
    unwrap<Instruction>(insts[k])->moveBefore(*Term->getParent(), Term->getIterator());
}
