// enzyme-rs clang plugin (clang 16 and 22): Enzyme's source attributes.
//
// Built as libenzyme_rs_clang16.so / libenzyme_rs_clang22.so beside
// libenzyme_rs.so (its LLVM 16 / 22 build),
// which loads it when it is itself given to clang as -fplugin= (see
// cpp/shim.cc); it can also be given to clang directly. It is a separate
// library because it needs clang's own symbols (libclang-cpp), which opt and
// rustc do not have: in the pass plugin they would break its loading there.
//
// Each attribute becomes an annotation (`llvm.global.annotations`) whose
// text is "enzyme:NAME:TARGET" or "enzyme:NAME:TARGET=VALUE" (TARGET: the
// IR name of the function or global); the pass reads them
// (src/rules/annotations.rs) and turns them into function attributes and
// registrations:
//
//   __attribute__((enzyme_inactive))                functions, globals
//   __attribute__((enzyme_inactive_noblock))        functions
//   __attribute__((enzyme_function_like("malloc"))) functions
//   __attribute__((enzyme_shadow(d_var)))           globals: d_var is the shadow
//   __attribute__((enzyme_no_escaping_allocation))  functions
//   __attribute__((enzyme_notypeanalysis))          functions
//   __attribute__((enzyme_checkpoint)), [[enzyme::checkpoint]]  functions
//
// ([[enzyme::NAME]] is accepted for each of them in C++ and C2x.)
//
// On a loop (clang 20 and newer: earlier clangs have no statement-attribute
// hook for plugins, and say so), enzyme_checkpoint takes an optional
// schedule and count, and so does `#pragma enzyme checkpoint(...)` on the
// line before the loop (it becomes the attribute):
//
//   [[enzyme::checkpoint("revolve", 3)]] for (...) { ... }
//
// (also spelled enzyme_checkpointing_enable("binomial" or "regular", n)).
//
// The loop's body then starts with a call
// `__enzyme_rs_checkpoint_loop(schedule, count)` (schedule: 0 default,
// 1 periodic, 2 store_all, 3 revolve/binomial; count -1 when not given),
// which the pass turns into loop metadata at pipeline start
// (src/modes/loops/annotated.rs).
#include "clang/Basic/Version.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaDiagnostic.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

using namespace clang;

