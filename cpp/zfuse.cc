// Zero fusion (src/modes/reverse/zfuse.rs): the part that needs
// ScalarEvolution and CFG edits. Given a copy of a reverse function whose
// only accesses to one shadow parameter's memory are accumulations
// (`store (load q) + v, q`), it proves that those stores, in one loop,
// write every element of one contiguous range starting at the shadow
// exactly once, and guards the copy so that the range's size is checked
// against the caller's zeroing length at run time.
#include "llvm-c/Core.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace llvm;

namespace {

// sext(x) -> zext(x) where x is known non-negative at `At` (a loop guard
// `n > 0`): the primal's `x + n` (sext) and the loop's trip count (zext of
// the same n) then compare equal.
struct SextOfNonNegative : public SCEVRewriteVisitor<SextOfNonNegative> {
  const Instruction *At;
  SextOfNonNegative(ScalarEvolution &SE, const Instruction *At)
      : SCEVRewriteVisitor(SE), At(At) {}
  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) {
    const SCEV *Op = visit(E->getOperand());
    if (SE.isKnownNonNegative(Op) ||
        SE.isKnownPredicateAt(ICmpInst::ICMP_SGE, Op, SE.getZero(Op->getType()), At))
      return SE.getZeroExtendExpr(Op, E->getType());
    return SE.getSignExtendExpr(Op, E->getType());
  }
};

struct Analyses {
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  DominatorTree DT;
  LoopInfo LI;
  ScalarEvolution SE;
  explicit Analyses(Function &F)
      : TLII(Triple(F.getParent()->getTargetTriple())), TLI(TLII, &F), AC(F), DT(F), LI(DT),
        SE(F, TLI, AC, DT, LI) {}
};

} // namespace

// `fn`: the copy of a reverse function, whose last parameter `len` (i64)
// is the caller's zeroing length in bytes; `shadow`: the shadow parameter;
// `stores`: the stores of its accumulations, each `esz` bytes. When every
// store is in one outermost loop with a single exit at its latch, runs on
// every iteration at an affine address of stride +-esz, and the stores'
// ranges chain without gap or overlap from `shadow` on, the copy is
// changed (returns 1):
//   - in the loop's preheader: when the ranges' total size differs from
//     `len`, zero `len` bytes at the shadow and return `fallback` (the
//     reverse function itself) called with the same arguments. Nothing
//     before the preheader may have side effects (checked), so this is the
//     original call.
//   - on every edge that leaves the code before the preheader without
//     reaching it (the loop is skipped): zero `len` bytes at the shadow.
// Otherwise nothing is changed (returns 0 or less: where it failed). The caller then turns the
// accumulations into stores: on the fast path each element is written
// once, first, into memory the caller had zeroed.
extern "C" int ers_zfuse_guard(LLVMValueRef fn, LLVMValueRef shadow, LLVMValueRef len,
                               LLVMValueRef fallback, LLVMValueRef *stores, unsigned n,
                               unsigned esz) {
  Function &F = *unwrap<Function>(fn);
  Value *Sh = unwrap(shadow);
  Value *Len = unwrap(len);
  if (n == 0 || esz == 0) return 0;
  Analyses A(F);
  ScalarEvolution &SE = A.SE;
  Loop *L = nullptr;
  struct Range {
    const SCEV *Lo, *Hi;
  };
  SmallVector<Range, 4> R;
  for (unsigned k = 0; k < n; k++) {
    auto *St = dyn_cast<StoreInst>(unwrap(stores[k]));
    if (!St) return -1;
    Loop *SL = A.LI.getLoopFor(St->getParent());
    if (!SL || SL->getParentLoop() || (L && SL != L)) return -1;
    L = SL;
    // Iterations are counted at the header (the addresses' recurrence):
    // with the exit at the latch, every block dominating the latch runs
    // exit-count + 1 times; with the exit at the header, the header runs
    // exit-count + 1 times and the blocks past it exit-count times.
    BasicBlock *Exiting = L->getExitingBlock();
    BasicBlock *Latch = L->getLoopLatch();
    if (!Exiting || !Latch || !L->getLoopPreheader()) return -2;
    bool AtLatch = Exiting == Latch;
    if (!AtLatch && Exiting != L->getHeader()) return -3;
    if (!A.DT.dominates(St->getParent(), Latch)) return -4;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(St->getPointerOperand()));
    if (!AR || AR->getLoop() != L || !AR->isAffine()) return -5;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Step) return -5;
    int64_t st = Step->getAPInt().getSExtValue();
    if (st != (int64_t)esz && st != -(int64_t)esz) return -6;
    const SCEV *EC = SE.getExitCount(L, Exiting);
    if (isa<SCEVCouldNotCompute>(EC) || !EC->getType()->isIntegerTy()) return -7;
    if (EC->getType()->getIntegerBitWidth() > Step->getType()->getIntegerBitWidth()) return -7;
    EC = SE.getNoopOrZeroExtend(EC, Step->getType());
    bool Once = AtLatch || St->getParent() == L->getHeader();
    // The store's last iteration: EC, or EC - 1 (none when EC is 0: the
    // range below is then empty).
    const SCEV *K = Once ? EC : SE.getMinusSCEV(EC, SE.getOne(EC->getType()));
    const SCEV *Last = SE.getAddExpr(AR->getStart(), SE.getMulExpr(Step, K));
    const SCEV *Lo = st > 0 ? AR->getStart() : Last;
    const SCEV *Top = st > 0 ? Last : AR->getStart();
    R.push_back({Lo, SE.getAddExpr(Top, SE.getConstant(Step->getType(), esz))});
  }
  BasicBlock *Pre = L->getLoopPreheader();
  Instruction *At = Pre->getTerminator();
  SextOfNonNegative Norm(SE, At);
  const SCEV *Base = SE.getSCEV(Sh);
  const SCEV *Cur = Base;
  SmallVector<bool, 4> Used(n, false);
  for (unsigned c = 0; c < n; c++) {
    bool found = false;
    for (unsigned k = 0; k < n && !found; k++) {
      if (Used[k]) continue;
      const SCEV *D = SE.getMinusSCEV(R[k].Lo, Cur);
      if (!isa<SCEVCouldNotCompute>(D) && !D->isZero()) D = Norm.visit(D);
      if (!isa<SCEVCouldNotCompute>(D) && D->isZero()) {
        Used[k] = true;
        Cur = R[k].Hi;
        found = true;
      }
    }
    if (!found) {
      if (getenv("ENZYME_RS_ZFUSE_DEBUG")) {
        errs() << "zfuse: no range starts at " << *Cur << "\n";
        for (unsigned k = 0; k < n; k++)
          errs() << "  [" << *R[k].Lo << ", " << *R[k].Hi << ")\n";
      }
      return -8;
    }
  }
  const SCEV *Size = SE.getMinusSCEV(Cur, Base);
  if (isa<SCEVCouldNotCompute>(Size) || !Size->getType()->isIntegerTy() ||
      Size->getType()->getIntegerBitWidth() > 64 || Size->getExpressionSize() > 32)
    return -9;
  Type *I64 = Type::getInt64Ty(F.getContext());
  Size = SE.getNoopOrZeroExtend(Size, I64);
  // The code that runs before the preheader: side-effect free, so the
  // fallback call there is the original call.
  SmallPtrSet<BasicBlock *, 16> Before;
  SmallVector<BasicBlock *, 16> Work(pred_begin(Pre), pred_end(Pre));
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (B == Pre || !Before.insert(B).second) continue;
    if (L->contains(B)) return -10;
    for (BasicBlock *P : predecessors(B)) Work.push_back(P);
  }
  for (BasicBlock *B : Before)
    for (Instruction &I : *B)
      if (I.mayHaveSideEffects()) return -11;
  for (Instruction &I : *Pre)
    if (I.mayHaveSideEffects()) return -11;
  // Edges from that code to blocks that cannot reach the preheader.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Bypass;
  for (BasicBlock *B : Before) {
    Instruction *T = B->getTerminator();
    SmallPtrSet<BasicBlock *, 4> Seen;
    for (unsigned i = 0; i < T->getNumSuccessors(); i++) {
      BasicBlock *S = T->getSuccessor(i);
      if (!Seen.insert(S).second) return -12; // two edges to one block
      if (S != Pre && !Before.count(S)) Bypass.push_back({B, S});
    }
  }
  const DataLayout &DL = F.getParent()->getDataLayout();
