// In-process Clang 15 for OpenCL C: one CompilerInstance per compile, fed from memory.
//
// Thread-safety: compile() may run on many threads at once; every call builds
// its own CompilerInstance, diagnostics engine and LLVMContext.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}
namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace steerbench::clangfe {

enum class Severity { Note, Warning, Error, Fatal };

[[nodiscard]] const char* severityName(Severity s);

struct Diagnostic {
  std::string file; ///< empty when the diagnostic has no location
  unsigned line = 0;
  unsigned column = 0;
  Severity severity = Severity::Error;
  std::string message;
  std::string option; ///< the warning's flag without -W ("unused-value"); empty for errors and notes
};

/// Formats "file:line:col: error: message", as compilers do.
[[nodiscard]] std::string formatDiagnostic(const Diagnostic& d);

struct CompileOptions {
  std::string clStd = "CL1.2";          ///< value of -cl-std: CL1.0 .. CL3.0
  std::vector<std::string> defines;     ///< "NAME" or "NAME=VALUE"
  std::vector<std::string> includeDirs; ///< searched after the including file's folder
  unsigned errorLimit = 20;             ///< Clang stops reporting after this many errors
  unsigned maxDiagnostics = 200;        ///< at most this many diagnostics are kept
  /// Load OpenCL's default header from a precompiled copy shared across
  /// compiles (built once per option set). Same results, less time.
  bool precompiledBaseHeader = true;
  /// Run LLVM's -O1 pass pipeline on the IR (as `clang-15 -O1` does). False
  /// gives the IR straight from code generation (`-Xclang -disable-llvm-passes`),
  /// which the feature spaces are not defined on; benchmarks use it to time the
  /// pipeline apart from the front end.
  bool optimize = true;
  /// Warnings turned on besides Clang's defaults, by flag without -W
  /// ("unused-value", "unreachable-code-aggressive"). They change no IR.
  std::vector<std::string> warnings;
};

/// Sees the AST of a translation unit before it is destroyed. Called once per
/// compile, on the compiling thread, also when the source has errors: then the
/// AST is what Clang recovered and `hasErrors` is true.
class AstObserver {
public:
  virtual ~AstObserver() = default;
  virtual void onTranslationUnit(clang::ASTContext& ast, bool hasErrors) = 0;
};

struct CompileRequest {
  std::string source;                ///< OpenCL C text (already read and checked)
  std::string fileName = "input.cl"; ///< used in diagnostics and to resolve #include "..."
  CompileOptions options;
  bool emitIR = true;              ///< also generate LLVM IR for spir64 at -O1
  AstObserver* observer = nullptr; ///< optional; borrowed for the call only
};

/// The outcome of one compile. Owns the IR module and its context.
class CompileResult {
public:
  CompileResult();
  ~CompileResult();
  CompileResult(CompileResult&&) noexcept;
  CompileResult& operator=(CompileResult&&) noexcept;

  /// True when Clang reported no error (warnings are fine).
  [[nodiscard]] bool succeeded() const { return succeeded_; }
  /// True when Clang itself crashed on this input (reported as a fatal diagnostic too).
  [[nodiscard]] bool crashed() const { return crashed_; }
  [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  /// Number of errors, including those past the error limit that were not kept.
  [[nodiscard]] unsigned errorCount() const { return errorCount_; }
  /// Kernel functions defined in the unit, in source order. Filled even when
  /// the source has errors, from the recovered AST.
  [[nodiscard]] const std::vector<std::string>& kernelNames() const { return kernels_; }
  /// The -O1 spir64 module, or nullptr when IR was not requested or the source has errors.
  [[nodiscard]] llvm::Module* module() const { return module_.get(); }
  /// A one-line summary: the first error, or "ok".
  [[nodiscard]] std::string firstError() const;

private:
  friend CompileResult compile(const CompileRequest&);
  bool succeeded_ = false;
  bool crashed_ = false;
  unsigned errorCount_ = 0;
  std::vector<Diagnostic> diagnostics_;
  std::vector<std::string> kernels_;
  std::unique_ptr<llvm::LLVMContext> context_;
  std::unique_ptr<llvm::Module> module_;
};

/// The outcome of preprocessing: the expanded text, or diagnostics.
struct PreprocessResult {
  bool succeeded = false;
  std::string text; ///< macros expanded, comments and dead code gone, no line markers
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> includedFiles; ///< every file #included, in order (first time each)
  [[nodiscard]] std::string firstError() const;
};

/// Preprocesses one unit like `clang-15 -E -P`: #includes are resolved
/// (relative to the file, then options.includeDirs) and inlined, macros
/// expanded, comments dropped. OpenCL's own default header is not included,
/// so its macros (CLK_LOCAL_MEM_FENCE, ...) stay as written. Include cycles
/// and missing includes fail with a diagnostic. Thread-safe.
[[nodiscard]] PreprocessResult preprocess(const CompileRequest& request);

/// Compiles one OpenCL C unit in process, with
/// `-triple spir64-unknown-unknown -x cl -cl-std=<clStd> -finclude-default-header
///  -fdeclare-opencl-builtins -O1`. Never throws for errors in the source:
/// they come back as diagnostics. Include cycles are reported as a fatal error
/// naming the chain.
[[nodiscard]] CompileResult compile(const CompileRequest& request);

/// The byte offset in `source` of its first error (parsing and types; no code
/// generation), or std::string::npos when it has none. An error Clang gives
/// no place in `source` counts as at offset 0. Default options. Thread-safe.
[[nodiscard]] std::size_t firstErrorOffset(const std::string& source);
/// The same with `warnings` turned on (each passed as -W<warning>; "error"
/// makes every warning an error, "error=x" warning x), and `observer`, when
/// given, shown the AST of the same compile.
[[nodiscard]] std::size_t firstErrorOffsetWith(const std::string& source, const std::vector<std::string>& warnings,
                                               AstObserver* observer = nullptr);

} // namespace steerbench::clangfe
