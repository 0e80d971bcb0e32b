#include "clang/OpenCLFrontend.h"

#include "clang/BaseHeaderPch.h"

#include "common/Version.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Frontend/PreprocessorOutputOptions.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace steerbench::clangfe {

const char* severityName(Severity s) {
  switch (s) {
  case Severity::Note: return "note";
  case Severity::Warning: return "warning";
  case Severity::Error: return "error";
  case Severity::Fatal: return "fatal error";
  }
  return "error";
}

std::string formatDiagnostic(const Diagnostic& d) {
  std::string out;
  if (!d.file.empty()) {
    out += d.file;
    if (d.line) out += ":" + std::to_string(d.line) + ":" + std::to_string(d.column);
    out += ": ";
  }
  out += severityName(d.severity);
  out += ": ";
  out += d.message;
  return out;
}

CompileResult::CompileResult() = default;
CompileResult::~CompileResult() {
  module_.reset(); // the module must die before its context
  context_.reset();
}
CompileResult::CompileResult(CompileResult&&) noexcept = default;
CompileResult& CompileResult::operator=(CompileResult&&) noexcept = default;

std::string PreprocessResult::firstError() const {
  for (const auto& d : diagnostics)
    if (d.severity == Severity::Error || d.severity == Severity::Fatal) return formatDiagnostic(d);
  return succeeded ? "ok" : "preprocessing failed";
}

std::string CompileResult::firstError() const {
  for (const auto& d : diagnostics_)
    if (d.severity == Severity::Error || d.severity == Severity::Fatal) return formatDiagnostic(d);
  return succeeded_ ? "ok" : "compilation failed";
}

namespace {

/// Keeps Clang's diagnostics as values, up to a cap.
class CollectingConsumer : public clang::DiagnosticConsumer {
public:
  explicit CollectingConsumer(unsigned cap) : cap_(cap) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info); // keeps the error/warning counts
    if (level == clang::DiagnosticsEngine::Ignored) return;
    if (out.size() >= cap_) return;
    Diagnostic d;
    switch (level) {
    case clang::DiagnosticsEngine::Note: d.severity = Severity::Note; break;
    case clang::DiagnosticsEngine::Remark:
    case clang::DiagnosticsEngine::Warning: d.severity = Severity::Warning; break;
    case clang::DiagnosticsEngine::Fatal: d.severity = Severity::Fatal; break;
    default: d.severity = Severity::Error; break;
    }
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    d.message = std::string(text.str());
    if (d.severity == Severity::Warning) d.option = clang::DiagnosticIDs::getWarningOptionForDiag(info.getID()).str();
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      clang::PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (p.isValid()) {
        d.file = p.getFilename();
        d.line = p.getLine();
        d.column = p.getColumn();
      }
    }
    out.push_back(std::move(d));
  }

  std::vector<Diagnostic> out;

private:
  unsigned cap_;
};

/// Reports an #include that re-enters a file already on the include stack,
/// with the whole chain, instead of Clang's "nested too deeply" after 200 levels.
class IncludeCycleGuard : public clang::PPCallbacks {
public:
  IncludeCycleGuard(clang::SourceManager& sm, clang::DiagnosticsEngine& diags,
                    std::vector<std::string>* included = nullptr)
      : sm_(sm), diags_(diags), included_(included) {}

  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    if (reason == EnterFile) {
      clang::FileID fid = sm_.getFileID(loc);
      const clang::FileEntry* fe = sm_.getFileEntryForID(fid);
      std::string name = fe ? std::string(fe->tryGetRealPathName()) : std::string();
      if (name.empty() && fe) name = std::string(fe->getName());
      if (!name.empty() && !reported_) {
        auto it = std::find(stack_.begin(), stack_.end(), name);
        if (it != stack_.end()) {
          std::string chain;
          for (auto j = it; j != stack_.end(); ++j)
            chain += *j + " -> ";
          chain += name;
          unsigned id =
              diags_.getCustomDiagID(clang::DiagnosticsEngine::Fatal,
                                     "include cycle: %0; add an include guard or remove one of the #includes");
          diags_.Report(loc, id) << chain;
          reported_ = true;
        }
      }
      if (included_ && !stack_.empty() && !name.empty() &&
          std::find(included_->begin(), included_->end(), name) == included_->end())
        included_->push_back(name);
      stack_.push_back(name);
    } else if (reason == ExitFile) {
      if (!stack_.empty()) stack_.pop_back();
    }
  }

private:
  clang::SourceManager& sm_;
  clang::DiagnosticsEngine& diags_;
  std::vector<std::string>* included_;
  std::vector<std::string> stack_;
  bool reported_ = false;
};

