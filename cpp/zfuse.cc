// Zero fusion (src/modes/reverse/zfuse.rs): the part that needs
// ScalarEvolution and CFG edits. Given a copy of a reverse function whose
// only accesses to one shadow parameter's memory are accumulations
// (`store (load q) + v, q`), it proves that those stores, in one loop,
// write every element of one contiguous range starting at the shadow
// exactly once, and guards the copy so that the range's size is checked
// against the caller's zeroing length at run time.
#include "analyses.h"
#include "llvm-c/Core.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
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

using Analyses = ErsAnalyses;

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
// The load of accumulation `St: store (load q) + v, q`.
static LoadInst *accLoad(StoreInst *St) {
  auto *Add = dyn_cast<Instruction>(St->getValueOperand());
  if (!Add) return nullptr;
  for (Value *Op : Add->operands())
    if (auto *X = dyn_cast<LoadInst>(Op))
      if (X->getPointerOperand() == St->getPointerOperand()) return X;
  return nullptr;
}

// The index of the last iteration of `L` in which block `B` (in `L`'s own
// body) runs, as a SCEV of type `Ty`: with `L`'s single exiting block E
// dominating its latch, every iteration passes E, so a block dominating E
// runs exit-count + 1 times (`Every`: in every iteration, the first
// included) and one between E and the latch exit-count times. Null (with
// `Err`) when the loop is not of that shape.
static const SCEV *lastIteration(Analyses &A, Loop *L, BasicBlock *B, Type *Ty, bool &Every,
                                 int &Err) {
  ScalarEvolution &SE = A.SE;
  BasicBlock *E = L->getExitingBlock();
  BasicBlock *Latch = L->getLoopLatch();
  if (!E || !Latch || !L->getLoopPreheader()) return Err = -2, nullptr;
  if (!A.DT.dominates(E, Latch)) return Err = -3, nullptr;
  if (!A.DT.dominates(B, Latch)) return Err = -4, nullptr;
  const SCEV *EC = SE.getExitCount(L, E);
  if (isa<SCEVCouldNotCompute>(EC) || !EC->getType()->isIntegerTy() ||
      EC->getType()->getIntegerBitWidth() > Ty->getIntegerBitWidth())
    return Err = -7, nullptr;
  EC = SE.getNoopOrZeroExtend(EC, Ty);
  Every = A.DT.dominates(B, E);
  return Every ? EC : SE.getMinusSCEV(EC, SE.getOne(Ty));
}

