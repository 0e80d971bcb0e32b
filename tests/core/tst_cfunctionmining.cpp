// Kernels mined from C (AnghaBench's manner): which functions are taken, how
// they are turned into kernels, and that the units compile in the corpus pipeline.
#include "corpus/CFunctionMining.h"
#include "corpus/CorpusIngest.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>

using namespace steerbench;
using namespace steerbench::corpus;

namespace {

// A small C file as numeric libraries write them.
const char* kSource = R"C(
#include <math.h>
#include "config.h"
typedef short word16;
typedef word16 sample_t;
typedef unsigned int u32;
typedef struct { int a; } pair_t;
#define N 8

static const float table[4] = {1, 2, 3, 4};

/* Scales a signal. */
void scale(float *out, const float *in, float gain, size_t n)
{
   size_t i;
   for (i = 0; i < n; i++)
      out[i] = in[i] * gain;
}

static inline double energy(const double *x, int len)
{
   double sum = 0;
   int j;
   for (j = 0; j < len; j++) sum += x[j] * x[j];
   return sqrt(sum);
}

void clip16(sample_t *s, int len, int local)
{
   for (int k = 0; k < len; ++k) {
      if (s[k] > local) s[k] = local;
      else s[k] = (sample_t)fabsf((float)s[k]);
   }
}

float rms(const float *x, int len) { return (float)energy_f(x, len); }
void say(const char *msg) { printf("%s", msg); }
int first(pair_t *p) { return p->a; }
void twice(float **rows, int n) { rows[0][0] = 2; }
void grow(int *a, int n) { int *b = malloc(n); a[0] = b[0]; }
int uses_say(void) { say("x"); return 1; }
void halve(float *a, int n)
{
#ifdef FAST
   a[0] *= 0.5f;
#endif
   a[1] = 0;
}
void rows(unsigned char *dst, const unsigned char *src, int w, int h, int stride)
{
   int y, x;
   for (y = 0; y < h; y++) {
      for (x = 0; x < w; x++) dst[x] = src[x];
      dst += stride;
   }
}
void blend(float *out, const float *a, int n)
{
   for (int i = 0; i < n; i++) {
      float v = a[i] * 2;
      v += 1;
      *out = v;
      out[i] = v;
   }
}
void accumulate(const float *a, float *out, int n)
{
   float sum = 0;
   for (int i = 0; i < n; i++) {
      sum += a[i];
      out[i] = sum;
   }
}
void skip(u32 *a, u32 n)
{
   for (u32 i = 0; i < n; i++) {
      if (a[i] == 0) break;
      a[i] ^= 1u;
   }
}
)C";

