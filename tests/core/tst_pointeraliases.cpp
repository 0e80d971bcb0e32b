// Pointer aliases (steer/PointerAliases.h): where a kernel's buffers can be
// aliased, and that an alias changes Grewe's mem count and nothing else: not
// coalesced, not the other Grewe counts, not the -O1 IR's InstCount or
// Autophase vectors. Real Clang on kernels written here.
#include "features/FeatureSpace.h"
#include "features/GreweFeatures.h"
#include "features/Measurement.h"
#include "steer/PointerAliases.h"

#include <QtTest>

#include <map>
#include <string>

using namespace steerbench;

namespace {

// a: three uses; b: two; c is no buffer; d a local buffer (mem counts it, an alias would not lower it).
const char* kKernel = "kernel void A(global float* a, global const float* restrict b, const int c, local float* d) {\n"
                      "  int e = get_global_id(0);\n"
                      "  if (e < c) {\n"
                      "    d[0] = b[e] * 2.0f;\n"
                      "    a[e] = b[e + 1] + 1.0f;\n"
                      "    a[e] = a[e] * d[0];\n"
                      "  }\n"
                      "}\n";

/// Every space's vector of the one kernel of `text`, by space name.
std::map<std::string, std::vector<double>> vectorsOf(const std::string& text) {
  const auto m = features::measureSource(text, "k.cl", features::MeasureOptions::everySpace());
  if (!m.ok()) throw std::runtime_error("does not measure: " + m.error + "\n" + text);
  std::map<std::string, std::vector<double>> out;
  for (const auto& s : m.spaces)
    if (s.kernels.size() == 1) out[s.space->name] = s.kernels.front().values;
  return out;
}

std::size_t bufferIndex(const steer::AliasSites& s, const std::string& name) {
  for (std::size_t i = 0; i < s.buffers.size(); ++i)
    if (s.buffers[i].name == name) return i;
  return s.buffers.size();
}

constexpr std::size_t kMem = 2, kCoalesced = 4; // Grewe's dimensions: comp, rational, mem, localmem, coalesced, ...

/// `aliased` measures as `original` but for mem (lower by `saved`) and the ratios of mem.
void sameButMem(const std::string& original, const std::string& aliased, double saved) {
  const auto before = vectorsOf(original), after = vectorsOf(aliased);
  QCOMPARE(after.at("grewe")[kMem], before.at("grewe")[kMem] - saved);
  for (std::size_t d : {0, 1, 3, 4, 5}) // comp, rational, localmem, coalesced, atomic
    QCOMPARE(after.at("grewe")[d], before.at("grewe")[d]);
  QCOMPARE(after.at("instcount"), before.at("instcount")); // the same IR at -O1
  QCOMPARE(after.at("autophase"), before.at("autophase"));
}

} // namespace

