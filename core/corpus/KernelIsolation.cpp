#include "corpus/KernelIsolation.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <map>
#include <set>

namespace steerbench::corpus {
namespace {

using namespace clang;

/// The declaration directly inside the translation unit that contains `d`.
const Decl* topLevel(const Decl* d) {
  while (d) {
    const DeclContext* dc = d->getDeclContext();
    if (!dc || llvm::isa<TranslationUnitDecl>(dc)) return d;
    d = llvm::dyn_cast<Decl>(dc);
  }
  return nullptr;
}

/// Every declaration a top-level declaration refers to: through names,
/// calls and types.
class ReferenceCollector : public RecursiveASTVisitor<ReferenceCollector> {
public:
  std::set<const Decl*> refs;

  bool VisitDeclRefExpr(DeclRefExpr* e) {
    add(e->getDecl());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc tl) {
    add(tl.getTypedefNameDecl());
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc tl) {
    add(tl.getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr* e) {
    add(e->getMemberDecl());
    return true;
  }
  bool VisitValueDecl(ValueDecl* d) {
    // Types without TypeLocs (implicit) still name their declarations.
    addType(d->getType());
    return true;
  }

private:
  void add(const Decl* d) {
    if (!d) return;
    refs.insert(d);
    if (const auto* fd = llvm::dyn_cast<FunctionDecl>(d))
      for (const FunctionDecl* r : fd->redecls())
        refs.insert(r);
    if (const auto* td = llvm::dyn_cast<TagDecl>(d))
      for (const TagDecl* r : td->redecls())
        refs.insert(r);
  }
  void addType(QualType t) {
    for (int guard = 0; guard < 16 && !t.isNull(); ++guard) {
      if (const auto* tt = t->getAs<TypedefType>()) add(tt->getDecl());
      if (const auto* tag = t->getAsTagDecl()) add(tag);
      if (t->isPointerType())
        t = t->getPointeeType();
      else if (t->isArrayType())
        t = QualType(t->getPointeeOrArrayElementType(), 0);
      else
        break;
    }
  }
};

} // namespace

void KernelIsolator::onTranslationUnit(clang::ASTContext& ast, bool) {
  kernels_.clear();
  const SourceManager& sm = ast.getSourceManager();
  const FileID mainFile = sm.getMainFileID();
  const llvm::StringRef text = sm.getBufferData(mainFile);
  const LangOptions& lang = ast.getLangOpts();

  // 1. Top-level declarations of the main file, as byte ranges; overlapping
  //    ranges (typedef struct {...} T;) form one chunk.
  struct Piece {
    const Decl* decl;
    unsigned begin, end;
  };
  std::vector<Piece> pieces;
  for (const Decl* d : ast.getTranslationUnitDecl()->noload_decls()) {
    if (d->isImplicit()) continue;
    const SourceLocation b = sm.getExpansionLoc(d->getBeginLoc());
    const SourceLocation e = sm.getExpansionLoc(d->getEndLoc());
    if (b.isInvalid() || e.isInvalid() || sm.getFileID(b) != mainFile || sm.getFileID(e) != mainFile) continue;
    unsigned begin = sm.getFileOffset(b);
    unsigned end = sm.getFileOffset(Lexer::getLocForEndOfToken(e, 0, sm, lang));
    if (end < begin || end > text.size()) continue;
    // Take the ';' that ends a declaration.
    unsigned k = end;
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r'))
      ++k;
    if (k < text.size() && text[k] == ';') end = k + 1;
    pieces.push_back({d, begin, end});
  }
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.begin < b.begin; });
  struct Chunk {
    unsigned begin, end;
  };
  std::vector<Chunk> chunks;
  std::map<const Decl*, std::size_t> chunkOf;
  for (const Piece& p : pieces) {
    if (chunks.empty() || p.begin >= chunks.back().end)
      chunks.push_back({p.begin, p.end});
    else
      chunks.back().end = std::max(chunks.back().end, p.end);
    chunkOf[p.decl] = chunks.size() - 1;
  }

  // 2. What each chunk refers to: through the AST, and by name. The names
  //    matter because Clang folds some references to program-scope
  //    variables away (a sampler passed to read_image* becomes its initializer).
  std::vector<std::set<std::size_t>> deps(chunks.size());
  std::map<std::string, std::set<std::size_t>> declaredIn;
  for (const Piece& p : pieces) {
    const std::size_t c = chunkOf[p.decl];
    // Only program-scope variables: references to functions and types are
    // always in the AST, and matching every name would pull in too much.
    if (const auto* vd = llvm::dyn_cast<VarDecl>(p.decl); vd && vd->getIdentifier())
      declaredIn[vd->getName().str()].insert(c);
  }
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const llvm::StringRef slice = text.slice(chunks[c].begin, chunks[c].end);
    Lexer lex(SourceLocation(), lang, slice.begin(), slice.begin(), slice.end());
    Token tok;
    for (;;) {
      const bool end = lex.LexFromRawLexer(tok);
      if (tok.is(tok::raw_identifier))
        if (auto it = declaredIn.find(tok.getRawIdentifier().str()); it != declaredIn.end())
          for (std::size_t d : it->second)
            if (d != c) deps[c].insert(d);
      if (end || tok.is(tok::eof)) break;
    }
  }
  for (const Piece& p : pieces) {
    ReferenceCollector rc;
    rc.TraverseDecl(const_cast<Decl*>(p.decl));
    const std::size_t from = chunkOf[p.decl];
    for (const Decl* r : rc.refs) {
      auto it = chunkOf.find(topLevel(r));
      if (it != chunkOf.end() && it->second != from) deps[from].insert(it->second);
    }
  }

  // 3. OpenCL extension pragmas apply to every kernel.
  std::string pragmas;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    if (eol == llvm::StringRef::npos) eol = text.size();
    const llvm::StringRef line = text.slice(pos, eol).trim();
    if (line.startswith("#pragma OPENCL EXTENSION") || line.startswith("#pragma OPENCL FP_CONTRACT"))
      pragmas += line.str() + "\n";
    pos = eol + 1;
  }

  // 4. Each kernel definition with the closure of its chunk's references.
  for (const Piece& p : pieces) {
    const auto* fd = llvm::dyn_cast<FunctionDecl>(p.decl);
    if (!fd || !fd->hasAttr<OpenCLKernelAttr>() || !fd->doesThisDeclarationHaveABody()) continue;
    std::set<std::size_t> keep;
    std::vector<std::size_t> todo{chunkOf[p.decl]};
    while (!todo.empty()) {
      const std::size_t c = todo.back();
      todo.pop_back();
      if (!keep.insert(c).second) continue;
      for (std::size_t d : deps[c])
        todo.push_back(d);
    }
    // Other kernels are not helpers: a kernel calling another keeps it, but
    // a chunk that only holds another kernel's prototype is left out.
    IsolatedKernel k;
    k.name = fd->getNameAsString();
    k.source = pragmas;
    if (!pragmas.empty()) k.source += "\n";
    for (std::size_t c : keep) {
      k.source += text.slice(chunks[c].begin, chunks[c].end).str();
      k.source += "\n\n";
    }
    kernels_.push_back(std::move(k));
  }
}

} // namespace steerbench::corpus
