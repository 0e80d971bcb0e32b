// Rewriting identifiers preserves behaviour: kernels run on real OpenCL
// devices (PoCL through the ICD loader) before and after the corpus pipeline,
// with the same inputs, give the same outputs.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "corpus/CorpusPipeline.h"
#include "corpus/SourceFormatting.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace steerbench;

namespace {

constexpr std::size_t kItems = 256;

std::string readText(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().toStdString();
}

/// Bytes per element of an OpenCL type name such as "float4*" or "uint".
std::size_t elementSize(std::string type) {
  while (!type.empty() && (type.back() == '*' || type.back() == ' '))
    type.pop_back();
  std::size_t width = 1;
  std::size_t digits = type.find_first_of("0123456789");
  if (digits != std::string::npos) {
    width = std::stoul(type.substr(digits));
    if (width == 3) width = 4;
    type = type.substr(0, digits);
  }
  std::size_t base = 4;
  if (type == "char" || type == "uchar")
    base = 1;
  else if (type == "short" || type == "ushort" || type == "half")
    base = 2;
  else if (type == "long" || type == "ulong" || type == "double")
    base = 8;
  return base * width;
}

struct Device {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
  QString error;
  Device() {
    cl_platform_id platform;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0) {
      error = "no OpenCL platform (is pocl-opencl-icd installed?)";
      return;
    }
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &n) != CL_SUCCESS || n == 0) {
      error = "no OpenCL device";
      return;
    }
    cl_int err;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    queue = clCreateCommandQueue(context, device, 0, &err);
  }
  ~Device() {
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }

  /// Builds `source`, runs its one kernel on fixed inputs, returns every
  /// global buffer's final bytes, concatenated.
  QByteArray run(const std::string& source, QString* why) {
    const char* text = source.c_str();
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    if (clBuildProgram(program, 1, &device, "-cl-kernel-arg-info", nullptr, nullptr) != CL_SUCCESS) {
      char log[4096] = {};
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
      *why = QString("build failed: ") + log;
      clReleaseProgram(program);
      return {};
    }
    cl_kernel kernel;
    cl_uint count = 0;
    clCreateKernelsInProgram(program, 1, &kernel, &count);
    if (count != 1) {
      *why = "expected one kernel";
      clReleaseProgram(program);
      return {};
    }
    cl_uint args = 0;
    clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
    std::vector<cl_mem> buffers;
    std::vector<std::size_t> sizes;
    for (cl_uint a = 0; a < args; ++a) {
      cl_kernel_arg_address_qualifier space;
      char type[128] = {};
      clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof space, &space, nullptr);
      clGetKernelArgInfo(kernel, a, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type, nullptr);
      const std::string t = type;
      const std::size_t elem = elementSize(t);
      if (space == CL_KERNEL_ARG_ADDRESS_GLOBAL || space == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
        std::vector<unsigned char> init(kItems * elem);
        const bool floating = t.find("float") != std::string::npos;
        for (std::size_t i = 0; i < kItems * elem / 4 && floating; ++i) {
          const float v = float(i % 17) * 0.25f + 1.0f;
          std::memcpy(init.data() + 4 * i, &v, 4);
        }
        for (std::size_t i = 0; i < init.size() && !floating; i += elem)
          init[i] = (unsigned char)(i / elem % 13);
        cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init.size(), init.data(), &err);
        buffers.push_back(b);
        sizes.push_back(init.size());
        clSetKernelArg(kernel, a, sizeof b, &b);
      } else if (space == CL_KERNEL_ARG_ADDRESS_LOCAL) {
        clSetKernelArg(kernel, a, kItems * elem, nullptr);
      } else if (t.find("float") != std::string::npos) {
        const float v = 1.5f;
        clSetKernelArg(kernel, a, sizeof v, &v);
      } else {
        const cl_int v = cl_int(kItems);
        clSetKernelArg(kernel, a, elem, &v);
      }
    }
    const std::size_t global = kItems, local = 64;
    err = clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    QByteArray out;
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      QByteArray bytes(int(sizes[i]), 0);
      clEnqueueReadBuffer(queue, buffers[i], CL_TRUE, 0, sizes[i], bytes.data(), 0, nullptr, nullptr);
      out += bytes;
      clReleaseMemObject(buffers[i]);
    }
    clFinish(queue);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    if (err != CL_SUCCESS) *why = "enqueue failed: " + QString::number(err);
    return out;
  }
};

} // namespace

class TestRewriteBehaviour : public QObject {
  Q_OBJECT

  QTemporaryDir cache_;

private slots:
  void initTestCase() {
    // PoCL needs a writable cache; keep it out of the user's home.
    qputenv("POCL_CACHE_DIR", cache_.path().toUtf8());
    if (qgetenv("POCL_DEVICES").isEmpty()) qputenv("POCL_DEVICES", "pthread basic");
  }

  void sameOutputsAfterRewriting_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"k01_copy.cl", "k02_helper.cl", "k03_local_tile.cl", "k04_atomics.cl", "k05_loop.cl",
                          "k06_vector.cl", "k07_math.cl", "k10_nested_helpers.cl", "k12_bit_ops.cl"})
      QTest::newRow(f) << QString(f);
  }
  void sameOutputsAfterRewriting() {
    QFETCH(QString, file);
    static Device device;
    QVERIFY2(device.error.isEmpty(), qPrintable(device.error));
    const QString path = STEERBENCH_TEST_DATA "/kernels/" + file;
    const std::string original = readText(path);
    const corpus::FileOutcome f = corpus::processFile(path.toStdString(), "", {});
    QVERIFY2(f.ok() && f.kernels.size() == 1, f.reason.c_str());
    const corpus::KernelOutcome& k = f.kernels[0];
    QVERIFY2(k.ready(), k.reason.c_str());
    QVERIFY(corpus::foldWhitespace(k.source) != corpus::foldWhitespace(original)); // it was rewritten
    QString why1, why2;
    const QByteArray before = device.run(original, &why1);
    const QByteArray after = device.run(k.source, &why2);
    QVERIFY2(why1.isEmpty(), qPrintable(why1));
    QVERIFY2(why2.isEmpty(), qPrintable(why2 + "\n" + QString::fromStdString(k.source)));
    QVERIFY(!before.isEmpty());
    QCOMPARE(after, before);
  }
};

QTEST_GUILESS_MAIN(TestRewriteBehaviour)
#include "tst_rewrite_behaviour.moc"
