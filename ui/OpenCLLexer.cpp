#include "OpenCLLexer.h"

#include <QFontDatabase>

namespace steerbench::ui {

OpenCLLexer::OpenCLLexer(QObject* parent) : QsciLexerCPP(parent) {
  setFoldComments(true);
  setFoldCompact(false);
  setDefaultFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  for (int style = 0; style <= 127; ++style)
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont), style);
  setDarkTheme(false);
}

const char* OpenCLLexer::keywords(int set) const {
  if (set == 1)
    return "auto break case char const continue default do double else enum extern float for goto half if inline int "
           "long register restrict return short signed sizeof static struct switch typedef union unsigned void "
           "volatile while bool uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t "
           "kernel __kernel global __global local __local constant __constant private __private generic __generic "
           "read_only __read_only write_only __write_only read_write __read_write __attribute__ "
           "reqd_work_group_size work_group_size_hint vec_type_hint packed aligned true false";
  if (set == 2)
    return "char2 char3 char4 char8 char16 uchar2 uchar3 uchar4 uchar8 uchar16 short2 short3 short4 short8 short16 "
           "ushort2 ushort3 ushort4 ushort8 ushort16 int2 int3 int4 int8 int16 uint2 uint3 uint4 uint8 uint16 "
           "long2 long3 long4 long8 long16 ulong2 ulong3 ulong4 ulong8 ulong16 float2 float3 float4 float8 float16 "
           "double2 double3 double4 double8 double16 half2 half4 half8 half16 image1d_t image2d_t image3d_t "
           "sampler_t event_t "
           "get_work_dim get_global_size get_global_id get_local_size get_local_id get_num_groups get_group_id "
           "get_global_offset barrier mem_fence read_mem_fence write_mem_fence CLK_LOCAL_MEM_FENCE "
           "CLK_GLOBAL_MEM_FENCE async_work_group_copy wait_group_events prefetch "
           "atomic_add atomic_sub atomic_xchg atomic_inc atomic_dec atomic_cmpxchg atomic_min atomic_max atomic_and "
           "atomic_or atomic_xor atom_add atom_sub atom_xchg atom_inc atom_dec atom_cmpxchg atom_min atom_max "
           "sqrt rsqrt exp exp2 exp10 log log2 log10 pow pown powr sin cos tan asin acos atan atan2 sinh cosh tanh "
           "fabs floor ceil round trunc fmin fmax fma mad mix clamp min max abs step smoothstep sign dot cross "
           "length distance normalize native_sqrt native_exp native_log native_sin native_cos native_divide "
           "native_recip native_powr half_sqrt select any all vload2 vload4 vload8 vload16 vstore2 vstore4 vstore8 "
           "vstore16 read_imagef read_imagei read_imageui write_imagef write_imagei write_imageui get_image_width "
           "get_image_height convert_int convert_float convert_uint as_int as_uint as_float mul24 mad24 "
           "popcount clz rotate upsample hadd rhadd mad_hi mul_hi";
  return QsciLexerCPP::keywords(set);
}

void OpenCLLexer::setDarkTheme(bool dark) {
  const QColor paper = dark ? QColor(30, 30, 34) : QColor(Qt::white);
  const QColor text = dark ? QColor(220, 220, 220) : QColor(20, 20, 20);
  setDefaultPaper(paper);
  setDefaultColor(text);
  for (int style = 0; style <= 127; ++style) {
    setPaper(paper, style);
    setColor(text, style);
  }
  setColor(dark ? QColor(120, 170, 255) : QColor(0, 0, 160), Keyword);
  setColor(dark ? QColor(90, 210, 200) : QColor(0, 120, 130), KeywordSet2);
  setColor(dark ? QColor(120, 190, 120) : QColor(0, 128, 0), Comment);
  setColor(dark ? QColor(120, 190, 120) : QColor(0, 128, 0), CommentLine);
  setColor(dark ? QColor(120, 190, 120) : QColor(0, 128, 0), CommentDoc);
  setColor(dark ? QColor(230, 180, 110) : QColor(160, 80, 0), Number);
  setColor(dark ? QColor(230, 150, 150) : QColor(160, 0, 0), DoubleQuotedString);
  setColor(dark ? QColor(200, 150, 230) : QColor(120, 0, 120), PreProcessor);
}

} // namespace steerbench::ui
