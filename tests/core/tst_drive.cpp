// The driver: timing statistics and labels, the worker's line protocol,
// payloads, signatures from the Clang AST, and driving real kernels on PoCL
// through the steerbench-drive worker (every kernel is written here).
#include "common/Error.h"
#include "dataset/DevMap.h"
#include "drive/host/DevMapExport.h"
#include "drive/worker/DeviceRunner.h"
#include "drive/worker/OclgrindLog.h"
#include "drive/host/WorkerProcess.h"
#include "drive/host/DriveJob.h"
#include "drive/host/Driver.h"
#include "drive/host/KernelAnalysis.h"
#include "drive/host/KernelSignatures.h"
#include "drive/host/Payloads.h"
#include "drive/host/Timing.h"
#include "store/Workspace.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace steerbench;
using namespace steerbench::drive;

namespace {

const char* kScale = R"(kernel void scale(global float* out, global const float* in, const int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = in[i] * 2.0f + 1.0f;
})";
const char* kNoOutput = R"(kernel void nothing(global float* out, global const float* in) {
  float x = in[get_global_id(0)] * 2.0f;
  (void)x;
})";
/// Its values overflow to infinity: it writes, though an infinity was once
/// taken for the input it replaced (|inf - x| is within any relative tolerance of inf).
const char* kOverflows = R"(kernel void overflow(global float* out, global const float* in) {
  const int i = get_global_id(0);
  out[i] = in[i] * 1e30f * 1e30f;
})";
const char* kInsensitive = R"(kernel void fill(global int* out, global const int* in) {
  out[get_global_id(0)] = 42;
})";
// Work-groups on PoCL's pthread device run on several threads; each reads a
// shared counter without synchronisation and records what it saw, so the
// outputs record the threads' interleaving.
// Constants the ids decide: no input could change them.
const char* kWritesSizes = R"(kernel void sizes(global int* out, global const int* in) {
  out[get_global_id(0)] = (int)(get_local_size(0) << 8) | (int)get_global_size(0);
})";
// mul_hi of integers below the buffer's length is 0 for any two such inputs;
// over the whole range of int it is not.
const char* kMulHi = R"(kernel void high(global int* out, global const int* a, global const int* b) {
  int i = get_global_id(0);
  out[i] = mul_hi(a[i], b[i]);
})";
// Two value scalars, no buffer read: only changing the values shows the work.
const char* kRemainder = R"(kernel void rem(global ulong* out, ulong x, ulong y) { out[0] = x % y; })";
// Gaussian elimination's step: k is subtracted from the guard's bound; at the
// global size it would leave no work-item inside.
const char* kOffsetGuard = R"(kernel void fan(global float* m, global const float* a, int n, int k) {
  int i = get_global_id(0);
  if (i < n - 1 - k) m[i + k + 1] = a[i + k + 1] / (1.0f + a[k]);
})";
const char* kRacy = R"(kernel void racy_counter(volatile global int* out, global const int* in) {
  const int gid = get_global_id(0);
  int acc = 0;
  for (int k = 0; k < 200; ++k)
    acc += in[(gid + k) % get_global_size(0)];
  const int seen = out[0];
  out[1 + gid % (get_global_size(0) - 1)] = seen + acc;
  out[0] = seen + 1;
})";
const char* kSpin = R"(kernel void spin(global int* out, const int n) {
  int i = get_global_id(0);
  while (out[0] >= 0) { out[i % 4] = out[i % 4] + 1; if (out[0] == -7) break; }
})";
const char* kFarWrite = R"(kernel void far_write(global int* out, global const int* in) {
  out[get_global_id(0) + 500000000] = in[get_global_id(0)];
})";

KernelSignature signatureOf(const char* source) {
  const auto scan = kernelSignatures(source);
  if (!scan.compiled || scan.kernels.size() != 1) qFatal("fixture does not compile: %s", scan.error.c_str());
  return scan.kernels[0];
}

} // namespace

class TestDrive : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  DriveOptions quick() const {
    DriveOptions o;
    o.globalSizes = {1024};
    o.localSizes = {32};
    o.warmupRuns = 1;
    o.timedRuns = 4;
    o.timeoutSeconds = 30;
    o.cacheDir = dir_.path().toStdString() + "/pocl-cache";
    return o;
  }

  /// quick() at 4096 work-items in groups of `local`, timed twice.
  DriveOptions at4096(std::uint64_t local) const {
    auto o = quick();
    o.globalSizes = {4096};
    o.localSizes = {local};
    o.timedRuns = 2;
    return o;
  }

  /// quick() inside Oclgrind's simulator: its only device, slow, so fewer runs and a longer limit.
  DriveOptions inOclgrind() const {
    auto o = quick();
    o.oclgrind = true;
    o.timedRuns = 2;
    o.warmupRuns = 0;
    o.timeoutSeconds = 120;
    return o;
  }

