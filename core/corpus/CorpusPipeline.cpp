#include "corpus/CorpusPipeline.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "corpus/IdentifierRewriting.h"
#include "corpus/KernelIsolation.h"
#include "corpus/SourceFormatting.h"
#include "corpus/TypeReconstruction.h"
#include "features/Measurement.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

namespace steerbench::corpus {

const char* stageName(Stage s) {
  switch (s) {
  case Stage::Read: return "read";
  case Stage::Include: return "include";
  case Stage::Preprocess: return "preprocess";
  case Stage::Isolate: return "isolate";
  case Stage::Reconstruct: return "reconstruct";
  case Stage::Compile: return "compile";
  case Stage::Rewrite: return "rewrite";
  case Stage::Format: return "format";
  case Stage::Dedupe: return "dedupe";
  case Stage::Stored: return "stored";
  }
  return "?";
}

const std::vector<Stage>& allStages() {
  static const std::vector<Stage> all = {Stage::Read,        Stage::Include, Stage::Preprocess, Stage::Isolate,
                                         Stage::Reconstruct, Stage::Compile, Stage::Rewrite,    Stage::Format,
                                         Stage::Dedupe,      Stage::Stored};
  return all;
}

void applyFileBuildOptions(const std::string& text, const std::string& fileDir, clangfe::CompileOptions& options) {
  static const std::regex line(R"(build_options\s*:\s*([^\n]*))");
  std::smatch m;
  if (!std::regex_search(text, m, line)) return;
  std::istringstream in(m[1].str());
  std::vector<std::string> words;
  for (std::string w; in >> w;)
    words.push_back(w);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    auto value = [&](std::size_t prefix) {
      return w.size() > prefix ? w.substr(prefix) : (i + 1 < words.size() ? words[++i] : "");
    };
    if (w.rfind("-D", 0) == 0) {
      const std::string d = value(2);
      if (!d.empty()) options.defines.push_back(d);
    } else if (w.rfind("-I", 0) == 0) {
      const std::string d = value(2);
      if (!d.empty()) options.includeDirs.push_back(d[0] == '/' ? d : fileDir + "/" + d);
    } else if (w.rfind("-cl-std=", 0) == 0) {
      const std::string v = w.substr(8);
      if (v == "CL1.0" || v == "CL1.1" || v == "CL1.2" || v == "CL2.0" || v == "CL3.0") options.clStd = v;
    }
  }
}

namespace {

/// The folder under `root` from which `relative` names an existing file, or
/// "". Each tree is listed once per process. Thread-safe.
std::string findInTree(const std::string& root, const std::string& relative) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<std::string>> listings;
  std::vector<std::string>* files;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto [it, fresh] = listings.try_emplace(root);
    if (fresh) {
      std::error_code ec;
      std::size_t n = 0;
      for (auto f = std::filesystem::recursive_directory_iterator(
               root, std::filesystem::directory_options::skip_permission_denied, ec);
           f != std::filesystem::recursive_directory_iterator() && n < 200000; f.increment(ec), ++n) {
        if (ec) break;
        if (f->is_regular_file(ec)) it->second.push_back(f->path().string());
      }
      std::sort(it->second.begin(), it->second.end());
    }
    files = &it->second;
  }
  const std::string suffix = "/" + relative;
  for (const auto& f : *files)
    if (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0)
      return f.substr(0, f.size() - suffix.size());
  return "";
}

void measureInto(KernelOutcome& k, const std::string& original, const std::string& fileName,
                 const clangfe::CompileOptions& compile) {
  auto mo = features::MeasureOptions::everySpace();
  mo.compile = compile;
  const auto m = features::measureSource(k.source, fileName, mo);
  if (!m.ok() || m.kernels.empty()) {
    // Was it the rewriting, or does the original fail to generate code too?
    clangfe::CompileRequest req;
    req.source = original;
    req.fileName = fileName;
    req.options = compile;
    const auto before = clangfe::compile(req);
    k.stage = before.succeeded() ? Stage::Rewrite : Stage::Compile;
    k.reason = before.succeeded() ? "the rewritten kernel no longer compiles: " + m.error
                                  : "code generation failed: " + before.firstError();
    return;
  }
  for (const auto& s : m.spaces) {
    if (s.kernels.empty()) {
      k.stage = Stage::Compile;
      k.reason = s.space->name + ": " + s.error;
      return;
    }
    k.vectors.push_back(s.kernels.front()); // the unit holds one kernel
  }
}

} // namespace

namespace {
KernelOutcome finishKernelIn(const std::string& name, const std::string& isolated, const std::string& fileName,
                             const IngestOptions& options);
} // namespace

KernelOutcome finishKernel(const std::string& name, const std::string& isolated, const std::string& fileName,
                           const IngestOptions& options) {
  KernelOutcome k = finishKernelIn(name, isolated, fileName, options);
  // The file is recorded with the kernel: reasons read "12:3: error: ...".
  for (std::size_t at; (at = k.reason.find(fileName + ":")) != std::string::npos;)
    k.reason.erase(at, fileName.size() + 1);
  return k;
}

