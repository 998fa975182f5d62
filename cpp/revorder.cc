// Forward-order reverse loops (src/modes/reverse/rev/order.rs): the reverse
// of a counted innermost loop counts its iterations down, so every array it
// walks is walked backwards (a vectorized copy reverses the lanes of each
// load and store). When the loop's iterations commute, the reverse can run
// them in the primal's order instead. The plugin marks the reverse loops of
// primal loops that write no memory and call nothing that does (their
// reverse only adds into shadows); here, after the cleanup pipeline, each
// marked loop is checked once more on its own IR and, when it passes,
// every use of its counter in the body reads the mirrored counter
// (`first + last - iv`): the same iterations in the opposite order.
#include "llvm-c/Core.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

static const char *const MARK = "enzyme_rs.reverse.commutes";

namespace {
struct OrderAnalyses {
  TargetLibraryInfoImpl TLII;
  TargetLibraryInfo TLI;
  AssumptionCache AC;
  DominatorTree DT;
  LoopInfo LI;
  ScalarEvolution SE;
  explicit OrderAnalyses(Function &F)
      : TLII(Triple(F.getParent()->getTargetTriple())), TLI(TLII, &F), AC(F), DT(F), LI(DT),
        SE(F, TLI, AC, DT, LI) {}
};
} // namespace

// Whether loop id `md` carries the mark.
static bool hasMark(MDNode *md) {
  if (!md)
    return false;
  for (unsigned k = 1; k < md->getNumOperands(); k++)
    if (auto *s = dyn_cast_or_null<MDString>(md->getOperand(k).get()))
      if (s->getString() == MARK)
        return true;
  return false;
}

// Loop id `md` without the mark (null when nothing else is left).
static MDNode *withoutMark(LLVMContext &C, MDNode *md) {
  SmallVector<Metadata *, 4> ops;
  ops.push_back(nullptr);
  for (unsigned k = 1; k < md->getNumOperands(); k++) {
    auto *s = dyn_cast_or_null<MDString>(md->getOperand(k).get());
    if (s && s->getString() == MARK)
      continue;
    ops.push_back(md->getOperand(k).get());
  }
  if (ops.size() == 1)
    return nullptr;
  MDNode *n = MDNode::getDistinct(C, ops);
  n->replaceOperandWith(0, n);
  return n;
}

// Marks the loop whose latch ends in `br` (a branch of the reverse sweep).
extern "C" void ers_mark_commuting_loop(LLVMValueRef br) {
  auto *I = cast<Instruction>(unwrap(br));
  LLVMContext &C = I->getContext();
  Metadata *ops[] = {nullptr, MDString::get(C, MARK)};
  MDNode *n = MDNode::getDistinct(C, ops);
  n->replaceOperandWith(0, n);
  I->setMetadata(LLVMContext::MD_loop, n);
}

// `St` adds into the element it loads: `store (fadd (load q), v), q` (or
// `fadd v, (load q)`, `fsub (load q), v`), the load in the loop and used
// only there.
static bool isAccumulation(StoreInst *St, const Loop *L) {
  auto *Op = dyn_cast<BinaryOperator>(St->getValueOperand());
  if (!Op || !Op->hasOneUse() || !L->contains(Op))
    return false;
  auto isOwnLoad = [&](Value *V) {
    auto *Ld = dyn_cast<LoadInst>(V);
    return Ld && Ld->isSimple() && Ld->hasOneUse() && L->contains(Ld) &&
           Ld->getPointerOperand() == St->getPointerOperand() &&
           Ld->getType() == St->getValueOperand()->getType();
  };
  if (Op->getOpcode() == Instruction::FAdd)
    return isOwnLoad(Op->getOperand(0)) || isOwnLoad(Op->getOperand(1));
  if (Op->getOpcode() == Instruction::FSub)
    return isOwnLoad(Op->getOperand(0));
  return false;
}

static bool onStack(Value *Ptr) {
  return isa<AllocaInst>(getUnderlyingObject(Ptr, 0));
}

