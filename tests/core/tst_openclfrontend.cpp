// The in-process Clang 15 front end: diagnostics, IR, options, bad input, threads.
#include "clang/CheckBatch.h"
#include "clang/OpenCLFrontend.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>
#include <thread>

using namespace steerbench::clangfe;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CompileRequest requestFor(const std::string& relative) {
  CompileRequest r;
  r.fileName = std::string(STEERBENCH_TEST_DATA "/") + relative;
  r.source = readFile(r.fileName);
  return r;
}

unsigned instructionCount(const llvm::Module& m) {
  unsigned n = 0;
  for (const auto& f : m)
    for (const auto& bb : f)
      n += static_cast<unsigned>(bb.size());
  return n;
}

bool anyMessage(const CompileResult& r, const QString& needle) {
  for (const auto& d : r.diagnostics())
    if (QString::fromStdString(d.message).contains(needle)) return true;
  return false;
}

struct CountingObserver : AstObserver {
  int calls = 0;
  bool sawErrors = false;
  void onTranslationUnit(clang::ASTContext&, bool hasErrors) override {
    ++calls;
    sawErrors = hasErrors;
  }
};

} // namespace

class TestOpenCLFrontend : public QObject {
  Q_OBJECT

private slots:
  void compilesToO1IR() {
    CompileResult r = compile(requestFor("kernels/k05_loop.cl"));
    QVERIFY2(r.succeeded(), r.firstError().c_str());
    QVERIFY(r.module());
    QCOMPARE(r.module()->getTargetTriple(), std::string("spir64-unknown-unknown"));
    QCOMPARE(r.kernelNames(), std::vector<std::string>{"prefix_sum"});
    // -O1 turned the loop's allocas into phis: no alloca survives.
    for (const auto& f : *r.module())
      for (const auto& bb : f)
        for (const auto& inst : bb)
          QVERIFY(std::string(inst.getOpcodeName()) != "alloca");
  }

  void withoutOptimizationTheIRIsCodeGenerations() {
    CompileRequest req = requestFor("kernels/k05_loop.cl");
    req.options.optimize = false;
    CompileResult r = compile(req);
    QVERIFY2(r.succeeded(), r.firstError().c_str());
    unsigned allocas = 0;
    for (const auto& f : *r.module())
      for (const auto& bb : f)
        for (const auto& inst : bb)
          allocas += std::string(inst.getOpcodeName()) == "alloca";
    QVERIFY(allocas > 0); // the loop's variables, which -O1 turns into phis
    QVERIFY(instructionCount(*r.module()) > instructionCount(*compile(requestFor("kernels/k05_loop.cl")).module()));
  }

  void syntaxOnlySkipsIR() {
    CompileRequest req = requestFor("kernels/k02_helper.cl");
    req.emitIR = false;
    CountingObserver obs;
    req.observer = &obs;
    CompileResult r = compile(req);
    QVERIFY(r.succeeded());
    QVERIFY(!r.module());
    QCOMPARE(obs.calls, 1);
    QVERIFY(!obs.sawErrors);
  }

  void syntaxErrorGivesLocatedDiagnostic() {
    CountingObserver obs;
    CompileRequest req = requestFor("bad/syntax_error.cl");
    req.observer = &obs;
    CompileResult r = compile(req);
    QVERIFY(!r.succeeded());
    QVERIFY(!r.module());
    QVERIFY(r.errorCount() >= 1);
    const Diagnostic& d = r.diagnostics().front();
    QCOMPARE(d.severity, Severity::Error);
    QVERIFY(QString::fromStdString(d.file).endsWith("syntax_error.cl"));
    QCOMPARE(d.line, 2u);
    QVERIFY(d.column > 0);
    QVERIFY2(QString::fromStdString(d.message).contains("expected ';'"), d.message.c_str());
    // The AST Clang recovered is still offered, flagged.
    QCOMPARE(obs.calls, 1);
    QVERIFY(obs.sawErrors);
    QCOMPARE(r.kernelNames(), std::vector<std::string>{"broken"});
    QVERIFY(QString::fromStdString(formatDiagnostic(d)).contains("syntax_error.cl:2:"));
  }

  void compilerCrashIsReportedAndContained() {
    // A real Clang 15 crash (a segfault in Sema); the process lives on and the next compile works.
    CompileResult r = compile(requestFor("bad/compiler_crash.cl"));
    QVERIFY(!r.succeeded());
    QVERIFY(r.crashed());
    QVERIFY(r.errorCount() >= 1);
    bool said = false;
    for (const auto& d : r.diagnostics())
      said = said || d.message.find("compiler crashed") != std::string::npos;
    QVERIFY(said);
    const CompileResult next = compile(requestFor("kernels/k01_copy.cl"));
    QVERIFY(next.succeeded() && !next.crashed());
  }