namespace {
KernelOutcome finishKernelIn(const std::string& name, const std::string& isolated, const std::string& fileName,
                             const IngestOptions& options) {
  KernelOutcome k;
  k.name = name;
  if (options.maxTokens) {
    const unsigned tokens = countTokens(isolated);
    if (tokens > options.maxTokens) {
      k.stage = Stage::Isolate;
      k.reason = "the isolated kernel has " + std::to_string(tokens) + " tokens, over the limit of " +
                 std::to_string(options.maxTokens) + " (--max-tokens)";
      return k;
    }
  }
  // 5. Reconstruct declarations nothing provides. 6. The compile that
  //    succeeds is the compile check, and 7. its AST drives the rewriting.
  k.stage = Stage::Reconstruct;
  IdentifierRewriter rewriter;
  const Reconstruction rec =
      reconstructDeclarations(isolated, fileName, options.compile, options.reconstruct, 8, &rewriter);
  k.compiledAsIs = rec.compiledAsIs;
  if (!rec.compiled) {
    k.reason = options.reconstruct ? "does not compile, even with reconstructed declarations: " + rec.firstError
                                   : "does not compile: " + rec.firstError;
    return k;
  }
  k.reconstructed = rec.added;
  k.original = rec.prelude.empty() ? isolated : rec.prelude + "\n" + isolated;
  k.stage = Stage::Rewrite;
  if (!rewriter.ok()) {
    k.reason = "identifiers could not be rewritten (a user name inside a macro expansion)";
    return k;
  }
  // 8. Format, then measure the text the corpus keeps, down to -O1 IR.
  k.stage = Stage::Format;
  k.source = formatSource(rewriter.rewritten());
  k.dedupeHash = sha256Hex(foldWhitespace(k.source));
  k.family = templateFamily(k.source);
  k.tokens = countTokens(k.source);
  measureInto(k, k.original, fileName, options.compile);
  return k;
}
} // namespace

FileOutcome processFile(const std::string& path, const std::string& sourceRoot, const IngestOptions& options) {
  FileOutcome f;
  f.path = path;
  // 1. Read, with the size cap and encoding checks.
  std::string text;
  try {
    text = source::readSourceFile(path, options.limits);
  } catch (const InputError& e) {
    f.stage = Stage::Read;
    f.reason = e.what();
    return f;
  }
  f.contentHash = sha256Hex(text);
  const std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
  IngestOptions fileOptions = options;
  applyFileBuildOptions(text, dir, fileOptions.compile);
  if (!sourceRoot.empty()) fileOptions.compile.includeDirs.insert(fileOptions.compile.includeDirs.begin(), sourceRoot);

  // 2-3. Inline includes and preprocess, in one Clang pass.
  clangfe::CompileRequest pp;
  pp.source = text;
  pp.fileName = path;
  pp.options = fileOptions.compile;
  clangfe::PreprocessResult pre = clangfe::preprocess(pp);
  // An include found neither beside the file nor in the -I dirs: look for it
  // anywhere in the source tree, as a build system's include paths would.
  static const std::regex notFound(R"('([^']+)' file not found)");
  for (int retry = 0; retry < 8 && !pre.succeeded && !sourceRoot.empty(); ++retry) {
    std::smatch m;
    const std::string first = pre.firstError();
    if (!std::regex_search(first, m, notFound)) break;
    const std::string dirFound = findInTree(sourceRoot, m[1]);
    if (dirFound.empty()) break;
    pp.options.includeDirs.push_back(dirFound);
    fileOptions.compile.includeDirs.push_back(dirFound);
    pre = clangfe::preprocess(pp);
  }
  f.includedFiles = pre.includedFiles;
  if (!pre.succeeded) {
    const std::string first = pre.firstError();
    const bool includeProblem = first.find("file not found") != std::string::npos ||
                                first.find("include cycle") != std::string::npos ||
                                first.find("nested too deeply") != std::string::npos;
    f.stage = includeProblem ? Stage::Include : Stage::Preprocess;
    f.reason = first;
    return f;
  }

  // 4. Isolate kernels, from the AST of the preprocessed unit (recovered if need be).
  f.stage = Stage::Isolate;
  KernelIsolator isolator;
  clangfe::CompileRequest parse;
  parse.source = pre.text;
  parse.fileName = path;
  parse.options = fileOptions.compile;
  parse.options.includeDirs.clear(); // everything is inlined now
  parse.emitIR = false;
  parse.observer = &isolator;
  (void)clangfe::compile(parse);
  if (isolator.kernels().empty()) {
    f.reason = "no kernel function found";
    return f;
  }
  IngestOptions kernelOptions = fileOptions;
  kernelOptions.compile.includeDirs.clear();
  kernelOptions.compile.defines.clear(); // macros were expanded by the preprocessor
  for (const auto& iso : isolator.kernels())
    f.kernels.push_back(finishKernel(iso.name, iso.source, path, kernelOptions));
  return f;
}

} // namespace steerbench::corpus
