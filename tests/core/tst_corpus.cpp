// The corpus pipeline, stage by stage, on fixtures the project wrote.
#include "common/Error.h"
#include "corpus/CorpusIngest.h"
#include "corpus/CorpusPipeline.h"
#include "corpus/DebianPreset.h"
#include "corpus/IdentifierRewriting.h"
#include "corpus/SourceFormatting.h"
#include "corpus/TypeReconstruction.h"
#include "store/Workspace.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace steerbench;
using namespace steerbench::corpus;

namespace {

const QString kTree = STEERBENCH_TEST_DATA "/corpus/tree";

const KernelOutcome* kernelNamed(const FileOutcome& f, const std::string& name) {
  for (const auto& k : f.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

std::size_t count(const store::Workspace& ws, const std::string& sql) {
  return std::size_t(std::stoll(ws.rows(sql).at(0).at(0)));
}

} // namespace

class TestCorpus : public QObject {
  Q_OBJECT

private slots:
  void sequenceNames() {
    QCOMPARE(sequenceName(0, false), std::string("a"));
    QCOMPARE(sequenceName(25, false), std::string("z"));
    QCOMPARE(sequenceName(26, false), std::string("aa"));
    QCOMPARE(sequenceName(27, true), std::string("AB"));
    QCOMPARE(sequenceName(26 + 26 * 26, false), std::string("aaa"));
  }

  void isolatesEachKernelWithWhatItUses() {
    const FileOutcome f = processFile((kTree + "/two_kernels.cl").toStdString(), kTree.toStdString(), {});
    QVERIFY2(f.ok(), f.reason.c_str());
    QCOMPARE(f.kernels.size(), std::size_t(2));
    QVERIFY(f.includedFiles.size() == 1 && QString::fromStdString(f.includedFiles[0]).endsWith("include/common.h"));
    const KernelOutcome* energy = kernelNamed(f, "energy");
    const KernelOutcome* amplify = kernelNamed(f, "amplify");
    QVERIFY(energy && amplify);
    QVERIFY2(energy->ready(), energy->reason.c_str());
    QVERIFY2(amplify->ready(), amplify->reason.c_str());
    // energy needs the struct and the helper, not the constant or the unused helper.
    QVERIFY(energy->original.find("pair_t;") != std::string::npos);
    QVERIFY(energy->original.find("float sq(") != std::string::npos);
    QVERIFY(energy->original.find("kGain") == std::string::npos);
    QVERIFY(energy->original.find("unused_helper") == std::string::npos);
    // amplify needs the constant only; the macro and #if were resolved.
    QVERIFY(amplify->original.find("kGain") != std::string::npos);
    QVERIFY(amplify->original.find("sq(") == std::string::npos);
    QVERIFY(amplify->original.find("BLOCK") == std::string::npos);
    QVERIFY(amplify->original.find("0.0f") == std::string::npos);           // dead branch gone
    QVERIFY(energy->original.find("squares a value") == std::string::npos); // comments gone
    QCOMPARE(energy->vectors.size(), std::size_t(3));                       // grewe, instcount, autophase
    QVERIFY(energy->tokens > 10);
  }

  void rewritesIdentifiersAsClgenDoes() {
    const FileOutcome f = processFile((kTree + "/two_kernels.cl").toStdString(), kTree.toStdString(), {});
    const KernelOutcome* amplify = kernelNamed(f, "amplify");
    QVERIFY(amplify && amplify->ready());
    // Globals and variables a, b, ...; functions A, B, ...; builtins untouched.
    const std::string expected = "constant float a = 2.0f;\n\n"
                                 "kernel void A(global float *b) {\n"
                                 "  int c = get_global_id(0);\n"
                                 "  b[c] = b[c] * a;\n"
                                 "}\n";
    QVERIFY2(foldWhitespace(amplify->source) == foldWhitespace(expected), amplify->source.c_str());
    const KernelOutcome* energy = kernelNamed(f, "energy");
    QVERIFY(energy->source.find("float A(float a)") != std::string::npos); // the helper
    QVERIFY(energy->source.find("kernel void B(") != std::string::npos);   // the kernel
    QVERIFY(energy->source.find(".x") != std::string::npos);               // fields keep their names
  }

  void fileBuildOptionsAreHonoured() {
    const FileOutcome f = processFile((kTree + "/sub/piglit_style.cl").toStdString(), kTree.toStdString(), {});
    QVERIFY2(f.ok(), f.reason.c_str());
    QCOMPARE(f.kernels.size(), std::size_t(1));
    QVERIFY2(f.kernels[0].ready(), f.kernels[0].reason.c_str());
    QVERIFY(f.kernels[0].source.find("* 3") != std::string::npos);
  }

  void reconstructionRescuesMostFixtures() {
    const QDir dir(STEERBENCH_TEST_DATA "/corpus/reconstruct");
    const QStringList files = dir.entryList({"*.cl"}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 30);
    int rescued = 0, compiledWithout = 0;
    QStringList failed;
    for (const QString& f : files) {
      QFile in(dir.filePath(f));
      QVERIFY(in.open(QIODevice::ReadOnly));
      const std::string src = in.readAll().toStdString();
      const Reconstruction off = reconstructDeclarations(src, f.toStdString(), {}, /*enabled=*/false);
      const Reconstruction on = reconstructDeclarations(src, f.toStdString(), {});
      compiledWithout += off.compiled;
      QVERIFY(!on.compiledAsIs);
      if (on.compiled) {
        ++rescued;
        QVERIFY(!on.added.empty()); // what was added is recorded
      } else {
        failed << f;
      }
    }
    qInfo("reconstruction rescued %d of %d fixtures; without it %d compile; not rescued: %s", rescued,
          int(files.size()), compiledWithout, qPrintable(failed.join(", ")));
    QCOMPARE(compiledWithout, 0);
    QVERIFY(rescued * 2 >= files.size());
  }

  void reconstructedDeclarationsAreInferredFromUse() {
    const Reconstruction r = reconstructDeclarations(
        "kernel void k(global u32* w, global Particle* p) { w[0] = w[0] << 2; p[0].vx = N; }", "t.cl", {});
    QVERIFY2(r.compiled, r.firstError.c_str());
    QVERIFY(r.prelude.find("typedef uint u32;") != std::string::npos);
    QVERIFY(r.prelude.find("float vx;") != std::string::npos);
    QVERIFY(r.prelude.find("enum { N = 16 };") != std::string::npos);
  }

  void badFilesAreRecordedAndTheRunGoesOn() {
    QTemporaryDir dir;
    // A binary file, a 50 MB file, an include cycle, a header without kernels
    // and a kernel that does not compile, next to a good file.
    QVERIFY(QFile::copy(STEERBENCH_TEST_DATA "/bad/binary.cl", dir.filePath("binary.cl")));
    {
      std::ofstream big(dir.filePath("huge.cl").toStdString());
      const std::string line(99, '/');
      for (int i = 0; i < 50 * 1024 * 1024 / 100; ++i)
        big << line << "\n";
    }
    QVERIFY(QFile::copy(STEERBENCH_TEST_DATA "/bad/include_cycle.cl", dir.filePath("include_cycle.cl")));
    QVERIFY(QFile::copy(STEERBENCH_TEST_DATA "/bad/cycle_a.h", dir.filePath("cycle_a.h")));
    QVERIFY(QFile::copy(STEERBENCH_TEST_DATA "/bad/cycle_b.h", dir.filePath("cycle_b.h")));
    QVERIFY(QFile::copy(kTree + "/sub/header_only.cl", dir.filePath("header_only.cl")));
    QVERIFY(QFile::copy(kTree + "/sub/broken.cl", dir.filePath("broken.cl")));
    QVERIFY(QFile::copy(STEERBENCH_TEST_DATA "/kernels/k05_loop.cl", dir.filePath("good.cl")));

    store::Workspace ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    CorpusIngestOptions o;
    const auto inputs = collectSources(dir.path().toStdString());
    QCOMPARE(inputs.size(), std::size_t(6));
    const IngestSummary s = ingestCorpus(ws, inputs, o);
    QCOMPARE(s.files, std::size_t(6));
    QCOMPARE(s.filesRejected, std::size_t(4)); // binary, huge, cycle, header only
    auto reasonOf = [&](const char* file) {
      const auto rows = ws.rows("SELECT stage, reason FROM corpus_files WHERE path LIKE '%/" + std::string(file) + "'");
      return rows.empty() ? QString() : QString::fromStdString(rows[0][0] + ": " + rows[0][1]);
    };
    QVERIFY2(reasonOf("binary.cl").startsWith("read: ") && reasonOf("binary.cl").contains("binary file"),
             qPrintable(reasonOf("binary.cl")));
    QVERIFY2(reasonOf("huge.cl").contains("too large"), qPrintable(reasonOf("huge.cl")));
    QVERIFY2(reasonOf("include_cycle.cl").startsWith("include: ") &&
                 reasonOf("include_cycle.cl").contains("include cycle"),
             qPrintable(reasonOf("include_cycle.cl")));
    QVERIFY2(reasonOf("header_only.cl").contains("no kernel"), qPrintable(reasonOf("header_only.cl")));
    const auto broken = ws.rows("SELECT k.stage, k.reason FROM corpus_kernels k JOIN corpus_files f ON f.id = "
                                "k.file_id WHERE f.path LIKE '%/broken.cl'");
    QCOMPARE(broken.size(), std::size_t(1));
    QCOMPARE(broken[0][0], std::string("reconstruct"));
    QVERIFY(!broken[0][1].empty());
    QCOMPARE(count(ws, "SELECT count(*) FROM kernels WHERE role = 'train'"), std::size_t(1)); // the good one
  }

  void theReportGroupsRejectionsByKindWithAnExample() {
    // Three kernels over the token limit, each with its own count: one kind
    // of rejection, counted three times, with one of them as its example.
    QTemporaryDir dir;
    for (int n : {3, 5, 9}) {
      std::string body;
      for (int i = 0; i < n; ++i)
        body += "  a[" + std::to_string(i) + "] = a[" + std::to_string(i) + "] + 1;\n";
      std::ofstream(dir.filePath(QStringLiteral("long%1.cl").arg(n)).toStdString())
          << "kernel void long" << n << "(global int* a) {\n" << body << "}\n";
    }
    store::Workspace ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    CorpusIngestOptions o;
    o.pipeline.maxTokens = 20;
    (void)ingestCorpus(ws, collectSources(dir.path().toStdString()), o);
    const std::string report = corpusReport(ws, false);
    QVERIFY2(report.find("3 x [isolate] the isolated kernel has N tokens, over the limit of N (--max-tokens)") !=
                 std::string::npos,
             report.c_str());
    QVERIFY2(report.find("e.g. the isolated kernel has ") != std::string::npos, report.c_str());
    QVERIFY(report.find("1 x [isolate]") == std::string::npos); // not one line per count
  }

  void dedupesAndResumes() {
    QTemporaryDir dir;
    store::Workspace ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    CorpusIngestOptions o;
    o.balance.familyCap = 0;
    const auto inputs = collectSources(kTree.toStdString());
    const IngestSummary first = ingestCorpus(ws, inputs, o);
    QCOMPARE(first.files, std::size_t(5));
    QCOMPARE(first.skipped, std::size_t(0));
    // louder() is amplify() with other names and layout: one kernel, one duplicate.
    QCOMPARE(count(ws, "SELECT count(*) FROM corpus_kernels WHERE stage = 'dedupe'"), std::size_t(1));
    const std::size_t kernels = count(ws, "SELECT count(*) FROM kernels");
    QCOMPARE(kernels, std::size_t(3)); // energy, amplify, times
    const auto prov = ws.rows("SELECT origin_file, flags FROM kernels WHERE name = 'times'");
    QVERIFY(QString::fromStdString(prov[0][0]).endsWith("sub/piglit_style.cl"));
    // A second run skips every file and adds nothing.
    const IngestSummary second = ingestCorpus(ws, inputs, o);
    QCOMPARE(second.skipped, std::size_t(5));
    QCOMPARE(count(ws, "SELECT count(*) FROM kernels"), kernels);
    QCOMPARE(count(ws, "SELECT count(*) FROM feature_vectors"), kernels * 3);
    // Other options are another ingest: nothing is skipped, still no duplicates.
    o.pipeline.reconstruct = false;
    const IngestSummary third = ingestCorpus(ws, inputs, o);
    QCOMPARE(third.skipped, std::size_t(0));
    QCOMPARE(count(ws, "SELECT count(*) FROM kernels"), kernels);
    QCOMPARE(ws.integrityCheck(), std::string("ok"));
  }

  void referenceKernelsAreHeldOut() {
    QTemporaryDir dir;
    // A DevMap-layout CSV whose src is amplify, already rewritten by someone else.
    const QString csv = dir.filePath("ref.csv");
    {
      QFile f(csv);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(",benchmark,dataset,comp,rational,mem,localmem,coalesced,atomic,transfer,wgsize,oracle,runtime_cpu,"
              "runtime_gpu,src,seq\n0,s-1-p-amp,default,1,0,3,0,3,0,1,1,CPU,1,2,\"__constant float A = 2.0f;\n"
              "__kernel void B(__global float* C) {\n  int D = get_global_id(0);\n  C[D] = C[D] * A;\n}\",\n");
    }
    store::Workspace ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    CorpusIngestOptions o;
    o.referenceCsvs = {csv.toStdString()};
    const IngestSummary s = ingestCorpus(ws, collectSources((kTree + "/two_kernels.cl").toStdString()), o);
    QCOMPARE(s.referenceKernels, std::size_t(1));
    const auto roles = ws.rows("SELECT name, role FROM kernels ORDER BY name");
    QCOMPARE(roles.size(), std::size_t(2));
    QCOMPARE(roles[0], (std::vector<std::string>{"amplify", "held_out"}));
    QCOMPARE(roles[1], (std::vector<std::string>{"energy", "train"}));
  }

  void balanceCapsFamiliesAndPackages() {
    QTemporaryDir dir;
    store::Workspace ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    ws.transaction([&] {
      for (int i = 0; i < 10; ++i) {
        store::KernelRecord k;
        k.name = "p" + std::to_string(i);
        k.source = "piglit " + std::to_string(i);
        k.package = "piglit";
        k.family = i < 8 ? "template" : "other" + std::to_string(i);
        k.role = "train";
        ws.addKernel(k);
      }
      for (int i = 0; i < 2; ++i) {
        store::KernelRecord k;
        k.name = "d" + std::to_string(i);
        k.source = "darktable " + std::to_string(i);
        k.package = "darktable";
        k.family = "d" + std::to_string(i);
        k.role = "train";
        ws.addKernel(k);
      }
    });
    BalanceOptions b;
    b.familyCap = 4;
    b.maxPackageShare = 1;
    QCOMPARE(rebalanceCorpus(ws, b), std::size_t(4)); // 8 of one template: 4 capped
    b.maxPackageShare = 0.5;
    rebalanceCorpus(ws, b);
    // piglit may hold at most half of the training kernels: 2 darktable -> 2 piglit.
    QCOMPARE(count(ws, "SELECT count(*) FROM kernels WHERE role = 'train' AND package = 'piglit'"), std::size_t(2));
    QCOMPARE(count(ws, "SELECT count(*) FROM kernels WHERE role = 'train' AND package = 'darktable'"), std::size_t(2));
  }

  // pyFAI's programs are built as its host builds them: listed files after
  // silx's doubleword.cl, #include lines removed; a file no program lists gets
  // a unit of its own; a program with a missing file is skipped; the units
  // compile with the package's defines.
  void assemblesPyfaiProgramsAsItsHostDoes() {
    QTemporaryDir dir;
    qputenv("XDG_CACHE_HOME", dir.filePath("cache").toUtf8());
    const std::string root = dir.filePath("debian").toStdString();
    const std::string pyfai = root + "/python3-pyfai/usr/lib/python3/dist-packages/pyFAI/resources/openCL";
    const std::string silx = root + "/python3-silx/usr/lib/python3/dist-packages/silx/resources/opencl";
    QVERIFY(QDir().mkpath(QString::fromStdString(pyfai)) && QDir().mkpath(QString::fromStdString(silx)));
    auto write = [](const std::string& path, const std::string& text) { std::ofstream(path) << text; };
    write(silx + "/doubleword.cl", "inline float dw_twice(float x) { return x + x; }\n");
    write(pyfai + "/preprocess.cl", "#include \"for_eclipse.h\"\nkernel void scale(global float* a) {\n"
                                    "  int i = get_global_id(0);\n  if (i < NIMAGE) a[i] = dw_twice(a[i]);\n}\n");
    write(pyfai + "/memset.cl", "kernel void zero(global float* a) { if (get_global_id(0) < NBINS) "
                                "a[get_global_id(0)] = 0.0f; }\n");
    write(pyfai + "/ocl_azim_CSR.cl", "kernel void csr(global float* a, global const int* b) {\n"
                                      "  local float s[WORKGROUP_SIZE];\n  s[get_local_id(0)] = dw_twice(a[b[0]]);\n"
                                      "  barrier(CLK_LOCAL_MEM_FENCE);\n  a[get_global_id(0)] = s[0];\n}\n");
    write(pyfai + "/kahan.cl", "inline float2 kahan_sum(float2 a, float b) { return a + b; }\n");
    write(pyfai + "/extra.cl", "kernel void extra(global float* a) { a[get_global_id(0)] = dw_twice(1.0f); }\n");

    std::vector<std::string> missing;
    std::vector<SourceInput> pyfaiUnits;
    for (const auto& in : debianPresetSources(&missing, root))
      if (in.package == "python3-pyfai") pyfaiUnits.push_back(in);
    qunsetenv("XDG_CACHE_HOME");
    std::vector<std::string> names;
    for (const auto& in : pyfaiUnits)
      names.push_back(QFileInfo(QString::fromStdString(in.path)).completeBaseName().toStdString());
    // azim_csr has all its files; azim_hist, azim_lut, sort and the peak finders do not.
    QCOMPARE(names, (std::vector<std::string>{"azim_csr", "extra"}));
    std::ifstream in(pyfaiUnits[0].path);
    const std::string unit((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QVERIFY2(unit.find("#include") == std::string::npos, unit.c_str());
    QVERIFY(unit.find("dw_twice(float x)") < unit.find("kernel void scale") &&
            unit.find("kernel void scale") < unit.find("kernel void zero") &&
            unit.find("kernel void zero") < unit.find("kernel void csr"));

    store::Workspace ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    (void)ingestCorpus(ws, pyfaiUnits, {});
    QCOMPARE(count(ws, "SELECT count(*) FROM kernels WHERE package = 'python3-pyfai'"), std::size_t(4));
    QCOMPARE(count(ws, "SELECT count(*) FROM kernels WHERE license = 'Expat' AND package = 'python3-pyfai'"),
             std::size_t(4));
  }

  void reportHasTheStages() {
    QTemporaryDir dir;
    store::Workspace ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    (void)ingestCorpus(ws, collectSources(kTree.toStdString()), {});
    const QString text = QString::fromStdString(corpusReport(ws, false));
    QVERIFY2(text.contains("Files: 5") && text.contains("with kernels: 4") && text.contains("rejected at isolate: 1") &&
                 text.contains("duplicates: 1"),
             qPrintable(text));
    QVERIFY(text.contains("Compile rate:"));
    QVERIFY(text.contains("Tokens per kernel:"));
    const QString json = QString::fromStdString(corpusReport(ws, true));
    QVERIFY(json.contains("\"kernels_found\": 5"));
  }
};

QTEST_GUILESS_MAIN(TestCorpus)
#include "tst_corpus.moc"