// Why marked loop `L` cannot run in the other order (null: it can). `Iv`,
// `Next` and `Cmp` are set when it can.
static const char *refuse(Loop *L, ScalarEvolution &SE, PHINode *&Iv, Instruction *&Next,
                          ICmpInst *&Cmp) {
  if (!L->isInnermost())
    return "not innermost";
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Exiting = L->getExitingBlock();
  if (!L->getLoopPreheader() || !Latch || !Exiting || !L->getUniqueExitBlock())
    return "shape";
  BasicBlock *H = L->getHeader();
  Iv = nullptr;
  for (PHINode &P : H->phis()) {
    if (Iv)
      return "a value carried between iterations";
    Iv = &P;
  }
  if (!Iv || !Iv->getType()->isIntegerTy())
    return "no integer counter";
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Iv));
  if (!AR || AR->getLoop() != L || !AR->isAffine())
    return "counter not affine";
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || !Step->getAPInt().isNegative())
    return "counter does not count down";
  if (isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(L)))
    return "trip count unknown";
  Next = dyn_cast<Instruction>(Iv->getIncomingValueForBlock(Latch));
  if (!Next || !L->contains(Next) || Next->getOpcode() != Instruction::Add ||
      Next->getOperand(0) != Iv || !isa<ConstantInt>(Next->getOperand(1)))
    return "counter step";
  auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!Br || !Br->isConditional())
    return "exit branch";
  Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || !L->contains(Cmp) || !Cmp->hasOneUse())
    return "exit test";
  for (Value *O : Cmp->operands())
    if (O != Iv && O != Next && !L->isLoopInvariant(O))
      return "exit test reads the body";
  for (BasicBlock *B : L->blocks())
    for (Instruction &I : *B) {
      for (User *U : I.users()) {
        auto *UI = dyn_cast<Instruction>(U);
        if (!UI || !L->contains(UI))
          return "a value used after the loop";
      }
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        if (!St->isSimple() || onStack(St->getPointerOperand()) || !isAccumulation(St, L))
          return "a store that is not an accumulation";
        continue;
      }
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (!Ld->isSimple() || onStack(Ld->getPointerOperand()))
          return "a load of a local or not simple";
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (!isa<CallInst>(CB) || !CB->doesNotAccessMemory() || !CB->willReturn() ||
            CB->mayHaveSideEffects())
          return "a call";
        continue;
      }
      if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects() || isa<AllocaInst>(I))
        return "memory or side effects";
    }
  return nullptr;
}

// The marked loops of `fn` whose iterations commute run in the other
// order; every mark is removed. Returns how many loops were turned.
extern "C" unsigned ers_forward_reverse_loops(LLVMValueRef fn) {
  Function &F = *cast<Function>(unwrap(fn));
  if (F.isDeclaration())
    return 0;
  LLVMContext &C = F.getContext();
  bool any = false;
  for (BasicBlock &B : F)
    if (hasMark(B.getTerminator() ? B.getTerminator()->getMetadata(LLVMContext::MD_loop) : nullptr))
      any = true;
  if (!any)
    return 0;
  OrderAnalyses A(F);
  unsigned turned = 0;
  SmallVector<Loop *, 8> marked;
  for (Loop *L : A.LI.getLoopsInPreorder())
    if (hasMark(L->getLoopID()))
      marked.push_back(L);
  for (Loop *L : marked) {
    PHINode *Iv = nullptr;
    Instruction *Next = nullptr;
    ICmpInst *Cmp = nullptr;
    if (refuse(L, A.SE, Iv, Next, Cmp))
      continue;
    auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(Iv));
    Type *T = Iv->getType();
    const SCEV *Btc = A.SE.getTruncateOrZeroExtend(A.SE.getBackedgeTakenCount(L), T);
    const SCEV *First = AR->getStart();
    const SCEV *Last = A.SE.getAddExpr(First, A.SE.getMulExpr(Btc, AR->getStepRecurrence(A.SE)));
    const SCEV *Sum = A.SE.getAddExpr(First, Last);
#if LLVM_VERSION_MAJOR >= 20
    SCEVExpander Ex(A.SE, "rev.fwd");
#else
    SCEVExpander Ex(A.SE, F.getParent()->getDataLayout(), "rev.fwd");
#endif
    Instruction *At = L->getLoopPreheader()->getTerminator();
    if (!Ex.isSafeToExpand(Sum))
      continue;
    Value *S = Ex.expandCodeFor(Sum, T, At);
    IRBuilder<> Bd(&*L->getHeader()->getFirstInsertionPt());
    Value *Mirror = Bd.CreateSub(S, Iv, "rev.fwd.iv");
    Value *MirrorNext = Bd.CreateAdd(Mirror, Next->getOperand(1), "rev.fwd.next");
    Iv->replaceUsesWithIf(Mirror, [&](Use &U) {
      auto *UI = cast<Instruction>(U.getUser());
      return UI != Next && UI != Cmp && UI != Mirror;
    });
    Next->replaceUsesWithIf(MirrorNext, [&](Use &U) {
      auto *UI = cast<Instruction>(U.getUser());
      return UI != Iv && UI != Cmp;
    });
    A.SE.forgetLoop(L);
    turned++;
  }
  // Drop every mark (turned or not): nothing after this reads it.
  for (BasicBlock &B : F) {
    Instruction *T = B.getTerminator();
    if (!T)
      continue;
    MDNode *md = T->getMetadata(LLVMContext::MD_loop);
    if (hasMark(md))
      T->setMetadata(LLVMContext::MD_loop, withoutMark(C, md));
  }
  return turned;
}
