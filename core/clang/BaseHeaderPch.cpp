#include "clang/BaseHeaderPch.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <map>
#include <mutex>

namespace steerbench::clangfe {
namespace {

constexpr const char* kPchDir = "/steerbench-pch";
constexpr const char* kPchMain = "/steerbench-pch/base.h"; // empty: the default header comes via predefines

class BuildPchAction : public clang::ASTFrontendAction {
public:
  explicit BuildPchAction(std::shared_ptr<clang::PCHBuffer> buffer) : buffer_(std::move(buffer)) {}

protected:
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    ci.getLangOpts().CompilingPCH = true;
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    return std::make_unique<clang::PCHGenerator>(ci.getPreprocessor(), ci.getModuleCache(), "", "", buffer_,
                                                 llvm::ArrayRef<std::shared_ptr<clang::ModuleFileExtension>>(),
                                                 /*AllowASTWithErrors=*/false, /*IncludeTimestamps=*/false);
  }
  clang::TranslationUnitKind getTranslationUnitKind() override { return clang::TU_Prefix; }

private:
  std::shared_ptr<clang::PCHBuffer> buffer_;
};

std::shared_ptr<const BaseHeaderPch> build(const std::vector<std::string>& cc1Args, const std::string& path) {
  std::vector<const char*> argv;
  for (const auto& a : cc1Args)
    argv.push_back(a.c_str());
  argv.push_back(kPchMain);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> opts(new clang::DiagnosticOptions());
  clang::IgnoringDiagConsumer ignore;
  clang::DiagnosticsEngine diags(new clang::DiagnosticIDs(), opts, &ignore, false);
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, diags)) return nullptr;
  invocation->getFrontendOpts().Inputs.clear();
  invocation->getFrontendOpts().Inputs.emplace_back(
      kPchMain, clang::InputKind(clang::Language::OpenCL, clang::InputKind::Source, true));
  invocation->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;

  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(kPchMain, 0, llvm::MemoryBuffer::getMemBuffer(""));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(memory);

  clang::CompilerInstance ci;
  ci.setInvocation(invocation);
  ci.createDiagnostics(&ignore, false);
  ci.createFileManager(overlay);
  auto buffer = std::make_shared<clang::PCHBuffer>();
  BuildPchAction action(buffer);
  if (!ci.ExecuteAction(action) || ci.getDiagnostics().hasErrorOccurred() || !buffer->IsComplete) return nullptr;
  auto pch = std::make_shared<BaseHeaderPch>();
  pch->path = path;
  pch->bytes.assign(buffer->Data.begin(), buffer->Data.end());
  return pch;
}

} // namespace

std::shared_ptr<const BaseHeaderPch> basePchFor(const std::vector<std::string>& cc1Args) {
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::shared_ptr<const BaseHeaderPch>> cache;
  std::lock_guard<std::mutex> lock(mutex); // a build takes milliseconds, once per option set
  auto it = cache.find(cc1Args);
  if (it != cache.end()) return it->second;
  if (cache.size() >= 32) cache.clear(); // many distinct -D sets: keep memory bounded
  auto pch = build(cc1Args, std::string(kPchDir) + "/base-" + std::to_string(cache.size()) + ".pch");
  cache.emplace(cc1Args, pch); // a failure is cached too: it would fail again
  return pch;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystemWith(const BaseHeaderPch& pch) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(pch.path, 0, llvm::MemoryBuffer::getMemBuffer(pch.bytes, pch.path, false));
  memory->addFile(kPchMain, 0, llvm::MemoryBuffer::getMemBuffer(""));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(memory);
  return overlay;
}

} // namespace steerbench::clangfe