private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // This machine has no GPU: PoCL's pthread and basic devices are the real pair.
    if (qgetenv("POCL_DEVICES").isEmpty()) qputenv("POCL_DEVICES", "pthread basic");
  }

  // --- statistics and labels ----------------------------------------------
  void summaryOfKnownValues() {
    const auto s = summarize({5, 1, 4, 2, 3});
    QCOMPARE(s.n, std::size_t(5));
    QCOMPARE(s.median, 3.0);
    QCOMPARE(s.mean, 3.0);
    QVERIFY(std::fabs(s.stddev - 1.58114) < 1e-4);
    const double half = 2.776 * 1.58114 / std::sqrt(5.0); // t(0.975, 4 dof)
    QVERIFY(std::fabs(s.ciLow - (3 - half)) < 1e-3);
    QVERIFY(std::fabs(s.ciHigh - (3 + half)) < 1e-3);
    QCOMPARE(summarize({2, 4}).median, 3.0);
    QCOMPARE(summarize({}).n, std::size_t(0));
  }

  void labelIsSignificantOnlyWhenIntervalsSeparate() {
    const auto fast = summarize({10, 11, 10, 11}), slow = summarize({20, 21, 20, 21});
    auto d = decideLabel({slow, fast});
    QCOMPARE(d.best, 1);
    QCOMPARE(d.status(), std::string("significant"));
    const auto wide = summarize({9, 30, 12, 25});
    d = decideLabel({wide, slow});
    QCOMPARE(d.status(), std::string("AMBIGUOUS"));
    QCOMPARE(decideLabel({fast}).status(), std::string(""));              // one device: nothing to label
    QCOMPARE(decideLabel({summarize({1}), summarize({5})}).status(), std::string("AMBIGUOUS")); // one run each
  }

  // --- protocol and payloads ------------------------------------------------
  void protocolRoundTrip() {
    RunRequest r;
    r.source = "kernel void k(global float4* a) { a[0] = 1; }\n\"quoted\"";
    r.kernel = "k";
    r.device = "0:1";
    r.arguments = signatureOf(kScale).arguments;
    r.globalSize = 65536;
    r.localSize = 128;
    r.seed = 7;
    r.check = false;
    r.probeArrays = {256, 32};
    r.poisoned = true;
    const auto back = decodeRequest(encodeRequest(r));
    QVERIFY(back.has_value());
    QCOMPARE(back->probeArrays, (std::vector<std::uint64_t>{256, 32}));
    QCOMPARE(back->poisoned, true);
    QCOMPARE(back->source, r.source);
    QCOMPARE(back->arguments.size(), std::size_t(3));
    QCOMPARE(back->arguments[1].describe(), std::string("global const float*"));
    QCOMPARE(back->globalSize, std::uint64_t(65536));
    QCOMPARE(back->localSize, std::uint64_t(128));
    QCOMPARE(back->check, false);
    QVERIFY(!decodeRequest("{\"op\":\"quit\"}").has_value());
    QVERIFY_THROWS_EXCEPTION(InputError, (void)decodeRequest("not json"));

    RunReply reply;
    reply.outcome = "PASS";
    reply.kernelNs = {1000, 1200.5};
    reply.transferNs = {50, 60};
    reply.transferBytes = 4096;
    const auto rb = decodeReply(encodeReply(reply));
    QCOMPARE(rb.kernelNs, reply.kernelNs);
    QCOMPARE(rb.transferBytes, std::uint64_t(4096));

    WorkerDevice d{"0:0", "dev", "CPU", "plat", "vendor", "1.0", 65536, 1 << 30, 1024, 4};
    const auto devices = decodeHello(encodeHello({d}));
    QCOMPARE(devices.size(), std::size_t(1));
    QCOMPARE(devices[0].computeUnits, 4u);
    QVERIFY_THROWS_EXCEPTION(InputError, (void)decodeHello("{\"worker\":\"steerbench-drive\",\"protocol\":99}"));
  }

  void payloadsAreSeededAndDiffer() {
    KernelArgument f;
    f.kind = KernelArgument::Kind::Global;
    f.element = "float";
    f.width = 4;
    QCOMPARE(payloadBytes(f, 100, 1), payloadBytes(f, 100, 1));
    QVERIFY(payloadBytes(f, 100, 1) != payloadBytes(f, 100, 2));
    QCOMPARE(payloadBytes(f, 100, 1).size(), std::size_t(100 * 16));
    KernelArgument i3 = f;
    i3.element = "int";
    i3.width = 3; // takes the room of 4
    QCOMPARE(payloadBytes(i3, 10, 1).size(), std::size_t(10 * 16));
    // Integers stay below the element count, so they are safe indices.
    KernelArgument idx = f;
    idx.element = "uint";
    idx.width = 1;
    const auto b = payloadBytes(idx, 50, 3);
    for (std::size_t k = 0; k < 50; ++k) {
      std::uint32_t v;
      std::memcpy(&v, b.data() + 4 * k, 4);
      QVERIFY(v < 50);
    }
    // Floats compare within a tolerance.
    std::vector<unsigned char> x(4), y(4);
    const float a = 1.0f, c = 1.0000001f, far = 1.1f;
    std::memcpy(x.data(), &a, 4);
    std::memcpy(y.data(), &c, 4);
    KernelArgument one = f;
    one.width = 1;
    QVERIFY(sameOutput(one, x, y));
    std::memcpy(y.data(), &far, 4);
    QVERIFY(!sameOutput(one, x, y));
    // An infinity is no value within the tolerance of a finite one (a kernel
    // whose values overflowed has written), and equals itself.
    const float inf = std::numeric_limits<float>::infinity();
    std::memcpy(y.data(), &inf, 4);
    QVERIFY(!sameOutput(one, x, y));
    QVERIFY(!sameOutput(one, y, x));
    QVERIFY(sameOutput(one, y, y));
  }

  // --- signatures ------------------------------------------------------------
  void signaturesFromTheAst() {
    const auto scan = kernelSignatures(R"(
typedef struct { int a; float b; } pair_t;
kernel void many(global const float4* a, local int* b, constant uchar* c, const ulong n, float2 v,
                 global double* d) {}
kernel void byvalue(pair_t s, global int* o) {}
kernel void img(read_only image2d_t im, global float* o) {}
)");
    QVERIFY(scan.compiled);
    QCOMPARE(scan.kernels.size(), std::size_t(3));
    const auto& m = scan.kernels[0].arguments;
    QCOMPARE(m.size(), std::size_t(6));
    QCOMPARE(m[0].describe(), std::string("global const float4*"));
    QVERIFY(m[0].isConst && !m[0].isOutput());
    QCOMPARE(m[1].describe(), std::string("local int*"));
    QCOMPARE(m[2].describe(), std::string("constant uchar*"));
    QCOMPARE(m[3].describe(), std::string("ulong"));
    QCOMPARE(m[4].describe(), std::string("float2"));
    QVERIFY(m[5].isOutput());
    QVERIFY(scan.kernels[0].unsupportedReason().empty());
    // Structs by value are laid out as Clang lays them out; images read their channel type from their use.
    const auto& s = scan.kernels[1].arguments[0];
    QVERIFY(scan.kernels[1].unsupportedReason().empty());
    QVERIFY(s.isStruct());
    QCOMPARE(s.structBytes, std::size_t(8));
    QCOMPARE(s.fields.size(), std::size_t(2));
    QCOMPARE(s.fields[1].offset, std::size_t(4));
    QCOMPARE(s.fields[1].element, std::string("float"));
    const auto& im = scan.kernels[2].arguments[0];
    QVERIFY(scan.kernels[2].unsupportedReason().empty());
    QVERIFY(im.isImage() && im.isConst);
    QCOMPARE(im.imageDims, 2u);
    // OpenCL C forbids pointers to pointers as kernel arguments: Clang says so,
    // and the recovered signature says why the driver could not fill it anyway.
    const auto pp = kernelSignatures("kernel void bad(global int** p) {}");
    QVERIFY(!pp.compiled);
    QVERIFY(!pp.error.empty());
    QCOMPARE(pp.kernels.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(pp.kernels[0].unsupportedReason()).contains("pointer to a pointer"), pp.kernels[0].unsupportedReason().c_str());
  }

  // --- real PoCL through the worker ------------------------------------------
  void analysisReadsRanksRolesAndAccesses() {
    // A 2-D kernel: d and e guard the ids (sizes), f bounds a loop, the row
    // width e also multiplies an index; every buffer access is attributed.
    const char* mm = R"(kernel void mm(global float* a, global float* b, global float* c, int d, int e, int f, float s) {
  int g = get_global_id(0);
  int h = get_global_id(1);
  if ((h < d) && (g < e)) {
    for (int i = 0; i < f; i++)
      c[h * e + g] += a[h * f + i] * b[i * e + g] * s;
  }
})";
    const auto m = analyseKernel(mm, "mm");
    QVERIFY2(m.found, m.error.c_str());
    QCOMPARE(m.rank, 2);
    using R = ArgumentRole;
    QCOMPARE(m.roles, (std::vector<R>{R::Buffer, R::Buffer, R::Buffer, R::Size, R::Size, R::Size, R::Other}));
    QCOMPARE(m.loopBoundOnly, (std::vector<bool>{false, false, false, false, false, true, false}));
    QCOMPARE(m.accessesOf, (std::vector<int>{1, 1, 1, 0, 0, 0, 0})); // c[...] += is one access
    QCOMPARE(m.unattributed, 0);
    // The instrumented copy compiles, with the stats argument last.
    const auto scan = kernelSignatures(m.instrumented);
    QVERIFY2(scan.compiled, (scan.error + "\n" + m.instrumented).c_str());
    QCOMPARE(scan.kernels.back().arguments.back().name, std::string(kProbeStatsArgument));

    // A width that only multiplies an index; an index buffer; a 3-D view
    // through a local alias (NPB's style); a pointer moved in the body.
    const char* views = R"(kernel void views(global double* a, global const int* idx, global float* out, int w,
                   global double* moved) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  global double (*v)[4][5] = (global double (*)[4][5])a;
  v[z][y][x] = 1.0;
  out[idx[x] + y * w] = 2.0f;
  moved += 3;
  *(moved + x) = 0.5;
})";
    const auto v = analyseKernel(views, "views");
    QVERIFY2(v.found, v.error.c_str());
    QCOMPARE(v.rank, 3);
    QCOMPARE(v.roles[3], R::Stride);
    QCOMPARE(v.indexes, (std::vector<int>{-1, 2, -1, -1, -1}));
    QCOMPARE(v.accessesOf, (std::vector<int>{1, 1, 1, 0, 1}));
    const auto scan2 = kernelSignatures(v.instrumented);
    QVERIFY2(scan2.compiled, (scan2.error + "\n" + v.instrumented).c_str());
    // vloadn and vstoren are accesses too: 8 floats an offset.
    const char* vec = R"(kernel void vec(global float* a, global const float* b, global half* h) {
  int i = get_global_id(0);
  vstore8(sqrt(vload8(i, b)), i, a);
  vstore_half(vload8(0, b).s3, i, h);
})";
    const auto vv = analyseKernel(vec, "vec");
    QVERIFY2(vv.found, vv.error.c_str());
    QCOMPARE(vv.accessesOf, (std::vector<int>{1, 2, 1}));
    QCOMPARE(vv.unattributed, 0);
    const auto scan3 = kernelSignatures(vv.instrumented);
    QVERIFY2(scan3.compiled, (scan3.error + "\n" + vv.instrumented).c_str());
    // Offsets: added to an id, subtracted in its guard, a lower bound of
    // the ids, the start of a loop; a size compared in an early return.
    const char* offsets = R"(kernel void offsets(global float* a, int n, int off, int k, int lo, int first, int last) {
  int i = get_global_id(0) + off;
  if (i >= n) return;
  if (i < n - 1 - k && i > lo) {
    for (int j = first; j < last; j++)
      a[i] += 1.0f;
  }
})";
    const auto o = analyseKernel(offsets, "offsets");
    QVERIFY2(o.found, o.error.c_str());
    QCOMPARE(o.roles, (std::vector<R>{R::Buffer, R::Size, R::Offset, R::Offset, R::Offset, R::Offset, R::Size}));
    QCOMPARE(o.evidence[2], std::string("added to or subtracted from a work-item id"));
    QCOMPARE(o.evidence[3], std::string("subtracted in a comparison with a work-item id"));
    QCOMPARE(o.evidence[4], std::string("a work-item id must exceed it"));
    QCOMPARE(o.evidence[5], std::string("starts a loop"));
    // Row lengths of a sparse matrix bound a loop, read directly or through
    // a variable: their values are counts; column indices index x.
    const char* spmv = R"(kernel void spmv(global const float* v, global const float* x, global const int* col,
                   global const int* len, global const int* rows, int n, global float* y) {
  int g = get_global_id(0);
  if (g < n) {
    float h = 0.0f;
    int k = len[g];
    for (int j = 0; j < k; j++) h += v[j * n + g] * x[col[j * n + g]];
    for (int j = 0; j < rows[g]; j++) h += 1.0f;
    y[g] = h;
  }
})";
    const auto sp = analyseKernel(spmv, "spmv");
    QVERIFY2(sp.found, sp.error.c_str());
    QCOMPARE(sp.counts, (std::vector<bool>{false, false, false, true, true, false, false}));
    QCOMPARE(sp.indexes[2], 1);
    // A plane kept inside a size by two scalars (a 3-D stencil's z): a
    // position (small), the other a size.
    const char* plane = R"(kernel void plane(global float* b, global const float* a, int nz, int ny, int z) {
  int x = get_global_id(0), y = get_global_id(1);
  if (z < nz - 1 && z > 0 && y < ny) b[(z * ny + y) * ny + x] = a[((z - 1) * ny + y) * ny + x];
})";
    const auto pl = analyseKernel(plane, "plane");
    QVERIFY2(pl.found, pl.error.c_str());
    QCOMPARE(pl.roles, (std::vector<R>{R::Buffer, R::Buffer, R::Size, R::Size, R::Offset}));
    QCOMPARE(pl.evidence[4], std::string("kept below another scalar (a position inside a size)"));
    QVERIFY(pl.workGroup.empty());
    QVERIFY(!pl.oneGroup);
    // A scalar in, or bounding, a subscript of a fixed-length dimension is
    // at most its length less 2 (room for <=) less what the subscript adds
    // (NPB's views of a fixed grid; here 13 x 5); one bounding an index
    // taken modulo, or a pointer's first subscript, is not capped.
    const char* grid = R"(kernel void grid(global double* a, int nx, int nz, int n, int p) {
  int i = get_global_id(0) + 1;
  if (i >= nx - 1) return;
  global double (*v)[13][5] = (global double (*)[13][5])a;
  double acc[4];
  for (int k = 0; k < nz; k++) v[0][i][k] = 1.0;
  for (int j = 0; j < n; j++) acc[j % 4] = v[n][1][j % 5];
  v[0][p + 1][0] = 2.0;
  a[0] = acc[0];
})";
    const auto gr = analyseKernel(grid, "grid");
    QVERIFY2(gr.found, gr.error.c_str());
    QCOMPARE(gr.caps, (std::vector<std::uint64_t>{0, 11, 3, 0, 10}));
    QCOMPARE(gr.evidence[2], std::string("bounds a loop; at most 3: it bounds a subscript of an array dimension of 5"));
    // Local tiles set the work-group's shape: a row length times the second
    // local id, or a local array's dimensions subscripted by local ids (a
    // padded [ly][lx] tile; SHOC's sgemm `t[lx][ly + 12]` of a [16][17]: 16 x 4).
    const char* pitch = R"(kernel void pitch(global float* o, local float* t) {
  int lx = get_local_id(0), ly = get_local_id(1);
  t[lx + ly * 16] = o[get_global_id(1) * get_global_size(0) + get_global_id(0)];
})";
    QCOMPARE(analyseKernel(pitch, "pitch").workGroup, (std::vector<std::uint64_t>{16, 16}));
    const char* square = R"(kernel void square(global float* o) {
  local float t[8][9];
  t[get_local_id(1)][get_local_id(0)] = o[get_global_id(1) * get_global_size(0) + get_global_id(0)];
})";
    QCOMPARE(analyseKernel(square, "square").workGroup, (std::vector<std::uint64_t>{8, 8}));
    const char* wide = R"(kernel void wide(global float* o, int n) {
  local float t[16][17];
  int lx = get_local_id(0), ly = get_local_id(1);
  t[lx][ly] = o[get_global_id(1) * n + get_global_id(0)];
  t[lx][ly + 12] = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(1) * n + get_global_id(0)] = t[ly][lx];
})";
    QCOMPARE(analyseKernel(wide, "wide").workGroup, (std::vector<std::uint64_t>{16, 4}));
    // A halo past the group (NVIDIA's FDTD3d: t[ly + ny + 16] of a [48][40]):
    // the id and the group's size share the room, 16 rows and 12 (so 8) columns.
    const char* halo = R"(kernel void halo(global float* o, global const float* in) {
  local float t[16 + 2 * 16][8 + 2 * 16];
  const int lx = get_local_id(0), ly = get_local_id(1), nx = get_local_size(0), ny = get_local_size(1);
  t[ly][lx + 16] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];
  t[ly + ny + 16][lx] = 0.0f;
  t[ly][lx + nx + 16] = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(1) * get_global_size(0) + get_global_id(0)] = t[ly + 16][lx + 16];
})";
    QCOMPARE(analyseKernel(halo, "halo").workGroup, (std::vector<std::uint64_t>{8, 16}));
    const char* flat = R"(kernel void flat(global float* o, local float* t) {
  t[get_local_id(0)] = o[get_global_id(0)];
})";
    QVERIFY(analyseKernel(flat, "flat").workGroup.empty()); // 1-D: no shape to infer
    // A scalar subtracted from a constant (a tile less twice a pyramid's
    // height) is at most the constant / (4 k).
    const char* pyramid = R"(kernel void pyramid(global float* o, int height, int n) {
  int inner = 64 - height * 2;
  int x = get_global_id(0);
  if (x < n) o[x] = (float)(inner * x);
})";
    const auto py = analyseKernel(pyramid, "pyramid");
    QCOMPARE(py.caps, (std::vector<std::uint64_t>{0, 8, 0}));
    QCOMPARE(py.evidence[1], std::string("no comparison with an id, no loop bound, no index product; at most 8: it is "
                                         "subtracted (times 2) from 64"));
    // A kernel that reads local ids but no global or group id runs as one
    // work-group (Rodinia's lud_diagonal): every group would write the same
    // memory. Its scalars keep the requested size's values.
    const char* diagonal = R"(kernel void diagonal(global float* a, int width) {
  int g = get_local_id(0);
  for (int e = 0; e < 4; e++) a[e * width + g] = a[e * width + g] * 0.5f;
})";
    const auto dg = analyseKernel(diagonal, "diagonal");
    QVERIFY(dg.oneGroup);
    QVERIFY(!analyseKernel(flat, "flat").oneGroup);
    PayloadModel model;
    model.set = "roles";
    model.rank = dg.rank;
    RunRequest plan;
    planPayload(model, signatureOf(diagonal), dg, 4096, 64, plan);
    QCOMPARE(plan.globalRange(), (std::vector<std::uint64_t>{64}));
    QCOMPARE(plan.localRange(), (std::vector<std::uint64_t>{64}));
    QCOMPARE(plan.values[1], std::int64_t(64)); // sqrt(4096): as at 4096 work-items
    // A bound of three nested loops gets the cube root of one loop's bound
    // (the side of the 2-D grid), so each work-item turns about as often
    // as under one loop; a bound of one loop in the same kernel keeps the
    // side.
    const char* nest = R"(kernel void nest(global float* o, global const float* a, int w, int f) {
  int x = get_global_id(0), y = get_global_id(1);
  float s = 0.0f;
  for (int i = 0; i < w; i++)
    for (int j = 0; j < w; j++)
      for (int k = 0; k < w; k++) s += a[(i * w + j) * w + k];
  for (int m = 0; m < f; m++) s += a[m];
  o[y * get_global_size(0) + x] = s;
})";
    const auto ne = analyseKernel(nest, "nest");
    QCOMPARE(ne.loopNest, (std::vector<int>{0, 0, 3, 1}));
    QCOMPARE(ne.evidence[2], std::string("bounds a loop; bounds a nest of 3 loops"));
    PayloadModel nestModel;
    nestModel.set = "roles";
    nestModel.rank = ne.rank;
    RunRequest nestPlan;
    planPayload(nestModel, signatureOf(nest), ne, 65536, 64, nestPlan);
    QCOMPARE(nestPlan.globalRange(), (std::vector<std::uint64_t>{256, 256}));
    QCOMPARE(nestPlan.values[2], std::int64_t(6)); // 256^(1/3), rounded
    QCOMPARE(nestPlan.values[3], std::int64_t(256));
    nestPlan.arguments = signatureOf(nest).arguments; // as the driver's request carries them
    QVERIFY2(describePayload(nestPlan, ne).find("w = 6 (size, loop bound of a nest of 3)") != std::string::npos,
             describePayload(nestPlan, ne).c_str());
    // Nests counted as they are: two loops side by side are no nest (s), a
    // while loop in a for loop is one of 2 (t), a guard's size keeps the
    // side (n), and so does a row width of the ids (w: its root would make
    // work-items of different rows write the same elements).
    const char* shapes = R"(kernel void shapes(global float* o, global const float* a, int s, int t, int n, int w) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= n) return;
  float r = 0.0f;
  for (int i = 0; i < s; i++) r += a[i];
  for (int j = 0; j < s; j++) r += a[j + 1];
  for (int i = 0; i < t; i++) {
    int k = 0;
    while (k < t) r += a[k++];
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) r += a[i + j];
  for (int i = 0; i < w; i++)
    for (int j = 0; j < w; j++) r += a[i + j];
  o[y * w + x] = r;
})";
    const auto sh = analyseKernel(shapes, "shapes");
    QCOMPARE(sh.loopNest, (std::vector<int>{0, 0, 1, 2, 2, 2}));
    QCOMPARE(sh.loopBoundOnly, (std::vector<bool>{false, false, true, true, false, true}));
    QCOMPARE(sh.idWidth, (std::vector<bool>{false, false, false, false, false, true}));
    PayloadModel shapesModel;
    shapesModel.set = "roles";
    shapesModel.rank = sh.rank;
    RunRequest shapesPlan;
    planPayload(shapesModel, signatureOf(shapes), sh, 65536, 64, shapesPlan);
    QCOMPARE(shapesPlan.values[2], std::int64_t(256)); // one loop at a time
    QCOMPARE(shapesPlan.values[3], std::int64_t(16));  // 256^(1/2)
    QCOMPARE(shapesPlan.values[4], std::int64_t(256)); // a guard's size
    QCOMPARE(shapesPlan.values[5], std::int64_t(256)); // a row width of the ids
    // A kernel that is not there is named.
    QVERIFY(!analyseKernel(mm, "nope").found);
    QCOMPARE(analyseKernel(mm, "nope").error, std::string("no kernel called nope"));
  }

  void aTiledKernelGetsItsWorkGroupShape() {
    // Each work-item of a 16 x 16 group reads a row another wrote: at any
    // other shape it reads tile elements no one wrote.
    const char* tiled = R"(kernel void tiled(global float* out, global const float* in, int n) {
  local float t[16 * 16];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  t[lx + ly * 16] = in[y * n + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int u = 0; u < 16; ++u) s += t[u + ly * 16];
  if (x < n && y < n) out[y * n + x] = s;
})";
    auto o = quick();
    o.globalSizes = {4096};
    o.localSizes = {64}; // 8 x 8 unless the kernel says otherwise
    Driver driver(o);
    const auto c = driver.drive(tiled, signatureOf(tiled)).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QVERIFY2(c.payload.find("NDRange 64x64 (local 16x16)") != std::string::npos, c.payload.c_str());
  }

  void correctKernelPassesWithTimesOnBothDevices() {
    Driver driver(quick());
    QVERIFY2(driver.devices().size() >= 2, "PoCL should offer its pthread and basic devices");
    const auto cases = driver.drive(kScale, signatureOf(kScale));
    QCOMPARE(cases.size(), std::size_t(1));
    QCOMPARE(cases[0].outcome, std::string("PASS"));
    QCOMPARE(cases[0].devices.size(), driver.devices().size());
    for (const auto& d : cases[0].devices) {
      QCOMPARE(d.reply.outcome, std::string("PASS"));
      QCOMPARE(d.kernel.n, std::size_t(4));
      QVERIFY(d.kernel.mean > 0);
      QVERIFY(d.transfer.mean > 0);
      QVERIFY(d.total.ciLow <= d.total.mean && d.total.mean <= d.total.ciHigh);
    }
    QVERIFY(cases[0].label.best >= 0);
    QVERIFY(cases[0].label.status() == "significant" || cases[0].label.status() == "AMBIGUOUS");
    QCOMPARE(cases[0].transferBytes, std::uint64_t(1024 * 4 * 3)); // in once, out in and back
  }

  // Each kernel gets the outcome it deserves: the checker's inputs, including
  // its last one of values over the types' range, tell work from constants.
  void checkerRejectsBadKernels_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("outcome");
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("global");
    QTest::newRow("writes nothing") << kNoOutput << "NO_OUTPUT" << "" << 1024;
    QTest::newRow("overflows to infinity") << kOverflows << "PASS" << "" << 1024;
    QTest::newRow("ignores its input") << kInsensitive << "INPUT_INSENSITIVE" << "" << 1024;
    QTest::newRow("writes its sizes") << kWritesSizes << "INPUT_INSENSITIVE" << "" << 1024;
    QTest::newRow("high halves of small numbers") << kMulHi << "PASS" << "" << 1024;
    QTest::newRow("remainder of two values") << kRemainder << "PASS" << "" << 1024;
    QTest::newRow("a guard that is never true, with an offset") << kOffsetGuard << "PASS" << "" << 1024;
    QTest::newRow("racy") << kRacy << "NONDETERMINISTIC" << "pthread" << 262144;
  }
  void checkerRejectsBadKernels() {
    QFETCH(QString, source);
    QFETCH(QString, outcome);
    QFETCH(QString, device);
    QFETCH(int, global);
    auto o = quick();
    o.globalSizes = {std::uint64_t(global)};
    o.localSizes = {64};
    if (!device.isEmpty()) o.devices = {device.toStdString()};
    Driver driver(o);
    const std::string src = source.toStdString();
    const auto cases = driver.drive(src, signatureOf(src.c_str()));
    QCOMPARE(cases.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(cases[0].outcome), outcome);
    QCOMPARE(cases[0].label.best >= 0, outcome == "PASS"); // only what passes is labelled
  }

  void infiniteLoopTimesOutAndTheNextKernelRuns() {
    auto o = quick();
    o.timeoutSeconds = 2;
    // The limit counts the worker's CPU time, as contender checks do: on the
    // clock, a fresh worker starting PoCL on a loaded machine can take 2 s
    // before the next kernel runs at all.
    o.cpuTimeouts = true;
    o.devices = {"basic"};
    Driver driver(o);
    QElapsedTimer t;
    t.start();
    const auto cases = driver.drive(kSpin, signatureOf(kSpin));
    QCOMPARE(cases.at(0).outcome, std::string("TIMEOUT"));
    // It hangs in the first probe run, and the case says so.
    QVERIFY2(QString::fromStdString(cases.at(0).detail).contains("while probing"), cases.at(0).detail.c_str());
    QVERIFY2(t.elapsed() < 2 * 1000 * kCpuTimeoutWallFactor + 10000, "the hung worker should be killed at the limit");
    const auto next = driver.drive(kScale, signatureOf(kScale));
    QVERIFY2(next.at(0).outcome == "PASS", (next.at(0).outcome + ": " + next.at(0).detail).c_str());
    QCOMPARE(driver.workersStarted(), 2);
  }

  void warmUpsHaveARequestOfTheirOwn() {
    // A request may take --timeout: the build and the four checked runs are
    // one, the warm-ups another. A kernel whose checks and warm-ups together
    // take longer than the timeout, but each part less, passes. Its run time
    // is measured here first (the kernel's loop count is scaled to about
    // 0.3 s a run), and the timeout set to 7 runs: the four checked runs
    // and the four warm-ups each fit with a margin of 1.75 times (a CI
    // machine running other tests beside it made runs 1.4 times slower in
    // CPU time than measured), the eight together miss it.
    auto slow = [](long iterations) {
      return "kernel void slow(global const float* in, global float* out) {\n"
             "  int i = get_global_id(0);\n"
             "  float x = in[i];\n"
             "  for (int k = 0; k < " + std::to_string(iterations) + "; ++k) x = x * 0.9999f + 0.0001f;\n"
             "  out[i] = x;\n"
             "}\n";
    };
    auto o = quick();
    o.devices = {"basic"};
    o.payloadSets = {"cldrive"};
    o.cpuTimeouts = true;
    o.check = false;
    o.warmupRuns = 0;
    o.timedRuns = 2;
    std::string failed;
    auto runSeconds = [&](long iterations) { // 0 when it did not pass (`failed` says why)
      Driver timing(o);
      const auto source = slow(iterations);
      const auto c = timing.drive(source, signatureOf(source.c_str())).at(0);
      if (c.outcome != "PASS") failed = c.outcome + ": " + c.detail;
      return c.outcome == "PASS" ? c.devices.at(0).kernel.median / 1e9 : 0.0;
    };
    const double first = runSeconds(1 << 14);
    QVERIFY2(first > 0, failed.c_str());
    const long iterations = std::max(1L << 14, long(double(1 << 14) * 0.3 / first));
    const double run = runSeconds(iterations); // also leaves its build in PoCL's cache
    QVERIFY2(run > 0, failed.c_str());
    o.check = true;
    o.warmupRuns = 4;
    o.timeoutSeconds = 7 * run;
    Driver driver(o);
    const auto source = slow(iterations);
    const auto c = driver.drive(source, signatureOf(source.c_str())).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail + " (a run took " + std::to_string(run) + " s)").c_str());
    QCOMPARE(c.devices.at(0).kernel.n, std::size_t(2));
  }

  void outOfBoundsWriteKillsOnlyTheWorker() {
    auto o = quick();
    o.payloadSets = {"cldrive"};
    {
      // With the checks, the out-of-bounds oracle sees the write before it happens.
      Driver checked(o);
      const auto c = checked.drive(kFarWrite, signatureOf(kFarWrite)).at(0);
      QCOMPARE(c.outcome, std::string("OUT_OF_BOUNDS"));
      QVERIFY2(c.detail.find("'out'") != std::string::npos, c.detail.c_str());
    }
    o.check = false; // without them, CLgen's payload and the write really happen
    Driver driver(o);
    const auto cases = driver.drive(kFarWrite, signatureOf(kFarWrite));
    QVERIFY2(cases.at(0).outcome == "CRASH" || cases.at(0).outcome == "CL_ERROR", cases.at(0).outcome.c_str());
    // This process is unharmed, and the next kernel is driven normally.
    const auto next = driver.drive(kScale, signatureOf(kScale));
    QCOMPARE(next.at(0).outcome, std::string("PASS"));
    QCOMPARE(next.at(0).devices.size(), driver.devices().size());
  }

  void theOutOfBoundsOracleNamesTheArgumentAndRange() {
    // Every read and write of a buffer argument is checked at the real size
    // (an instrumented run) and writes past a buffer's end also by guard
    // bytes. Fixtures: one past the end, a negative index, a 2-D kernel
    // launched 1-D, and halo stencils.
    const char* onePast = R"(kernel void one_past(global float* out, global const float* in, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = in[i] + in[i + 1];
})";
    const char* negative = R"(kernel void negative(global float* out, global const float* in) {
  int i = get_global_id(0);
  out[i] = in[i - 1] * 2.0f;
})";
    const char* transpose = R"(kernel void transpose(global float* out, global const float* in, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h) out[x * h + y] = in[y * w + x];
})";
    const char* halo = R"(kernel void halo(global float* out, global const float* in, int n) {
  int i = get_global_id(0);
  if (i > 0 && i < n - 1) out[i] = in[i - 1] + in[i] + in[i + 1];
})";
    const char* openHalo = R"(kernel void open_halo(global float* out, global const float* in) {
  int i = get_global_id(0);
  out[i] = in[i] + in[i + 1] + in[i + 2];
})";
    auto o = at4096(64);
    auto drive = [&](const char* source, std::vector<std::string> sets) {
      o.payloadSets = std::move(sets);
      Driver driver(o);
      return driver.drive(source, signatureOf(source)).at(0);
    };
    // CLgen's rule gives `in` one element per work-item: the read at n is out of bounds.
    auto c = drive(onePast, {"cldrive"});
    QCOMPARE(c.outcome, std::string("OUT_OF_BOUNDS"));
    QVERIFY2(c.detail.find("argument 2 'in' (4096 float) was accessed at elements 0 to 4096") != std::string::npos,
             c.detail.c_str());
    // The kernel's own reading sizes it from the probe: n + 1 elements, and it passes.
    c = drive(onePast, {"roles", "cldrive", "big"});
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QCOMPARE(c.payloadSet, std::string("roles"));
    // (measured at 4097, given 4352: sizes measured are rounded up to 256 elements)
    QVERIFY2(c.payload.find("in: 4352 float") != std::string::npos, c.payload.c_str());
    // Reading before a buffer's start has no payload that fits.
    c = drive(negative, {"roles", "cldrive", "big"});
    QCOMPARE(c.outcome, std::string("OUT_OF_BOUNDS"));
    QVERIFY2(c.detail.find("'in'") != std::string::npos && c.detail.find("elements -1 to") != std::string::npos,
             c.detail.c_str());
    // A 2-D kernel launched 1-D with w = h = 4096 writes far past its buffer;
    // launched 2-D (64 x 64, sizes 64), it passes.
    c = drive(transpose, {"cldrive"});
    QCOMPARE(c.outcome, std::string("OUT_OF_BOUNDS"));
    QVERIFY2(c.detail.find("'out'") != std::string::npos, c.detail.c_str());
    c = drive(transpose, {"roles", "cldrive", "big"});
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QVERIFY2(c.payload.find("NDRange 64x64 (local 8x8)") != std::string::npos, c.payload.c_str());
    QVERIFY2(c.payload.find("w = 64 (size)") != std::string::npos, c.payload.c_str());
    // Halo stencils: guarded, in bounds as CLgen gives it; open, two elements more.
    QCOMPARE(drive(halo, {"cldrive"}).outcome, std::string("PASS"));
    c = drive(openHalo, {"roles", "cldrive", "big"});
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QVERIFY2(c.payload.find("in: 4352 float") != std::string::npos, c.payload.c_str()); // 4098, rounded up
  }

  void scalarsAreSearchedWhenTheKernelWritesNothing() {
    // Writes under conditions on scalars: every set gives c and d one value
    // (two plain values), so the kernel returns before it writes
    // (NO_OUTPUT); the scalars set probes 0, 1 and half of each and finds c
    // unlike d, and for `c || d` both 0. A kernel no non-negative scalar
    // lets write stays NO_OUTPUT.
    const char* ordered = R"(kernel void ordered(global float* a, global const float* b, const int c, const int d) {
  int i = get_global_id(0);
  if (c == d) return;
  a[i] = b[i] * 2.0f + (float)(d - c);
})";
    const char* both = R"(kernel void both(global float* a, global const float* b, const int c, const int d) {
  int i = get_global_id(0);
  if (c || d) return;
  a[i] = b[i] * 2.0f;
})";
    const char* never = R"(kernel void never(global float* a, global const float* b, const int c) {
  int i = get_global_id(0);
  if (c >= 0) return;
  a[i] = b[i] * 2.0f;
})";
    auto o = at4096(64);
    o.payloadSets = {"roles", "cldrive", "big"};
    auto c = Driver(o).drive(ordered, signatureOf(ordered)).at(0);
    QCOMPARE(c.outcome, std::string("NO_OUTPUT"));
    o.payloadSets = drive::constraintSets();
    Driver driver(o);
    c = driver.drive(ordered, signatureOf(ordered)).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QCOMPARE(c.payloadSet, std::string("scalars"));
    QVERIFY2(c.payload.find("c = 0") != std::string::npos, c.payload.c_str());
    bool said = false;
    for (const auto& line : driver.evidence())
      said = said || line.rfind("scalars: c ", 0) == 0;
    QVERIFY(said);
    c = driver.drive(both, signatureOf(both)).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QVERIFY2(c.payload.find("c = 0") != std::string::npos && c.payload.find("d = 0") != std::string::npos,
             c.payload.c_str());
    // Two tests that each need a scalar changed (and a third that all 0 and
    // all 1 fail): a pair is searched, f keeps its role's value.
    const char* pair = R"(kernel void pair(global float* a, global const float* b, const int c, const int e, const int f) {
  int i = get_global_id(0);
  if (c > 1 || e > 2 || f < 2) return;
  a[i] = b[i] * 2.0f;
})";
    c = driver.drive(pair, signatureOf(pair)).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    said = false;
    for (const auto& line : driver.evidence())
      said = said || line.rfind("scalars: c 0, e 0 ", 0) == 0;
    QVERIFY2(said, c.payload.c_str());
    // Written only under c == d, and then the input's bytes make no
    // difference: the case says so (under the scalars set), not NO_OUTPUT.
    const char* fixed = R"(kernel void fixed_value(global float* a, global const float* b, const int c, const int d) {
  int i = get_global_id(0);
  if (c == d) return;
  a[i] = 2.0f;
})";
    c = driver.drive(fixed, signatureOf(fixed)).at(0);
    QVERIFY2(c.outcome == "INPUT_INSENSITIVE", (c.outcome + ": " + c.detail).c_str());
    QCOMPARE(c.payloadSet, std::string("scalars"));
    c = driver.drive(never, signatureOf(never)).at(0);
    QCOMPARE(c.outcome, std::string("NO_OUTPUT"));
    said = false;
    for (const auto& line : driver.evidence())
      said = said || line.find("reached no more of the writable buffers") != std::string::npos;
    QVERIFY(said);
  }

  void theKernelsOwnArraysAreCheckedToo() {
    // A kernel's own local, private and constant arrays are no arguments:
    // no payload or guard byte is theirs, and PoCL reads whatever lies past
    // them. The probe records their subscripts too (clamped inside them).
    const std::string localPast = R"(kernel void local_past(global float* a, global const float* b) {
  local float t[64];
  int l = get_local_id(0);
  t[l] = b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[64 - l + 3];
})";
    const std::string privatePast = R"(kernel void private_past(global float* a, global const float* b) {
  int i = get_global_id(0);
  float w[4][2];
  for (int k = 0; k < 4; k++) { w[k][0] = b[i] * k; w[k][1] = b[i] + k; }
  a[i] = w[i % 8][1] + vload2(0, w[i % 4]).x;
})";
    const std::string constantPast = R"(constant float weights[5] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
