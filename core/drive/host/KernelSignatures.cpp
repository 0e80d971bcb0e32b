#include "drive/host/KernelSignatures.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>

namespace steerbench::drive {
namespace {

const char* builtinName(const clang::BuiltinType* b) {
  using K = clang::BuiltinType::Kind;
  switch (b->getKind()) {
  case K::Char_S:
  case K::SChar: return "char";
  case K::Char_U:
  case K::UChar: return "uchar";
  case K::Bool: return "uchar";
  case K::Short: return "short";
  case K::UShort: return "ushort";
  case K::Int: return "int";
  case K::UInt: return "uint";
  case K::Long: return "long";
  case K::ULong: return "ulong";
  case K::Half: return "half";
  case K::Float: return "float";
  case K::Double: return "double";
  default: return nullptr;
  }
}

/// Fills element and width from a value type; false when it is no scalar or vector of one.
bool readValueType(clang::QualType t, KernelArgument& a) {
  t = t.getCanonicalType();
  if (const auto* v = t->getAs<clang::ExtVectorType>()) {
    const auto* b = v->getElementType().getCanonicalType()->getAs<clang::BuiltinType>();
    const char* n = b ? builtinName(b) : nullptr;
    if (!n) return false;
    a.element = n;
    a.width = v->getNumElements();
    return true;
  }
  const auto* b = t->getAs<clang::BuiltinType>();
  const char* n = b ? builtinName(b) : nullptr;
  if (!n) return false;
  a.element = n;
  a.width = 1;
  return true;
}

KernelArgument readArgument(const clang::ParmVarDecl* p) {
  KernelArgument a;
  a.name = p->getNameAsString();
  const clang::QualType t = p->getType().getCanonicalType();
  const std::string spelled = p->getType().getAsString();
  if (t->isPointerType()) {
    const clang::QualType pointee = t->getPointeeType();
    if (pointee->isPointerType()) {
      a.unsupported = "a pointer to a pointer (" + spelled + ")";
      return a;
    }
    switch (pointee.getAddressSpace()) {
    case clang::LangAS::opencl_global: a.kind = KernelArgument::Kind::Global; break;
    case clang::LangAS::opencl_constant: a.kind = KernelArgument::Kind::Constant; break;
    case clang::LangAS::opencl_local: a.kind = KernelArgument::Kind::Local; break;
    default: a.unsupported = "a pointer to private or generic memory (" + spelled + ")"; return a;
    }
    a.isConst = pointee.isConstQualified() || a.kind == KernelArgument::Kind::Constant;
    if (pointee->isRecordType())
      a.unsupported = "a pointer to a struct or union (" + spelled + ")";
    else if (!readValueType(pointee, a))
      a.unsupported = "a pointer to " + pointee.getUnqualifiedType().getAsString();
    return a;
  }
  a.kind = KernelArgument::Kind::Scalar;
  if (t->isImageType())
    a.unsupported = "an image (" + spelled + ")";
  else if (t->isSamplerT())
    a.unsupported = "a sampler";
  else if (t->isRecordType())
    a.unsupported = "a struct or union passed by value (" + spelled + ")";
  else if (!readValueType(t, a))
    a.unsupported = "a value of type " + spelled;
  return a;
}

class SignatureReader : public clangfe::AstObserver {
public:
  explicit SignatureReader(std::vector<KernelSignature>& out) : out_(out) {}
  void onTranslationUnit(clang::ASTContext& ast, bool) override {
    for (const clang::Decl* d : ast.getTranslationUnitDecl()->noload_decls()) {
      const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!fd || !fd->hasAttr<clang::OpenCLKernelAttr>() || !fd->isThisDeclarationADefinition()) continue;
      KernelSignature k;
      k.name = fd->getNameAsString();
      for (const clang::ParmVarDecl* p : fd->parameters())
        k.arguments.push_back(readArgument(p));
      out_.push_back(std::move(k));
    }
  }

private:
  std::vector<KernelSignature>& out_;
};

} // namespace

SignatureScan kernelSignatures(const std::string& source, const clangfe::CompileOptions& options,
                               const std::string& fileName) {
  SignatureScan scan;
  SignatureReader reader(scan.kernels);
  clangfe::CompileRequest req;
  req.source = source;
  req.fileName = fileName;
  req.options = options;
  req.emitIR = false;
  req.observer = &reader;
  const auto result = clangfe::compile(req);
  scan.compiled = result.succeeded();
  if (!scan.compiled) scan.error = result.firstError();
  return scan;
}

} // namespace steerbench::drive
