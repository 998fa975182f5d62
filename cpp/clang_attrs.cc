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
#include "clang/Basic/Version.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Mangle.h"
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
};

template <int I> struct EnzymeAttr : public ParsedAttrInfo {
  Spelling spellings[3];
  EnzymeAttr() {
    const Desc &d = descs[I];
    spellings[0] = {ParsedAttr::AS_GNU, d.gnu};
    spellings[1] = {ParsedAttr::AS_CXX11, d.scoped};
#if CLANG_VERSION_MAJOR >= 18
    spellings[2] = {ParsedAttr::AS_C23, d.scoped};
#else
    spellings[2] = {ParsedAttr::AS_C2x, d.scoped};
#endif
    Spellings = spellings;
    NumArgs = d.arg == Arg::None ? 0 : 1;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A, const Decl *D) const override {
    const Desc &d = descs[I];
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
    // The annotated declaration may have no definition here (an external
    // function or variable), and clang emits annotations only with
    // definitions: the annotation goes on a small static carrier variable
    // and names its target ("enzyme:ATTR:TARGET[=VALUE]").
    std::string text = std::string("enzyme:") + (d.gnu + 7) + ":" +
                       irName(S, cast<NamedDecl>(D));
    if (!value.empty())
      text += "=" + value;
    ASTContext &C = S.Context;
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

ParsedAttrInfoRegistry::Add<EnzymeAttr<0>> r0("enzyme_inactive", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<1>> r1("enzyme_inactive_noblock", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<2>> r2("enzyme_function_like", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<3>> r3("enzyme_shadow", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<4>> r4("enzyme_no_escaping_allocation", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<5>> r5("enzyme_notypeanalysis", "");
ParsedAttrInfoRegistry::Add<EnzymeAttr<6>> r6("enzyme_checkpoint", "");

} // namespace
