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
#include "analyses.h"
#include "llvm-c/Core.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/SmallPtrSet.h"
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
#include <cstdlib>
#include <cstring>
#include <string>
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static const char *const MARK = "enzyme_rs.reverse.commutes";

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

static void dropMarks(Function &F) {
  for (BasicBlock &B : F) {
    Instruction *T = B.getTerminator();
    if (!T)
      continue;
    MDNode *md = T->getMetadata(LLVMContext::MD_loop);
    if (hasMark(md))
      T->setMetadata(LLVMContext::MD_loop, withoutMark(F.getContext(), md));
  }
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
// `fadd v, (load q)`, `fsub (load q), v`, `fmuladd(a, b, load q)`), the
// load in the loop and used only there.
// `R` is `fmuladd(a, b, X)` (X + a * b) with X not among a and b.
static bool isMulAddTo(Value *R, Value *X) {
  auto *II = dyn_cast<IntrinsicInst>(R);
  return II && (II->getIntrinsicID() == Intrinsic::fmuladd || II->getIntrinsicID() == Intrinsic::fma) &&
         II->getArgOperand(2) == X && II->getArgOperand(0) != X && II->getArgOperand(1) != X;
}

// The load of `St` when `St` adds into the element it loads (else null).
static LoadInst *accumulationLoad(StoreInst *St, const Loop *L) {
  auto *I = dyn_cast<Instruction>(St->getValueOperand());
  if (!I || !I->hasOneUse() || !L->contains(I))
    return nullptr;
  auto ownLoad = [&](Value *V) -> LoadInst * {
    auto *Ld = dyn_cast<LoadInst>(V);
    bool own = Ld && Ld->isSimple() && Ld->hasOneUse() && L->contains(Ld) &&
               Ld->getPointerOperand() == St->getPointerOperand() &&
               Ld->getType() == St->getValueOperand()->getType();
    return own ? Ld : nullptr;
  };
  if (auto *II = dyn_cast<IntrinsicInst>(I))
    return isMulAddTo(II, II->getArgOperand(2)) ? ownLoad(II->getArgOperand(2)) : nullptr;
  auto *Op = dyn_cast<BinaryOperator>(I);
  if (!Op)
    return nullptr;
  if (Op->getOpcode() == Instruction::FAdd) {
    if (LoadInst *Ld = ownLoad(Op->getOperand(0)))
      return Ld;
    return ownLoad(Op->getOperand(1));
  }
  if (Op->getOpcode() == Instruction::FSub)
    return ownLoad(Op->getOperand(0));
  return nullptr;
}

static bool onStack(Value *Ptr) {
  return isa<AllocaInst>(getUnderlyingObject(Ptr, 0));
}

static bool argWithRole(const Value *V, StringRef Role) {
  auto *A = dyn_cast<Argument>(V);
  return A && A->getParent()->getAttributes().hasParamAttr(A->getArgNo(), Role);
}

// A load of a duplicated parameter's memory or of the tape: memory no
// shadow overlaps (the reverse sweep's parameters are marked by
// modes/reverse/mod.rs `mark_param_roles`). Loads through pointers read
// from memory (a const argument's field that may point into a shadow)
// are not.
static bool readsPrimalOrTape(LoadInst *Ld) {
  const Value *O = getUnderlyingObject(Ld->getPointerOperand(), 0);
  if (argWithRole(O, "enzyme_rs.primal"))
    return true;
  auto *TapeData = dyn_cast<LoadInst>(O);
  return TapeData && argWithRole(getUnderlyingObject(TapeData->getPointerOperand(), 0),
                                 "enzyme_rs.tape");
}

// A counter of the loop: an integer header phi `P = {start,+,step}` with
// its increment `Next = P + step` in the loop.
struct Counter {
  PHINode *P;
  Instruction *Next;
};

// What the rewrite needs of a loop that may run in the other order.
struct Plan {
  SmallVector<Counter, 4> counters;
  ICmpInst *Cmp = nullptr;
};

// `P` is a sum: `P' = P + v` (or `v + P`, `P - v`, `fmuladd(a, b, P)`), P read by nothing
// else in the loop and P' by nothing else than P (a sum of terms of the
// iterations, in whatever order they come).
static bool isSum(PHINode *P, Loop *L) {
  if (!P->getType()->isFloatingPointTy() || !P->hasOneUse())
    return false;
  auto *R = dyn_cast<Instruction>(P->getIncomingValueForBlock(L->getLoopLatch()));
  if (!R || !L->contains(R) || *P->user_begin() != R)
    return false;
  bool ok = isMulAddTo(R, P);
  if (auto *B = dyn_cast<BinaryOperator>(R))
    ok = (B->getOpcode() == Instruction::FAdd ||
          (B->getOpcode() == Instruction::FSub && B->getOperand(0) == P)) &&
         B->getOperand(0) != B->getOperand(1);
  if (!ok)
    return false;
  for (User *U : R->users())
    if (U != P && L->contains(cast<Instruction>(U)))
      return false;
  return true;
}

// Why marked loop `L` cannot run in the other order (null: it can; then
// `plan` says how).
static std::string refuse(Loop *L, ScalarEvolution &SE, Plan &plan) {
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Exiting = L->getExitingBlock();
  if (!L->getLoopPreheader() || !Latch || !Exiting || !L->getUniqueExitBlock())
    return "shape";
  if (isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(L)))
    return "trip count unknown";
  SmallPtrSet<Instruction *, 8> carried; // counters, their increments, sums
  for (PHINode &P : L->getHeader()->phis()) {
    if (isSum(&P, L)) {
      carried.insert(&P);
      carried.insert(cast<Instruction>(P.getIncomingValueForBlock(Latch)));
      continue;
    }
    std::string what;
    raw_string_ostream os(what);
    P.print(os);
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
    auto *Next = dyn_cast<Instruction>(P.getIncomingValueForBlock(Latch));
    if (!P.getType()->isIntegerTy() || !AR || AR->getLoop() != L || !AR->isAffine() ||
        !isa<SCEVConstant>(AR->getStepRecurrence(SE)) || !Next || !L->contains(Next) ||
        Next->getOpcode() != Instruction::Add || Next->getOperand(0) != &P ||
        !isa<ConstantInt>(Next->getOperand(1)))
      return "a value carried between iterations:" + os.str();
    plan.counters.push_back({&P, Next});
    carried.insert(&P);
    carried.insert(Next);
  }
  if (plan.counters.empty())
    return "no counter";
  auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!Br || !Br->isConditional())
    return "exit branch";
  plan.Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!plan.Cmp || !L->contains(plan.Cmp) || !plan.Cmp->hasOneUse())
    return "exit test";
  for (Value *O : plan.Cmp->operands()) {
    bool counter = false;
    for (Counter &c : plan.counters)
      counter |= O == c.P || O == c.Next;
    if (!counter && !L->isLoopInvariant(O))
      return "exit test reads the body";
  }
  SmallPtrSet<LoadInst *, 8> accumulations; // the loads of additions
  SmallVector<LoadInst *, 8> loads;
  for (BasicBlock *B : L->blocks())
    for (Instruction &I : *B) {
      // The counters and sums go on as they were: their values after the
      // loop are the same.
      if (!carried.count(&I))
        for (User *U : I.users()) {
          auto *UI = dyn_cast<Instruction>(U);
          if (!UI || !L->contains(UI))
            return "a value used after the loop";
        }
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        LoadInst *Own = St->isSimple() && !onStack(St->getPointerOperand())
                            ? accumulationLoad(St, L)
                            : nullptr;
        if (!Own)
          return "a store that is not an accumulation";
        if (!argWithRole(getUnderlyingObject(St->getPointerOperand(), 0), "enzyme_rs.shadow"))
          return "an addition not into a shadow parameter's memory";
        accumulations.insert(Own);
        continue;
      }
      if (auto *Ld = dyn_cast<LoadInst>(&I)) {
        if (!Ld->isSimple() || onStack(Ld->getPointerOperand()))
          return "a load of a local or not simple";
        loads.push_back(Ld);
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
  // Every other load reads memory the additions cannot reach.
  for (LoadInst *Ld : loads)
    if (!accumulations.count(Ld) && !readsPrimalOrTape(Ld))
      return "a load that may read a shadow (not of a duplicated parameter or the tape)";
  return "";
}