// `fn`: the copy of a reverse function, whose last parameter `len` (i64)
// is the caller's zeroing length in bytes; `shadow`: the shadow parameter;
// `stores`: the stores of its accumulations, each `esz` bytes. Every store
// must be in one outermost loop L, either in L's own body or in the body of
// a loop nested directly in L, run on every iteration of its loop, at an
// affine address of stride +-esz in its loop. A store in a nested loop
// either moves on with L (its per-iteration ranges must tile one range:
// L's stride is +- the inner range's size) or writes one range that does
// not change with L's iteration (then the first iteration of L must run
// the inner loop: it stores, the later ones add; `first[k]` is set to 1
// and its load is replaced by `select(first iteration of L, 0.0, load)`,
// which is what the caller's zeroing gave). The stores' ranges must chain
// without gap or overlap from `shadow` on. Then the copy is changed
// (returns 1):
//   - in L's preheader: when the ranges' total size differs from `len`,
//     zero `len` bytes at the shadow and return `fallback` (the reverse
//     function itself) called with the same arguments. Nothing before the
//     preheader may have side effects (checked), so this is the original
//     call.
//   - on every edge that leaves the code before the preheader without
//     reaching it (the loop is skipped): zero `len` bytes at the shadow.
// Otherwise nothing is changed (returns 0 or less: where it failed). The
// caller then turns the accumulations with `first[k] == 0` into stores: on
// the fast path each element is written once, first, into memory the
// caller had zeroed.
extern "C" int ers_zfuse_guard(LLVMValueRef fn, LLVMValueRef shadow, LLVMValueRef len,
                               LLVMValueRef fallback, LLVMValueRef *stores, unsigned n,
                               unsigned esz, unsigned char *first) {
  Function &F = *unwrap<Function>(fn);
  Value *Sh = unwrap(shadow);
  Value *Len = unwrap(len);
  if (n == 0 || esz == 0) return 0;
  Analyses A(F);
  ScalarEvolution &SE = A.SE;
  // The outermost loop of every store.
  Loop *L = nullptr;
  for (unsigned k = 0; k < n; k++) {
    auto *St = dyn_cast<StoreInst>(unwrap(stores[k]));
    if (!St) return -1;
    Loop *SL = A.LI.getLoopFor(St->getParent());
    if (!SL) return -1;
    Loop *Top = SL->getParentLoop() ? SL->getParentLoop() : SL;
    if (Top->getParentLoop() || (L && Top != L)) return -1;
    L = Top;
  }
  if (!L->getLoopPreheader()) return -2;
  SextOfNonNegative Norm(SE, L->getLoopPreheader()->getTerminator());
  auto IsZero = [&](const SCEV *D) {
    if (isa<SCEVCouldNotCompute>(D)) return false;
    if (!D->isZero()) D = Norm.visit(D);
    return !isa<SCEVCouldNotCompute>(D) && D->isZero();
  };
  struct Range {
    const SCEV *Lo, *Hi;
  };
  SmallVector<Range, 4> R;
  SmallVector<StoreInst *, 4> Firsts;
  for (unsigned k = 0; k < n; k++) {
    first[k] = 0;
    auto *St = cast<StoreInst>(unwrap(stores[k]));
    Loop *SL = A.LI.getLoopFor(St->getParent());
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(St->getPointerOperand()));
    if (!AR || AR->getLoop() != SL || !AR->isAffine()) return -5;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Step) return -5;
    int64_t st = Step->getAPInt().getSExtValue();
    if (st != (int64_t)esz && st != -(int64_t)esz) return -6;
    Type *Ty = Step->getType();
    int Err = 0;
    bool Every = false;
    // The store's last iteration (none when it is -1: the range below is
    // then empty).
    const SCEV *K = lastIteration(A, SL, St->getParent(), Ty, Every, Err);
    if (!K) return Err;
    const SCEV *Last = SE.getAddExpr(AR->getStart(), SE.getMulExpr(Step, K));
    const SCEV *Lo = st > 0 ? AR->getStart() : Last;
    const SCEV *Top = st > 0 ? Last : AR->getStart();
    const SCEV *Hi = SE.getAddExpr(Top, SE.getConstant(Ty, esz));
    if (SL == L) {
      R.push_back({Lo, Hi});
      continue;
    }
    // In a loop nested in L: its trip count must not change with L.
    if (!SE.isLoopInvariant(K, L)) return -14;
    bool EveryOuter = false;
    const SCEV *K1 = lastIteration(A, L, SL->getLoopPreheader(), Ty, EveryOuter, Err);
    if (!K1) return Err;
    if (SE.isLoopInvariant(Lo, L)) {
      // The same range in every iteration of L: the first one stores.
      if (!EveryOuter) return -15;
      R.push_back({Lo, Hi});
      if (!accLoad(St)) return -18;
      Firsts.push_back(St);
      first[k] = 1;
      continue;
    }
    // Moving with L: the inner ranges must tile one range.
    auto *OAR = dyn_cast<SCEVAddRecExpr>(Lo);
    if (!OAR || OAR->getLoop() != L || !OAR->isAffine()) return -16;
    const SCEV *OStep = OAR->getStepRecurrence(SE);
    const SCEV *Width = SE.getMinusSCEV(Hi, Lo);
    if (isa<SCEVCouldNotCompute>(Width) || !SE.isLoopInvariant(Width, L)) return -16;
    bool Up;
    if (IsZero(SE.getMinusSCEV(OStep, Width)))
      Up = true;
    else if (IsZero(SE.getAddExpr(OStep, Width)))
      Up = false;
    else
      return -17;
    const SCEV *Lo0 = Up ? OAR->getStart() : OAR->evaluateAtIteration(K1, SE);
    const SCEV *N1 = SE.getAddExpr(K1, SE.getOne(Ty));
    R.push_back({Lo0, SE.getAddExpr(Lo0, SE.getMulExpr(N1, Width))});
  }
  BasicBlock *Pre = L->getLoopPreheader();
  Instruction *At = Pre->getTerminator();
  const SCEV *Base = SE.getSCEV(Sh);
  const SCEV *Cur = Base;
  SmallVector<bool, 4> Used(n, false);
  for (unsigned c = 0; c < n; c++) {
    bool found = false;
    for (unsigned k = 0; k < n && !found; k++) {
      if (Used[k]) continue;
      if (IsZero(SE.getMinusSCEV(R[k].Lo, Cur))) {
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
  if (!Firsts.empty()) {
    // `first`: whether this is L's first iteration; the stores written in
    // every iteration of L add to 0.0 in the first one.
    BasicBlock *H = L->getHeader();
    IRBuilder<> PB(H, H->begin());
    PHINode *P = PB.CreatePHI(Type::getInt1Ty(Ctx), 2, "ers.zfuse.first");
    for (BasicBlock *Pr : predecessors(H))
      P->addIncoming(L->contains(Pr) ? ConstantInt::getFalse(Ctx) : ConstantInt::getTrue(Ctx), Pr);
    for (StoreInst *St : Firsts) {
      LoadInst *Ld = accLoad(St);
      IRBuilder<> SB2(Ld->getNextNode());
      Value *Sel = SB2.CreateSelect(P, ConstantFP::get(Ld->getType(), 0.0), Ld, "ers.zfuse.acc");
      Ld->replaceUsesWithIf(Sel, [&](Use &U) { return U.getUser() != Sel; });
    }
  }
  return 1;
}

// Kept-value range checks (src/modes/reverse/zfuse.rs `split_kept_checks`):
// `br` is a conditional branch on `icmp ult idx, count` in a loop of `fn`
// (the shadow tape's "element within the caller's zeroing" test), or that
// compare itself (its users in the loop: branches, selects), `count`
// defined outside the loop, `idx` an affine recurrence of that loop with
// step +-1 and a computable trip count. The loop is versioned: at its
// preheader, when the first and last `idx` and the backedge-taken count
// are all below `count` (then every iteration's `idx` is), a copy of the
// loop runs in which the test is true; else the loop as it was. Returns 1
// when done, <= 0 (nothing changed) when not applicable. The loop must be
// in LCSSA form with dedicated exits.
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/IR/Verifier.h"

extern "C" int ers_version_kept_check(LLVMValueRef fn, LLVMValueRef br) {
  Function &F = *unwrap<Function>(fn);
  ICmpInst *Cmp = nullptr;
  if (auto *Br = dyn_cast<BranchInst>(unwrap(br))) {
    if (!Br->isConditional() || Br->getFunction() != &F) return 0;
    Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  } else {
    Cmp = dyn_cast<ICmpInst>(unwrap(br));
  }
  if (!Cmp || Cmp->getFunction() != &F || Cmp->getPredicate() != ICmpInst::ICMP_ULT) return -1;
  Analyses A(F);
  ScalarEvolution &SE = A.SE;
  Loop *L = A.LI.getLoopFor(Cmp->getParent());
  if (!L || !L->isLoopSimplifyForm() || !L->isLCSSAForm(A.DT) || !L->hasDedicatedExits())
    return -2;
  Value *Count = Cmp->getOperand(1);
  if (!L->isLoopInvariant(Count) || !Count->getType()->isIntegerTy(64)) return -3;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Cmp->getOperand(0)));
  if (!AR || AR->getLoop() != L || !AR->isAffine()) return -4;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || !(Step->getAPInt().isOne() || Step->getAPInt().isAllOnes())) return -4;
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC) || !BTC->getType()->isIntegerTy()) return -5;
  Type *I64 = Count->getType();
  BTC = SE.getTruncateOrZeroExtend(BTC, I64);
  const SCEV *First = AR->getStart();
  if (First->getType() != I64) return -4;
  const SCEV *Last = SE.getAddExpr(First, SE.getMulExpr(BTC, Step));
  BasicBlock *Pre = L->getLoopPreheader();
  Instruction *At = Pre->getTerminator();
  const DataLayout &DL = F.getParent()->getDataLayout();
