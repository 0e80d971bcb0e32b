#include "corpus/IdentifierRewriting.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/IdentifierTable.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <map>
#include <set>

namespace steerbench::corpus {

std::string sequenceName(std::size_t n, bool upper) {
  std::string s;
  ++n;
  while (n > 0) {
    --n;
    s.insert(s.begin(), char((upper ? 'A' : 'a') + n % 26));
    n /= 26;
  }
  return s;
}

namespace {

using namespace clang;

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(const SourceManager& sm) : sm_(sm) {}

  struct Target {
    const NamedDecl* decl;
    unsigned firstOffset;
    bool function;
  };
  std::map<const Decl*, Target> targets;              // canonical decl -> target
  std::vector<std::pair<unsigned, const Decl*>> uses; // offset of a name -> canonical decl
  bool bad = false;

  bool VisitNamedDecl(NamedDecl* d) {
    const bool isFunction = llvm::isa<FunctionDecl>(d);
    // Enum constants keep their names: like the macros the preprocessor
    // expanded, they can be used where the AST keeps only their value
    // (reqd_work_group_size(N, 1, 1)), so their uses cannot all be renamed.
    const bool isValue = llvm::isa<VarDecl>(d);
    if (!isFunction && !isValue) return true;
    if (!d->getIdentifier() || d->getName().empty()) return true;
    // Clang folds a sampler variable's uses into its initializer, so they
    // cannot be found to rename: samplers keep their names.
    if (const auto* v = llvm::dyn_cast<VarDecl>(d); v && v->getType()->isSamplerT()) return true;
    unsigned offset;
    if (!inMain(d->getLocation(), &offset)) return true;
    const Decl* canon = d->getCanonicalDecl();
    auto [it, inserted] = targets.try_emplace(canon, Target{d, offset, isFunction});
    if (!inserted) it->second.firstOffset = std::min(it->second.firstOffset, offset);
    uses.emplace_back(offset, canon);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* e) {
    unsigned offset;
    if (!e->getDecl() || !inMain(e->getLocation(), &offset)) return true;
    uses.emplace_back(offset, e->getDecl()->getCanonicalDecl());
    return true;
  }

private:
  bool inMain(SourceLocation loc, unsigned* offset) {
    if (loc.isInvalid()) return false;
    if (loc.isMacroID()) {
      // A name passed as a macro argument (as_uint(x), from OpenCL's header)
      // is written in the main file: rewrite it there. A name inside a
      // macro's body cannot be rewritten in place.
      const SourceLocation spell = sm_.getSpellingLoc(loc);
      if (!sm_.isInMainFile(spell)) return false;
      if (!sm_.isMacroArgExpansion(loc)) {
        bad = true;
        return false;
      }
      loc = spell;
    }
    if (!sm_.isInMainFile(loc)) return false;
    *offset = sm_.getFileOffset(loc);
    return true;
  }
  const SourceManager& sm_;
};

} // namespace

void IdentifierRewriter::onTranslationUnit(clang::ASTContext& ast, bool hasErrors) {
  ok_ = false;
  functions_.clear();
  if (hasErrors) return;
  const SourceManager& sm = ast.getSourceManager();
  const llvm::StringRef text = sm.getBufferData(sm.getMainFileID());
  Collector c(sm);
  for (Decl* d : ast.getTranslationUnitDecl()->noload_decls())
    c.TraverseDecl(d);
  if (c.bad) return;

  // Names the unit uses for anything that is not renamed stay reserved.
  std::set<std::string> renamedOld;
  for (const auto& [canon, t] : c.targets)
    renamedOld.insert(t.decl->getNameAsString());
  std::set<std::string> reserved;
  {
    Lexer lex(sm.getLocForStartOfFile(sm.getMainFileID()), ast.getLangOpts(), text.begin(), text.begin(), text.end());
    Token tok;
    while (!lex.LexFromRawLexer(tok)) {
      if (tok.is(tok::raw_identifier) && !renamedOld.count(tok.getRawIdentifier().str()))
        reserved.insert(tok.getRawIdentifier().str());
    }
    if (tok.is(tok::raw_identifier) && !renamedOld.count(tok.getRawIdentifier().str()))
      reserved.insert(tok.getRawIdentifier().str());
  }
  auto usable = [&](const std::string& n) {
    if (reserved.count(n)) return false;
    const IdentifierInfo& ii = ast.Idents.get(n);
    return !ii.isKeyword(ast.getLangOpts());
  };

  std::vector<const Collector::Target*> order;
  for (const auto& [canon, t] : c.targets)
    order.push_back(&t);
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->firstOffset < b->firstOffset; });
  std::map<const Decl*, std::string> newName;
  std::size_t nextVar = 0, nextFn = 0;
  for (const auto* t : order) {
    std::string n;
    do
      n = sequenceName(t->function ? nextFn++ : nextVar++, t->function);
    while (!usable(n));
    newName[t->decl->getCanonicalDecl()] = n;
    if (t->function) functions_.emplace_back(t->decl->getNameAsString(), n);
  }

  // Apply: every use is the start of an identifier token of the old name.
  std::sort(c.uses.begin(), c.uses.end());
  c.uses.erase(std::unique(c.uses.begin(), c.uses.end()), c.uses.end());
  std::string out;
  out.reserve(text.size());
  unsigned last = 0;
  for (const auto& [offset, canon] : c.uses) {
    auto it = newName.find(canon);
    if (it == newName.end() || offset < last) continue;
    const std::string old = llvm::cast<NamedDecl>(canon)->getNameAsString();
    if (text.substr(offset, old.size()) != old) continue; // not spelled here (e.g. implicit)
    out.append(text.data() + last, offset - last);
    out += it->second;
    last = offset + unsigned(old.size());
  }
  out.append(text.data() + last, text.size() - last);
  text_ = std::move(out);
  ok_ = true;
}

} // namespace steerbench::corpus
