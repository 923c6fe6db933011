#include "tiergate/core/file_output.h"

#include <filesystem>
#include <fstream>

namespace tiergate {

Status write_file_atomically(const std::string& path, std::string_view bytes) {
  const std::string temporary = path + ".tmp";
  std::error_code ec;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return unavailable(path + ": cannot write (is the directory there and writable?)");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(temporary, ec);
      return unavailable(path + ": cannot write: the write failed (disk full?)");
    }
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return unavailable(path + ": cannot replace it: " + ec.message());
  }
  return Status::ok();
}

}  // namespace tiergate