#if LLVM_VERSION_MAJOR >= 20
  (void)DL;
  SCEVExpander Exp(SE, "ers.kept");
#else
  SCEVExpander Exp(SE, DL, "ers.kept");
#endif
  for (const SCEV *S : {First, Last, BTC})
    if (!Exp.isSafeToExpandAt(S, At)) return -6;
  Value *FirstV = Exp.expandCodeFor(First, I64, At);
  Value *LastV = Exp.expandCodeFor(Last, I64, At);
  Value *BtcV = Exp.expandCodeFor(BTC, I64, At);
  Exp.clear();
  // Consecutive values from First over BTC < Count steps that end below
  // Count, starting below Count, never wrap: all are below Count.
  IRBuilder<> B(At);
  Value *Ok = B.CreateAnd(B.CreateAnd(B.CreateICmpULT(FirstV, Count), B.CreateICmpULT(LastV, Count)),
                          B.CreateICmpULT(BtcV, Count), "ers.kept.all");
  // Pre -> (check) -> Ph -> loop; the copy gets its own preheader.
  BasicBlock *Ph = SplitBlock(Pre, At, &A.DT, &A.LI, nullptr, Pre->getName() + ".ph");
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 8> Blocks;
  Loop *Copy = cloneLoopWithPreheader(Ph, Pre, L, VMap, ".kept", &A.LI, &A.DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  // LCSSA phis in the exits: the copy's exiting blocks bring the copies.
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  for (BasicBlock *E : Exits)
    for (PHINode &P : E->phis()) {
      unsigned n = P.getNumIncomingValues();
      for (unsigned i = 0; i < n; i++) {
        BasicBlock *In = P.getIncomingBlock(i);
        if (!L->contains(In)) continue;
        Value *V = P.getIncomingValue(i);
        auto It = VMap.find(V);
        Value *NV = It != VMap.end() ? static_cast<Value *>(It->second) : V;
        P.addIncoming(NV, cast<BasicBlock>(static_cast<Value *>(VMap[In])));
      }
    }
  Instruction *T = Pre->getTerminator();
  BranchInst::Create(Copy->getLoopPreheader(), Ph, Ok, T);
  T->eraseFromParent();
  // In the copy the test is true (its users there: the copy's blocks).
  auto *CCmp = cast<ICmpInst>(static_cast<Value *>(VMap[Cmp]));
  CCmp->replaceAllUsesWith(ConstantInt::getTrue(F.getContext()));
  CCmp->eraseFromParent();
  if (verifyFunction(F, &errs())) return -7;
  return 1;
}