namespace {

enum class Arg { None, String, Var };
// Carrier variables made so far in this compilation.
unsigned carriers = 0;
enum Where { Functions = 1, Globals = 2 };


struct Desc {
  const char *gnu;
  const char *scoped;
  Arg arg;
  int where;
};

// The attributes, in the order of the subclasses below.
constexpr Desc descs[] = {
    {"enzyme_inactive", "enzyme::inactive", Arg::None, Functions | Globals},
    {"enzyme_inactive_noblock", "enzyme::inactive_noblock", Arg::None, Functions},
    {"enzyme_function_like", "enzyme::function_like", Arg::String, Functions},
    {"enzyme_shadow", "enzyme::shadow", Arg::Var, Globals},
    {"enzyme_no_escaping_allocation", "enzyme::no_escaping_allocation", Arg::None, Functions},
    {"enzyme_notypeanalysis", "enzyme::notypeanalysis", Arg::None, Functions},
    {"enzyme_checkpoint", "enzyme::checkpoint", Arg::None, Functions},
    {"enzyme_sparse_accumulate", "enzyme::sparse_accumulate", Arg::None, Functions},
};

// The index of enzyme_checkpoint, which also applies to loops.
constexpr int LoopAttr = 6;

bool loopAppertains(Sema &S, const ParsedAttr &A, const Stmt *St);
bool markLoop(Sema &S, Stmt *St, const ParsedAttr &A);

template <int I> struct EnzymeAttr : public ParsedAttrInfo {
  // The GNU name, the scoped C++ and C names, and the scoped names'
  // last parts: clang parses a [[scope::name(args)]] attribute's arguments
  // only when some attribute is spelled `name` (it asks the plugins by
  // the name alone); without them the arguments were dropped. An unscoped
  // [[name]] is then refused as not ours (`scoped`).
  Spelling spellings[5];
  EnzymeAttr() {
    const Desc &d = descs[I];
    const char *last = d.scoped + 8; // after "enzyme::"
    spellings[0] = {ParsedAttr::AS_GNU, d.gnu};
    spellings[1] = {ParsedAttr::AS_CXX11, d.scoped};
    spellings[3] = {ParsedAttr::AS_CXX11, last};
#if CLANG_VERSION_MAJOR >= 18
    spellings[2] = {ParsedAttr::AS_C23, d.scoped};
    spellings[4] = {ParsedAttr::AS_C23, last};
#else
    spellings[2] = {ParsedAttr::AS_C2x, d.scoped};
    spellings[4] = {ParsedAttr::AS_C2x, last};
#endif
    Spellings = spellings;
    NumArgs = d.arg == Arg::None ? 0 : 1;
    // enzyme_checkpoint on a loop: ("schedule"[, count]).
    if (I == LoopAttr)
      OptArgs = 2;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A, const Stmt *St) const override {
    return scoped(S, A) && I == LoopAttr && loopAppertains(S, A, St);
  }

  // Whether `A` is spelled as one of ours (GNU, or [[enzyme::...]]); an
  // unscoped [[name]] gets clang's warning for unknown attributes.
  static bool scoped(Sema &S, const ParsedAttr &A) {
    if (A.getSyntax() == ParsedAttr::AS_GNU || A.getScopeName())
      return true;
    S.Diag(A.getLoc(), diag::warn_unknown_attribute_ignored) << A << A.getRange();
    return false;
  }

#if CLANG_VERSION_MAJOR >= 20
  AttrHandling handleStmtAttribute(Sema &S, Stmt *St, const ParsedAttr &A,
                                   class Attr *&Result) const override {
    Result = nullptr;
    return I == LoopAttr && markLoop(S, St, A) ? AttributeApplied : AttributeNotApplied;
  }
#endif

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *D) const override {
    const Desc &d = descs[I];
    if (!scoped(S, A))
      return false;
    if ((d.where & Functions) && isa<FunctionDecl>(D))
      return true;
    if (d.where & Globals) {
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (V->hasGlobalStorage())
          return true;
    }
    const char *what = d.where == Functions ? "functions"
                       : d.where == Globals ? "global variables"
                                            : "functions and global variables";
    unsigned id = S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Warning,
                                                     "'%0' attribute only applies to %1");
    S.Diag(A.getLoc(), id) << A.getAttrName()->getName() << what;
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D, const ParsedAttr &A) const override {
    const Desc &d = descs[I];
    std::string value;
    unsigned err = S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0");
    if (I == LoopAttr && A.getNumArgs() > 0) {
      S.Diag(A.getLoc(), err) << std::string("enzyme_checkpoint on a function takes no arguments (a schedule and count belong to enzyme_checkpoint on a loop)");
      return AttributeNotApplied;
    }
    if (d.arg != Arg::None) {
      Expr *E = A.getNumArgs() == 1 && A.isArgExpr(0) ? A.getArgAsExpr(0) : nullptr;
      E = E ? E->IgnoreParenImpCasts() : nullptr;
      if (d.arg == Arg::String) {
        const auto *SL = dyn_cast_or_null<StringLiteral>(E);
        if (!SL) {
          S.Diag(A.getLoc(), err) << (std::string(d.gnu) + " takes a string: the library function the function behaves like, e.g. " + d.gnu + "(\"malloc\")");
          return AttributeNotApplied;
        }
        value = SL->getString().str();
      } else {
        if (E && isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->getOpcode() == UO_AddrOf)
          E = cast<UnaryOperator>(E)->getSubExpr()->IgnoreParenImpCasts();
        const auto *DR = dyn_cast_or_null<DeclRefExpr>(E);
        const VarDecl *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
        if (!V && A.getNumArgs() == 1 && A.isArgIdent(0)) {
          // An identifier argument: the variable of that name in scope.
          IdentifierLoc *IL = A.getArgAsIdent(0);
#if CLANG_VERSION_MAJOR >= 21
          LookupResult R(S, IL->getIdentifierInfo(), IL->getLoc(), Sema::LookupOrdinaryName);
#else
          LookupResult R(S, IL->Ident, IL->Loc, Sema::LookupOrdinaryName);
#endif
          if (S.LookupName(R, S.getCurScope()) && R.isSingleResult())
            V = dyn_cast<VarDecl>(R.getFoundDecl());
        }
        if (!V || !V->hasGlobalStorage()) {
          S.Diag(A.getLoc(), err) << (std::string(d.gnu) + " takes the global variable that holds the shadow, e.g. " + d.gnu + "(d_state)");
          return AttributeNotApplied;
        }
        value = irName(S, V);
      }
    }
    ASTContext &C = S.Context;
    // A function template (or a member of a class template): its
    // instantiations have names of their own, unknown here. The annotation
    // goes on the template itself, with no target ("enzyme:ATTR:[=VALUE]",
    // the annotated function is the target); clang copies it onto every
    // instantiation and emits it with each one's definition.
    if (isa<FunctionDecl>(D) && D->isTemplated()) {
      std::string text = std::string("enzyme:") + (d.gnu + 7) + ":";
      if (!value.empty())
        text += "=" + value;
      D->addAttr(AnnotateAttr::Create(C, text, nullptr, 0, A));
      return AttributeApplied;
    }
    // The annotated declaration may have no definition here (an external
    // function or variable), and clang emits annotations only with
    // definitions: the annotation goes on a small static carrier variable
    // and names its target ("enzyme:ATTR:TARGET[=VALUE]").
    std::string text = std::string("enzyme:") + (d.gnu + 7) + ":" +
                       irName(S, cast<NamedDecl>(D));
    if (!value.empty())
      text += "=" + value;
    std::string carrier = "__enzyme_rs_attr_" + std::to_string(carriers++);
    SourceLocation loc = A.getLoc();
    VarDecl *VD = VarDecl::Create(C, C.getTranslationUnitDecl(), loc, loc,
                                  &C.Idents.get(carrier), C.IntTy,
                                  C.getTrivialTypeSourceInfo(C.IntTy, loc), SC_Static);
    VD->setInit(IntegerLiteral::Create(C, llvm::APInt(C.getIntWidth(C.IntTy), 0), C.IntTy, loc));
    VD->addAttr(UsedAttr::CreateImplicit(C));
    VD->addAttr(AnnotateAttr::Create(C, text, nullptr, 0, A));
    C.getTranslationUnitDecl()->addDecl(VD);
    S.Consumer.HandleTopLevelDecl(DeclGroupRef(VD));
    return AttributeApplied;
  }

  // The name the declaration has in LLVM IR (mangled in C++).
  static std::string irName(Sema &S, const NamedDecl *N) {
    std::string out;
    llvm::raw_string_ostream os(out);
    std::unique_ptr<MangleContext> mc(S.Context.createMangleContext());
    if (mc->shouldMangleDeclName(N)) {
      if (const auto *F = dyn_cast<FunctionDecl>(N))
        mc->mangleName(GlobalDecl(F), os);
      else
        mc->mangleName(GlobalDecl(cast<VarDecl>(N)), os);
    } else {
      os << N->getName();
    }
    os.flush();
    return out;
  }
};