// Where a block's name is not kept: its first debug location's line.
static std::string where(Loop *L) {
  BasicBlock *H = L->getHeader();
  if (H->hasName())
    return H->getName().str();
  for (Instruction &I : *H)
    if (const DebugLoc &D = I.getDebugLoc())
      return "at line " + std::to_string(D.getLine());
  return "(unnamed)";
}

// The marked loops of `fn` whose iterations commute run in the other
// order; every mark is removed. Returns how many loops were turned.
// `why` (when not null) gets one line per marked loop left as it was:
// its header and the reason (free with ers_free).
static unsigned forwardReverseLoops(Function &F, int turn, char **why);

// With `turn` 0 the marks are only removed. The parameters' role
// attributes (modes/reverse/mod.rs `mark_param_roles`) are removed too:
// nothing after this reads them.
extern "C" unsigned ers_forward_reverse_loops(LLVMValueRef fn, int turn, char **why) {
  Function &F = *cast<Function>(unwrap(fn));
  unsigned n = F.isDeclaration() ? 0 : forwardReverseLoops(F, turn, why);
  for (unsigned i = 0; i < F.arg_size(); i++)
    for (const char *Role : {"enzyme_rs.primal", "enzyme_rs.shadow", "enzyme_rs.tape"})
      F.removeParamAttr(i, Role);
  return n;
}