// Zero fusion of a shadow-tape pair (src/modes/reverse/zfuse.rs
// `fuse_kept`): `fn` is a copy of the augmented function whose only access
// to shadow parameter `dx` is `store`, the kept value's store into
// `dx + idx` (elements of `esz` bytes), made when `idx < len / esz`
// (`len`, the caller's zeroing length, is `len_load`, a load in the entry
// block). The caller's memset of dx goes; the copy zeroes dx itself unless
// the store's loop writes every element of [dx, dx + len): the store runs
// on every iteration (its block, or the block branching to it on that
// test, dominates the latch, the loop's only exiting block), its address
// starts at dx with stride esz, and the trip count times esz equals len
// (checked at run time in the preheader; a memset there otherwise, and
// one at each return not preceded by the preheader). The per-element test
// `idx < len / esz`, when there is one, gets the `enzyme_rs.kept_check`
// flag. Returns 1 when done, <= 0 when not applicable (nothing changed).
extern "C" int ers_zfuse_kept(LLVMValueRef fn, LLVMValueRef dx, LLVMValueRef len_load,
                              LLVMValueRef store, unsigned esz) {
  Function &F = *unwrap<Function>(fn);
  Value *Dx = unwrap(dx);
  auto *Len = dyn_cast<LoadInst>(unwrap(len_load));
  auto *St = dyn_cast<StoreInst>(unwrap(store));
  if (!Len || !St || Len->getParent() != &F.getEntryBlock() || esz == 0) return 0;
  Analyses A(F);
  ScalarEvolution &SE = A.SE;
  Loop *L = A.LI.getLoopFor(St->getParent());
  if (!L || L->getParentLoop() || !L->getLoopPreheader() || !L->getLoopLatch() ||
      L->getExitingBlock() != L->getLoopLatch() || !L->hasDedicatedExits())
    return -1;
  BasicBlock *Latch = L->getLoopLatch();
  Type *I64 = Len->getType();
  if (!I64->isIntegerTy(64)) return -1;
  // The element address, and the block that must run every iteration.
  Value *Ptr = St->getPointerOperand();
  BasicBlock *Every = St->getParent();
  Value *Test = nullptr;
  if (auto *Sel = dyn_cast<SelectInst>(Ptr)) {
    Test = Sel->getCondition();
    Ptr = Sel->getTrueValue();
  } else if (!A.DT.dominates(Every, Latch)) {
    BasicBlock *P = Every->getSinglePredecessor();
    auto *Br = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
    if (!Br || !Br->isConditional() || Br->getSuccessor(0) != Every ||
        Br->getSuccessor(1) == Every)
      return -2;
    Test = Br->getCondition();
    Every = P;
  }
  if (!L->contains(Every) || !A.DT.dominates(Every, Latch)) return -2;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ptr));
  if (!AR || AR->getLoop() != L || !AR->isAffine()) return -3;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || Step->getAPInt() != esz) return -3;
  if (!SE.getMinusSCEV(AR->getStart(), SE.getSCEV(Dx))->isZero()) return -3;
  const SCEV *LenS = SE.getSCEV(Len);
  if (Test) {
    // idx < len / esz, with idx = 0, 1, ...: true on every iteration of a
    // loop of len / esz iterations.
    auto *C = dyn_cast<ICmpInst>(Test);
    if (!C || C->getPredicate() != ICmpInst::ICMP_ULT) return -4;
    auto *IA = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(C->getOperand(0)));
    if (!IA || IA->getLoop() != L || !IA->getStart()->isZero() ||
        !IA->getStepRecurrence(SE)->isOne())
      return -4;
    const SCEV *Cnt = SE.getUDivExpr(LenS, SE.getConstant(I64, esz));
    if (SE.getSCEV(C->getOperand(1)) != Cnt) return -4;
  }
  const SCEV *BTC = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(BTC)) return -5;
  BTC = SE.getTruncateOrZeroExtend(BTC, I64);
  const SCEV *Bytes = SE.getMulExpr(SE.getAddExpr(BTC, SE.getOne(I64)), SE.getConstant(I64, esz));
  BasicBlock *Pre = L->getLoopPreheader();
  Instruction *At = Pre->getTerminator();
  const DataLayout &DL = F.getParent()->getDataLayout();