// --- enzyme_checkpoint on loops ---------------------------------------------

bool loopAppertains(Sema &S, const ParsedAttr &A, const Stmt *St) {
  unsigned err = S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0");
#if CLANG_VERSION_MAJOR < 20
  (void)St;
  S.Diag(A.getLoc(), err) << std::string(
      "enzyme_checkpoint on a loop needs clang 20 or newer (this is clang " CLANG_VERSION_STRING
      "): use __enzyme_checkpoint_for or __enzyme_checkpoint_while (enzyme/checkpoint.h)");
  return false;
#else
  if (isa<ForStmt>(St) || isa<WhileStmt>(St) || isa<DoStmt>(St) || isa<CXXForRangeStmt>(St))
    return true;
  S.Diag(A.getLoc(), err) << std::string(
      "enzyme_checkpoint on a statement applies to loops (for, while, do) only");
  return false;
#endif
}

#if CLANG_VERSION_MAJOR >= 20
// The schedules a loop annotation names, with their codes for the pass.
struct Schedule {
  const char *name;
  int64_t code;
};
constexpr Schedule schedules[] = {{"periodic", 1}, {"regular", 1}, {"store_all", 2},
                                   {"revolve", 3},  {"binomial", 3}};

// The declaration of the marker the loop's body starts with, made once
// per translation unit.
FunctionDecl *markerDecl(Sema &S, SourceLocation loc) {
  static ASTContext *madeIn = nullptr;
  static FunctionDecl *made = nullptr;
  ASTContext &C = S.Context;
  if (madeIn == &C)
    return made;
  QualType LL = C.LongLongTy;
  QualType FT = C.getFunctionType(C.VoidTy, {LL, LL}, FunctionProtoType::ExtProtoInfo());
  FunctionDecl *F = FunctionDecl::Create(C, C.getTranslationUnitDecl(), loc, loc,
                                         DeclarationName(&C.Idents.get("__enzyme_rs_checkpoint_loop")),
                                         FT, C.getTrivialTypeSourceInfo(FT, loc), SC_Extern);
  SmallVector<ParmVarDecl *, 2> ps;
  for (int k = 0; k < 2; k++)
    ps.push_back(ParmVarDecl::Create(C, F, loc, loc, nullptr, LL, C.getTrivialTypeSourceInfo(LL, loc),
                                     SC_None, nullptr));
  F->setParams(ps);
  F->setImplicit();
  madeIn = &C;
  made = F;
  return F;
}