#if LLVM_VERSION_MAJOR >= 20
  (void)DL;
  SCEVExpander Exp(SE, "ers.zfuse");
#else
  SCEVExpander Exp(SE, DL, "ers.zfuse");
#endif
  if (!Exp.isSafeToExpandAt(Size, At)) return -13;
  Value *SizeV = Exp.expandCodeFor(Size, I64, At);
  LLVMContext &Ctx = F.getContext();
  IRBuilder<> B(At);
  Value *Ok = B.CreateICmpEQ(SizeV, Len, "ers.zfuse.covered");
  BasicBlock *Fast = Pre->splitBasicBlock(At, "ers.zfuse.fast");
  BasicBlock *Slow = BasicBlock::Create(Ctx, "ers.zfuse.slow", &F);
  Pre->getTerminator()->eraseFromParent();
  BranchInst::Create(Fast, Slow, Ok, Pre);
  IRBuilder<> SB(Slow);
  SB.CreateMemSet(Sh, SB.getInt8(0), Len, MaybeAlign());
  SmallVector<Value *, 8> Args;
  for (unsigned i = 0; i + 1 < F.arg_size(); i++) Args.push_back(F.getArg(i));
  CallInst *C = SB.CreateCall(cast<Function>(unwrap(fallback)), Args);
  if (F.getReturnType()->isVoidTy())
    SB.CreateRetVoid();
  else
    SB.CreateRet(C);
  for (auto &E : Bypass) {
    BasicBlock *Mid = BasicBlock::Create(Ctx, "ers.zfuse.skipped", &F);
    IRBuilder<> MB(Mid);
    MB.CreateMemSet(Sh, MB.getInt8(0), Len, MaybeAlign());
    MB.CreateBr(E.second);
    Instruction *T = E.first->getTerminator();
    for (unsigned i = 0; i < T->getNumSuccessors(); i++)
      if (T->getSuccessor(i) == E.second) T->setSuccessor(i, Mid);
    E.second->replacePhiUsesWith(E.first, Mid);
  }
  return 1;
}
