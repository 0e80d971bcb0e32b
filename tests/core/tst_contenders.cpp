// What makes a steering candidate a benchmark, on real Clang and real PoCL:
// the clean-compile rules (each rejects a kernel that breaks it and keeps a
// similar one that does not), the dead-code check on the -O1 IR, and the
// contenders' drive checks on their own thread through the steerbench-drive
// worker.
#include "clang/OpenCLFrontend.h"
#include "drive/host/WorkerProcess.h"
#include "features/DeadCode.h"
#include "features/FeatureSpace.h"
#include "steer/CleanCompile.h"
#include "steer/CleanKernelCheck.h"
#include "steer/ContenderChecks.h"
#include "steer/MeasurePool.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <string>

using namespace steerbench;

namespace {

std::string kernelWith(const std::string& body) {
  return "kernel void A(global float* a, global float* b, const int n, const int m) {\n"
         "  int i = get_global_id(0);\n" +
         body + "\n}\n";
}

steer::Measured judged(const std::string& text, const std::vector<std::string>& rules = steer::cleanRuleNames()) {
  const auto& space = features::featureSpace("grewe");
  return steer::measureCandidate(text, space, std::vector<double>(space.dimensions.size(), 0.0), {}, rules);
}

const char* kPasses = "kernel void A(global float* a, global const float* b, const int n) {\n"
                      "  int i = get_global_id(0);\n"
                      "  if (i < n) a[i] = b[i] * 2.0f + 1.0f;\n"
                      "}\n";
// Exits before its work for every value the driver gives n (none is negative).
const char* kNoOutput = "kernel void A(global float* a, global const float* b, const int n) {\n"
                        "  int i = get_global_id(0);\n"
                        "  if (n >= 0) return;\n"
                        "  a[i] = b[i] * 2.0f;\n"
                        "}\n";
// Twelve reads whose sum no one uses: Grewe counts them, -O1 drops them.
const char* kDeadReads = "kernel void A(global float* a, global const float* b) {\n"
                         "  int i = get_global_id(0);\n"
                         "  float t = b[i] + b[i + 1] + b[i + 2] + b[i + 3] + b[i + 4] + b[i + 5] + b[i + 6] + b[i + 7] +\n"
                         "            b[i + 8] + b[i + 9] + b[i + 10] + b[i + 11];\n"
                         "  a[i] = 1.0f;\n"
                         "}\n";

// Never ends while n > 0 (the driver gives n a size).
const char* kHangs = "kernel void A(global int* a, const int n) {\n  int i = get_global_id(0);\n"
                     "  while (n > 0) a[i] = a[i] + 1;\n}\n";

/// Checks at normal priority, with short timeouts (CPU seconds, as always in checks).
steer::ContenderCheckOptions unniced(double timeoutSeconds) {
  steer::ContenderCheckOptions o;
  o.timeoutSeconds = timeoutSeconds;
  o.niceIncrement = 0;
  return o;
}

/// Waits for every check submitted, and returns them in the order they finished.
std::vector<steer::ContenderCheck> allFinished(steer::ContenderChecks& checks) {
  checks.wait(300);
  return checks.takeFinished();
}

} // namespace

