#include "steer/PointerAliases.h"

#include "clang/OpenCLFrontend.h"
#include "features/Distance.h"
#include "features/GreweFeatures.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace steerbench::steer {

namespace {

bool globalPointer(clang::QualType t) {
  return t->isPointerType() && t->getPointeeType().getAddressSpace() == clang::LangAS::opencl_global;
}

const clang::ValueDecl* named(const clang::Expr* e) {
  const auto* r = e ? llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
  return r ? r->getDecl() : nullptr;
}

/// Uses of the kernel's buffers, and which variables the body changes.
class Uses : public clang::RecursiveASTVisitor<Uses> {
public:
  Uses(const clang::SourceManager& sm, const std::set<const clang::ParmVarDecl*>& buffers)
      : sm_(sm), buffers_(buffers) {}

  std::map<const clang::ParmVarDecl*, std::vector<std::size_t>> uses;
  std::set<const clang::ValueDecl*> changed; ///< assigned, moved, or its address taken; or used inside a macro
  std::map<std::string, int> declared;       ///< variables declared in the body, by name

  bool VisitDeclRefExpr(clang::DeclRefExpr* r) {
    const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(r->getDecl());
    if (!p || !buffers_.count(p)) return true;
    const auto loc = r->getLocation();
    if (!loc.isFileID() || !sm_.isInMainFile(loc)) changed.insert(p); // a macro's use cannot be rewritten
    else uses[p].push_back(sm_.getFileOffset(loc));
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp())
      if (const auto* d = named(op->getLHS())) changed.insert(d);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf)
      if (const auto* d = named(op->getSubExpr())) changed.insert(d);
    return true;
  }
  bool VisitVarDecl(clang::VarDecl* v) {
    ++declared[v->getNameAsString()];
    return true;
  }

private:
  const clang::SourceManager& sm_;
  const std::set<const clang::ParmVarDecl*>& buffers_;
};

class SiteReader : public clangfe::AstObserver {
public:
  explicit SiteReader(std::string kernel) : kernel_(std::move(kernel)) {}
  AliasSites sites;

  void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) override {
    if (hasErrors) return;
    const auto& sm = ast.getSourceManager();
    for (const clang::Decl* d : ast.getTranslationUnitDecl()->noload_decls()) {
      const auto* f = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!f || !f->hasAttr<clang::OpenCLKernelAttr>() || (!kernel_.empty() && f->getNameAsString() != kernel_))
        continue;
      const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(f->getBody());
      if (!body || !body->getLBracLoc().isFileID() || !sm.isInMainFile(body->getLBracLoc())) return;
      read(ast, *f, *body);
      return;
    }
  }

private:
  void read(clang::ASTContext& ast, const clang::FunctionDecl& f, const clang::CompoundStmt& body) {
    const auto& sm = ast.getSourceManager();
    std::set<const clang::ParmVarDecl*> buffers;
    for (const auto* p : f.parameters())
      if (globalPointer(p->getType())) buffers.insert(p);
    Uses walk(sm, buffers);
    walk.TraverseStmt(const_cast<clang::CompoundStmt*>(&body));

    // Aliases the body begins with: `__global T *q = a;` of a buffer's own type.
    std::map<const clang::ParmVarDecl*, std::pair<const clang::VarDecl*, std::size_t>> aliases; // and its statement's end
    for (const clang::Stmt* s : body.body()) {
      const auto* ds = llvm::dyn_cast<clang::DeclStmt>(s);
      if (!ds) break;
      const auto end = ds->getEndLoc();
      if (!end.isFileID() || !sm.isInMainFile(end)) break;
      for (const clang::Decl* d : ds->decls()) {
        const auto* v = llvm::dyn_cast<clang::VarDecl>(d);
        const auto* p = v ? llvm::dyn_cast_or_null<clang::ParmVarDecl>(named(v->getInit())) : nullptr;
        if (!p || !buffers.count(p) || aliases.count(p) || walk.changed.count(v) ||
            walk.declared[v->getNameAsString()] != 1 ||
            ast.getCanonicalType(v->getType().getUnqualifiedType()) !=
                ast.getCanonicalType(p->getType().getUnqualifiedType()))
          continue;
        aliases[p] = {v, sm.getFileOffset(end)};
      }
    }

    clang::PrintingPolicy policy(ast.getLangOpts());
    for (const auto* p : f.parameters()) {
      // A pointer to arrays (`global const float (*y)[3]`) is declared around
      // its name, which `T *name` cannot write: not aliased.
      if (!buffers.count(p) || walk.changed.count(p) || p->getType()->getPointeeType()->isArrayType()) continue;
      AliasableBuffer b;
      b.name = p->getNameAsString();
      b.aliasType = p->getType().getUnqualifiedType().getAsString(policy);
      std::size_t after = 0;
      if (const auto a = aliases.find(p); a != aliases.end()) {
        b.alias = a->second.first->getNameAsString();
        after = a->second.second;
      }
      for (const auto at : walk.uses[p])
        if (b.alias.empty() || at > after) b.uses.push_back(at);
      std::sort(b.uses.begin(), b.uses.end());
      if (!b.uses.empty()) sites.buffers.push_back(std::move(b));
    }
    sites.bodyStart = sm.getFileOffset(body.getLBracLoc()) + 1;
    sites.parsed = true;
  }

  std::string kernel_;
};