/// -E -P: prints the preprocessed main file into a string.
class PrintToStringAction : public clang::PreprocessorFrontendAction {
public:
  PrintToStringAction(std::string& out, std::vector<std::string>& included) : out_(out), included_(included) {}

protected:
  void ExecuteAction() override {
    clang::CompilerInstance& ci = getCompilerInstance();
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeCycleGuard>(ci.getSourceManager(), ci.getDiagnostics(), &included_));
    clang::PreprocessorOutputOptions opts;
    opts.ShowCPP = 1;
    opts.ShowLineMarkers = 0;
    opts.ShowComments = 0;
    opts.ShowMacros = 0;
    llvm::raw_string_ostream os(out_);
    clang::DoPrintPreprocessedInput(ci.getPreprocessor(), &os, opts);
    os.flush();
  }

private:
  std::string& out_;
  std::vector<std::string>& included_;
};

/// Collects kernel names and forwards the finished AST to the user's observer.
class ObservingConsumer : public clang::ASTConsumer {
public:
  ObservingConsumer(clang::CompilerInstance& ci, std::vector<std::string>& kernels, AstObserver* observer)
      : ci_(ci), kernels_(kernels), observer_(observer) {}

  void HandleTranslationUnit(clang::ASTContext& ast) override {
    // Only what this unit parsed: declarations from the precompiled header stay unloaded.
    for (const clang::Decl* d : ast.getTranslationUnitDecl()->noload_decls()) {
      const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (fd && fd->hasAttr<clang::OpenCLKernelAttr>() && fd->isThisDeclarationADefinition())
        kernels_.push_back(fd->getNameAsString());
    }
    if (observer_) observer_->onTranslationUnit(ast, ci_.getDiagnostics().hasErrorOccurred());
  }

private:
  clang::CompilerInstance& ci_;
  std::vector<std::string>& kernels_;
  AstObserver* observer_;
};

/// Installs the include-cycle guard once the preprocessor exists.
template <class Base> class SteerbenchAction : public Base {
public:
  template <class... A>
  SteerbenchAction(std::vector<std::string>& kernels, AstObserver* observer, A&&... baseArgs)
      : Base(std::forward<A>(baseArgs)...), kernels_(kernels), observer_(observer) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef file) override {
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<IncludeCycleGuard>(ci.getSourceManager(), ci.getDiagnostics()));
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(std::make_unique<ObservingConsumer>(ci, kernels_, observer_));
    if (auto next = makeNext(ci, file)) consumers.push_back(std::move(next));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

  std::unique_ptr<clang::ASTConsumer> makeNext(clang::CompilerInstance& ci, llvm::StringRef file) {
    if constexpr (std::is_same_v<Base, clang::EmitLLVMOnlyAction>)
      return Base::CreateASTConsumer(ci, file);
    else
      return nullptr;
  }

private:
  std::vector<std::string>& kernels_;
  AstObserver* observer_;
};

/// ASTFrontendAction is abstract; this is the syntax-only base.
class ParseOnlyAction : public clang::ASTFrontendAction {
protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<clang::ASTConsumer>();
  }
};

std::vector<std::string> buildArguments(const CompileRequest& req, bool defaultHeader = true) {
  const std::string resourceDir = kClangResourceDir;
  // The cc1 flags `clang-15 -x cl -target spir64-unknown-unknown -O1` passes
  // (see `clang-15 -###`), so the in-process IR is the IR the driver makes.
  // Left out: C++-only and debug-info flags, and -fgnuc-version=4.2.1, which
  // only defines the __GNUC__ macros and made every compile 20% slower.
  std::vector<std::string> args = {"-triple",
                                   "spir64-unknown-unknown",
                                   "-x",
                                   "cl",
                                   "-cl-std=" + req.options.clStd,
                                   "-fdeclare-opencl-builtins",
                                   "-O1",
                                   "-Wspir-compat",
                                   "-no-opaque-pointers",
                                   "-clear-ast-before-backend",
                                   "-disable-llvm-verifier",
                                   "-discard-value-names",
                                   "-mrelocation-model",
                                   "static",
                                   "-mframe-pointer=all",
                                   "-fmath-errno",
                                   "-ffp-contract=on",
                                   "-fno-rounding-math",
                                   "-resource-dir",
                                   resourceDir,
                                   "-internal-isystem",
                                   resourceDir + "/include",
                                   "-ferror-limit",
                                   std::to_string(req.options.errorLimit),
                                   "-fno-caret-diagnostics"};
  if (defaultHeader) args.push_back("-finclude-default-header");
  if (!req.options.optimize) args.push_back("-disable-llvm-passes");
  for (const auto& w : req.options.warnings)
    args.push_back("-W" + w);
  for (const auto& d : req.options.defines)
    args.push_back("-D" + d);
  for (const auto& i : req.options.includeDirs)
    args.push_back("-I" + i);
  args.push_back(req.fileName);
  return args;
}