static unsigned forwardReverseLoops(Function &F, int turn, char **why) {
  std::string left;
  bool any = false;
  for (BasicBlock &B : F)
    if (hasMark(B.getTerminator() ? B.getTerminator()->getMetadata(LLVMContext::MD_loop) : nullptr))
      any = true;
  if (!any)
    return 0;
  if (!turn) {
    dropMarks(F);
    return 0;
  }
  ErsAnalyses A(F);
  unsigned turned = 0;
  // A nest turns whole or not at all: rows walked down and each row up
  // reads memory slower than both down (matvec 1000: +30%), so an inner
  // loop turns only with every loop around it, and those only when every
  // loop inside can. Each loop's own turn is valid alone; this is speed.
  SmallVector<Loop *, 8> marked;
  for (Loop *Top : A.LI) {
    bool all = true, some = false;
    for (Loop *L : Top->getLoopsInPreorder()) {
      if (!hasMark(L->getLoopID())) {
        all = false;
        continue;
      }
      Plan dry;
      std::string r = refuse(L, A.SE, dry);
      if (!r.empty()) {
        left += where(L) + ": " + r + "\n";
        all = false;
      } else {
        some = true;
      }
    }
    if (!all) {
      if (some)
        left += where(Top) + ": another loop of its nest counts down\n";
      continue;
    }
    for (Loop *L : Top->getLoopsInPreorder())
      marked.push_back(L);
  }
  // Outer loops first: an inner loop's bounds may read the outer counter,
  // which it must read mirrored (so its plan is made after the outer's
  // turn, on the turned IR).
  for (Loop *L : marked) {
    Plan plan;
    std::string r = refuse(L, A.SE, plan);
    if (!r.empty()) {
      left += where(L) + ": " + r + "\n";
      continue;
    }
    const SCEV *Btc = A.SE.getBackedgeTakenCount(L);
    Instruction *At = L->getLoopPreheader()->getTerminator();
#if LLVM_VERSION_MAJOR >= 20
    SCEVExpander Ex(A.SE, "rev.fwd");
#else
    SCEVExpander Ex(A.SE, F.getParent()->getDataLayout(), "rev.fwd");
#endif
    // Each counter's first and last value, summed: the body reads
    // `first + last - P` (and `that + step` for the increment).
    SmallVector<Value *, 4> sums;
    for (Counter &c : plan.counters) {
      auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(c.P));
      Type *T = c.P->getType();
      const SCEV *N = A.SE.getTruncateOrZeroExtend(Btc, T);
      const SCEV *First = AR->getStart();
      const SCEV *Last = A.SE.getAddExpr(First, A.SE.getMulExpr(N, AR->getStepRecurrence(A.SE)));
      const SCEV *Sum = A.SE.getAddExpr(First, Last);
      if (!Ex.isSafeToExpand(Sum))
        break;
      sums.push_back(Ex.expandCodeFor(Sum, T, At));
    }
    if (sums.size() != plan.counters.size()) {
      left += where(L) + ": bounds not expandable\n";
      continue;
    }
    IRBuilder<> Bd(&*L->getHeader()->getFirstInsertionPt());
    for (unsigned k = 0; k < sums.size(); k++) {
      Counter &c = plan.counters[k];
      Instruction *Mirror = cast<Instruction>(Bd.CreateSub(sums[k], c.P, "rev.fwd.iv"));
      Instruction *MirrorNext =
          cast<Instruction>(Bd.CreateAdd(Mirror, c.Next->getOperand(1), "rev.fwd.next"));
      c.P->replaceUsesWithIf(Mirror, [&](Use &U) {
        auto *UI = cast<Instruction>(U.getUser());
        return UI != c.Next && UI != plan.Cmp && UI != Mirror && L->contains(UI);
      });
      c.Next->replaceUsesWithIf(MirrorNext, [&](Use &U) {
        auto *UI = cast<Instruction>(U.getUser());
        return UI != c.P && UI != plan.Cmp && L->contains(UI);
      });
    }
    A.SE.forgetLoop(L);
    turned++;
  }
  // Drop every mark (turned or not): nothing after this reads it.
  dropMarks(F);
  if (why && !left.empty())
    *why = strdup(left.c_str());
  return turned;
}