class TestContenders : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void eachCleanRuleRejectsOneAndKeepsItsNeighbour_data() {
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("bad");
    QTest::addColumn<QString>("good");
    // `name`: a further case of a rule ("rule, what differs").
    auto variant = [](const char* name, const char* rule, const char* bad, const char* good) {
      QTest::newRow(name) << QString::fromLatin1(rule) << QString::fromStdString(kernelWith(bad))
                          << QString::fromStdString(kernelWith(good));
    };
    auto row = [&variant](const char* rule, const char* bad, const char* good) { variant(rule, rule, bad, good); };
    row("unused-value", "  a[i] + 1.0f;", "  a[i] = a[i] + 1.0f;");
    row("comma", "  a[i] = (b[i] = 1.0f, 2.0f);", "  b[i] = 1.0f;\n  a[i] = 2.0f;");
    row("unused-variable", "  float t = b[i];\n  a[i] = 1.0f;", "  float t = b[i];\n  a[i] = t;");
    row("unreachable-code", "  if (0) { a[i] = 1.0f; }", "  if (n > 0) { a[i] = 1.0f; }");
    row("loop-analysis", "  int k = 0;\n  for (int s = n; s > 0; k++) a[i] += 1.0f;\n  b[i] = k;",
        "  int k = 0;\n  for (int s = n; s > 0; s--) k++;\n  b[i] = k;");
    row("tautology", "  if (n == n) a[i] = 1.0f;", "  if (n == m) a[i] = 1.0f;");
    variant("tautology, an element stored with its own value", "tautology", "  a[i + n + 1] = a[i + n + 1];\n  b[i] = 1.0f;",
            "  a[i + n + 1] = b[i + n + 1];");
    variant("tautology, through a pointer", "tautology", "  *(a + i) = *(a + i);\n  b[i] = 1.0f;",
            "  *(a + i) = *(b + i);\n  b[i] = 1.0f;");
    variant("tautology, an element stored twice in one expression", "tautology", "  a[i] = a[i] = b[i] * 2.0f;",
            "  a[i] = b[i] = b[i] * 2.0f;");
    variant("tautology, an element stored back through another store", "tautology", "  a[i] = b[i + 1] = a[i];",
            "  a[i] = b[i + 1] = a[i] * 2.0f;");
    variant("tautology, a test and its negation in one chain", "tautology",
            "  if (i < m && i < n && n <= i) a[i] = 1.0f;\n  b[i] = 1.0f;",
            "  if (i < m && i < n && n <= m) a[i] = 1.0f;\n  b[i] = 1.0f;");
    variant("tautology, a local id against its group's size", "tautology",
            "  int k = get_local_id(0);\n  int s = get_local_size(0);\n  if (k == s) a[i] = 1.0f;\n  b[i] = 1.0f;",
            "  int k = get_local_id(0);\n  int s = get_local_size(0);\n  if (k == s - 1) a[i] = 1.0f;\n  b[i] = 1.0f;");
    variant("tautology, a size against 0", "tautology",
            "  int s = get_local_size(0);\n  if (s == 0) a[i] = 1.0f;\n  b[i] = 1.0f;",
            "  int s = get_local_id(0);\n  if (s == 0) a[i] = 1.0f;\n  b[i] = 1.0f;");
    variant("tautology, a size at least 1", "tautology",
            "  if (get_global_size(0) >= 1) a[i] = 1.0f;\n  b[i] = 1.0f;",
            "  if (get_global_size(0) >= 2) a[i] = 1.0f;\n  b[i] = 1.0f;");
    variant("tautology, a group id against the number of groups", "tautology",
            "  if (get_group_id(0u) >= get_num_groups(0)) return;\n  a[i] = b[i];",
            "  if (get_group_id(0) >= get_num_groups(1)) return;\n  a[i] = b[i];");
    row("duplicate-qualifier", "  const const int k = n;\n  a[i] = k;", "  const int k = n;\n  a[i] = k;");
    variant("duplicate-qualifier, an address space", "duplicate-qualifier",
            "  global global float* p = a + n;\n  p[i] = b[i];", "  global float* p = a + n;\n  p[i] = b[i];");
    QTest::newRow("c2x-extension") << QStringLiteral("c2x-extension")
                                   << QStringLiteral("kernel void A(global float* a, global float*, global const float* b) {\n"
                                                     "  int i = get_global_id(0);\n  a[i] = b[i] * 2.0f;\n}\n")
                                   << QStringLiteral("kernel void A(global float* a, global float* c, global const float* b) {\n"
                                                     "  int i = get_global_id(0);\n  a[i] = b[i] * 2.0f;\n}\n");
    row("float-to-integer", "  int k = b[i];\n  a[k] = 1.0f;", "  int k = (int)b[i];\n  a[k] = 1.0f;");
    row("uninitialized", "  float x;\n  a[i] = x;", "  float x = 0.0f;\n  a[i] = x;");
    row("undefined-arithmetic", "  a[i] = n / 0;", "  a[i] = n / 2;");
    row("unsequenced", "  int k = i;\n  k = k++;\n  a[i] = k;", "  int k = i;\n  k++;\n  a[i] = k;");
    row("empty-body", "  if (n > 0);\n  a[i] = 1.0f;", "  if (n > 0)\n    a[i] = 1.0f;");
    row("pointer-integer", "  a[i] = (float)(b < n);", "  a[i] = (float)(i < n);");
    row("assignment-condition", "  int k = 0;\n  if (k = n) a[i] = 1.0f;", "  int k = 0;\n  if (k == n) a[i] = 1.0f;");
    // Two signs compared, in parentheses, are real code; a chain is not.
    row("chained-comparison", "  if (i < n >= m) a[i] = 1.0f;", "  if ((i < n) == (m < n)) a[i] = 1.0f;");
    row("pointer-condition", "  if (b || i >= n) return;\n  a[i] = b[i];", "  if (i >= n) return;\n  a[i] = b[i];");
    // Where the host put two buffers, or a buffer against a number: fixed when the kernel runs.
    variant("pointer-condition, two buffers", "pointer-condition",
            "  global float* f = a;\n  int e = (f < b);\n  a[i] = b[i + e];",
            "  global float* f = a;\n  int e = (i < n);\n  f[i] = b[i + e];");
    variant("pointer-condition, a buffer and a number", "pointer-condition", "  if (a >= 0 && i < n) a[i] = b[i];",
            "  if (i >= 0 && i < n) a[i] = b[i];");
    variant("pointer-condition, a buffer with itself", "pointer-condition",
            "  global float* e = a;\n  if (e >= a && i < n) a[i] = b[i];", "  if (&a[i] < &a[n]) a[i] = b[i];");
    variant("pointer-condition, buffers moved apart", "pointer-condition", "  if (a > b - 1 && i < n) a[i] = b[i];",
            "  if (i > n - 1) return;\n  a[i] = b[i];");
    row("truth-index", "  a[i] = b[i < n];", "  a[i] = b[i + n];");
    variant("truth-index, divisor", "truth-index", "  a[i] = b[i] / (i < n);", "  a[i] = b[i] * (i < n);");
    variant("truth-index, dividend", "truth-index", "  a[i] = b[i] * ((i < n) / 2);", "  a[i] = b[i] * ((i < n) * 2);");
    row("work-item-dimension", "  a[i] = get_global_id(n);", "  a[i] = get_global_id(0);");
    row("barrier-flags", "  a[i] = b[i];\n  barrier(n);\n  b[i] = a[i] * 2.0f;",
        "  a[i] = b[i];\n  barrier(CLK_GLOBAL_MEM_FENCE);\n  b[i] = a[i] * 2.0f;");
    row("reversed-subscript", "  a[i] = i[b];", "  a[i] = b[i];");
    row("vector-subscript", "  float4 w = vload4(i, b);\n  a[i] = w[i];", "  float4 w = vload4(i, b);\n  a[i] = w[2];");
    variant("unused-value, a macro's", "unused-value", "  a[i] = b[i];\n  (CLK_LOCAL_MEM_FENCE);",
            "  a[i] = b[i];\n  (void)n;");
    variant("unused-value, a loop step's operand", "unused-value",
            "  int k = 0;\n  for (int s = 0; s < n; ++s, 0) k += s;\n  a[i] = k;",
            "  int k = 0;\n  for (int s = 0; s < n; ++s, k++) k += s;\n  a[i] = k;");
    row("empty-declaration", "  int;\n  a[i] = b[i];", "  int k = n;\n  a[i] = b[i] + k;");
    variant("truth-index, dimension", "truth-index", "  a[i] = get_global_size(n >= m);",
            "  a[i] = get_global_size(0);");
    // Moving a buffer forward is how kernels take a slice; backward is not.
    row("buffer-rewind", "  b -= 2 * n;\n  a[i] = b[i];", "  b += 2 * n;\n  a[i] = b[i];");
    variant("buffer-rewind, spelled out", "buffer-rewind", "  b = b - n;\n  a[i] = b[i];",
            "  b = b + n;\n  a[i] = b[i];");
    // Work-item 0 below the start, with nothing to keep it from the subscript.
    variant("buffer-rewind, work-item 0 below the start", "buffer-rewind", "  a[i] = b[i - 2];",
            "  if (i >= 2)\n    a[i] = b[i - 2];");
    variant("buffer-rewind, below the start through an alias", "buffer-rewind",
            "  int j = get_global_id(1);\n  global float *q = b;\n  a[i] = q[2 * i + j - 1];",
            "  int j = get_global_id(1);\n  global float *q = b + 1;\n  a[i] = q[2 * i + j - 1];");
    variant("buffer-rewind, below the start after a return", "buffer-rewind", "  a[i] = b[i + n];\n  a[i] += b[i - 1];",
            "  if (i == 0)\n    return;\n  a[i] = b[i + n];\n  a[i] += b[i - 1];");
    // A shift is a positive coefficient; a branch work-item 0 takes keeps it from nothing.
    variant("buffer-rewind, below the start through a shift", "buffer-rewind",
            "  size_t o = get_group_id(0) << 2;\n  a[i] = b[o - 1];",
            "  size_t o = get_group_id(0) << 2;\n  if (o > 0)\n    a[i] = b[o - 1];");
    variant("buffer-rewind, below the start in a branch work-item 0 takes", "buffer-rewind",
            "  int k = get_local_id(0);\n  if (k == 0 && i < 4)\n    a[i] = b[i - 1];",
            "  int k = get_local_id(0);\n  if (k != 0 || i >= 4)\n    a[i] = b[i - 1];");
    // A loop counter on its first pass: below the start if the loop runs at all.
    variant("buffer-rewind, a loop counter's first pass", "buffer-rewind",
            "  float s = 0.0f;\n  for (int f = 0; f < n; f += 8)\n    s += b[f - 3];\n  a[i] = s;",
            "  float s = 0.0f;\n  for (int f = 3; f < n; f += 8)\n    s += b[f - 3];\n  a[i] = s;");
    variant("buffer-rewind, a loop from the id", "buffer-rewind",
            "  for (int k = i; k < n; k += 64)\n    a[k] = b[k - 1];",
            "  for (int k = i; k < n; k += 64)\n    if (k > 0)\n      a[k] = b[k - 1];");
    // Kept: a nest whose inner loop first runs on a later pass of the outer,
    // a loop work-item 0 never enters, a counter read at another time.
    variant("buffer-rewind, a square nest", "buffer-rewind",
            "  float s = 0.0f;\n  for (int f = 0; f < n; f++)\n    for (int g = 0; g < n; g++)\n"
            "      s += b[f - 1 - g];\n  a[i] = s;",
            "  float s = 0.0f;\n  for (int f = 0; f < n; f++)\n    for (int g = 0; g < f; g++)\n"
            "      s += b[f - 1 - g];\n  a[i] = s;");
    variant("buffer-rewind, a square nest through a variable", "buffer-rewind",
            "  float s = 0.0f;\n  for (int f = 0; f < n; f++) {\n    int m = n;\n    for (int g = 0; g < m; g++)\n"
            "      s += b[f - 1 - g];\n  }\n  a[i] = s;",
            "  float s = 0.0f;\n  for (int f = 0; f < n; f++) {\n    int m = f;\n    for (int g = 0; g < m; g++)\n"
            "      s += b[f - 1 - g];\n  }\n  a[i] = s;");
    variant("buffer-rewind, a loop work-item 0 enters", "buffer-rewind",
            "  float s = 0.0f;\n  for (int k = i; k >= 0; k--)\n    s += b[k - 1];\n  a[i] = s;",
            "  float s = 0.0f;\n  for (int k = i; k; k--)\n    s += b[k - 1];\n  a[i] = s;");
    variant("buffer-rewind, a counter read in its own loop", "buffer-rewind",
            "  int j = n;\n  float s = 0.0f;\n  for (j = 0; j < n; j++)\n    s += b[j - 1];\n  a[i] = s;",
            "  int j = n;\n  int t = j;\n  float s = 0.0f;\n  for (j = 0; j < n; j++)\n    s += b[t - 1] + b[j];\n"
            "  a[i] = s;");
    // An unsigned k - 1 wraps for work-item 0: the branch keeps it away.
    variant("buffer-rewind, below the start in an unsigned branch work-item 0 takes", "buffer-rewind",
            "  uint k = get_local_id(0);\n  if (k + 1 < 15)\n    a[i] = b[i - 1];",
            "  uint k = get_local_id(0);\n  if (k - 1 < 15)\n    a[i] = b[i - 1];");
    // An element another work-item stores, with nothing to order the two;
    // kept: the work-item's own elements, elements no two work-items share,
    // and a shift by an argument (a bitonic sort's pairs), which the text cannot judge.
    auto race = [&variant](const char* name, const char* bad, const char* good) {
      variant((std::string("cross-item-race, ") + name).c_str(), "cross-item-race", bad, good);
    };
    race("a[i + 1] stored, a[i] read", "  a[i + 1] = b[i];\n  b[i] = a[i];",
         "  a[2 * i + 1] = b[i];\n  b[i] = a[2 * i];");
    race("a[i * 4 + 7] read", "  a[i + 1] = b[i];\n  b[i] = a[i * 4 + 7];", "  a[i + 1] = b[i];\n  b[i] = a[i + n];");
    race("through an alias", "  global float* q = a;\n  a[i] = b[i];\n  b[i] = q[i + 1];",
         "  global float* q = a;\n  a[i] = b[i];\n  b[i] = q[i];");
    race("element 0, which work-item 0 stores", "  a[i] = b[i];\n  b[i] = a[0];", "  b[i] = a[0];\n  a[i + 1] = b[i];");
    race("a counter from the id", "  for (int k = i; k < n; k += 64)\n    a[k] = a[k + 1] * 2.0f;",
         "  for (int k = 1; k < n; k++)\n    a[i * n + k] += a[i * n + k - 1];");
    race("a row by two ids", "  int d = get_global_id(1) * get_global_size(0) + i;\n  a[d] = a[d + 1] * 2.0f;",
         "  int d = get_global_id(1) * get_global_size(0) + i;\n  a[d] = a[d] * 2.0f + b[d + 1];");
    // A negative subscript of a buffer nothing moves reads before what the
    // host passed; of a buffer moved forward it reads what came before.
    variant("buffer-rewind, a negative subscript", "buffer-rewind", "  global float *j = b;\n  a[i] = j[-2] + b[i];",
            "  global float *j = b + 2;\n  a[i] = j[-2] + b[i];");
    variant("buffer-rewind, a negative subscript of a moved buffer", "buffer-rewind",
            "  a[i] = b[-1];\n  a[i] += b[i];", "  b += n;\n  a[i] = b[-1];\n  a[i] += b[i];");
    variant("buffer-rewind, a null pointer", "buffer-rewind", "  b = 0;\n  a[i] = b[i];", "  b = a;\n  a[i] = b[i];");
    // Clang warns for the for loop above; the while loop is the AST walk's.
    variant("loop-analysis, while", "loop-analysis", "  int k = 0;\n  while (k < n) a[i] += 1.0f;",
            "  int k = 0;\n  while (k < n) {\n    a[i] += 1.0f;\n    k++;\n  }");
    // No condition, or one always true, and no way out: it never ends.
    variant("loop-analysis, no condition", "loop-analysis", "  for (int k = 0;; ++k)\n    a[i] += b[k];",
            "  for (int k = 0;; ++k) {\n    if (k >= n)\n      break;\n    a[i] += b[k];\n  }");
    variant("loop-analysis, always true", "loop-analysis", "  int k = 0;\n  while (1)\n    a[i] += b[k++];",
            "  int k = 0;\n  while (1) {\n    a[i] += b[k++];\n    if (k > n)\n      return;\n  }");
    // The body's `l +=` keeps Clang quiet; k never moves.
    variant("loop-analysis, idle step", "loop-analysis",
            "  float l = 0.0f;\n  for (int k = 0; k < n + l; b++)\n    l += b[k];\n  a[i] = l;",
            "  float l = 0.0f;\n  for (int k = 0; k < n + l; k++)\n    l += b[k];\n  a[i] = l;");
    // The body sets the counter to a comparison's 0 or 1: it starts over.
    variant(
        "loop-analysis, a counter set to a comparison", "loop-analysis",
        "  int k;\n  for (k = 0; k < 6; k++) {\n    a[i] += b[k];\n    k = a[i] < b[k];\n  }",
        "  int k, c = 0;\n  for (k = 0; k < 6; k++) {\n    a[i] += b[k];\n    c = a[i] < b[k];\n    b[i] += c;\n  }");
    // Clang follows scalars only; a private array read before any write is the walk's.
    variant("uninitialized, an array", "uninitialized",
            "  float c[4];\n  for (int k = 0; k < 4; k++) {\n    a[i] += c[k];\n    c[k] = b[k];\n  }",
            "  float c[4];\n  for (int k = 0; k < 4; k++) {\n    c[k] = b[k];\n    a[i] += c[k];\n  }");
    // A read under a test may come after the writes (a running sum's `k > 0`).
    variant("uninitialized, an array read under a test", "uninitialized",
            "  float c[4];\n  c[1] = c[0] + b[i];\n  a[i] = c[1];",
            "  float c[4];\n  for (int k = 0; k < 4; k++) {\n    if (k > 0)\n      a[i] += c[k - 1];\n    c[k] = "
            "b[k];\n  }");
    // Local memory starts undefined at each launch: a write by some work-item,
    // then a barrier, then the read.
    QTest::newRow("uninitialized, a local buffer argument")
        << QStringLiteral("uninitialized")
        << QStringLiteral("kernel void A(global float* a, local float* l, int n) {\n  int i = get_global_id(0);\n"
                          "  int j = get_local_id(0);\n  float x = l[j];\n  l[j + 1] = a[i];\n  a[i] = x;\n}\n")
        << QStringLiteral("kernel void A(global float* a, local float* l, int n) {\n  int i = get_global_id(0);\n"
                          "  int j = get_local_id(0);\n  l[j] = a[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
                          "  a[i] = l[(j + 1) % get_local_size(0)];\n}\n");
    // Under a test but in no loop: nothing can have written the element first.
    variant("uninitialized, an array read under a test in no loop", "uninitialized",
            "  float c[4];\n  if (n > 0)\n    a[i] = c[0];", "  float c[4];\n  c[0] = b[i];\n  if (n > 0)\n    a[i] = c[0];");
    QTest::newRow("uninitialized, a local buffer argument read under a test")
        << QStringLiteral("uninitialized")
        << QStringLiteral("kernel void A(global float* a, local float* l, int n) {\n  int i = get_global_id(0);\n"
                          "  int j = get_local_id(0);\n  if (n > j)\n    l[j] = a[i] + l[j + 1];\n"
                          "  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = l[j];\n}\n")
        << QStringLiteral("kernel void A(global float* a, local float* l, int n) {\n  int i = get_global_id(0);\n"
                          "  int j = get_local_id(0);\n  if (n > j)\n    l[j] = a[i];\n"
                          "  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = l[j];\n}\n");
    variant("uninitialized, a local array", "uninitialized",
            "  local float l[64];\n  a[i] = l[get_local_id(0)] + b[i];",
            "  local float l[64];\n  l[get_local_id(0)] = b[i];\n"
            "  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = l[get_local_id(0)] + b[i];");
    // An integer counter bounded by a float: `d / i` is an infinity for i = 0.
    variant("loop-analysis, a floating bound", "loop-analysis",
            "  for (int k = 0; k <= b[0] / i; k++)\n    a[i] += b[k];",
            "  for (int k = 0; k <= n / 2; k++)\n    a[i] += b[k];");
    // A counter that moves away from the end its condition asks for.
    variant("loop-analysis, an unsigned counter that grows, tested against 0", "loop-analysis",
            "  size_t k = i;\n  while (k != 0) {\n    a[i] += b[k];\n    k += get_global_size(0);\n  }",
            "  size_t k = i;\n  while (k < n) {\n    a[i] += b[k];\n    k += get_global_size(0);\n  }");
    // An integer counter that moves one way, tested for inequality with a
    // floating value the body changes: it ends only if the two meet exactly.
    variant("loop-analysis, an integer counter until it equals a float", "loop-analysis",
            "  size_t k = i;\n  float f = INFINITY;\n  while (k != -f) {\n    f = fmin(f, b[k]);\n"
            "    a[i] += b[k];\n    k += get_global_size(0);\n  }",
            "  size_t k = i;\n  float f = INFINITY;\n  while (k != -f) {\n    f = fmin(f, b[k]);\n"
            "    a[i] += b[k];\n    k += get_global_size(0);\n    if (k >= n)\n      break;\n  }");
    // The same through a call or a read of memory in the bound.
    variant("loop-analysis, an integer counter until it equals a float through a call", "loop-analysis",
            "  size_t k = i;\n  while (k != fabs(b[0]) + 0.5f) {\n    a[i] += b[k];\n    k += get_global_size(0);\n  }",
            "  size_t k = i;\n  while (k < fabs(b[0]) + 0.5f) {\n    a[i] += b[k];\n    k += get_global_size(0);\n  }");
    // ... but a for loop's counter stepped by one towards a float that
    // nothing changes (a count held in a float) meets it.
    variant("loop-analysis, an integer counter until it equals a changing float", "loop-analysis",
            "  float f = b[0];\n  for (int k = 0; k != f; k++) {\n    a[i] += b[k];\n    f = f * 0.5f;\n  }",
            "  float f = b[0];\n  for (int k = 0; k != f; k++)\n    a[i] += b[k];");
    variant("loop-analysis, a counter that grows above its bound", "loop-analysis",
            "  for (int k = n; k > 0; k++)\n    a[i] += b[k];", "  for (int k = n; k > 0; k--)\n    a[i] += b[k];");
    variant("loop-analysis, a counter that falls below its bound", "loop-analysis",
            "  int k = i;\n  while (k < n) {\n    a[i] += b[k];\n    k -= 2;\n  }",
            "  int k = i;\n  while (k < n) {\n    a[i] += b[k];\n    k -= 2;\n    if (k < 0)\n      break;\n  }");
    QTest::newRow("implicit-int")
        << QStringLiteral("implicit-int")
        << QStringLiteral("kernel void A(global float* a, const n) {\n  a[get_global_id(0)] = n;\n}\n")
        << QStringLiteral("kernel void A(global float* a, const int n) {\n  a[get_global_id(0)] = n;\n}\n");
  }

  void eachCleanRuleRejectsOneAndKeepsItsNeighbour() {
    QFETCH(QString, rule);
    QFETCH(QString, bad);
    QFETCH(QString, good);
    QVERIFY(steer::cleanRule(rule.toStdString()));
    const auto b = judged(bad.toStdString());
    QVERIFY2(b.compiled, b.error.c_str()); // it compiles: only the rule refuses it
    QVERIFY2(b.unclean.rfind(rule.toStdString() + ": ", 0) == 0, b.unclean.c_str());
    const auto g = judged(good.toStdString());
    QVERIFY2(g.compiled, g.error.c_str());
    QVERIFY2(g.unclean.empty(), g.unclean.c_str());
    // Without the rule, the same kernel is kept.
    auto others = steer::cleanRuleNames();
    others.erase(std::find(others.begin(), others.end(), rule.toStdString()));
    const auto allowed = judged(bad.toStdString(), others);
    QVERIFY2(allowed.unclean.empty() || allowed.unclean.rfind(rule.toStdString(), 0) != 0, allowed.unclean.c_str());
  }

  void relativeRulesAreJudgedAgainstTheParent_data() {
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("parent");
    QTest::addColumn<QString>("child");
    QTest::addColumn<int>("sites");     // the child's findings of the rule
    QTest::addColumn<bool>("refused");
    auto row = [](const char* name, const char* rule, const char* parent, const char* child, int sites, bool refused) {
      QTest::newRow(name) << QString::fromLatin1(rule) << QString::fromStdString(kernelWith(parent))
                          << QString::fromStdString(kernelWith(child)) << sites << refused;
    };
    const char* id = "identity-arithmetic";
    row("+ 0 added", id, "  a[i] = b[i];", "  a[i] = b[i] + 0;", 1, true);
    row("+ n added", id, "  a[i] = b[i];", "  a[i] = b[i] + n;", 0, false);
    row("2 * +0", id, "  a[i] = b[i] + 2.0f;", "  a[i] = b[i] + 2 * +0;", 1, true); // the product is always 0
    row("* 1.0f", id, "  a[i] = b[i];", "  a[i] = b[i] * 1.0f;", 1, true);
    row("* 2.0f", id, "  a[i] = b[i];", "  a[i] = b[i] * 2.0f;", 0, false);
    row("x - x", id, "  int k = n;\n  a[i] = k;", "  int k = n - n;\n  a[i] = k;", 1, true);
    row("x - y", id, "  int k = n;\n  a[i] = k;", "  int k = n - m;\n  a[i] = k;", 0, false);
    row("<< 0", id, "  a[i] = n;", "  a[i] = n << 0;", 1, true);
    row("*= 1", id, "  a[i] = b[i];\n  a[i] *= 3;", "  a[i] = b[i];\n  a[i] *= 1;", 1, true);
    // An operand a chain already holds, a term taken away and given back.
    row("i < n && i < n", id, "  if (i < n)\n    a[i] = b[i];", "  if (i < n && i < n)\n    a[i] = b[i];", 1, true);
    row("a repeat further down a chain", id, "  if (i < n || i > m)\n    a[i] = b[i];",
        "  if (i < n || i > m || (i < n))\n    a[i] = b[i];", 1, true);
    row("i < n && i < m", id, "  if (i < n)\n    a[i] = b[i];", "  if (i < n && i < m)\n    a[i] = b[i];", 0, false);
    row("n - m + m", id, "  a[i] = b[i];", "  a[i] = b[i + n - m + m];", 1, true);
    row("n - m + n", id, "  a[i] = b[i];", "  a[i] = b[i + n - m + n];", 0, false);
    row("% 1", id, "  a[i] = n;", "  a[i] = n % 1;", 1, true);
    // A variable set to 0 or 1 when declared and never changed holds a literal.
    row("* a variable that holds 0", id, "  int k = 0;\n  a[i + k] = b[i];", "  int k = (0);\n  a[i + k] = b[i * k + k];", 3, true);
    row("* a variable that holds 0, then changed", id, "  int k = 0;\n  k += n;\n  a[i] = b[i];",
        "  int k = 0;\n  k += n;\n  a[i] = b[i * k + k];", 0, false);
    row("* a variable that holds 2", id, "  int k = 2;\n  a[i] = b[i] * k;", "  int k = 2;\n  a[i] = b[i * k + k] * k;", 0, false);
    // Literals combined: the compiler folds them, the counts see computation.
    row("i + 12 + 6 + 14", id, "  a[i] = b[i + 12];", "  a[i] = b[i + 12 + 6 + 14];", 2, true);
    row("i * 2 * 4", id, "  a[i] = b[i];", "  a[i] = b[i * 2 * 4];", 1, true);
    row("i * 2 + 4", id, "  a[i] = b[i];", "  a[i] = b[i * 2 + 4];", 0, false);
    row("b[(12 + 6) + 14]", id, "  a[i] = b[i];", "  a[i] = b[i] * b[(12 + 6) + 14];", 2, true);
    row("2.0f * 3.0f", id, "  a[i] = b[i];", "  a[i] = b[i] * (2.0f * -3.0f);", 1, true);
    row("2.0f * n", id, "  a[i] = b[i];", "  a[i] = b[i] * (2.0f * n);", 0, false);
    row("2.0f * M_PI_F", id, "  a[i] = b[i];", "  a[i] = b[i] * (2.0f * M_PI_F);", 0, false);
    row("CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE", id, "  a[i] = b[i];",
        "  a[i] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);", 0, false);
    // A sampler's flags: the first is 0, but named; a buffer's value joined with it adds nothing.
    row("CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST", id, "  a[i] = b[i];",
        "  const int f = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
        "  a[i] = b[i] * f;", 0, false);
    row("n | CLK_NORMALIZED_COORDS_FALSE", id, "  a[i] = b[i] * n;", "  a[i] = b[i] * (n | CLK_NORMALIZED_COORDS_FALSE);", 1,
        true);
    row("the parent's own 16 * 16", id, "  a[i] = b[i % (16 * 16)];", "  a[i] = b[i % (16 * 16)] * 2.0f;", 1, false);
    // A macro's `+ 0` in the seed stays; only an edit that adds one is refused.
    row("the parent's own + 0", id, "  a[i + 0] = b[i];", "  a[i + 0] = b[i] * 2.0f;", 1, false);
    row("one more than the parent", id, "  a[i + 0] = b[i];", "  a[i + 0] = b[i + 0];", 2, true);
    const char* nc = "number-condition";
    // A comparison turned into its bare operand: one comparison fewer, another test.
    row("|| l for || l >= n", nc, "  if (i >= m || i >= n) return;\n  a[i] = b[i];",
        "  if (i >= m || i) return;\n  a[i] = b[i];", 1, true);
    row("if (k) for if (k == 0)", nc, "  if (i == 0) a[i] = b[i];", "  if (i) a[i] = b[i];", 1, true);
    row("a product as a condition", nc, "  if (i < n) a[i] = b[i];", "  if (i * n) a[i] = b[i];", 1, true);
    row("! of a number", nc, "  if (i < n) a[i] = b[i];", "  if (!i) a[i] = b[i];", 1, true);
    // What is a test already, or says one plainly.
    row("x != 0", nc, "  if (i < n) a[i] = b[i];", "  if (i != 0) a[i] = b[i];", 0, false);
    row("a bit test", nc, "  if (i < n) a[i] = b[i];", "  if (i & 1) a[i] = b[i];", 0, false);
    row("a call", nc, "  if (i < n) a[i] = b[i];", "  if (isnan(b[i])) a[i] = 0.0f;", 0, false);
    row("the parent's own if (n)", nc, "  if (n) a[i] = b[i];", "  if (n) a[i] = b[i] * 2.0f;", 1, false);
    const char* us = "uniform-store";
    // Every work-item writing one element: a race, or one value written by all.
    row("a[n] for a[i]", us, "  a[i] = b[i];", "  a[n] = b[i];", 1, true);
    row("a loop over n in every work-item", us, "  a[i] = b[i];", "  for (int k = 0; k < n; k++)\n    a[k] = b[k] * i;", 1,
        true);
    row("through a variable that does not vary", us, "  a[i] = b[i];", "  int k = n * 2;\n  a[k] = b[i];", 1, true);
    // The id only through a product with a counter from 0: every work-item stores one element in the first turn.
    row("i * k in a loop from 0", us, "  a[i] = b[i];", "  for (int k = 0; k < n; k++)\n    a[i * (n + 1) * k + k] = b[i];", 1,
        true);
    row("i * k in the first turn of both loops", us, "  a[i] = b[i];",
        "  int k, l;\n  for (k = 0; k < n; k++)\n    for (l = 0; l < m; l++)\n      a[(i + l) * k] = b[i];", 1, true);
    row("i * (k + k) + k", us, "  a[i] = b[i];", "  for (int k = 0; k < n; k++)\n    a[i * (k + k) + k] = b[i];", 1, true);
    row("i * k + i", us, "  a[i] = b[i];", "  for (int k = 0; k < n; k++)\n    a[i * k + i] = b[i];", 0, false);
    row("i * (k + 1)", us, "  a[i] = b[i];", "  for (int k = 0; k < n; k++)\n    a[i * (k + 1)] = b[i];", 0, false);
    row("i * k from 1", us, "  a[i] = b[i];", "  for (int k = 1; k < n; k++)\n    a[i * k] = b[i];", 0, false);
    row("i * k under a test of k", us, "  a[i] = b[i];",
        "  for (int k = 0; k < n; k++)\n    if (k > 0)\n      a[i * k] = b[i];", 0, false);
    row("i * k in an inner loop bounded by k", us, "  a[i] = b[i];",
        "  for (int k = 0; k < n; k++)\n    for (int l = 0; l < k; l++)\n      a[i * k + l] = b[i];", 0, false);
    // A range of work-items left by the test: they all store.
    row("after the work-items past n returned", us, "  a[i] = b[i];", "  if (i >= n)\n    return;\n  a[0] = b[i];", 1,
        true);
    row("under a test that always holds", us, "  a[i] = b[i];", "  if (i >= 0 || n >= i)\n    a[n + 1] = b[i];", 1, true);
    // What depends on the work-item, or is guarded by a test of it.
    row("an index from the work-item through a variable", us, "  a[i] = b[i];", "  int k = i * 2;\n  a[k] = b[i];", 0,
        false);
    row("guarded by the work-item", us, "  a[i] = b[i];", "  if (i == 0)\n    a[0] = b[i];", 0, false);
    row("after the others returned", us, "  a[i] = b[i];", "  if (i != 0)\n    return;\n  a[0] = b[0];", 0, false);
    row("assigned under a test of the work-item", us, "  a[i] = b[i];",
        "  int k = 0;\n  if (i > n)\n    k = i;\n  a[k] = b[i];", 0, false);
    row("a flag where the data says", us, "  a[i] = b[i];", "  if (b[i] > 0.5f)\n    a[0] = 1.0f;", 0, false);
    row("a flag set where the data says, then tested", us, "  a[i] = b[i];",
        "  int found = 0;\n  if (b[i] > 0.5f)\n    found = 1;\n  if (found > 0)\n    a[0] = 1.0f;", 0, false);
    row("the parent's own a[0]", us, "  a[0] = b[i];", "  a[0] = b[i + 1];", 1, false);
    const char* ov = "overwritten-value";
    // A value computed, then replaced before anything reads it.
    row("g = ...; g = b[i + 1];", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g = b[i];\n  g = g * 2.0f + 1.0f;\n  g = b[i + 1];\n  a[i] = g;", 1, true);
    row("with a declaration between", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g;\n  g = b[i] < 4.0f ? 4.0f : b[i];\n  float h = b[i + 1];\n  g = h;\n  a[i] = g;", 1, true);
    // A loop body's variable: its last value dies with the turn.
    row("never read before the block ends", ov, "  for (int k = 0; k < n; k++) {\n    float g = b[k];\n    a[i] += g;\n  }",
        "  for (int k = 0; k < n; k++) {\n    float g = b[k];\n    a[i] += g;\n    g = b[k] * 2.0f;\n  }", 1, true);
    row("read after the block", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g = 0.0f;\n  for (int k = 0; k < n; k++) {\n    a[i] += g;\n    g = b[k] * 2.0f;\n  }\n  a[i] += g;", 0,
        false);
    // What reads the value first, or cannot be followed plainly.
    row("read between", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g = b[i];\n  g = g * 2.0f;\n  a[i] = g;\n  g = b[i + 1];\n  a[i] += g;", 0, false);
    row("read by the next value", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g;\n  g = b[i];\n  g = g * 2.0f;\n  a[i] = g;", 0, false);
    row("a loop between", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g;\n  g = b[i];\n  for (int k = 0; k < n; k++)\n    a[i] += g;\n  g = b[i + 1];\n  a[i] += g;", 0,
        false);
    row("its address taken", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g;\n  float* p = &g;\n  g = b[i];\n  a[i] = *p;\n  g = b[i + 1];\n  a[i] += g;", 0, false);
    row("the parent's own", ov, "  float g;\n  g = b[i];\n  g = b[i + 1];\n  a[i] = g;",
        "  float g;\n  g = b[i];\n  g = b[i + 1];\n  a[i] = g * 2.0f;", 1, false);
    // Read along the control flow: across branches and loops, for
    // parameters and declarations too.
    row("a buffer moved last", ov, "  a[i] = b[i];", "  a[i] = b[i];\n  b += n;", 1, true);
    row("assigned under a test, then left", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g = b[i];\n  a[i] = g;\n  if (i < n)\n    g = g * 2.0f;", 1, true);
    row("a declared value assigned over", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g = b[i] * 2.0f;\n  g = b[i + n];\n  a[i] = g;", 1, true);
    row("read on one path", ov, "  float g = b[i];\n  a[i] = g;",
        "  float g = b[i];\n  if (i < n)\n    g = g * 2.0f;\n  a[i] = g;", 0, false);
    row("a sum carried by a loop", ov, "  float g = b[i];\n  a[i] = g;",
        "  float s = 0.0f;\n  for (int k = 0; k < n; k++)\n    s += b[k];\n  a[i] = s;", 0, false);
    row("a constant declared, then assigned", ov, "  a[i] = b[i];", "  int k = 0;\n  if (i < n)\n    k = i;\n  a[i] = b[k];",
        0, false);
    const char* os = "overwritten-store";
    // A buffer's element stored, then stored over before anything reads it.
    row("a[i] stored twice", os, "  a[i] = b[i];", "  a[i] = b[i] * 2.0f;\n  a[i] = b[i + 1];", 1, true);
    row("three times, another buffer's store between", os, "  a[i] = b[i];",
        "  a[i] = b[i] * 2.0f;\n  b[i] = 1.0f;\n  a[i] = b[i + n];\n  float g = b[i];\n  a[i] = g * 3.0f;", 2, true);
    row("a local element", os, "  local float l[64];\n  l[get_local_id(0)] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = l[0];",
        "  local float l[64];\n  l[get_local_id(0)] = b[i];\n  l[get_local_id(0)] = b[i] * 2.0f;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = l[0];",
        1, true);
    // What may read the element first, or stores elsewhere.
    row("read between", os, "  a[i] = b[i];", "  a[i] = b[i] * 2.0f;\n  float g = a[i];\n  a[i] = b[i + 1] + g;", 0, false);
    row("the new value reads the old", os, "  a[i] = b[i];", "  a[i] = b[i] * 2.0f;\n  a[i] = a[i] + b[i + 1];", 0, false);
    row("another element", os, "  a[i] = b[i];", "  a[i] = b[i] * 2.0f;\n  a[i + n] = b[i + 1];", 0, false);
    row("the index changes between", os, "  a[i] = b[i];",
        "  int k = i;\n  a[k] = b[i] * 2.0f;\n  k = k + 1;\n  a[k] = b[i + 1];", 0, false);
    row("a barrier between", os, "  a[i] = b[i];",
        "  a[i] = b[i] * 2.0f;\n  barrier(CLK_GLOBAL_MEM_FENCE);\n  a[i] = b[i + 1];", 0, false);
    row("read through an alias between", os, "  a[i] = b[i];",
        "  global float* p = a;\n  a[i] = b[i] * 2.0f;\n  b[i] = p[i];\n  a[i] = b[i] + 1.0f;", 0, false);
    row("a branch between", os, "  a[i] = b[i];",
        "  a[i] = b[i] * 2.0f;\n  if (i < n)\n    b[i] = 1.0f;\n  a[i] = b[i] + 1.0f;", 0, false);
    row("the parent's own", os, "  a[i] = b[i];\n  a[i] = b[i + 1];", "  a[i] = b[i];\n  a[i] = b[i + 1] * 2.0f;", 1, false);
    const char* qi = "quadratic-index";
    // Two factors computed from the id: the index grows with the square of the work-items.
    row("i * i", qi, "  a[i] = b[i];", "  a[i] = b[i * i];", 1, true);
    row("through variables, and a load's value", qi, "  a[i] = b[i];",
        "  int d = get_global_size(0) * i + 1;\n  int k = (int)b[i];\n  a[d * 2] = b[k * i] + b[d + i * d];", 2, true); // not d * 2
    row("x *= i", qi, "  a[i] = b[i];", "  int k = i + 1;\n  k *= i;\n  a[i] = b[k];", 1, true);
    // An id times a size, a width or a loop's counter is how kernels index rows.
    row("an id times a size", qi, "  a[i] = b[i];",
        "  int y = get_global_id(1);\n  a[y * get_global_size(0) + i] = b[i * n + m];", 0, false);
    row("a loop's counter", qi, "  a[i] = b[i];",
        "  float s = 0.0f;\n  for (int k = 0; k < n; k++)\n    s += b[k * n + i] * b[k * k];\n  a[i] = s;", 0, false);
    row("the id divided", qi, "  a[i] = b[i];", "  a[i / 2] = b[(i >> 1) * n];", 0, false);
    row("the parent's own", qi, "  a[i] = b[i * (i + 1) / 2];", "  a[i] = b[i * (i + 1) / 2] * 2.0f;", 1, false);
    // Local memory holds a work-group's share, whatever the work-items.
    row("a local array at i * i", qi, "  local float t[64];\n  int l = get_local_id(0);\n  t[l] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];",
        "  local float t[64];\n  int l = get_local_id(0);\n  t[l * i] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];", 1, true);
    row("a local array at l * 4", qi, "  local float t[64];\n  int l = get_local_id(0);\n  t[l] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];",
        "  local float t[64];\n  int l = get_local_id(0);\n  t[l / 4 * 4] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];", 0, false);
    // Local memory holds a group's share: an index that grows with the global id leaves it.
    const char* lg = "local-global-index";
    const char* tile = "  local float t[64];\n  int l = get_local_id(0);\n  t[l] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];";
    row("a local array at the global id", lg, tile,
        "  local float t[64];\n  int l = get_local_id(0);\n  t[i] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];", 1, true);
    row("a local array at 2 * g + n", lg, tile,
        "  local float t[64];\n  int l = get_local_id(0);\n  int g = 2 * get_global_id(0) + n;\n  t[l] = b[i];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[g - 1];", 1, true);
    row("the global id less the group's start", lg, tile,
        "  local float t[64];\n  int l = i - get_group_id(0) * get_local_size(0);\n  t[l] = b[i];\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];", 0, false);
    row("the global id within the group's size", lg, tile,
        "  local float t[64];\n  int l = get_local_id(0);\n  t[i % 64] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];", 0, false);
    row("the local id and an argument", lg, tile,
        "  local float t[64];\n  int l = get_local_id(0);\n  t[l + n] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[l];", 0, false);
    row("the parent's own", lg, "  local float t[64];\n  t[i] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[i];",
        "  local float t[64];\n  t[i] = b[i] * 2.0f;\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = t[i];", 2, false);
    // Local memory: the same element for every work-item of a group.
    const char* lp = "  local float l[64];\n  l[get_local_id(0)] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = l[0];";
    row("l[0] in every work-item", us, lp,
        "  local float l[64];\n  l[0] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = l[0];", 1, true);
    row("l[group id]: the same within a group", us, lp,
        "  local float l[64];\n  l[get_group_id(0)] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n  a[i] = l[0];", 1,
        true);
    row("l[0] by the group's first work-item", us, lp,
        "  local float l[64];\n  if (get_local_id(0) == 0)\n    l[0] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  a[i] = l[0];",
        0, false);
    row("a local tile by the local id", us, lp,
        "  local float l[8][8];\n  l[get_local_id(0) % 8][i % 8] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  a[i] = l[0][0];",
        0, false);
  }

  void relativeRulesAreJudgedAgainstTheParent() {
    QFETCH(QString, rule);
    QFETCH(QString, parent);
    QFETCH(QString, child);
    QFETCH(int, sites);
    QFETCH(bool, refused);
    const auto name = rule.toStdString();
    QVERIFY(steer::cleanRule(name) && steer::cleanRule(name)->relative);
    const auto p = judged(parent.toStdString());
    const auto c = judged(child.toStdString());
    QVERIFY2(p.compiled && c.compiled, (p.error + c.error).c_str());
    QVERIFY2(c.unclean.empty(), c.unclean.c_str()); // no rule judged alone refuses either
    QCOMPARE(int(c.relative.count(name) ? c.relative.at(name).size() : 0), sites);
    const auto why = steer::relativeRuleAdded(c.relative, steer::siteCounts(p.relative));
    QCOMPARE(!why.empty(), refused);
    if (refused) QVERIFY2(why.rfind(name + ": line ", 0) == 0, why.c_str());
    // Without the rule nothing is counted.
    auto others = steer::cleanRuleNames();
    others.erase(std::find(others.begin(), others.end(), name));
    QVERIFY(!judged(child.toStdString(), others).relative.count(name));
  }

  void statementChecksCanHoldTheCleanRules() {
    // A sampler's statement check (a kernel so far, its blocks closed) under
    // cleanStatementWarnings: a statement that breaks a rule it can break on
    // its own is an error where it breaks it; the plain check passes it.
    const std::string before = "kernel void A(global float* a, global float* b, int n) {\n  int e = get_global_id(0);\n";
    for (const std::string statement : {"  if (e < b) a[e] = 1.0f;\n", "  int f = a[e];\n", "  a[e] == a[e];\n",
                                        "  if (e == e) a[e] = 0.0f;\n", "  const const int f = n;\n"}) {
      const std::string text = before + statement + "}";
      QCOMPARE(clangfe::firstErrorOffset(text), std::string::npos);
      const auto at = clangfe::firstErrorOffsetWith(text, steer::cleanStatementWarnings());
      QVERIFY2(at >= before.size() && at < before.size() + statement.size(), statement.c_str());
    }
    // A clean statement passes; a variable not used yet is not judged (later text may use it).
    const std::string clean = before + "  float g = a[e] * 2.0f;\n  if (e < n) b[e] = a[e] + 1.0f;\n}";
    QCOMPARE(clangfe::firstErrorOffsetWith(clean, steer::cleanStatementWarnings()), std::string::npos);
  }

  void wholeKernelChecksJudgeEveryRule() {
    // cleanKernelCheck, the sampler's check of a kernel as its last hole
    // closes: an error where it is, a rule only the whole kernel shows at the
    // kernel's last byte, a clean kernel nothing.
    const auto check = steer::cleanKernelCheck(steer::cleanRuleNames());
    const std::string head = "kernel void A(global float* a, global float* b, int n) {\n  int e = get_global_id(0);\n";
    const std::string clean = head + "  if (e < n) b[e] = a[e] * 2.0f;\n}";
    QCOMPARE(check(clean), std::string::npos);
    QVERIFY(steer::cleanKernelViolation(clean, steer::cleanRuleNames()).empty());
    const std::string unused = head + "  float g = a[e] * 2.0f;\n  if (e < n) b[e] = a[e];\n}";
    QCOMPARE(clangfe::firstErrorOffsetWith(unused, steer::cleanStatementWarnings()), std::string::npos);
    QCOMPARE(check(unused), unused.size() - 1);
    QVERIFY(steer::cleanKernelViolation(unused, steer::cleanRuleNames()).rfind("unused-variable", 0) == 0);
    const std::string uniform = head + "  b[n] = a[e];\n}"; // every work-item stores to b[n]
    QCOMPARE(check(uniform), uniform.size() - 1);
    QVERIFY(steer::cleanKernelViolation(uniform, steer::cleanRuleNames()).rfind("uniform-store", 0) == 0);
    // Without that rule the same kernel passes.
    auto rules = steer::cleanRuleNames();
    rules.erase(std::find(rules.begin(), rules.end(), "uniform-store"));
    QCOMPARE(steer::cleanKernelCheck(rules)(uniform), std::string::npos);
    // Clean by the rules, but writing nothing to global memory: dead code.
    const std::string nothing = head + "  float t[2];\n  t[0] = a[e];\n  if (t[0] < n) t[1] = t[0] * 2.0f;\n}";
    QVERIFY(steer::cleanKernelViolation(nothing, steer::cleanRuleNames()).rfind("dead-code", 0) == 0);
    QCOMPARE(check(nothing), nothing.size() - 1);
    // A statement rule and a plain error: where they are, as the statement check says.
    const std::string compared = head + "  if (e < b) a[e] = 1.0f;\n}";
    QCOMPARE(check(compared), clangfe::firstErrorOffsetWith(compared, steer::cleanStatementWarnings()));
    QVERIFY(check(compared) < compared.size() - 1);
    const std::string broken = head + "  a[e] = q;\n}";
    QCOMPARE(check(broken), clangfe::firstErrorOffset(broken));
  }

  void everyRuleHasATestRow() {
    QCOMPARE(steer::cleanRuleNames().size(), std::size_t(33)); // the rows above and relativeRules...
    QVERIFY(steer::cleanCompileWarnings({}).empty());
    QVERIFY(!steer::cleanRule("no-such-rule"));
  }

  void deadCountsAreFoundInTheIr() {
    const auto dead = features::checkDeadCode(kDeadReads, "A");
    QVERIFY2(dead.measured, dead.error.c_str());
    QCOMPARE(dead.astMem, 13.0); // a, and b twelve times (Grewe counts each use of a memory argument)
    QVERIFY(dead.irMem <= 2);    // the store alone survives
    QVERIFY2(dead.dead.find("memory accesses") != std::string::npos, dead.dead.c_str());
    // The same reads, used: nothing dead.
    std::string used = kDeadReads;
    used.replace(used.find("a[i] = 1.0f"), 11, "a[i] = t");
    const auto live = features::checkDeadCode(used, "A");
    QVERIFY2(live.dead.empty(), live.dead.c_str());
    QVERIFY(live.irMem >= 13);
    // Arithmetic no one uses.
    const auto ops = features::checkDeadCode("kernel void A(global int* a, const int n) {\n  int i = get_global_id(0);\n"
                                             "  int x = i * 3 + i * 5 - i * 7 + i * 9 - i * 11 + i * 13 - i * 15 + i * 17;\n"
                                             "  a[i] = n;\n}\n",
                                             "A");
    QVERIFY2(ops.dead.find("operations") != std::string::npos, (ops.dead + " comp " + std::to_string(ops.astComp) + " const " + std::to_string(ops.constantOps) + " ir " + std::to_string(ops.irComp)).c_str());
    // A kernel whose work stays in local memory writes nothing one can read back.
    const auto local = features::checkDeadCode("kernel void A(global const float* a) {\n  local float l[64];\n"
                                               "  l[get_local_id(0)] = a[get_global_id(0)] * 2.0f;\n}\n",
                                               "A");
    QVERIFY(!local.writesGlobal);
    QVERIFY2(local.dead.find("writes no global memory") != std::string::npos, local.dead.c_str());
    // A real loop kernel is not dead; a kernel that is not there is named.
    const auto mm = features::checkDeadCode("kernel void mm(global const float* a, global const float* b, global float* c, int n) {\n"
                                            "  int r = get_global_id(1), k = get_global_id(0);\n  float s = 0.0f;\n"
                                            "  for (int j = 0; j < n; ++j) s += a[r * n + j] * b[j * n + k];\n"
                                            "  c[r * n + k] = s;\n}\n",
                                            "mm");
    QVERIFY2(mm.measured && mm.dead.empty(), mm.dead.c_str());
    const auto none = features::checkDeadCode(kPasses, "B");
    QVERIFY(!none.measured);
    QCOMPARE(none.error, std::string("no kernel called B"));
  }

  void workThatNeverReachesTheOutputIsFound() {
    // A reduction in local memory whose result nothing stores to global
    // memory: -O1 keeps its stores (other work-items could read them), so
    // only the slice of the global writes shows it dead. The ternary in its
    // store becomes a branch in the IR; the final store does not depend on it.
    const std::string reduction =
        "kernel void A(global const float* a, global float* b, local float* d) {\n"
        "  int l = get_local_id(0), g = get_global_id(0), m = get_local_size(0);\n"
        "  d[l] = a[g];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (int s = m >> 1; s > 0; s >>= 1) {\n"
        "    if (l < s) d[l] = (d[l] < d[l + s]) ? d[l] : d[l + s];\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n"
        "  b[g] = a[g] * 2.0f;\n}\n";
    const auto unread = features::checkDeadCode(reduction, "A");
    QVERIFY2(unread.measured, unread.error.c_str());
    QVERIFY(unread.writesGlobal && unread.inputDependent);
    QVERIFY(unread.localUnread);
    QVERIFY2(unread.dead.find("local memory that nothing") != std::string::npos, unread.dead.c_str());
    // The same reduction, its result stored by one work-item: all of it works.
    std::string stored = reduction;
    stored.replace(stored.find("b[g] = a[g] * 2.0f;"), 19, "if (l == 0) b[get_group_id(0)] = d[0];");
    const auto read = features::checkDeadCode(stored, "A");
    QVERIFY2(read.dead.empty(), read.dead.c_str());
    QVERIFY(!read.localUnread);
    QVERIFY(read.liveMem >= 5);
    // Global reads that only decide a branch around nothing lead nowhere
    // either: the slice leaves them out where -O1 keeps them.
    const std::string branches =
        "kernel void A(global const float* a, global float* b, local float* d) {\n"
        "  int g = get_global_id(0);\n  float q = 0.0f;\n"
        "  for (int r = 0; r < 8; ++r) { if (a[g + r] < a[g + r + 8] && a[g + 2 * r] < a[g + 3 * r]) d[r] = a[g + 4 * r]; }\n"
        "  b[g] = a[g];\n}\n";
    // A counter in local memory that every work-item adds to, read back
    // through the atomic's result: its setting is work.
    const auto counter = features::checkDeadCode(
        "kernel void A(global const float* a, global int* b) {\n  local int cnt;\n"
        "  if (get_local_id(0) == 0) cnt = 0;\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  int slot = __sync_fetch_and_add(&cnt, (int)a[get_global_id(0)]);\n  b[get_global_id(0)] = slot;\n}\n",
        "A");
    QVERIFY2(counter.measured, counter.error.c_str());
    QVERIFY2(!counter.localUnread && counter.dead.empty(), counter.dead.c_str());
    const auto looped = features::checkDeadCode(branches, "A");
    QVERIFY2(looped.measured, looped.error.c_str());
    QVERIFY2(!looped.dead.empty(), "a loop of reads into local memory nothing reads");
    QVERIFY(looped.liveMem < looped.irMem);
  }

  void barriersSomeWorkItemsSkipAreFound() {
    const std::string reduction =
        "kernel void A(global const float* a, global float* b, local float* d, const int n) {\n"
        "  int l = get_local_id(0), g = get_global_id(0), m = get_local_size(0);\n"
        "  EXIT\n  d[l] = a[g];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (int s = m >> 1; s > 0; s >>= 1) {\n"
        "    if (l < s) d[l] += d[l + s];\n    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n"
        "  if (l == 0) b[get_group_id(0)] = d[0];\n}\n";
    auto with = [&](const std::string& exit) {
      std::string k = reduction;
      k.replace(k.find("EXIT"), 4, exit);
      return features::checkDeadCode(k, "A");
    };
    // Every work-item of a group reaches every barrier: the loop's bound is
    // the group's size; a group that leaves leaves whole.
    for (const char* exit : {"", "if (get_group_id(0) >= n) return;", "if (n < 0) return;"}) {
      const auto r = with(exit);
      QVERIFY2(r.measured, r.error.c_str());
      QVERIFY2(r.divergentBarrier.empty() && r.dead.empty(), (std::string(exit) + ": " + r.dead).c_str());
    }
    // A work-item past the data leaves before the barrier its group waits at.
    for (const char* exit : {"if (g >= n) return;", "if (l > n) return;"}) {
      const auto r = with(exit);
      QVERIFY2(r.divergentBarrier.find("barrier") == 0, (std::string(exit) + ": " + r.divergentBarrier).c_str());
      QVERIFY2(r.dead.find("may not reach") != std::string::npos, r.dead.c_str());
    }
    // A barrier in a loop whose trip count is the work-item's own.
    const auto looped = features::checkDeadCode(
        "kernel void A(global float* a, local float* d) {\n  int l = get_local_id(0);\n  d[l] = a[l];\n"
        "  for (int i = 0; i < l; ++i) { barrier(CLK_LOCAL_MEM_FENCE); d[l] += d[i]; }\n  a[l] = d[l];\n}\n",
        "A");
    QVERIFY2(!looped.divergentBarrier.empty(), looped.dead.c_str());
    // A uniform test inside a varying one decides for some work-items only.
    const auto nested = features::checkDeadCode(
        "kernel void A(global float* a, local float* d, const int n) {\n  int l = get_local_id(0);\n  d[l] = a[l];\n"
        "  if (l < n) {\n    if (n > 4) barrier(CLK_LOCAL_MEM_FENCE);\n    a[l] = d[n - l];\n  }\n}\n",
        "A");
    QVERIFY2(nested.measured, nested.error.c_str());
    QVERIFY2(!nested.divergentBarrier.empty(), nested.dead.c_str());
  }

  void contendersAreCheckedOnTheirOwnThread() {
    steer::ContenderCheckOptions o;
    o.timeoutSeconds = 20;
    steer::ContenderChecks checks(o);
    // Nearest first, the one that passes last (a pass takes back the waiting no nearer).
    QVERIFY(checks.submit(1, kPasses, "A", 3));
    QVERIFY(checks.submit(2, kNoOutput, "A", 1));
    QVERIFY(checks.submit(3, kDeadReads, "A", 2));
    QVERIFY(!checks.submit(4, kPasses, "A")); // the same text: checked once
    QVERIFY(checks.pending() >= 1);
    checks.wait(300);
    QCOMPARE(checks.pending(), std::size_t(0));
    const auto done = checks.takeFinished();
    QCOMPARE(done.size(), std::size_t(3));
    std::map<std::int64_t, std::string> outcome;
    for (const auto& c : done)
      outcome[c.candidate] = c.outcome + " " + c.detail;
    QVERIFY2(outcome[1].rfind("PASS", 0) == 0, outcome[1].c_str());
    QVERIFY2(outcome[2].rfind("NO_OUTPUT", 0) == 0, outcome[2].c_str());
    QVERIFY2(outcome[3].rfind("DEAD_CODE", 0) == 0, outcome[3].c_str());
    QVERIFY(checks.takeFinished().empty());
    QVERIFY(checks.known(kPasses));
    QCOMPARE(checks.known(kPasses)->outcome, std::string("PASS"));
    QVERIFY(!checks.known("kernel void B() {}"));
    QVERIFY(!checks.device().empty());
  }

  void writesThatIgnoreTheInputAreFound_data() {
    QTest::addColumn<QString>("body");
    QTest::addColumn<bool>("dependent");
    QTest::newRow("ids only") << QStringLiteral("a[i] = i * 2.0f + 1.0f;") << false;
    QTest::newRow("a size bounds a constant") << QStringLiteral("if (i < n) a[i] = 1.0f;") << false;
    QTest::newRow("reads a buffer") << QStringLiteral("if (i < n) a[i] = b[i] * 2.0f;") << true;
    QTest::newRow("a branch on data") << QStringLiteral("if (b[i] > 0.0f) a[i] = 1.0f;") << true;
    QTest::newRow("a scalar's value") << QStringLiteral("a[i] = m * 2.0f;") << true;
    QTest::newRow("a loop a scalar bounds")
        << QStringLiteral("float s = 0.0f;\n  for (int j = 0; j < m; ++j) s += 1.5f;\n  a[i] = s;") << true;
    QTest::newRow("an address from data") << QStringLiteral("a[(int)b[i] & 63] = 1.0f;") << true;
    QTest::newRow("a branch on a value") << QStringLiteral("if (m > 3) a[i] = 1.0f;") << true;
    QTest::newRow("an id's bound, then a phi") << QStringLiteral("float x = 2.0f;\n  if (i < n) x = 1.0f;\n  a[i] = x;")
                                               << false;
    QTest::newRow("a copy through local memory")
        << QStringLiteral("local float l[64];\n  l[get_local_id(0)] = b[i];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
                          "  event_t e = async_work_group_copy(a + get_group_id(0) * 64, l, 64, 0);\n"
                          "  wait_group_events(1, &e);")
        << true;
  }

  void writesThatIgnoreTheInputAreFound() {
    QFETCH(QString, body);
    QFETCH(bool, dependent);
    const auto r = features::checkDeadCode(kernelWith(body.toStdString()), "A");
    QVERIFY2(r.measured, r.error.c_str());
    QCOMPARE(r.inputDependent, dependent);
    QCOMPARE(r.dead.find("depends on its input") != std::string::npos, !dependent);
  }

  void aCheckThatHangsIsATimeoutAndTheNextRuns() {
    auto o = unniced(2);
    {
      steer::ContenderChecks checks(o);
      QVERIFY(checks.submit(1, kHangs, "A"));
      QVERIFY(checks.submit(2, kPasses, "A"));
      const auto done = allFinished(checks);
      QCOMPARE(done.size(), std::size_t(2));
      QCOMPARE(done[0].outcome, std::string("TIMEOUT"));
      QVERIFY2(done[0].detail.find("within 2 s of CPU time") != std::string::npos, done[0].detail.c_str());
      QVERIFY2(done[1].outcome == "PASS", (done[1].outcome + " " + done[1].detail).c_str());
    }
    // At low priority the worker may wait for the CPU: its timeout counts
    // the CPU time it used, so a hang is still found, as such.
    o.niceIncrement = 19;
    steer::ContenderChecks checks(o);
    QVERIFY(checks.submit(1, kHangs, "A"));
    const auto done = allFinished(checks);
    QCOMPARE(done.size(), std::size_t(1));
    QCOMPARE(done[0].outcome, std::string("TIMEOUT"));
    QVERIFY2(done[0].detail.find("within 2 s of CPU time") != std::string::npos, done[0].detail.c_str());
  }

  void theFirstWaitingContenderIsCheckedAndTheQueueIsBounded() {
    auto o = unniced(2);
    o.maxQueued = 1;
    steer::ContenderChecks checks(o);
    // A check that hangs holds the thread while the others queue.
    QVERIFY(checks.submit(1, kHangs, "A", 50));
    QTRY_VERIFY_WITH_TIMEOUT(checks.waiting() == 0 && checks.pending() == 1, 10000); // under way, not done
    const std::string far = kPasses, nearer = std::string(kPasses) + "\n", farther = std::string(kPasses) + "\n\n";
    QVERIFY(checks.submit(2, far, "A", 5));
    // The priority orders the queue; the distance is only the candidate's.
    QVERIFY(checks.submit(3, nearer, "A", 30, 3));  // takes the place of 2
    QVERIFY(!checks.submit(4, farther, "A", 1, 9)); // the queue holds one of lower priority
    QVERIFY(!checks.submit(2, far, "A", 5));       // forgotten, and still farther
    QCOMPARE(checks.waiting(), std::size_t(1));
    QVERIFY(checks.waiting(3) && !checks.waiting(2) && !checks.waiting(1)); // 1 is under way, not waiting
    auto pending = checks.pendingCandidates(); // what a search holds descendants back for
    std::sort(pending.begin(), pending.end());
    QCOMPARE(pending, (std::vector<std::int64_t>{1, 3}));
    const auto done = allFinished(checks);
    QCOMPARE(done.size(), std::size_t(2));
    QCOMPARE(done[0].candidate, std::int64_t(1));
    QCOMPARE(done[0].outcome, std::string("TIMEOUT"));
    QCOMPARE(done[1].candidate, std::int64_t(3));
    QCOMPARE(done[1].outcome, std::string("PASS"));
    QCOMPARE(done[1].distance, 30.0);
    QCOMPARE(done[1].priority, 3.0);
    QVERIFY(!checks.known(far));
    QVERIFY(checks.submit(2, far, "A", 5)); // room again: it can be checked now
    checks.wait(300);
    QVERIFY(checks.known(far));
    QCOMPARE(checks.known(far)->outcome, std::string("PASS"));
    QVERIFY(checks.pendingCandidates().empty());
  }

  // Once a check at some distance passed, the waiting ones no nearer could
  // not become the best: they are taken back, and may come again.
  void checksNoNearerThanAPassedOneAreWithdrawn() {
    steer::ContenderChecks checks(unniced(2));
    QVERIFY(checks.submit(1, kHangs, "A", 50));
    QTRY_VERIFY_WITH_TIMEOUT(checks.waiting() == 0 && checks.pending() == 1, 10000); // under way
    const std::string nearer = kPasses, same = std::string(kPasses) + "\n", farther = std::string(kPasses) + "\n\n",
                      member = std::string(kPasses) + "\n\n\n";
    QVERIFY(checks.submit(2, nearer, "A", 4));
    QVERIFY(checks.submit(3, same, "A", 5));
    QVERIFY(checks.submit(4, farther, "A", 6, 6));
    QVERIFY(checks.submit(5, member, "A", 7, 7, /*confirm=*/false)); // a lineage's quick check: it stays
    auto gone = checks.withdrawFartherThan(5);
    std::sort(gone.begin(), gone.end());
    QCOMPARE(gone, (std::vector<std::int64_t>{3, 4}));
    QVERIFY(checks.waiting(2) && checks.waiting(5) && !checks.waiting(3) && !checks.waiting(4));
    QVERIFY(checks.withdrawFartherThan(10).empty()); // the one under way (at 50) is not taken back
    QVERIFY(checks.submit(4, farther, "A", 6)); // forgotten: it may come again
    // When 1 has timed out, 2 (nearest) passes, and takes 4 back itself
    // before the next check starts; 5, a lineage's check (not to be
    // confirmed), still runs, and its pass takes nothing back.
    const auto done = allFinished(checks);
    QCOMPARE(done.size(), std::size_t(3));
    QCOMPARE(done[0].candidate, std::int64_t(1));
    QCOMPARE(done[1].candidate, std::int64_t(2));
    QCOMPARE(done[1].outcome, std::string("PASS"));
    QCOMPARE(done[2].candidate, std::int64_t(5));
    QCOMPARE(done[2].outcome, std::string("PASS")); // no confirmation sizes here: not a QUICK_PASS
    QVERIFY(!checks.known(same) && !checks.known(farther));
  }

  void aContenderIsConfirmedAtDrivesSizesOnEveryDevice() {
    // Runs clean at the quick check's 4096 work-items and hangs past 10000:
    // only the confirmation at drive's sizes finds it out.
    const char* hangsWhenLarge = "kernel void A(global float* a, global const float* b, const int n) {\n"
                                 "  int i = get_global_id(0);\n"
                                 "  if (i < n) a[i] = b[i] * 2.0f + 1.0f;\n"
                                 "  while (get_global_size(0) > 10000) a[i] = a[i] + 1.0f;\n"
                                 "}\n";
    const auto quick = unniced(3);
    {
      steer::ContenderChecks checks(quick);
      QVERIFY(checks.submit(1, hangsWhenLarge, "A"));
      const auto done = allFinished(checks);
      QCOMPARE(done.size(), std::size_t(1));
      QVERIFY2(done[0].outcome == "PASS", (done[0].outcome + " " + done[0].detail).c_str());
    }
    auto confirmed = quick;
    confirmed.confirmSizes = {4096, 65536};
    confirmed.confirmTimeoutSeconds = 3;
    steer::ContenderChecks checks(confirmed);
    QVERIFY(checks.submit(1, hangsWhenLarge, "A"));
    QVERIFY(checks.submit(2, kPasses, "A"));
    const auto done = allFinished(checks);
    QCOMPARE(done.size(), std::size_t(2));
    QVERIFY2(done[0].outcome == "TIMEOUT", (done[0].outcome + " " + done[0].detail).c_str());
    QVERIFY2(done[0].detail.rfind("at 65536 work-items", 0) == 0, done[0].detail.c_str());
    QVERIFY2(done[1].outcome == "PASS", (done[1].outcome + " " + done[1].detail).c_str());
  }

  void theRaceCheckFailsARaceThatPoclLetsThrough() {
    if (drive::oclgrindPath().empty()) QSKIP("Oclgrind is not installed (Debian: apt install oclgrind); nothing to run");
    // A tree sum whose barrier is outside its loop: work-item l reads t[l + s]
    // while l + s may write it. PoCL runs a group's work-items in one order,
    // so the outputs agree and the confirmation passes; Oclgrind's race
    // checker fails it. The sum with its barrier in the loop passes both.
    const std::string racy = "kernel void A(global float* a, global const float* b) {\n"
                             "  local float t[64];\n  int l = get_local_id(0);\n"
                             "  t[l] = b[get_global_id(0)];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "  for (int s = 32; s > 0; s >>= 1)\n    if (l < s) t[l] += t[l + s];\n"
                             "  barrier(CLK_LOCAL_MEM_FENCE);\n  if (l == 0) a[get_group_id(0)] = t[0];\n}\n";
    std::string fenced = racy;
    const std::string step = "    if (l < s) t[l] += t[l + s];\n";
    fenced.replace(fenced.find(step), step.size(),
                   "  {\n    if (l < s) t[l] += t[l + s];\n    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n");
    auto o = unniced(20);
    o.globalSize = 256;
    o.confirmSizes = {256, 1024};
    {
      steer::ContenderChecks checks(o);
      QVERIFY(checks.submit(1, racy, "A"));
      const auto done = allFinished(checks);
      QCOMPARE(done.size(), std::size_t(1));
      QVERIFY2(done[0].outcome == "PASS", (done[0].outcome + " " + done[0].detail).c_str());
    }
    o.raceCheckSize = 256;
    steer::ContenderChecks checks(o);
    QVERIFY(checks.submit(1, racy, "A", 1));
    QVERIFY(checks.submit(2, fenced, "A", 2));
    const auto done = allFinished(checks);
    QCOMPARE(done.size(), std::size_t(2));
    std::map<std::int64_t, steer::ContenderCheck> by;
    for (const auto& c : done)
      by[c.candidate] = c;
    QVERIFY2(by[1].outcome == "NONDETERMINISTIC" && by[1].detail.rfind("in Oclgrind at 256 work-items: ", 0) == 0 &&
                 by[1].detail.find("data race at local memory") != std::string::npos,
             (by[1].outcome + " " + by[1].detail).c_str());
    QVERIFY2(by[2].outcome == "PASS", (by[2].outcome + " " + by[2].detail).c_str());
  }
};

QTEST_GUILESS_MAIN(TestContenders)
#include "tst_contenders.moc"
