// Cutting a huge derivative into a chain of functions before code
// generation (src/ir/outline.rs, driver::split_for_codegen).
//
// Parts of LLVM's code generator grow faster than linearly with the number
// of calls in one function, whatever its blocks: LLVM 16's two-address pass
// walks the use/def list of a physical register ($xmm0 carries every libm
// call's argument and result), and that list is per function; register
// allocation and stack-slot colouring compare live ranges that span the
// whole function. A straight-line gradient of N statements holds
// thousands of calls. Here consecutive single-entry pieces of such a
// function move into internal noinline functions of bounded size, called
// one after the other (LLVM's CodeExtractor does the moving: values live in
// as arguments, values live out through pointers to stack slots of the
// caller; its struct-of-arguments form crashed LLVM 16 on these functions).
#include "llvm-c/Core.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

#include <vector>

using namespace llvm;

// -mllvm -enzyme-rs-chunk-calls=N (or ENZYME_RS_CHUNK_CALLS=N): the most
// calls a derivative keeps in one function; 0 turns the chain off.
static cl::opt<int> OptChunkCalls("enzyme-rs-chunk-calls", cl::init(-1), cl::Hidden,
                                  cl::desc("enzyme-rs: most calls per function of a derivative "
                                           "before it is cut into a chain (0: never)"));

extern "C" int ers_opt_chunk_calls() { return OptChunkCalls; }

namespace {
// A call that the code generator lowers to a call (not a debug record or a
// marker).
bool isRealCall(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB) return false;
  if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
    if (isa<DbgInfoIntrinsic>(II)) return false;
    switch (II->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::assume:
    case Intrinsic::experimental_noalias_scope_decl:
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
    case Intrinsic::fabs:
    case Intrinsic::sqrt:
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::copysign:
      return false;
    default:
      break;
    }
  }
  return true;
}

// Whether the block may move into another function: no allocas (their
// lifetime would change), no exception handling, no musttail, no
// variadic or frame intrinsics, no returns_twice callee.
bool movable(const BasicBlock &BB) {
  if (BB.isEHPad() || BB.hasAddressTaken()) return false;
  for (const Instruction &I : BB) {
    if (isa<AllocaInst>(I) || isa<InvokeInst>(I) || isa<CallBrInst>(I) || I.isEHPad() ||
        isa<ReturnInst>(I) || isa<ResumeInst>(I))
      return false;
    if (auto *CI = dyn_cast<CallInst>(&I)) {
      if (CI->isMustTailCall() || CI->canReturnTwice()) return false;
      if (auto *II = dyn_cast<IntrinsicInst>(CI)) {
        switch (II->getIntrinsicID()) {
        case Intrinsic::vastart:
        case Intrinsic::vaend:
        case Intrinsic::localescape:
        case Intrinsic::stacksave:
        case Intrinsic::stackrestore:
        case Intrinsic::eh_typeid_for:
          return false;
        default:
          break;
        }
      }
    }
  }
  return true;
}
} // namespace

// Calls of `fn` the code generator lowers as calls.
extern "C" unsigned ers_count_calls(LLVMValueRef fn) {
  Function &F = *unwrap<Function>(fn);
  unsigned n = 0;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) n += isRealCall(I);
  return n;
}

