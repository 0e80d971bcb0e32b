#include "source/SourceFile.h"

#include "common/Error.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace steerbench::source {
namespace {

std::string humanBytes(std::size_t n) {
  char buf[64];
  if (n >= (1u << 20))
    std::snprintf(buf, sizeof buf, "%.1f MB", double(n) / (1u << 20));
  else if (n >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KB", double(n) / 1024);
  else
    std::snprintf(buf, sizeof buf, "%zu bytes", n);
  return buf;
}

std::pair<std::size_t, std::size_t> lineAndColumn(std::string_view text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

} // namespace

std::size_t firstInvalidUtf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
      return i;
    i += len;
  }
  return std::string_view::npos;
}

void checkSourceText(std::string_view text, const std::string& name, const ReadLimits& limits) {
  if (text.size() > limits.maxBytes)
    throw InputError(name + ": file is too large (" + humanBytes(text.size()) + ", the limit is " +
                     humanBytes(limits.maxBytes) +
                     "); OpenCL kernels are rarely over a few hundred KB. Split it, or raise the "
                     "limit with --max-file-size if it really is source code");
  bool blank = true;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) {
      blank = false;
      break;
    }
  if (blank) throw InputError(name + ": file is empty; there is no OpenCL code in it");
  if (auto nul = text.find('\0'); nul != std::string_view::npos) {
    auto [line, col] = lineAndColumn(text, nul);
    throw InputError(name + ": this is a binary file, not OpenCL C source (a NUL byte at line " + std::to_string(line) +
                     ", column " + std::to_string(col) + "); pass .cl text files only");
  }
  if (auto bad = firstInvalidUtf8(text); bad != std::string_view::npos) {
    auto [line, col] = lineAndColumn(text, bad);
    throw InputError(name + ": not valid UTF-8 text (an invalid byte sequence at line " + std::to_string(line) +
                     ", column " + std::to_string(col) + "); convert the file to UTF-8, e.g. with iconv");
  }
}

std::string readSourceFile(const std::string& path, const ReadLimits& limits) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(path + ": cannot read the file (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a folder, not a source file");
  if (static_cast<std::size_t>(st.st_size) > limits.maxBytes)
    throw InputError(path + ": file is too large (" + humanBytes(st.st_size) + ", the limit is " +
                     humanBytes(limits.maxBytes) +
                     "); OpenCL kernels are rarely over a few hundred KB. Split it, or raise the "
                     "limit with --max-file-size if it really is source code");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the file (" + std::strerror(errno) + ")");
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  checkSourceText(text, path, limits);
  return text;
}

} // namespace steerbench::source
