#include "features/DeadDeclarations.h"

#include "clang/OpenCLFrontend.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

using namespace clang;

namespace steerbench::features {

namespace {

/// The declaration statements directly inside a block that declare only variables.
class CandidateFinder : public RecursiveASTVisitor<CandidateFinder> {
public:
  bool VisitCompoundStmt(CompoundStmt* block) {
    for (Stmt* s : block->body())
      if (auto* ds = llvm::dyn_cast<DeclStmt>(s);
          ds && std::all_of(ds->decl_begin(), ds->decl_end(), [](const Decl* d) { return llvm::isa<VarDecl>(d); }))
        statements.push_back(ds);
    return true;
  }
  std::vector<const DeclStmt*> statements;
};

/// The variables of `vars` that an expression or statement refers to. With
/// `skip`, the statements in it (and all below them) are not looked into.
class References : public RecursiveASTVisitor<References> {
public:
  References(const std::map<const VarDecl*, std::size_t>& vars, const std::set<const DeclStmt*>* skip)
      : vars_(vars), skip_(skip) {}
  bool dataTraverseStmtPre(Stmt* s) { return !(skip_ && llvm::isa<DeclStmt>(s) && skip_->count(llvm::cast<DeclStmt>(s))); }
  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (const auto* v = llvm::dyn_cast<VarDecl>(ref->getDecl()))
      if (const auto it = vars_.find(v); it != vars_.end()) found.push_back(it->second);
    return true;
  }
  std::vector<std::size_t> found;

private:
  const std::map<const VarDecl*, std::size_t>& vars_;
  const std::set<const DeclStmt*>* skip_;
};

} // namespace

std::set<const DeclStmt*> deadDeclarations(const FunctionDecl& f, ASTContext& ast) {
  Stmt* body = f.getBody();
  if (!body) return {};
  CandidateFinder finder;
  finder.TraverseStmt(body);
  std::set<const DeclStmt*> statements(finder.statements.begin(), finder.statements.end());
  std::map<const VarDecl*, std::size_t> index;
  std::vector<const VarDecl*> vars;
  for (const DeclStmt* ds : finder.statements)
    for (const Decl* d : ds->decls()) {
      index.emplace(llvm::cast<VarDecl>(d), vars.size());
      vars.push_back(llvm::cast<VarDecl>(d));
    }
  // Live from the start: what the rest of the body refers to, and a variable
  // whose initialiser does something besides computing its value.
  std::vector<char> live(vars.size(), 0);
  std::vector<std::size_t> work;
  References rest(index, &statements);
  rest.TraverseStmt(body);
  work = rest.found;
  std::vector<std::vector<std::size_t>> reads(vars.size()); // what each one's initialiser refers to
  for (std::size_t v = 0; v < vars.size(); ++v) {
    const Expr* init = vars[v]->getInit();
    if (!init) continue;
    if (init->HasSideEffects(ast)) work.push_back(v);
    References refs(index, nullptr);
    refs.TraverseStmt(const_cast<Expr*>(init));
    reads[v] = std::move(refs.found);
  }
  // A statement with one live variable stays whole, so its other variables
  // stay too, and what they read is live: until nothing more is.
  while (!work.empty()) {
    while (!work.empty()) {
      const std::size_t v = work.back();
      work.pop_back();
      if (live[v]) continue;
      live[v] = 1;
      work.insert(work.end(), reads[v].begin(), reads[v].end());
    }
    for (const DeclStmt* ds : finder.statements)
      if (std::any_of(ds->decl_begin(), ds->decl_end(), [&](const Decl* d) { return live[index.at(llvm::cast<VarDecl>(d))]; }))
        for (const Decl* d : ds->decls())
          if (!live[index.at(llvm::cast<VarDecl>(d))]) work.push_back(index.at(llvm::cast<VarDecl>(d)));
  }
  std::set<const DeclStmt*> dead;
  for (const DeclStmt* ds : finder.statements)
    if (std::none_of(ds->decl_begin(), ds->decl_end(), [&](const Decl* d) { return live[index.at(llvm::cast<VarDecl>(d))]; }))
      dead.insert(ds);
  return dead;
}

namespace {

/// Collects the byte spans of a compile's dead declarations in the main file.
class DeadSpans : public clangfe::AstObserver {
public:
  void onTranslationUnit(ASTContext& ast, bool hasErrors) override {
    if (hasErrors) return;
    const SourceManager& sm = ast.getSourceManager();
    for (Decl* d : ast.getTranslationUnitDecl()->noload_decls()) {
      const auto* fd = llvm::dyn_cast<FunctionDecl>(d);
      if (!fd || !fd->doesThisDeclarationHaveABody()) continue;
      for (const DeclStmt* ds : deadDeclarations(*fd, ast)) {
        const SourceLocation b = ds->getBeginLoc(), e = ds->getEndLoc(); // e: the `;`
        if (b.isMacroID() || e.isMacroID() || !sm.isInMainFile(b) || !sm.isInMainFile(e)) continue;
        spans.emplace_back(sm.getFileOffset(b), sm.getFileOffset(e) + 1);
      }
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> spans;
};

} // namespace

std::string pruneDeadDeclarations(const std::string& text) {
  DeadSpans dead;
  if (clangfe::firstErrorOffsetWith(text, {}, &dead) != std::string::npos || dead.spans.empty()) return text;
  std::sort(dead.spans.begin(), dead.spans.end());
  std::string out = text;
  for (auto it = dead.spans.rbegin(); it != dead.spans.rend(); ++it) {
    auto [from, to] = *it;
    if (to > out.size() || from >= to || out[to - 1] != ';') continue; // not where the compile said: keep it
    // A line left with nothing but spaces goes whole, with its line break.
    std::size_t lineStart = from, lineEnd = to;
    while (lineStart > 0 && (out[lineStart - 1] == ' ' || out[lineStart - 1] == '\t'))
      --lineStart;
    while (lineEnd < out.size() && (out[lineEnd] == ' ' || out[lineEnd] == '\t'))
      ++lineEnd;
    if ((lineStart == 0 || out[lineStart - 1] == '\n') && (lineEnd == out.size() || out[lineEnd] == '\n')) {
      from = lineStart;
      to = lineEnd < out.size() ? lineEnd + 1 : lineEnd;
    }
    out.erase(from, to - from);
  }
  return out;
}

} // namespace steerbench::features