// Cut `fn` into a chain: its cut points are the blocks outside loops that
// every path from the entry to its one return goes through (the joins of a
// straight-line function's diamonds, each piece of a split block). The
// blocks between two consecutive cut points are a single-entry region;
// consecutive regions join into chunks of at most `max_calls` calls and
// `max_insts` instructions, and each chunk (without the entry's region)
// moves into a new internal noinline function. The new functions go to
// `out` (at most `cap`); returns how many were made.
extern "C" unsigned ers_outline_chain(LLVMValueRef fn, unsigned max_calls, unsigned max_insts,
                                      LLVMValueRef *out, unsigned cap) {
  Function &F = *unwrap<Function>(fn);
  if (F.empty() || F.hasPersonalityFn() || F.isVarArg()) return 0;
  BasicBlock *ret = nullptr;
  for (BasicBlock &BB : F)
    if (isa<ReturnInst>(BB.getTerminator())) {
      if (ret) return 0;
      ret = &BB;
    }
  if (!ret) return 0;
  DominatorTree DT(F);
  PostDominatorTree PDT(F);
  LoopInfo LI(DT);
  BasicBlock *entry = &F.getEntryBlock();
  // Cut points, from the return up the dominator tree, then in order.
  std::vector<BasicBlock *> cuts;
  for (DomTreeNode *N = DT.getNode(ret); N; N = N->getIDom()) {
    BasicBlock *C = N->getBlock();
    if (!LI.getLoopFor(C) && PDT.dominates(C, entry)) cuts.push_back(C);
  }
  std::reverse(cuts.begin(), cuts.end());
  if (cuts.size() < 3 || cuts.front() != entry) return 0;
  DenseMap<BasicBlock *, unsigned> cutIndex;
  for (unsigned i = 0; i < cuts.size(); ++i) cutIndex[cuts[i]] = i;
  // Each reachable block belongs to the region of the nearest cut point
  // that dominates it (cut points form a chain in the dominator tree).
  std::vector<std::vector<BasicBlock *>> regions(cuts.size());
  std::vector<unsigned> calls(cuts.size()), insts(cuts.size());
  std::vector<bool> ok(cuts.size(), true);
  DenseMap<BasicBlock *, unsigned> owner;
  for (BasicBlock &BB : F) {
    DomTreeNode *N = DT.getNode(&BB);
    if (!N) continue;
    SmallVector<BasicBlock *, 8> path;
    unsigned r = ~0u;
    for (; N; N = N->getIDom()) {
      BasicBlock *B = N->getBlock();
      auto c = cutIndex.find(B);
      if (c != cutIndex.end()) {
        r = c->second;
        break;
      }
      auto o = owner.find(B);
      if (o != owner.end()) {
        r = o->second;
        break;
      }
      path.push_back(B);
    }
    if (r == ~0u) return 0;
    for (BasicBlock *B : path) owner[B] = r;
    regions[r].push_back(&BB);
    for (Instruction &I : BB) calls[r] += isRealCall(I);
    insts[r] += BB.size();
    if (!movable(BB)) ok[r] = false;
  }
  // Each region's header first (CodeExtractor takes the first block as the
  // entry), the others in function order.
  for (unsigned i = 0; i < cuts.size(); ++i) {
    auto &R = regions[i];
    auto h = std::find(R.begin(), R.end(), cuts[i]);
    if (h != R.end()) std::rotate(R.begin(), h, h + 1);
  }
  // Chunks: runs of movable regions (never the entry's nor the return's).
  std::vector<std::vector<BasicBlock *>> chunks;
  std::vector<BasicBlock *> cur;
  unsigned curCalls = 0, curInsts = 0;
  auto flush = [&]() {
    // A small tail is not worth a call.
    if (!cur.empty() && (curCalls >= max_calls / 4 || curInsts >= max_insts / 4))
      chunks.push_back(cur);
    cur.clear();
    curCalls = curInsts = 0;
  };
  for (unsigned i = 1; i + 1 < cuts.size(); ++i) {
    if (!ok[i]) {
      flush();
      continue;
    }
    if (!cur.empty() && (curCalls + calls[i] > max_calls || curInsts + insts[i] > max_insts))
      flush();
    cur.insert(cur.end(), regions[i].begin(), regions[i].end());
    curCalls += calls[i];
    curInsts += insts[i];
  }
  flush();
  CodeExtractorAnalysisCache CEAC(F);
  unsigned made = 0;
  for (auto &blocks : chunks) {
    CodeExtractor CE(blocks, /*DT=*/nullptr, /*AggregateArgs=*/false, nullptr, nullptr, nullptr,
                     /*AllowVarArgs=*/false, /*AllowAlloca=*/false, /*AllocationBlock=*/nullptr,
                     "chain");
    if (!CE.isEligible()) continue;
    Function *G = CE.extractCodeRegion(CEAC);
    if (!G) continue;
    G->removeFnAttr(Attribute::AlwaysInline);
    G->addFnAttr(Attribute::NoInline);
    G->setLinkage(GlobalValue::InternalLinkage);
    if (made < cap) out[made] = wrap(G);
    ++made;
  }
  return made;
}
