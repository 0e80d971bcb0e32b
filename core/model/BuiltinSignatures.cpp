#include "model/BuiltinSignatures.h"

#include "clang/OpenCLFrontend.h"
#include "common/Version.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>

#include <set>

namespace steerbench::model {

bool fits(const ArgShape& arg, const ArgShape& param) {
  if (arg.kind == ArgShape::Other || param.kind == ArgShape::Other) return true;
  switch (arg.kind) {
  case ArgShape::Scalar: return param.kind == ArgShape::Scalar || param.kind == ArgShape::Vector;
  case ArgShape::Vector: return param.kind == ArgShape::Vector && param.width == arg.width;
  case ArgShape::Pointer: return param.kind == ArgShape::Pointer;
  default: return true;
  }
}

bool takes(const Overload& o, const std::vector<ArgShape>& args) {
  if (o.params.size() != args.size()) return false;
  for (std::size_t i = 0; i < args.size(); ++i)
    if (!fits(args[i], o.params[i])) return false;
  return true;
}

namespace {

ArgShape shapeOf(clang::QualType t) {
  const clang::Type* type = t.getCanonicalType().getTypePtr();
  if (type->isPointerType() || type->isArrayType()) return {ArgShape::Pointer, 1};
  if (const auto* v = type->getAs<clang::VectorType>()) return {ArgShape::Vector, std::uint8_t(v->getNumElements())};
  if (type->isArithmeticType()) return {ArgShape::Scalar, 1};
  return {ArgShape::Other, 1};
}

/// Collects every function opencl-c.h declares.
class Collector : public clangfe::AstObserver {
public:
  explicit Collector(BuiltinSignatures& out) : out_(out) {}
  void onTranslationUnit(clang::ASTContext& ast, bool) override {
    std::map<std::string, std::set<Overload>> seen;
    for (const clang::Decl* d : ast.getTranslationUnitDecl()->decls()) {
      const auto* f = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!f || !f->getIdentifier() || f->isVariadic()) continue;
      const std::string name = f->getName().str();
      if (name.rfind("__", 0) == 0) continue;
      Overload o;
      for (const clang::ParmVarDecl* p : f->parameters())
        o.params.push_back(shapeOf(p->getType()));
      o.result = shapeOf(f->getReturnType());
      seen[name].insert(std::move(o));
    }
    for (auto& [name, lists] : seen)
      out_.overloads[name].assign(lists.begin(), lists.end());
  }

private:
  BuiltinSignatures& out_;
};

} // namespace

const BuiltinSignatures& BuiltinSignatures::opencl() {
  static const BuiltinSignatures table = [] {
    BuiltinSignatures out;
    Collector collector(out);
    clangfe::CompileRequest req;
    req.source = std::string("#include \"") + kClangResourceDir + "/include/opencl-c.h\"\n";
    req.fileName = "builtins.cl";
    req.emitIR = false;
    req.observer = &collector;
    (void)clangfe::compile(req);
    return out;
  }();
  return table;
}

} // namespace steerbench::model
