// A precompiled opencl-c-base.h, built once per set of options and shared by
// every compile in the process. Internal to core/clang.
#pragma once

#include <llvm/ADT/IntrusiveRefCntPtr.h>

#include <memory>
#include <string>
#include <vector>

namespace llvm::vfs {
class FileSystem;
}

namespace steerbench::clangfe {

struct BaseHeaderPch {
  std::string path;  ///< where compiles find it in `fileSystem`
  std::string bytes; ///< the serialized AST
};

/// The PCH for `cc1Args` (the compile's arguments, without its input file),
/// built on first use and cached; nullptr when it cannot be built (the caller
/// then parses the header as usual). Thread-safe.
[[nodiscard]] std::shared_ptr<const BaseHeaderPch> basePchFor(const std::vector<std::string>& cc1Args);

/// A file system that shows `pch` at pch.path over the real one. One per compile.
[[nodiscard]] llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystemWith(const BaseHeaderPch& pch);

} // namespace steerbench::clangfe