/// Runs `work`, turning a crash inside Clang (a segfault or an assertion on
/// strange input) into a `false` instead of the end of the process.
template <class F> bool runSafely(F&& work) {
  static const bool enabled = [] {
    llvm::CrashRecoveryContext::Enable();
    return true;
  }();
  (void)enabled;
  llvm::CrashRecoveryContext crc;
  return crc.RunSafely(std::forward<F>(work));
}

Diagnostic crashDiagnostic(const std::string& file) {
  return {file, 0, 0, Severity::Fatal,
          "the compiler crashed on this input (a bug in Clang 15); the input was skipped, nothing else is affected"};
}

/// Parses `args` (without the input file) into an invocation; nullptr when
/// they are invalid (reported to `collector`).
std::shared_ptr<const clang::CompilerInvocation> parseInvocation(const std::vector<std::string>& args,
                                                                 CollectingConsumer& collector) {
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  std::vector<const char*> argv;
  argv.reserve(args.size() + 1);
  for (const auto& a : args)
    argv.push_back(a.c_str());
  argv.push_back("input.cl"); // replaced by each compile's own file
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> opts(new clang::DiagnosticOptions());
  clang::DiagnosticsEngine argDiags(llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs>(new clang::DiagnosticIDs()), opts,
                                    &collector, /*ShouldOwnClient=*/false);
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, argDiags) || argDiags.hasErrorOccurred() ||
      invocation->getFrontendOpts().Inputs.size() != 1)
    return nullptr;
  return invocation;
}

/// A copy of the parsed invocation for `args`, cached per argument list:
/// parsing the same few dozen arguments for every compile cost about 2% of a
/// compile. Invalid arguments are not cached, so each call reports them.
/// Thread-safe: copies are made under the lock, because copying an invocation
/// touches its source's reference counts (AnalyzerOptions), which are not atomic.
std::shared_ptr<clang::CompilerInvocation> invocationFor(const std::vector<std::string>& args,
                                                         CollectingConsumer& collector) {
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::shared_ptr<const clang::CompilerInvocation>> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(args);
    if (it != cache.end()) return std::make_shared<clang::CompilerInvocation>(*it->second);
  }
  auto parsed = parseInvocation(args, collector);
  if (!parsed) return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 32) cache.clear(); // many distinct -D sets: keep memory bounded
  cache.emplace(args, parsed);
  return std::make_shared<clang::CompilerInvocation>(*parsed);
}

/// The invocation for `args` (the last one the input file), with the
/// request's source fed from memory under its real name (so #include "x.h"
/// resolves relative to its folder); nullptr when the arguments are invalid
/// (reported to `collector`).
std::shared_ptr<clang::CompilerInvocation> makeInvocation(const std::vector<std::string>& args,
                                                          const CompileRequest& req, CollectingConsumer& collector) {
  auto invocation = invocationFor({args.begin(), args.end() - 1}, collector);
  if (!invocation) return nullptr;
  auto& inputs = invocation->getFrontendOpts().Inputs;
  inputs.front() = clang::FrontendInputFile(args.back(), inputs.front().getKind());
  invocation->getPreprocessorOpts().addRemappedFile(
      req.fileName, llvm::MemoryBuffer::getMemBufferCopy(req.source, req.fileName).release());
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  return invocation;
}

} // namespace

PreprocessResult preprocess(const CompileRequest& req) {
  PreprocessResult result;
  CollectingConsumer collector(req.options.maxDiagnostics);
  const auto invocation = makeInvocation(buildArguments(req, /*defaultHeader=*/false), req, collector);
  if (!invocation) {
    result.diagnostics = std::move(collector.out);
    return result;
  }
  invocation->getFrontendOpts().ProgramAction = clang::frontend::PrintPreprocessedInput;
  auto instance = std::make_unique<clang::CompilerInstance>();
  clang::CompilerInstance& ci = *instance;
  ci.setInvocation(invocation);
  ci.createDiagnostics(&collector, false);
  auto* action = new PrintToStringAction(result.text, result.includedFiles);
  if (!runSafely([&] { ci.ExecuteAction(*action); })) {
    (void)instance.release(); // leaked on purpose, with the action: their state is unknown
    result.diagnostics = collector.out;
    result.diagnostics.push_back(crashDiagnostic(req.fileName));
    result.text.clear();
    return result;
  }
  delete action;
  result.succeeded = !ci.getDiagnostics().hasErrorOccurred();
  result.diagnostics = std::move(collector.out);
  if (!result.succeeded) result.text.clear();
  return result;
}