kernel void constant_past(global float* a, global const float* b) {
  int i = get_global_id(0);
  float s = 0.0f;
  for (int k = -2; k <= 3; k++) s += weights[k + 2] * b[i];
  a[i] = s;
})";
    // Each beside its neighbour with the subscript inside the array, which passes.
    auto inside = [](std::string source, const std::string& from, const std::string& to) {
      source.replace(source.find(from), from.size(), to);
      return source;
    };
    struct Row {
      std::string source, outcome, detail;
    };
    const Row rows[] = {
        {localPast, "OUT_OF_BOUNDS", "the kernel's local array 't' (64 float) was accessed at elements 0 to 67"},
        {inside(localPast, "64 - l + 3", "63 - l"), "PASS", ""},
        {privatePast, "OUT_OF_BOUNDS", "the kernel's private array 'w' (8 float) was accessed at elements 0 to 15"},
        {inside(privatePast, "i % 8", "i % 4"), "PASS", ""},
        {constantPast, "OUT_OF_BOUNDS", "the kernel's constant array 'weights' (5 float) was accessed at elements 0 to 5"},
        {inside(constantPast, "k <= 3", "k <= 2"), "PASS", ""},
    };
    auto o = at4096(64);
    Driver driver(o);
    for (const auto& row : rows) {
      const auto c = driver.drive(row.source, signatureOf(row.source.c_str())).at(0);
      QVERIFY2(c.outcome == row.outcome && c.detail.find(row.detail) != std::string::npos,
               (c.outcome + ": " + c.detail + "\n" + row.source).c_str());
    }
    // What the analysis found, for `drive --explain`.
    const auto a = analyseKernel(privatePast, "private_past");
    QCOMPARE(a.arrays.size(), std::size_t(1));
    QCOMPARE(a.arrays[0].bytes, std::uint64_t(32));
    QCOMPARE(a.arrays[0].accesses, 4);
  }

  void memoryTheKernelNeverWroteIsPoisonedInChecks() {
    // Local memory and private arrays hold what the last run left there,
    // alike in both runs of a check. A checked run fills them with other
    // bytes each time, so reading an element before writing it shows.
    const char* localArgument = R"(kernel void unwritten_arg(global float* a, global const float* b, local float* d) {
  int l = get_local_id(0);
  if (l > 0) d[l] = b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = d[l] + d[0];
})";
    const char* localArray = R"(kernel void unwritten_local(global float* a, global const float* b) {
  int i = get_global_id(0);
  if (i < 0) return;
  local float t[64];
  int l = get_local_id(0);
  t[l] = b[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[i] = t[l] + t[(l + 1) % 64];
})";
    const char* privateArray = R"(kernel void unwritten_private(global float* a, global const float* b) {
  int i = get_global_id(0);
  float w[4];
  for (int k = 1; k < 4; k++) w[k] = b[i] * k;
  a[i] = w[i % 4] + w[3];
})";
    const char* written = R"(kernel void written(global float* a, global const float* b, local float* d) {
  int i = get_global_id(0);
  if (i < 0) return;
  local float t[64];
  float w[4];
  int l = get_local_id(0);
  d[l] = b[i];
  t[l] = 2.0f * b[i];
  for (int k = 0; k < 4; k++) w[k] = b[i] * k;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[i] = d[(l + 1) % get_local_size(0)] + t[l] + w[i % 4];
})";
    auto o = at4096(32);
    Driver driver(o);
    auto drive = [&](const char* source) { return driver.drive(source, signatureOf(source)).at(0); };
    for (const char* unwritten : {localArgument, localArray, privateArray}) {
      const auto c = drive(unwritten);
      QVERIFY2(c.outcome == "NONDETERMINISTIC", (c.outcome + ": " + c.detail).c_str());
      QVERIFY2(c.detail.find("it may read elements it never wrote") != std::string::npos, c.detail.c_str());
    }
    // The kernel that writes before it reads passes, on every device, and is timed as written.
    const auto c = drive(written);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QCOMPARE(c.devices.size(), driver.devices().size());
    for (const auto& d : c.devices)
      QCOMPARE(d.reply.kernelNs.size(), std::size_t(2));
    // The poisoned copy declares the local array first (after a return, it
    // could not be filled before a barrier every work-item reaches).
    const auto a = analyseKernel(written, "written");
    QVERIFY2(a.poisoned.find("{\n  local float t[64];\n  {") != std::string::npos, a.poisoned.c_str());
    QVERIFY2(a.poisoned.find("uint __sb_poison, uint __sb_lbytes2)") != std::string::npos, a.poisoned.c_str());
    QVERIFY(analyseKernel(kScale, "scale").poisoned.empty()); // nothing to fill: checks run the kernel as written
  }

  void imagesSamplersAndStructsRunOnPocl() {
    // Arguments CLgen gave up on: a read-only image with a sampler, a
    // write-only image read back, a struct by value and a buffer of structs.
    const char* blur = R"(kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 a = read_imagef(src, s, p) + read_imagef(src, s, p + (int2)(1, 0)) + read_imagef(src, s, p - (int2)(1, 0));
  write_imagef(dst, p, a / 3.0f);
})";
    const char* structs = R"(typedef struct { float scale; int offset; float bias; } params_t;