#if LLVM_VERSION_MAJOR >= 20
  (void)DL;
  SCEVExpander Exp(SE, "ers.zfuse.kept");
#else
  SCEVExpander Exp(SE, DL, "ers.zfuse.kept");
#endif
  if (!Exp.isSafeToExpandAt(Bytes, At) || !Exp.isSafeToExpandAt(BTC, At)) return -6;
  Value *BytesV = Exp.expandCodeFor(Bytes, I64, At);
  Value *BtcV = Exp.expandCodeFor(BTC, I64, At);
  Exp.clear();
  LLVMContext &Ctx = F.getContext();
  // A flag: the preheader ran (so dx is zeroed or about to be covered).
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Flag = EB.CreateAlloca(Type::getInt1Ty(Ctx), nullptr, "ers.zfuse.kept.ran");
  EB.CreateStore(ConstantInt::getFalse(Ctx), Flag);
  IRBuilder<> B(At);
  // (BTC + 1) * esz == len, without wrapping: BTC < len / esz.
  Value *Covered = B.CreateAnd(
      B.CreateICmpEQ(BytesV, Len),
      B.CreateICmpULT(BtcV, B.CreateUDiv(Len, ConstantInt::get(I64, esz))),
      "ers.zfuse.kept.covered");
  B.CreateStore(ConstantInt::getTrue(Ctx), Flag);
  Instruction *ThenT = SplitBlockAndInsertIfThen(B.CreateNot(Covered), At, false);
  IRBuilder<> TB(ThenT);
  TB.CreateMemSet(Dx, TB.getInt8(0), Len, MaybeAlign());
  SmallVector<ReturnInst *, 4> Rets;
  for (BasicBlock &BB : F)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator())) Rets.push_back(R);
  for (ReturnInst *R : Rets) {
    IRBuilder<> RB(R);
    Value *Ran = RB.CreateLoad(Type::getInt1Ty(Ctx), Flag);
    Instruction *T2 = SplitBlockAndInsertIfThen(RB.CreateNot(Ran), R, false);
    IRBuilder<> ZB(T2);
    ZB.CreateMemSet(Dx, ZB.getInt8(0), Len, MaybeAlign());
  }
  // The per-element test, for zfuse.rs to version its loop (as the
  // reverse's, ers_version_kept_check).
  if (auto *C = dyn_cast_or_null<ICmpInst>(Test))
    C->setMetadata("enzyme_rs.kept_check", MDNode::get(Ctx, {}));
  if (verifyFunction(F, &errs())) return -7;
  return 1;
}

