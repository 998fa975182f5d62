// The function analyses the C++ transforms share (shim.cc's ScalarEvolution
// handle, zfuse.cc, revorder.cc): built once per function, in dependency
// order, without a pass manager.
#ifndef ENZYME_RS_ANALYSES_H
#define ENZYME_RS_ANALYSES_H
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

struct ErsAnalyses {
  llvm::TargetLibraryInfoImpl TLII;
  llvm::TargetLibraryInfo TLI;
  llvm::AssumptionCache AC;
  llvm::DominatorTree DT;
  llvm::LoopInfo LI;
  llvm::ScalarEvolution SE;
  explicit ErsAnalyses(llvm::Function &F)
      : TLII(llvm::Triple(F.getParent()->getTargetTriple())), TLI(TLII, &F), AC(F), DT(F),
        LI(DT), SE(F, TLI, AC, DT, LI) {}
};
#endif
