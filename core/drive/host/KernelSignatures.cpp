#include "drive/host/KernelSignatures.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>
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
  if (const auto* e = t->getAs<clang::EnumType>()) // an enum is its integer type
    t = e->getDecl()->getIntegerType().getCanonicalType();
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

/// A struct's scalar fields, flattened (nested structs and arrays of them
/// too). Fields the driver cannot give a value (pointers, bit-fields, unions,
/// images) are left out: their bytes stay zero, which for a pointer inside a
/// struct is as good as any value a host could pass.
void readFields(const clang::ASTContext& ast, clang::QualType t, std::size_t base, std::vector<StructField>& out) {
  t = t.getCanonicalType();
  if (const auto* at = ast.getAsConstantArrayType(t)) {
    const auto step = std::size_t(ast.getTypeSizeInChars(at->getElementType()).getQuantity());
    for (std::uint64_t i = 0; i < at->getSize().getZExtValue(); ++i)
      readFields(ast, at->getElementType(), base + std::size_t(i) * step, out);
    return;
  }
  if (const auto* rt = t->getAs<clang::RecordType>()) {
    const auto* rd = rt->getDecl()->getDefinition();
    if (!rd || rd->isUnion()) return;
    const auto& layout = ast.getASTRecordLayout(rd);
    for (const auto* f : rd->fields())
      if (!f->isBitField())
        readFields(ast, f->getType(), base + std::size_t(layout.getFieldOffset(f->getFieldIndex()) / 8), out);
    return;
  }
  KernelArgument v;
  if (readValueType(t, v)) out.push_back({base, v.element, v.width});
}

/// Fills a struct (or union, or fixed-size array) argument's layout; false when it has no size.
bool readStruct(const clang::ASTContext& ast, clang::QualType t, KernelArgument& a) {
  a.element = "struct";
  a.width = 1;
  a.structBytes = t->isIncompleteType() ? 0 : std::size_t(ast.getTypeSizeInChars(t).getQuantity());
  a.fields.clear();
  if (a.structBytes == 0) return false;
  readFields(ast, t, 0, a.fields);
  return true;
}

KernelArgument readArgument(const clang::ASTContext& ast, const clang::ParmVarDecl* p) {
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
    if (pointee->isVoidType()) { // the kernel casts it: a buffer of bytes, sized by the probe like any other
      a.element = "uchar";
      a.width = 1;
    } else if (pointee->isRecordType() || ast.getAsConstantArrayType(pointee)) {
      if (!readStruct(ast, pointee.getUnqualifiedType(), a))
        a.unsupported = "a pointer to an incomplete type (" + spelled + ")";
    } else if (!readValueType(pointee, a)) {
      a.unsupported = "a pointer to " + pointee.getUnqualifiedType().getAsString();
    }
    return a;
  }
  a.kind = KernelArgument::Kind::Scalar;
  if (t->isImageType()) {
    a.kind = KernelArgument::Kind::Image;
    a.element = "float"; // until a read or write in the body says otherwise
    if (t->isOCLImage2dROType() || t->isOCLImage2dWOType() || t->isOCLImage2dRWType()) a.imageDims = 2;
    else if (t->isOCLImage3dROType() || t->isOCLImage3dWOType() || t->isOCLImage3dRWType()) a.imageDims = 3;
    else a.unsupported = "an image of a kind the driver does not make (" + spelled + ")";
    const auto* attr = p->getAttr<clang::OpenCLAccessAttr>();
    if (attr && attr->isReadWrite()) a.unsupported = "a read_write image (" + spelled + ")";
    a.isConst = !attr || attr->isReadOnly();
  } else if (t->isSamplerT()) {
    a.kind = KernelArgument::Kind::Sampler;
  } else if (t->isRecordType()) {
    if (!readStruct(ast, t, a)) a.unsupported = "a value of an incomplete type (" + spelled + ")";
  } else if (!readValueType(t, a)) {
    a.unsupported = "a value of type " + spelled;
  }
  return a;
}

/// The channel type each image argument's reads and writes use (read_imagef:
/// float, read_imagei: int, read_imageui: uint, and the write_image* alike).
class ImageUse : public clang::RecursiveASTVisitor<ImageUse> {
public:
  ImageUse(const clang::FunctionDecl* kernel, KernelSignature& k) : kernel_(kernel), k_(k) {}
  bool VisitCallExpr(clang::CallExpr* c) {
    const auto* f = c->getDirectCallee();
    if (!f || c->getNumArgs() < 1) return true;
    const std::string n = f->getNameAsString();
    const bool image = n.rfind("read_image", 0) == 0 || n.rfind("write_image", 0) == 0;
    if (!image) return true;
    const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(c->getArg(0)->IgnoreParenImpCasts());
    if (!r) return true;
    for (unsigned i = 0; i < kernel_->getNumParams(); ++i)
      if (kernel_->getParamDecl(i) == r->getDecl() && k_.arguments[i].isImage()) {
        const char last = n.back(), before = n.size() > 1 ? n[n.size() - 2] : ' ';
        k_.arguments[i].element = last == 'f' ? "float" : last == 'h' ? "float" : before == 'u' ? "uint" : "int";
      }
    return true;
  }

private:
  const clang::FunctionDecl* kernel_;
  KernelSignature& k_;
};

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
        k.arguments.push_back(readArgument(ast, p));
      if (fd->getBody()) ImageUse(fd, k).TraverseStmt(fd->getBody());
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