typedef struct { float x; float y; } point_t;
kernel void move(global point_t* pts, global const float* w, params_t p) {
  int i = get_global_id(0);
  pts[i].x = pts[i].x * p.scale + w[i] + p.bias;
  pts[i].y = pts[i].y + (float)p.offset * w[i];
})";
    auto o = at4096(64);
    Driver driver(o);
    auto c = driver.drive(blur, signatureOf(blur)).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QVERIFY2(c.payload.find("image2d") != std::string::npos, c.payload.c_str());
    const auto sig = signatureOf(structs);
    QVERIFY(sig.arguments[0].isStruct());
    QCOMPARE(sig.arguments[0].structBytes, std::size_t(8));
    QCOMPARE(sig.arguments[2].structBytes, std::size_t(12));
    c = driver.drive(structs, sig).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    // A void pointer is a buffer of bytes; a union gets random bytes; a
    // struct's pointer stays zero; a pointer to an array is a buffer of
    // fixed-size records.
    const char* opaque = R"(typedef union { float f; uint u; } bits_t;
typedef struct { global float* p; float scale; } odd_t;
kernel void opaque(global void* raw, global bits_t* u, constant odd_t* o, global uchar (*rec)[6]) {
  int i = get_global_id(0);
  global float* f = (global float*)raw;
  f[i] = f[i] * o->scale + (float)(u[i].u & 0xffu) + (float)rec[i][5];
})";
    const char* vec = R"(kernel void vec(global float* a, global const float* b) {
  vstore8(sqrt(vload8(get_global_id(0), b)), get_global_id(0), a);
})";
    c = driver.drive(vec, signatureOf(vec)).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QVERIFY2(c.payload.find("a: 32768 float; b: 32768 float") != std::string::npos, c.payload.c_str());
    const auto en = signatureOf("typedef enum { RED, GREEN } colour_t;\n"
                                "kernel void paint(global int* o, const colour_t c) { o[get_global_id(0)] = c; }");
    QCOMPARE(en.arguments[1].describe(), std::string("uint")); // an enum is its integer type
    const auto os = signatureOf(opaque);
    QVERIFY2(os.unsupportedReason().empty(), os.unsupportedReason().c_str());
    QCOMPARE(os.arguments[0].element, std::string("uchar"));
    QVERIFY(os.arguments[1].isStruct() && os.arguments[1].fields.empty());
    QCOMPARE(os.arguments[2].fields.size(), std::size_t(1)); // scale only
    QCOMPARE(os.arguments[3].structBytes, std::size_t(6));
    c = driver.drive(opaque, os).at(0);
    QVERIFY2(c.outcome == "PASS", (c.outcome + ": " + c.detail).c_str());
    QVERIFY2(c.payload.find("raw: 16384 uchar") != std::string::npos, c.payload.c_str());
    // An image kernel that ignores its input is still caught by the checker.
    const char* ignores = R"(kernel void fill(read_only image2d_t src, write_only image2d_t dst) {
  write_imagef(dst, (int2)(get_global_id(0), get_global_id(1)), (float4)(1.0f));
})";
    c = driver.drive(ignores, signatureOf(ignores)).at(0);
    QCOMPARE(c.outcome, std::string("INPUT_INSENSITIVE"));
  }

  void printfInAKernelCannotCorruptTheProtocol() {
    // PoCL prints to the worker's fd 1; the replies travel on their own descriptor.
    const char* talk = "kernel void talk(global float* out, global const float* in) {\n"
                       "  printf(\"test_printf %d\\n\", (int)get_global_id(0));\n"
                       "  out[get_global_id(0)] = in[get_global_id(0)] + 1.0f;\n}\n";
    auto o = quick();
    o.globalSizes = {64};
    o.localSizes = {16};
    Driver driver(o);
    const auto cases = driver.drive(talk, signatureOf(talk));
    QCOMPARE(cases.at(0).outcome, std::string("PASS"));
    QCOMPARE(driver.workersStarted(), 1);
  }

  void buildFailureAndUnsupportedArguments() {
    Driver driver(quick());
    // Clang accepted this signature; PoCL is given a unit that does not build.
    const auto broken = driver.drive("kernel void scale(global float* out, global const float* in, const int n) {"
                                     " undeclared_call(); }",
                                     signatureOf(kScale));
    QCOMPARE(broken.at(0).outcome, std::string("BUILD_FAILURE"));
    QVERIFY(!broken.at(0).detail.empty());
    // A pointer to a pointer cannot be made: Clang rejects it, and the case says which argument.
    const char* pp = "kernel void pp(global int** p, global int* o) { o[get_global_id(0)] = 1; }";
    const auto ppScan = kernelSignatures(pp);
    QCOMPARE(ppScan.kernels.size(), std::size_t(1));
    const auto unsupported = driver.drive(pp, ppScan.kernels[0]);
    QVERIFY(unsupported.at(0).outcome == "UNSUPPORTED_ARGUMENTS" || unsupported.at(0).outcome == "BUILD_FAILURE");
    QVERIFY2(QString::fromStdString(unsupported.at(0).detail).contains("'p'") ||
                 QString::fromStdString(unsupported.at(0).detail).contains("pointer"),
             unsupported.at(0).detail.c_str());
  }

  void clearErrorsForMissingWorkerAndUnknownDevice() {
    auto o = quick();
    o.workerPath = dir_.path().toStdString() + "/no-such-worker";
    try {
      Driver d(o);
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY(QString(e.what()).contains("steerbench-drive was not found"));
    }
    o = quick();
    o.devices = {"no-such-device"};
    try {
      Driver d(o);
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY(QString(e.what()).contains("no device matches 'no-such-device'"));
      QVERIFY(QString(e.what()).contains("pthread"));
    }
  }

  // --- Oclgrind's memory checker ---------------------------------------------
  void theWorkerLoadsNoLlvm() {
    // Oclgrind's simulator brings its own LLVM and crashes beside LLVM 15, so
    // the worker must not load libLLVM (nor libclang-cpp): read its mappings,
    // with no OpenCL platform registered (PoCL itself loads LLVM 15).
    const QByteArray vendors = qgetenv("OCL_ICD_VENDORS");
    QDir(dir_.path()).mkpath("no-icds");
    qputenv("OCL_ICD_VENDORS", (dir_.path() + "/no-icds").toUtf8());
    WorkerOptions w;
    w.executable = driveWorkerPath();
    w.cacheDir = dir_.path().toStdString() + "/pocl-cache";
    WorkerProcess worker(w);
    if (vendors.isNull()) qunsetenv("OCL_ICD_VENDORS");
    else qputenv("OCL_ICD_VENDORS", vendors);
    QVERIFY(worker.devices().empty());
    QFile maps(QString("/proc/%1/maps").arg(worker.pid()));
    QVERIFY(maps.open(QIODevice::ReadOnly));
    const QByteArray mapped = maps.readAll();
    QVERIFY(mapped.contains("libOpenCL")); // the read saw the worker's libraries
    QVERIFY2(!mapped.contains("libLLVM") && !mapped.contains("libclang"), "the worker maps LLVM or Clang");
  }

  void oclgrindLogEntriesAfterAMark() {
    const std::string path = dir_.path().toStdString() + "/oclgrind.log";
    {
      std::ofstream log(path);
      log << "\nInvalid write of size 4 at global memory address 0x2000000000040\n\tKernel: old\n\n";
    }
    const OclgrindLog log(path);
    QVERIFY(log.active());
    const auto mark = log.end();
    QVERIFY(mark > 0);
    QCOMPARE(log.memoryErrorSince(mark), std::string()); // the old entry is before the mark
    {
      std::ofstream more(path, std::ios::app);
      more << "\nUninitialized value read\n\tKernel: A\n\n" // not a memory error
           << "Index (64) exceeds static array size (64)\n\tKernel: A\n\tEntity: Global(63,0,0) Local(63,0,0) "
              "Group(0,0,0)\n\t  %5 = load float\n\tAt line 6 (column 10) of input.cl:\n\n";
    }
    QCOMPARE(log.memoryErrorSince(mark),
             std::string("Index (64) exceeds static array size (64) by work-item Global(63,0,0), at line 6 of the "
                         "checked source"));
    QCOMPARE(log.dataRaceSince(mark), std::string()); // a memory error is no race
    {
      std::ofstream more(path, std::ios::app);
      more << "Read-write data race at local memory address 0x1000000000020\n\tKernel: A\n\t\n"
              "\tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)\n\t  store double %call23\n"
              "\tAt line 26 (column 12) of input.cl:\n\t  d[l] = fmin(d[l], d[l + n]);\n\t\n"
              "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n\t  %8 = load double\n"
              "\tAt line 29 (column 19) of input.cl:\n\t  d[l + 3] += d[l + 4];\n\t\n\n"
              "Write-write data race at global memory address 0x100000000000f\n\tKernel: A\n\n";
    }
    QCOMPARE(log.dataRaceSince(mark),
             std::string("Read-write data race at local memory address 0x1000000000020 between work-items "
                         "Global(1,0,0) and Global(0,0,0), at lines 26 and 29 of the checked source"));
    QVERIFY(log.memoryErrorSince(mark).rfind("Index (64)", 0) == 0); // still the first memory error
    QVERIFY(!OclgrindLog("").active());
    QCOMPARE(OclgrindLog("").memoryErrorSince(0), std::string());
    QCOMPARE(OclgrindLog("").dataRaceSince(0), std::string());
  }

  void oclgrindFindsAReadPastALocalArray() {
    if (oclgrindPath().empty()) QSKIP("Oclgrind is not installed (Debian: apt install oclgrind); nothing to run");
    // A read one past a local array, through a pointer the probe does not
    // trace (it sees subscripts of the array itself): no guard bytes see
    // it, PoCL reads whatever lies there. Oclgrind's checker names it.
    const char* localPast = R"(kernel void local_past(global float* a, global const float* b) {
  local float t[32];
  local float* next = t + 1;
  int l = get_local_id(0);
  t[l] = b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = next[l];
})";
    const auto o = inOclgrind();
    Driver driver(o);
    QCOMPARE(driver.devices().size(), std::size_t(1));
    QCOMPARE(driver.devices()[0].name, std::string("Oclgrind Simulator"));
    const auto bad = driver.drive(localPast, signatureOf(localPast)).at(0);
    QVERIFY2(bad.outcome == "OUT_OF_BOUNDS", (bad.outcome + ": " + bad.detail).c_str());
    QVERIFY2(bad.detail.find("Oclgrind's memory checker: Invalid read of size 4 at local memory") != std::string::npos,
             bad.detail.c_str());
    const auto good = driver.drive(kScale, signatureOf(kScale)).at(0);
    QCOMPARE(good.outcome, std::string("PASS"));
    QVERIFY(specJson(o).find("\"oclgrind\":true") != std::string::npos);
  }

  void oclgrindFindsARaceOnLocalMemory() {
    if (oclgrindPath().empty()) QSKIP("Oclgrind is not installed (Debian: apt install oclgrind); nothing to run");
    // A tree sum with its barrier after the loop instead of in it: work-item
    // l reads t[l + s] while l + s may write it. On PoCL's CPU devices
    // the work-items of a group run in order, so the outputs agree from run
    // to run; Oclgrind's race checker names the race. The same sum with the
    // barrier in its place passes.
    const char* racy = R"(kernel void racy_sum(global float* a, global const float* b) {
  local float t[64];
  int l = get_local_id(0);
  t[l] = b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1)
    if (l < s) t[l] += t[l + s];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) a[get_group_id(0)] = t[0];
})";
    const char* fenced = R"(kernel void fenced_sum(global float* a, global const float* b) {
  local float t[64];
  int l = get_local_id(0);
  t[l] = b[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (l < s) t[l] += t[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) a[get_group_id(0)] = t[0];
})";
    auto o = inOclgrind();
    o.globalSizes = {256};
    o.localSizes = {64};
    Driver driver(o);
    const auto bad = driver.drive(racy, signatureOf(racy)).at(0);
    QVERIFY2(bad.outcome == "NONDETERMINISTIC", (bad.outcome + ": " + bad.detail).c_str());
    QVERIFY2(bad.detail.find("Oclgrind's race checker: ") != std::string::npos &&
                 bad.detail.find("data race at local memory") != std::string::npos,
             bad.detail.c_str());
    const auto good = driver.drive(fenced, signatureOf(fenced)).at(0);
    QVERIFY2(good.outcome == "PASS", (good.outcome + ": " + good.detail).c_str());
  }

  // --- the job, the workspace and the DevMap export ----------------------------
  void drivenCasesAreStoredAndExportLoadsBack() {
    const std::string wsPath = dir_.path().toStdString() + "/drive.sbw";
    auto ws = store::Workspace::open(wsPath);
    DriveJobOptions job;
    job.drive = quick();
    job.drive.globalSizes = {1024, 4096};
    std::size_t progressCalls = 0;
    job.progress = [&](std::size_t, std::size_t) { ++progressCalls; };
    const auto results = runDriveJob({{"scale.cl", kScale, {}}, {"fill.cl", kInsensitive, {}},
                                      {"broken.cl", "kernel void k( {", {}}},
                                     job, &ws);
    QCOMPARE(results.size(), std::size_t(3));
    QVERIFY(!results[0].error.empty()); // the unit Clang rejects comes first, driven never
    QCOMPARE(progressCalls, std::size_t(3));

    const auto stored = ws.driveCases();
    QCOMPARE(stored.size(), std::size_t(4));
    QCOMPARE(stored[0].outcome, std::string("PASS"));
    QCOMPARE(stored[2].outcome, std::string("INPUT_INSENSITIVE"));
    QVERIFY(ws.spec(stored[0].specHash).find("\"global_sizes\":[1024,4096]") != std::string::npos);
    QCOMPARE(stored[0].devices.size(), std::size_t(2));
    QCOMPARE(stored[0].devices[0].total.n, std::int64_t(4));

    const std::string csv = dir_.path().toStdString() + "/export.csv";
    const auto summary = exportDevMapCsv(ws, csv);
    QCOMPARE(summary.rows, std::size_t(2));
    QCOMPARE(summary.skipped, std::size_t(2));
    const auto rows = dataset::readDevMap(csv);
    QCOMPARE(rows.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
      const auto& c = stored[i];
      QCOMPARE(rows[i].benchmark, "steerbench-" + std::to_string(c.kernelId) + "-scale");
      QCOMPARE(rows[i].dataset, "g" + std::to_string(c.globalSize) + "-l32");
      QCOMPARE(rows[i].transfer, double(c.transferBytes));
      QCOMPARE(rows[i].wgsize, 32.0);
      QVERIFY(std::fabs(rows[i].runtimeCpu - c.devices[0].total.mean / 1e6) < 1e-9);
      QVERIFY(std::fabs(rows[i].runtimeGpu - c.devices[1].total.mean / 1e6) < 1e-9);
      QCOMPARE(rows[i].oracle, std::string(c.devices[0].total.mean <= c.devices[1].total.mean ? "CPU" : "GPU"));
      QCOMPARE(rows[i].mem, 2.0); // Grewe: one global load, one global store
      QCOMPARE(rows[i].src, std::string(kScale));
    }
    // A folder that does not exist: a clear error and no file.
    QVERIFY_THROWS_EXCEPTION(InputError, (void)exportDevMapCsv(ws, dir_.path().toStdString() + "/no/dir/x.csv"));
  }
};

QTEST_GUILESS_MAIN(TestDrive)
#include "tst_drive.moc"