// In-place shadow (src/modes/reverse/inplace.rs): a reverse function whose
// shadow block dX is to live in the primal block X. `xtags` / `dtags`: the
// tagged values of X and dX in `fn`; `stores`: the stores of the
// accumulations into dX (each `esz` bytes); `xloads`: every load from X;
// `dcalls`: the calls that receive dX (`dbases[i]`, a dX tag, the
// argument). Checked (else <= 0, nothing changed):
//   - every store in the body of one outermost loop L (not a nested loop)
//     with one exit, run on every iteration, at an affine address of step
//     +-esz from one dX tag; their ranges chain without gap or overlap from
//     that tag on (each element written once, in one iteration);
//   - every load from X in L's body, at the same offset from its X tag as
//     one of those stores from dX, in the same iteration (same recurrence),
//     at most `esz` bytes, dominating that store: an element of X is read
//     only in the iteration that first writes that element of dX, before;
//   - L is reached from no call in `dcalls` (they run after L, or without
//     it) and L's preheader from none of L's blocks.
// Then the function is changed (returns 1): a slot `zf` (the offset from
// which dX still has X's bytes) is 0 on entry, the range's size in L's
// preheader; before each call in `dcalls`, when zf is not -1, the bytes of
// the block from zf on (to malloc_usable_size) are zeroed and zf set to
// -1. The caller then turns the accumulations into stores.
extern "C" int ers_inplace_guard(LLVMValueRef fn, LLVMValueRef *stores, unsigned ns,
                                 LLVMValueRef *xloads, unsigned nl, LLVMValueRef *xtags,
                                 unsigned nxt, LLVMValueRef *dtags, unsigned ndt,
                                 LLVMValueRef *dcalls, LLVMValueRef *dbases, unsigned nc,
                                 unsigned esz) {
  Function &F = *unwrap<Function>(fn);
  if (ns == 0 || esz == 0) return 0;
  SmallPtrSet<Value *, 8> XT, DTg;
  for (unsigned i = 0; i < nxt; i++) XT.insert(unwrap(xtags[i]));
  for (unsigned i = 0; i < ndt; i++) DTg.insert(unwrap(dtags[i]));
  Analyses A(F);
  ScalarEvolution &SE = A.SE;
  const DataLayout &DL = F.getParent()->getDataLayout();
  Loop *L = nullptr;
  SmallVector<StoreInst *, 8> Sts;
  for (unsigned k = 0; k < ns; k++) {
    auto *St = dyn_cast<StoreInst>(unwrap(stores[k]));
    if (!St || St->getFunction() != &F) return -1;
    Loop *SL = A.LI.getLoopFor(St->getParent());
    if (!SL || SL->getParentLoop() || (L && SL != L)) return -1;
    L = SL;
    Sts.push_back(St);
  }
  BasicBlock *Pre = L->getLoopPreheader();
  if (!Pre) return -2;
  SextOfNonNegative Norm(SE, Pre->getTerminator());
  auto IsZero = [&](const SCEV *D) {
    if (isa<SCEVCouldNotCompute>(D)) return false;
    if (!D->isZero()) D = Norm.visit(D);
    return !isa<SCEVCouldNotCompute>(D) && D->isZero();
  };
  auto BaseOf = [&](Value *P) -> Value * {
    auto *U = dyn_cast<SCEVUnknown>(SE.getPointerBase(SE.getSCEV(P)));
    return U ? U->getValue() : nullptr;
  };
  Value *DB = BaseOf(Sts[0]->getPointerOperand());
  if (!DB || !DTg.count(DB)) return -20;
  const SCEV *DBS = SE.getSCEV(DB);
  struct Range {
    const SCEV *Lo, *Hi;
  };
  SmallVector<Range, 8> R;
  SmallVector<const SCEV *, 8> Off;
  // Per store: its recurrence's start, step and last iteration.
  struct Rec {
    const SCEV *Start, *K;
    int64_t Step;
    bool Done;
  };
  SmallVector<Rec, 8> Recs;
  for (StoreInst *St : Sts) {
    if (BaseOf(St->getPointerOperand()) != DB) return -20;
    if (DL.getTypeStoreSize(St->getValueOperand()->getType()) != esz) return -6;
    const SCEV *P = SE.getSCEV(St->getPointerOperand());
    auto *AR = dyn_cast<SCEVAddRecExpr>(P);
    if (!AR || AR->getLoop() != L || !AR->isAffine()) return -5;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Step) return -5;
    int64_t st = Step->getAPInt().getSExtValue();
    if (st == 0 || st % (int64_t)esz) return -6;
    int Err = 0;
    bool Every = false;
    const SCEV *K = lastIteration(A, L, St->getParent(), Step->getType(), Every, Err);
    if (!K) return Err;
    if (!Every) return -4;
    Recs.push_back({AR->getStart(), K, st, false});
    const SCEV *O = SE.getMinusSCEV(P, DBS);
    if (isa<SCEVCouldNotCompute>(O)) return -25;
    Off.push_back(O);
  }
  // Stores of one step S = +-m esz whose starts are c, c + esz, ...,
  // c + (m-1) esz together write [c, c + m esz) in each iteration: one
  // contiguous range over the iterations.
  for (unsigned k = 0; k < Recs.size(); k++) {
    if (Recs[k].Done) continue;
    int64_t st = Recs[k].Step;
    int64_t m = (st < 0 ? -st : st) / (int64_t)esz;
    SmallVector<int64_t, 8> Cs;
    const SCEV *Min = Recs[k].Start;
    int64_t MinC = 0;
    for (unsigned j = 0; j < Recs.size(); j++) {
      if (Recs[j].Done || Recs[j].Step != st) continue;
      auto *C = dyn_cast<SCEVConstant>(SE.getMinusSCEV(Recs[j].Start, Recs[k].Start));
      if (!C) return -6;
      int64_t c = C->getAPInt().getSExtValue();
      if (Recs[j].K != Recs[k].K) return -6;
      Cs.push_back(c);
      if (c < MinC) MinC = c, Min = Recs[j].Start;
      Recs[j].Done = true;
    }
    if ((int64_t)Cs.size() != m) return -6;
    llvm::sort(Cs);
    for (int64_t j = 0; j < m; j++)
      if (Cs[j] != MinC + j * (int64_t)esz) return -6;
    Type *Ty = Recs[k].K->getType();
    const SCEV *StepS = SE.getConstant(Ty, st);
    const SCEV *Last = SE.getAddExpr(Min, SE.getMulExpr(StepS, Recs[k].K));
    const SCEV *Lo = st > 0 ? Min : Last;
    const SCEV *Top = st > 0 ? Last : Min;
    R.push_back({Lo, SE.getAddExpr(Top, SE.getConstant(Ty, m * (int64_t)esz))});
  }
  // Loads from X: each the element its iteration's store writes, before.
  for (unsigned i = 0; i < nl; i++) {
    auto *Ld = dyn_cast<LoadInst>(unwrap(xloads[i]));
    if (!Ld || Ld->getFunction() != &F || !Ld->isSimple()) return -21;
    if (A.LI.getLoopFor(Ld->getParent()) != L) return -21;
    Value *XB = BaseOf(Ld->getPointerOperand());
    if (!XB || !XT.count(XB)) return -22;
    if (DL.getTypeStoreSize(Ld->getType()) > esz) return -23;
    const SCEV *O = SE.getMinusSCEV(SE.getSCEV(Ld->getPointerOperand()), SE.getSCEV(XB));
    if (isa<SCEVCouldNotCompute>(O)) return -24;
    bool ok = false;
    for (unsigned k = 0; k < Sts.size() && !ok; k++)
      ok = IsZero(SE.getMinusSCEV(O, Off[k])) && A.DT.dominates(Ld, Sts[k]);
    if (!ok) return -24;
  }
  // The ranges chain from DB: each element written exactly once.
  const SCEV *Cur = DBS;
  SmallVector<bool, 8> Used(R.size(), false);
  if (getenv("ENZYME_RS_ZFUSE_DEBUG"))
    for (auto &X : R) errs() << "inplace: [" << *X.Lo << ", " << *X.Hi << ")\n";
  for (unsigned c = 0; c < R.size(); c++) {
    bool found = false;
    for (unsigned k = 0; k < R.size() && !found; k++) {
      if (Used[k]) continue;
      if (IsZero(SE.getMinusSCEV(R[k].Lo, Cur))) {
        Used[k] = true;
        Cur = R[k].Hi;
        found = true;
      }
    }
    if (!found) return -8;
  }
  const SCEV *Size = SE.getMinusSCEV(Cur, DBS);
  if (isa<SCEVCouldNotCompute>(Size) || !Size->getType()->isIntegerTy() ||
      Size->getType()->getIntegerBitWidth() > 64 || Size->getExpressionSize() > 32)
    return -9;
  Type *I64 = Type::getInt64Ty(F.getContext());
  Size = SE.getNoopOrZeroExtend(Size, I64);
  // After L: no call receiving dX reaches L; L does not reach its
  // preheader again.
  SmallVector<BasicBlock *, 8> Exits;
  L->getExitBlocks(Exits);
  for (BasicBlock *E : Exits)
    if (isPotentiallyReachable(E, Pre, nullptr, &A.DT, &A.LI)) return -26;
  SmallVector<CallInst *, 4> Calls;
  for (unsigned i = 0; i < nc; i++) {
    auto *C = dyn_cast<CallInst>(unwrap(dcalls[i]));
    if (!C || C->getFunction() != &F || !DTg.count(unwrap(dbases[i]))) return -27;
    if (L->contains(C->getParent()) ||
        isPotentiallyReachable(C->getParent(), L->getHeader(), nullptr, &A.DT, &A.LI))
      return -27;
    Calls.push_back(C);
  }
  Instruction *At = Pre->getTerminator();