const MinedKernel* kernelNamed(const MinedFile& f, const std::string& name) {
  for (const auto& k : f.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

} // namespace

class TestCFunctionMining : public QObject {
  Q_OBJECT

private slots:
  void typedefsResolveToOpenCLTypes() {
    ScalarTypedefs t;
    collectScalarTypedefs(kSource, t);
    QCOMPARE(t.at("word16"), std::string("short"));
    QCOMPARE(t.at("sample_t"), std::string("short"));
    QCOMPARE(t.at("u32"), std::string("uint"));
    QVERIFY(!t.count("pair_t")); // a struct is not a scalar
    // The first definition wins (an #ifdef's other branch).
    collectScalarTypedefs("typedef float word16;", t);
    QCOMPARE(t.at("word16"), std::string("short"));
  }

  void takesWhatOpenCLCanExpress() {
    ScalarTypedefs t;
    collectScalarTypedefs(kSource, t);
    const MinedFile f = mineCFunctions(kSource, t);
    std::set<std::string> functions;
    for (const auto& k : f.kernels)
      functions.insert(k.function);
    // Taken: scale, energy, clip16, skip. Not taken: rms (calls a function the
    // file does not define), say (a string), first (member access), twice
    // (a pointer to pointers), grow (malloc), uses_say (calls say), halve (a
    // directive in its body).
    QCOMPARE(functions, (std::set<std::string>{"scale", "energy", "clip16", "rows", "blend", "accumulate", "skip"}));
    QVERIFY(f.usesDouble);
    QVERIFY(f.functions >= 11);
  }

  void turnsFunctionsIntoKernels() {
    ScalarTypedefs t;
    collectScalarTypedefs(kSource, t);
    const MinedFile f = mineCFunctions(kSource, t);
    // The body kept, pointers in global memory, size_t as ulong.
    const MinedKernel* scale = kernelNamed(f, "k_scale");
    QVERIFY(scale);
    QCOMPARE(scale->transformation, std::string("body kept"));
    QVERIFY2(scale->text.find("kernel void k_scale(global float *out, global const float *in, float gain, ulong n)") == 0,
             scale->text.c_str());
    // The loop over i mapped to work-items.
    const MinedKernel* items = kernelNamed(f, "k_scale_items");
    QVERIFY(items);
    QCOMPARE(items->transformation, std::string("loop to work-items"));
    QVERIFY2(items->text.find("i = get_global_id(0);") != std::string::npos &&
                 items->text.find("if (i < n) out [ i ] = in [ i ] * gain ;") != std::string::npos &&
                 items->text.find("for") == std::string::npos,
             items->text.c_str());
    // A declared index (int k) and a block body map too; a typedef'd type and
    // a variable named as an OpenCL address space are renamed; fabsf is fabs.
    const MinedKernel* clip = kernelNamed(f, "k_clip16_items");
    QVERIFY(clip);
    QVERIFY2(clip->text.find("global short *s") != std::string::npos &&
                 clip->text.find("int local_v") != std::string::npos &&
                 clip->text.find("int k = get_global_id(0);") != std::string::npos &&
                 clip->text.find("fabs (") != std::string::npos && clip->text.find("fabsf") == std::string::npos,
             clip->text.c_str());
    // A loop that breaks is not mapped, nor one whose iterations depend on
    // each other: a pointer advanced per row, an accumulator.
    QVERIFY(kernelNamed(f, "k_skip"));
    QVERIFY(!kernelNamed(f, "k_skip_items"));
    QVERIFY(kernelNamed(f, "k_rows") && !kernelNamed(f, "k_rows_items"));
    QVERIFY(kernelNamed(f, "k_accumulate") && !kernelNamed(f, "k_accumulate_items"));
    // Writes to its own variables and through pointers keep iterations apart.
    QVERIFY(kernelNamed(f, "k_blend_items"));
    // A value-returning function writes each work-item's result.
    const MinedKernel* energy = kernelNamed(f, "k_energy_result");
    QVERIFY(energy);
    QVERIFY2(energy->text.find("global double *result_)") != std::string::npos &&
                 energy->text.find("result_[get_global_id(0)] = (sqrt ( sum ));") != std::string::npos,
             energy->text.c_str());
    QVERIFY(!kernelNamed(f, "k_energy_items")); // not void: no work-item variant
  }

  void unitsRecordProvenanceAndCompile() {
    ScalarTypedefs t;
    collectScalarTypedefs(kSource, t);
    const MinedFile f = mineCFunctions(kSource, t);
    const std::string unit = minedUnit(f, "libexample", "libexample-1.0/src/dsp.c", "BSD-3-clause");
    QVERIFY(unit.find("Debian package libexample (BSD-3-clause): libexample-1.0/src/dsp.c") != std::string::npos);
    QVERIFY(unit.find("k_scale_items: scale, loop to work-items") != std::string::npos);
    QVERIFY(unit.find("#pragma OPENCL EXTENSION cl_khr_fp64 : enable") != std::string::npos);
    // Through the corpus pipeline, with real Clang: every kernel compiles.
    QTemporaryDir dir;
    const std::string path = dir.filePath("dsp.cl").toStdString();
    std::ofstream(path) << unit;
    store::Workspace ws = store::Workspace::open(dir.filePath("w.sbw").toStdString());
    SourceInput in{path, dir.path().toStdString(), "src:libexample", "BSD-3-clause", {}, {}};
    (void)ingestCorpus(ws, {in}, {});
    const auto rows = ws.rows("SELECT count(*), count(DISTINCT license) FROM kernels WHERE package = 'src:libexample'");
    QCOMPARE(rows.at(0).at(0), std::to_string(f.kernels.size()));
    QCOMPARE(rows.at(0).at(1), std::string("1"));
  }
};

QTEST_GUILESS_MAIN(TestCFunctionMining)
#include "tst_cfunctionmining.moc"