class TestPointerAliases : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void theGlobalBuffersAndTheirUsesAreFound() {
    const auto s = steer::aliasSites(kKernel, "A");
    QVERIFY(s.parsed);
    QCOMPARE(s.buffers.size(), std::size_t(2)); // a and b: c is a number, d local memory
    const auto& a = s.buffers[bufferIndex(s, "a")];
    const auto& b = s.buffers[bufferIndex(s, "b")];
    QCOMPARE(a.uses.size(), std::size_t(3));
    QCOMPARE(b.uses.size(), std::size_t(2));
    for (const auto at : a.uses)
      QCOMPARE(std::string(kKernel).substr(at, 2), std::string("a["));
    QVERIFY(a.alias.empty());
    QCOMPARE(a.aliasType, std::string("__global float *"));
    QCOMPARE(b.aliasType, std::string("const __global float *")); // restrict dropped, const kept
    QCOMPARE(s.freshName, std::string("f"));                       // a to e are taken; 2.0f's f is no name
    QVERIFY(!steer::aliasSites(kKernel, "B").parsed);               // no such kernel
    QVERIFY(!steer::aliasSites("kernel void A(global float* a) { a[0] = x; }", "A").parsed);
  }

  void anAliasChangesMemAndNothingElse() {
    const auto s = steer::aliasSites(kKernel, "A");
    const auto all = steer::withAlias(kKernel, s, bufferIndex(s, "a"), 3);
    QVERIFY(all.find("\n  __global float *f = a;") != std::string::npos);
    QVERIFY(vectorsOf(all).at("grewe")[kCoalesced] > 0);
    sameButMem(kKernel, all, 2);                           // three uses became one
    const auto b = steer::withAlias(kKernel, s, bufferIndex(s, "b"), 2);
    QVERIFY(b.find("const __global float *f = b;") != std::string::npos);
    sameButMem(kKernel, b, 1);
    // One use through a new alias saves nothing: no edit.
    QCOMPARE(steer::withAlias(kKernel, s, bufferIndex(s, "a"), 1), std::string(kKernel));
    QCOMPARE(steer::memSaved(s.buffers[bufferIndex(s, "a")], 1), std::size_t(0));
  }

  void anAliasTheBodyBeginsWithTakesMoreUses() {
    const auto s = steer::aliasSites(kKernel, "A");
    const auto two = steer::withAlias(kKernel, s, bufferIndex(s, "a"), 2); // the last two uses
    sameButMem(kKernel, two, 1);
    const auto again = steer::aliasSites(two, "A");
    const auto& a = again.buffers[bufferIndex(again, "a")];
    QCOMPARE(a.alias, std::string("f"));
    QCOMPARE(a.uses.size(), std::size_t(1)); // the alias's own `= a` is not one
    QCOMPARE(steer::memSaved(a, 1), std::size_t(1));
    const auto three = steer::withAlias(two, again, bufferIndex(again, "a"), 1);
    sameButMem(kKernel, three, 2);
    QCOMPARE(three.find("f = a;"), three.rfind("f = a;")); // declared once
    const auto done = steer::aliasSites(three, "A");
    QCOMPARE(bufferIndex(done, "a"), done.buffers.size()); // no use left to take
  }

  void buffersTheBodyMovesOrTakesTheAddressOfAreNotAliased() {
    // An alias would keep a's first value after `a += c`, and `&b` may change b.
    const char* moved = "kernel void A(global float* a, global float* b, global float* g, const int c) {\n"
                        "  int e = get_global_id(0);\n"
                        "  a[e] = b[e];\n"
                        "  a += c;\n"
                        "  a[e] = a[e] + 1.0f;\n"
                        "  global float** h = &b;\n"
                        "  (*h)[e] = b[e] + g[e] * g[e + 1] - g[e + 2];\n"
                        "}\n";
    const auto s = steer::aliasSites(moved, "A");
    QVERIFY(s.parsed);
    QCOMPARE(s.buffers.size(), std::size_t(1));
    QCOMPARE(s.buffers.front().name, std::string("g"));
    sameButMem(moved, steer::withAlias(moved, s, 0, 3), 2);
    // An alias of another type, or one the body assigns, is no alias to extend.
    const char* notAliases = "kernel void A(global float* a, global int* b) {\n"
                             "  global int* c = (global int*)a;\n"
                             "  global int* d = b;\n"
                             "  d = d + 1;\n"
                             "  c[0] = b[0] + b[1] + d[0];\n"
                             "}\n";
    const auto n = steer::aliasSites(notAliases, "A");
    QVERIFY(n.buffers.at(bufferIndex(n, "b")).alias.empty());
    QCOMPARE(n.buffers.at(bufferIndex(n, "b")).uses.size(), std::size_t(3));
    QCOMPARE(n.freshName, std::string("e"));
    // A pointer to arrays is declared around its name (`global const float
    // (*q)[3] = y;`), which an alias's `T *q` would not write: not aliased.
    const char* rows = "kernel void A(global float* a, global const float (*const y)[3]) {\n"
                       "  int e = get_global_id(0);\n"
                       "  a[e] = y[e][0] + y[e][1] + a[e + 1];\n"
                       "}\n";
    const auto r = steer::aliasSites(rows, "A");
    QVERIFY(r.parsed);
    QCOMPARE(bufferIndex(r, "y"), r.buffers.size());
    sameButMem(rows, steer::withAliasesSaving(rows, "A", 5), 1); // a's two uses only
  }

  void optionsLowerMemByAtMostTheExcess() {
    const auto s = steer::aliasSites(kKernel, "A");
    const auto a = bufferIndex(s, "a"), b = bufferIndex(s, "b");
    const auto one = steer::aliasOptions(s, 1);
    QCOMPARE(one.size(), std::size_t(2)); // a's last two uses, or b's two
    for (const auto& o : one) {
      QCOMPARE(o.saved, std::size_t(1));
      QCOMPARE(o.count, std::size_t(2));
      sameButMem(kKernel, steer::withAlias(kKernel, s, o.buffer, o.count), 1);
    }
    const auto many = steer::aliasOptions(s, 10);
    QCOMPARE(many.size(), std::size_t(2));
    QCOMPARE(many[0].buffer, a); // the largest saving first: all of a's uses
    QCOMPARE(many[0].saved, std::size_t(2));
    QCOMPARE(many[1].buffer, b);
    QCOMPARE(many[1].saved, std::size_t(1));
    QVERIFY(steer::aliasOptions(s, 0).empty());
  }

  void seedsAreAliasedByTheSavingThatBringsThemNearest() {
    // Nearest seeding (SteerSpec::aliasSeeds) ranks a kernel by the mem its
    // aliases can reach: a's three uses save 2, b's two save 1.
    QCOMPARE(steer::maxMemSaved(steer::aliasSites(kKernel, "A")), std::size_t(3));
    const auto values = vectorsOf(kKernel).at("grewe");
    auto counts = features::greweCountsOf(values);
    QCOMPARE(counts.mem, 7.0);
    const auto withMem = [&](double mem) {
      auto c = counts;
      c.mem = mem;
      return features::greweVector(c);
    };
    QCOMPARE(steer::bestMemSaving(values, withMem(5), 3), std::size_t(2));
    QCOMPARE(steer::bestMemSaving(values, withMem(1), 3), std::size_t(3)); // as far as the aliases go
    QCOMPARE(steer::bestMemSaving(values, withMem(1), 1), std::size_t(1));
    QCOMPARE(steer::bestMemSaving(values, withMem(9), 3), std::size_t(0)); // mem below the target's: none helps
    for (std::size_t saving : {1, 2, 3})
      sameButMem(kKernel, steer::withAliasesSaving(kKernel, "A", saving), double(saving));
    sameButMem(kKernel, steer::withAliasesSaving(kKernel, "A", 10), 3); // no more than every use
    QCOMPARE(steer::withAliasesSaving(kKernel, "A", 0), std::string(kKernel));
    QCOMPARE(steer::withAliasesSaving("kernel void A(global float* a) { a[0] = x; }", "A", 1),
             std::string("kernel void A(global float* a) { a[0] = x; }")); // does not parse: unchanged
  }
};

QTEST_GUILESS_MAIN(TestPointerAliases)
#include "tst_pointeraliases.moc"