  void missingIncludeIsFatal() {
    CompileResult r = compile(requestFor("bad/missing_include.cl"));
    QVERIFY(!r.succeeded());
    QCOMPARE(r.diagnostics().front().severity, Severity::Fatal);
    QVERIFY(anyMessage(r, "'does_not_exist.h' file not found"));
  }

  void includeCycleNamesTheChain() {
    CompileResult r = compile(requestFor("bad/include_cycle.cl"));
    QVERIFY(!r.succeeded());
    QVERIFY(anyMessage(r, "include cycle"));
    QVERIFY(anyMessage(r, "cycle_a.h -> "));
    QVERIFY(!anyMessage(r, "nested too deeply"));
  }

  void thousandsOfErrorsAreCapped() {
    CompileRequest req;
    req.fileName = "many_errors.cl";
    std::string src = "kernel void k(global int* a) {\n";
    for (int i = 0; i < 5000; ++i)
      src += "  a[0] = undeclared_" + std::to_string(i) + ";\n";
    src += "}\n";
    req.source = src;
    QElapsedTimer t;
    t.start();
    CompileResult r = compile(req);
    QVERIFY(!r.succeeded());
    QVERIFY(r.diagnostics().size() <= req.options.maxDiagnostics);
    QVERIFY(anyMessage(r, "too many errors emitted"));
    QVERIFY2(t.elapsed() < 30000, "a flood of errors must not take long");
  }

  void definesAndIncludeDirs() {
    QTemporaryDir dir;
    {
      std::ofstream h(dir.filePath("width.h").toStdString());
      h << "#define SCALE 3\n";
    }
    CompileRequest req;
    req.fileName = "uses_macros.cl";
    req.source = "#include \"width.h\"\nkernel void k(global int* a) { a[0] = WIDTH * SCALE; }\n";
    CompileResult without = compile(req);
    QVERIFY(!without.succeeded());
    req.options.defines = {"WIDTH=7"};
    req.options.includeDirs = {dir.path().toStdString()};
    CompileResult with = compile(req);
    QVERIFY2(with.succeeded(), with.firstError().c_str());
  }

  void clStdSelectsTheLanguage() {
    CompileRequest req;
    req.fileName = "generic.cl";
    // Program-scope variables in the global address space need OpenCL C 2.0.
    req.source = "global int counter = 0;\nkernel void k(global int* a) { a[0] = counter; }\n";
    QVERIFY(!compile(req).succeeded());
    req.options.clStd = "CL2.0";
    CompileResult r = compile(req);
    QVERIFY2(r.succeeded(), r.firstError().c_str());
  }

  void firstErrorOffsetPointsIntoTheSource() {
    QCOMPARE(firstErrorOffset("kernel void k(global int* a) {\n  a[0] = 1;\n}\n"), std::string::npos);
    // `b` is undeclared: the offset is where it stands, on the second line.
    const std::string bad = "kernel void k(global int* a) {\n  a[0] = b;\n}\n";
    QCOMPARE(firstErrorOffset(bad), bad.find("b;"));
    // A type error, not only syntax: a scalar is not subscripted (Clang points at the subscript).
    const std::string typed = "kernel void k(global int* a) {\n  int c = 0;\n  a[0] = c[1];\n}\n";
    QCOMPARE(firstErrorOffset(typed), typed.find("[1]"));
    // Only the first error counts.
    const std::string two = "kernel void k(global int* a) { a[0] = x; a[1] = y; }";
    QCOMPARE(firstErrorOffset(two), two.find("x;"));
  }