// Read the schedule and count; put the marker call first in the body.
bool markLoop(Sema &S, Stmt *St, const ParsedAttr &A) {
  unsigned err = S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0");
  ASTContext &C = S.Context;
  int64_t code = 0, count = -1;
  if (A.getNumArgs() >= 1) {
    Expr *E = A.isArgExpr(0) ? A.getArgAsExpr(0) : nullptr;
    const auto *SL = E ? dyn_cast<StringLiteral>(E->IgnoreParenImpCasts()) : nullptr;
    if (SL)
      for (const Schedule &s : schedules)
        if (SL->getString() == s.name)
          code = s.code;
    if (!code) {
      S.Diag(A.getLoc(), err) << std::string(
          "enzyme_checkpoint on a loop takes a schedule first: \"periodic\" (or \"regular\"), "
          "\"store_all\", \"revolve\" or \"binomial\" (then, optionally, a count)");
      return false;
    }
  }
  // A count depending on a template parameter goes into the call as it
  // is: each instantiation has its constant there.
  Expr *dependent = nullptr;
  if (A.getNumArgs() >= 2 && A.isArgExpr(1) && A.getArgAsExpr(1)->isValueDependent()) {
    dependent = A.getArgAsExpr(1);
  } else if (A.getNumArgs() >= 2) {
    Expr *E = A.isArgExpr(1) ? A.getArgAsExpr(1) : nullptr;
    Expr::EvalResult R;
    if (!E || !E->EvaluateAsInt(R, C) || R.Val.getInt().getSExtValue() < 1) {
      S.Diag(A.getLoc(), err) << std::string(
          "the count of enzyme_checkpoint on a loop (snapshots or period) must be an integer "
          "constant of at least 1");
      return false;
    }
    count = R.Val.getInt().getSExtValue();
  }
  SourceLocation loc = A.getLoc();
  FunctionDecl *F = markerDecl(S, loc);
  Expr *fn = S.BuildDeclRefExpr(F, F->getType(), VK_LValue, loc);
  Expr *args[] = {IntegerLiteral::Create(C, llvm::APInt(64, code, true), C.LongLongTy, loc),
                  dependent ? dependent
                            : IntegerLiteral::Create(C, llvm::APInt(64, count, true), C.LongLongTy, loc)};
  ExprResult call = S.BuildCallExpr(nullptr, fn, loc, args, loc);
  if (call.isInvalid())
    return false;
  auto prepend = [&](Stmt *body) -> Stmt * {
    Stmt *both[] = {call.get(), body};
    return CompoundStmt::Create(C, both, FPOptionsOverride(), loc, loc);
  };
  if (auto *L = dyn_cast<ForStmt>(St))
    L->setBody(prepend(L->getBody()));
  else if (auto *L = dyn_cast<WhileStmt>(St))
    L->setBody(prepend(L->getBody()));
  else if (auto *L = dyn_cast<DoStmt>(St))
    L->setBody(prepend(L->getBody()));
  else if (auto *L = dyn_cast<CXXForRangeStmt>(St))
    L->setBody(prepend(L->getBody()));
  else
    return false;
  return true;
}
#endif