/// The first of a, b, ..., z, aa, ab, ... that is no identifier of `text` (nor a keyword).
std::string freshName(const std::string& text) {
  std::set<std::string> taken = {"do", "if"};
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      std::size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      taken.insert(text.substr(i, j - i));
      i = j;
    } else if (std::isdigit(c)) { // a number's suffix (1.0f, 0x1e) is no identifier
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.'))
        ++i;
    } else {
      ++i;
    }
  }
  for (std::string name = "a";;) {
    if (!taken.count(name)) return name;
    std::size_t k = name.size(); // the next name in a, ..., z, aa, ..., zz, aaa, ...
    while (k > 0 && name[k - 1] == 'z')
      name[--k] = 'a';
    if (k == 0) name.insert(name.begin(), 'a');
    else ++name[k - 1];
  }
}

} // namespace

AliasSites aliasSites(const std::string& text, const std::string& kernel) {
  SiteReader reader(kernel);
  clangfe::CompileRequest req;
  req.source = text;
  req.fileName = "alias.cl";
  req.emitIR = false;
  req.options.errorLimit = 1;
  req.observer = &reader;
  if (!clangfe::compile(req).succeeded() || !reader.sites.parsed) return {};
  reader.sites.freshName = freshName(text);
  return reader.sites;
}

std::size_t memSaved(const AliasableBuffer& b, std::size_t count) {
  count = std::min(count, b.uses.size());
  if (!b.alias.empty()) return count;
  return count > 1 ? count - 1 : 0;
}

std::string withAlias(const std::string& text, const AliasSites& sites, std::size_t buffer, std::size_t count) {
  if (!sites.parsed || buffer >= sites.buffers.size()) return text;
  const auto& b = sites.buffers[buffer];
  count = std::min(count, b.uses.size());
  if (memSaved(b, count) == 0) return text;
  const std::string& alias = b.alias.empty() ? sites.freshName : b.alias;
  std::string out = text;
  for (std::size_t i = b.uses.size(); i-- > b.uses.size() - count;) // from the end: earlier offsets stay
    out.replace(b.uses[i], b.name.size(), alias);
  if (b.alias.empty()) {
    std::string decl = "\n  " + b.aliasType;
    if (decl.back() != '*') decl += ' ';
    out.insert(sites.bodyStart, decl + alias + " = " + b.name + ";");
  }
  return out;
}

std::size_t maxMemSaved(const AliasSites& sites) {
  std::size_t saved = 0;
  for (const auto& b : sites.buffers)
    saved += memSaved(b, b.uses.size());
  return saved;
}

std::size_t bestMemSaving(const std::vector<double>& values, const std::vector<double>& target,
                          std::size_t maxSaving) {
  auto counts = features::greweCountsOf(values);
  const double mem = counts.mem;
  std::size_t best = 0;
  double nearest = features::distance(values, target);
  for (std::size_t s = 1; s <= maxSaving && double(s) < mem; ++s) {
    counts.mem = mem - double(s);
    if (const double d = features::distance(features::greweVector(counts), target); d < nearest) {
      nearest = d;
      best = s;
    }
  }
  return best;
}

std::string withAliasesSaving(const std::string& text, const std::string& kernel, std::size_t saving) {
  std::string out = text;
  while (saving > 0) {
    const auto sites = aliasSites(out, kernel);
    std::size_t pick = sites.buffers.size(), most = 0;
    for (std::size_t i = 0; i < sites.buffers.size(); ++i)
      if (const auto s = memSaved(sites.buffers[i], sites.buffers[i].uses.size()); s > most) {
        most = s;
        pick = i;
      }
    if (most == 0) break;
    const auto& b = sites.buffers[pick];
    const std::size_t count = std::min(b.uses.size(), b.alias.empty() ? saving + 1 : saving);
    const auto saved = memSaved(b, count);
    out = withAlias(out, sites, pick, count);
    saving -= std::min(saving, saved);
  }
  return out;
}

std::vector<AliasOption> aliasOptions(const AliasSites& sites, std::size_t excess) {
  std::vector<AliasOption> out;
  for (std::size_t i = 0; i < sites.buffers.size(); ++i) {
    const auto& b = sites.buffers[i];
    const std::size_t count = std::min(b.uses.size(), b.alias.empty() ? excess + 1 : excess);
    if (const auto saved = memSaved(b, count); saved > 0) out.push_back({i, count, saved});
  }
  std::stable_sort(out.begin(), out.end(), [](const AliasOption& a, const AliasOption& b) { return a.saved > b.saved; });
  return out;
}

} // namespace steerbench::steer