CompileResult compile(const CompileRequest& req) {
  CompileResult result;
  CollectingConsumer collector(req.options.maxDiagnostics);

  const std::vector<std::string> args = buildArguments(req);
  std::shared_ptr<const BaseHeaderPch> pch;
  if (req.options.precompiledBaseHeader) { // warnings change nothing in the header's AST: one PCH serves all
    std::vector<std::string> key;
    for (auto it = args.begin(); it != args.end() - 1; ++it)
      if (it->rfind("-W", 0) != 0 || *it == "-Wspir-compat") key.push_back(*it);
    pch = basePchFor(key);
  }
  const auto invocation = makeInvocation(args, req, collector);
  if (!invocation) {
    result.diagnostics_ = std::move(collector.out);
    result.errorCount_ = std::max(1u, collector.getNumErrors());
    if (result.diagnostics_.empty())
      result.diagnostics_.push_back({"", 0, 0, Severity::Error, "invalid compiler options"});
    return result;
  }
  invocation->getFrontendOpts().DisableFree = false;

  if (pch) {
    invocation->getPreprocessorOpts().ImplicitPCHInclude = pch->path;
    // Built in this process from the same header and options moments ago.
    invocation->getPreprocessorOpts().DisablePCHOrModuleValidation = clang::DisableValidationForModuleKind::All;
  }

  auto instance = std::make_unique<clang::CompilerInstance>();
  clang::CompilerInstance& ci = *instance;
  ci.setInvocation(invocation);
  ci.createDiagnostics(&collector, /*ShouldOwnClient=*/false);
  if (pch) ci.createFileManager(fileSystemWith(*pch));
  // After a crash inside Clang, its state is unknown: report the crash and
  // leak the compiler rather than run destructors over half-built memory.
  auto crashed = [&]() {
    (void)instance.release();
    (void)result.context_.release();
    result.diagnostics_ = collector.out;
    result.diagnostics_.push_back(crashDiagnostic(req.fileName));
    result.errorCount_ = std::max(1u, collector.getNumErrors());
    result.succeeded_ = false;
    result.crashed_ = true;
    result.kernels_.clear();
    return std::move(result);
  };

  if (req.emitIR) {
    result.context_ = std::make_unique<llvm::LLVMContext>();
    auto* action =
        new SteerbenchAction<clang::EmitLLVMOnlyAction>(result.kernels_, req.observer, result.context_.get());
    if (!runSafely([&] { ci.ExecuteAction(*action); })) return crashed();
    if (!ci.getDiagnostics().hasErrorOccurred()) result.module_ = action->takeModule();
    delete action;
  } else {
    auto* action = new SteerbenchAction<ParseOnlyAction>(result.kernels_, req.observer);
    if (!runSafely([&] { ci.ExecuteAction(*action); })) return crashed();
    delete action;
  }
  result.errorCount_ = collector.getNumErrors();
  result.succeeded_ = !ci.getDiagnostics().hasErrorOccurred() && (!req.emitIR || result.module_);
  if (!result.succeeded_ && result.errorCount_ == 0) result.errorCount_ = 1;
  result.diagnostics_ = std::move(collector.out);
  if (!result.succeeded_ && req.emitIR && result.diagnostics_.empty())
    result.diagnostics_.push_back({req.fileName, 0, 0, Severity::Error, "code generation failed"});
  return result;
}

std::size_t firstErrorOffset(const std::string& source) { return firstErrorOffsetWith(source, {}); }

std::size_t firstErrorOffsetWith(const std::string& source, const std::vector<std::string>& warnings,
                                 AstObserver* observer) {
  CompileRequest req;
  req.observer = observer;
  req.source = source;
  req.options.warnings = warnings;
  req.fileName = "check.cl";
  req.options.errorLimit = 1;
  req.options.maxDiagnostics = 8;
  req.emitIR = false;
  const CompileResult result = compile(req);
  if (result.succeeded()) return std::string::npos;
  for (const auto& d : result.diagnostics()) {
    if (d.severity != Severity::Error && d.severity != Severity::Fatal) continue;
    if (d.file != req.fileName || d.line == 0) return 0;
    std::size_t offset = 0;
    for (unsigned line = 1; line < d.line && offset != std::string::npos; ++line) {
      offset = source.find('\n', offset);
      if (offset != std::string::npos) ++offset;
    }
    if (offset == std::string::npos) return 0;
    return std::min(source.size(), offset + (d.column > 0 ? d.column - 1 : 0));
  }
  return 0;
}

} // namespace steerbench::clangfe