// `#pragma enzyme checkpoint[(args)]`: the tokens
// `__attribute__((enzyme_checkpoint[(args)]))`, read with the statement
// that follows.
class EnzymePragma : public PragmaHandler {
public:
  EnzymePragma() : PragmaHandler("enzyme") {}
  void HandlePragma(Preprocessor &PP, PragmaIntroducer Intro, Token &First) override {
    Token t;
    PP.Lex(t);
    SourceLocation loc = t.getLocation();
    if (!t.is(tok::identifier) || t.getIdentifierInfo()->getName() != "checkpoint") {
      unsigned id = PP.getDiagnostics().getCustomDiagID(
          DiagnosticsEngine::Warning, "unknown '#pragma enzyme' (known: #pragma enzyme checkpoint)");
      PP.Diag(loc, id);
      while (!t.is(tok::eod))
        PP.Lex(t);
      return;
    }
    SmallVector<Token, 16> args;
    PP.Lex(t);
    while (!t.is(tok::eod)) {
      args.push_back(t);
      PP.Lex(t);
    }
    auto make = [&](tok::TokenKind k, const char *ident = nullptr) {
      Token n;
      n.startToken();
      n.setKind(k);
      n.setLocation(loc);
      n.setLength(0);
      if (ident)
        n.setIdentifierInfo(PP.getIdentifierInfo(ident));
      return n;
    };
    SmallVector<Token, 24> out;
    out.push_back(make(tok::kw___attribute, "__attribute__"));
    out.push_back(make(tok::l_paren));
    out.push_back(make(tok::l_paren));
    out.push_back(make(tok::identifier, "enzyme_checkpoint"));
    out.append(args.begin(), args.end());
    out.push_back(make(tok::r_paren));
    out.push_back(make(tok::r_paren));
    auto toks = std::make_unique<Token[]>(out.size());
    std::copy(out.begin(), out.end(), toks.get());
    PP.EnterTokenStream(std::move(toks), out.size(), /*DisableMacroExpansion=*/false,
                        /*IsReinject=*/false);
  }
};

PragmaHandlerRegistry::Add<EnzymePragma> pragma("enzyme", "enzyme-rs: #pragma enzyme checkpoint");

// enzyme_checkpointing_enable("binomial" or "regular", count) on a loop:
// another spelling Enzyme's users have (Reactant's), the same as
// enzyme_checkpoint on a loop.
struct CheckpointingEnable : public ParsedAttrInfo {
  Spelling spellings[7];
  CheckpointingEnable() {
    spellings[0] = {ParsedAttr::AS_GNU, "enzyme_checkpointing_enable"};
    spellings[1] = {ParsedAttr::AS_CXX11, "enzyme_checkpointing_enable"};
    spellings[2] = {ParsedAttr::AS_CXX11, "enzyme::checkpointing_enable"};
    spellings[3] = {ParsedAttr::AS_CXX11, "checkpointing_enable"};
#if CLANG_VERSION_MAJOR >= 18
    spellings[4] = {ParsedAttr::AS_C23, "enzyme_checkpointing_enable"};
    spellings[5] = {ParsedAttr::AS_C23, "enzyme::checkpointing_enable"};
    spellings[6] = {ParsedAttr::AS_C23, "checkpointing_enable"};
#else
    spellings[4] = {ParsedAttr::AS_C2x, "enzyme_checkpointing_enable"};
    spellings[5] = {ParsedAttr::AS_C2x, "enzyme::checkpointing_enable"};
    spellings[6] = {ParsedAttr::AS_C2x, "checkpointing_enable"};
#endif
    Spellings = spellings;
    OptArgs = 2;
  }
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *) const override {
    unsigned id = S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Warning,
                                                     "'%0' attribute only applies to loops");
    S.Diag(A.getLoc(), id) << A.getAttrName()->getName();
    return false;
  }
  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A, const Stmt *St) const override {
    // (The bare last name is a spelling only so that clang parses the
    // scoped form's arguments.)
    if (!A.getScopeName() && A.getAttrName()->getName() == "checkpointing_enable") {
      S.Diag(A.getLoc(), diag::warn_unknown_attribute_ignored) << A << A.getRange();
      return false;
    }
    return loopAppertains(S, A, St);
  }
#if CLANG_VERSION_MAJOR >= 20
  AttrHandling handleStmtAttribute(Sema &S, Stmt *St, const ParsedAttr &A,
                                   class Attr *&Result) const override {
    Result = nullptr;
    return markLoop(S, St, A) ? AttributeApplied : AttributeNotApplied;
  }
#endif
};

ParsedAttrInfoRegistry::Add<CheckpointingEnable> r7("enzyme_checkpointing_enable", "");

ParsedAttrInfoRegistry::Add<EnzymeAttr<0>> r0("enzyme_inactive", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<1>> r1("enzyme_inactive_noblock", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<2>> r2("enzyme_function_like", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<3>> r3("enzyme_shadow", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<4>> r4("enzyme_no_escaping_allocation", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<5>> r5("enzyme_notypeanalysis", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<6>> r6("enzyme_checkpoint", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<7>> r8("enzyme_sparse_accumulate", "");

} // namespace