  void checksTogetherGiveEachTextItsOwnVerdict() {
    // Texts as sampling checks them: kernels so far, blocks closed on lines
    // of their own. Some fail in ways that would mislead a shared unit if it
    // were trusted past an error: a compound literal whose recovery swallows
    // the next text's tokens, an uninitialized read that Clang's analysis
    // skips once any error has occurred, a kernel that calls itself by the
    // name the unit changes.
    const std::vector<std::string> texts = {
        "kernel void A ( global int * a ) { a [ 0 ] = 1 ;\n}",
        "kernel void A ( global int * a ) { a [ 0 ] = b ;\n}",
        "kernel void A ( global int * a ) { int c ; a [ 0 ] = c ;\n}",
        "kernel void A ( global uchar * a ) { int f = ( global uint * ) { int g ;\n}\n}",
        "kernel void A ( global int * a , global int * b ) { b [ 0 ] = vload3 ( a [ 0 ] , b [ 1 ] ) ;\n}",
        "kernel void A ( global int * a ) { int c , c ; a [ 0 ] = 0 ;\n}",
        "kernel void A ( global int * a ) { a [ 0 ] = 1 ; a [ 0 ] ;\n}",
        "kernel void A ( global int * a ) { A ( a , 1 ) ;\n}",
        "kernel void A ( global float * a , const int b ) { for ( int c = 0 ; c < b ; c ++ ) { a [ c ] = a [ c ] * 2.0f ;\n}\n}",
        "#define X 1\nkernel void A ( global int * a ) { a [ 0 ] = X ; }",
        "kernel void A ( global int * a ) { a [ 0 ] = 1 ; } kernel void B ( global int * a ) { a [ 0 ] = 2 ; }",
        "kernel void A ( global int * a ) { a [ 0 ] = ( 1 ;",
        "kernel void A ( global int * a ) { int c ; a [ 0 ] = c ;\n}",
        "kernel void A ( global int * a ) { a [ 0 ] = 2 ;\n}",
    };
    // In units of up to 16 texts (all of them at once) and of up to 3.
    for (const std::size_t batch : {std::size_t(16), std::size_t(3)})
      for (const auto& warnings : {std::vector<std::string>{}, std::vector<std::string>{"error", "uninitialized", "unused-value"}}) {
        const auto together = firstErrorOffsets(texts, warnings, batch);
        QCOMPARE(together.size(), texts.size());
        for (std::size_t i = 0; i < texts.size(); ++i)
          QVERIFY2(together[i] == firstErrorOffsetWith(texts[i], warnings),
                   (std::to_string(i) + ": " + texts[i] + (warnings.empty() ? "" : " (with warnings)")).c_str());
      }
    // With the warnings, the uninitialized reads are errors of their own.
    const std::vector<std::string> warned = {"error", "uninitialized"};
    QVERIFY(firstErrorOffsets({texts[1], texts[2]}, warned)[1] != std::string::npos);
    QCOMPARE(firstErrorOffsets({}), std::vector<std::size_t>{});
  }

  void onlyAKernelAloneSharesAUnit() {
    const std::string one = "kernel void A ( global int * a ) { a [ 0 ] = 1 ; }";
    const auto name = batchableKernel(one);
    QVERIFY(name.has_value());
    QCOMPARE(one.substr(name->at, name->length), std::string("A"));
    QVERIFY(batchableKernel("__kernel void k2(global int* a) {\n a[0] = 1;\n}\n").has_value());
    for (const std::string text : {"#define X 1\nkernel void A(global int* a) { a[0] = X; }",
                                   "kernel void A(global int* a) { a[0] = 1; } kernel void B() {}",
                                   "int f(int x) { return x; } kernel void A(global int* a) { a[0] = f(1); }",
                                   "kernel void A(global int* a) { a[0] = 1;",
                                   "kernel void A(global int* a) { A(a); }",
                                   "kernel void A(global int* a) { a[0] = '{'; }",
                                   "kernel void A(global int* a) { /* } */ a[0] = 1; }",
                                   "kernel __attribute__((reqd_work_group_size(1, 1, 1))) void A(global int* a) { a[0] = 1; }",
                                   "void A(global int* a) { a[0] = 1; }"})
      QVERIFY2(!batchableKernel(text).has_value(), text.c_str());
  }

  void badOptionIsReported() {
    CompileRequest req;
    req.source = "kernel void k() {}";
    req.options.clStd = "CL9.9";
    CompileResult r = compile(req);
    QVERIFY(!r.succeeded());
    QVERIFY(!r.diagnostics().empty());
  }

  void safeOnManyThreads() {
    const char* files[] = {"kernels/k01_copy.cl", "kernels/k05_loop.cl", "kernels/k07_math.cl",
                           "kernels/k11_local_2d.cl"};
    std::vector<unsigned> expected;
    for (const char* f : files)
      expected.push_back(instructionCount(*compile(requestFor(f)).module()));
    std::vector<CompileRequest> requests;
    for (const char* f : files)
      requests.push_back(requestFor(f));
    std::atomic<int> mismatches{0}, done{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < 150; ++i) { // a race on shared state shows only now and then: many compiles
          const std::size_t which = std::size_t(t + i) % 4;
          CompileResult r = compile(requests[which]);
          if (!r.module() || instructionCount(*r.module()) != expected[which]) ++mismatches;
          ++done;
        }
      });
    for (auto& th : threads)
      th.join();
    QCOMPARE(done.load(), 600);
    QCOMPARE(mismatches.load(), 0);
  }
};

QTEST_GUILESS_MAIN(TestOpenCLFrontend)
#include "tst_openclfrontend.moc"