#if LLVM_VERSION_MAJOR >= 20
  SCEVExpander Exp(SE, "ers.inplace");
#else
  SCEVExpander Exp(SE, DL, "ers.inplace");
#endif
  if (!Exp.isSafeToExpandAt(Size, At)) return -13;
  Value *SizeV = Exp.expandCodeFor(Size, I64, At);
  LLVMContext &Ctx = F.getContext();
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *ZF = EB.CreateAlloca(I64, nullptr, "ers.inplace.zf");
  EB.CreateStore(ConstantInt::get(I64, 0), ZF);
  IRBuilder<> PB(At);
  PB.CreateStore(SizeV, ZF);
  Module *M = F.getParent();
  FunctionCallee Usable =
      M->getOrInsertFunction("malloc_usable_size", I64, PointerType::getUnqual(Ctx));
  for (unsigned i = 0; i < Calls.size(); i++) {
    CallInst *C = Calls[i];
    Value *P = unwrap(dbases[i]);
    IRBuilder<> CB(C);
    Value *Z = CB.CreateLoad(I64, ZF, "ers.inplace.from");
    Value *Need = CB.CreateICmpNE(Z, ConstantInt::get(I64, -1));
    Instruction *T = SplitBlockAndInsertIfThen(Need, C, false);
    IRBuilder<> TB(T);
    Value *U = TB.CreateCall(Usable, {P}, "ers.inplace.usable");
    Value *S = TB.CreateBinaryIntrinsic(Intrinsic::umin, Z, U);
    Value *Q = TB.CreateGEP(Type::getInt8Ty(Ctx), P, S);
    TB.CreateMemSet(Q, TB.getInt8(0), TB.CreateSub(U, S), MaybeAlign());
    TB.CreateStore(ConstantInt::get(I64, -1), ZF);
  }
  return 1;
}

// A declaration that neither reads nor writes memory, returns, and does
// not unwind (the in-place shadow's tags).
extern "C" void ers_mark_pure_decl(LLVMValueRef fn) {
  Function &F = *unwrap<Function>(fn);
  F.setDoesNotAccessMemory();
  F.setDoesNotThrow();
  F.setWillReturn();
}
