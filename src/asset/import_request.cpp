#include "asset/import_request.h"

#include <cstdint>
#include <cstring>

#include "asset/import_scene.h"

namespace ikpose::asset {

namespace {

constexpr char kMagic[8] = {'i', 'k', 'p', 'i', 'm', 'p', 'r', 't'};

void AppendPod(std::string& out, const void* value, std::size_t size) {
  out.append(static_cast<const char*>(value), size);
}

void AppendBytes(std::string& out, const void* data, std::size_t size) {
  const std::uint64_t n = size;
  AppendPod(out, &n, sizeof n);
  out.append(static_cast<const char*>(data), size);
}

}  // namespace

std::string EncodeImportRequest(const PreparedImport& prepared) {
  std::string out(kMagic, sizeof kMagic);
  const std::uint32_t version = kImportRequestVersion;
  AppendPod(out, &version, sizeof version);
  out.push_back(static_cast<char>(prepared.gltf_version));
  out.push_back(prepared.options.allow_outside_uris ? 1 : 0);
  const std::string path = prepared.path.string();
  AppendBytes(out, path.data(), path.size());
  AppendBytes(out, prepared.read_as.data(), prepared.read_as.size());
  AppendBytes(out, prepared.bytes.data(), prepared.bytes.size());
  return out;
}

bool DecodeImportRequest(std::string_view bytes, PreparedImport* prepared, std::string* problem) {
  std::size_t at = 0;
  const auto take = [&](std::size_t n) -> const char* {
    if (n > bytes.size() - at) {
      *problem = "truncated at byte " + std::to_string(at) + " of " + std::to_string(bytes.size());
      return nullptr;
    }
    const char* p = bytes.data() + at;
    at += n;
    return p;
  };
  const auto chunk = [&](std::string_view* out) {
    const char* length = take(8);
    if (length == nullptr) return false;
    std::uint64_t n = 0;
    std::memcpy(&n, length, sizeof n);
    const char* p = take(static_cast<std::size_t>(std::min<std::uint64_t>(n, SIZE_MAX)));
    if (p == nullptr) return false;
    *out = std::string_view(p, static_cast<std::size_t>(n));
    return true;
  };
  const char* magic = take(sizeof kMagic);
  if (magic == nullptr || std::memcmp(magic, kMagic, sizeof kMagic) != 0) {
    *problem = "not an import request";
    return false;
  }
  const char* version = take(4);
  std::uint32_t v = 0;
  if (version != nullptr) std::memcpy(&v, version, sizeof v);
  if (version == nullptr || v != kImportRequestVersion) {
    *problem = "an import request of another version";
    return false;
  }
  const char* flags = take(2);
  std::string_view path, read_as, file_bytes;
  if (flags == nullptr || !chunk(&path) || !chunk(&read_as) || !chunk(&file_bytes)) return false;
  if (static_cast<unsigned char>(flags[0]) > 2 || static_cast<unsigned char>(flags[1]) > 1) {
    *problem = "an import request with unknown flags";
    return false;
  }
  if (at != bytes.size()) {
    *problem = std::to_string(bytes.size() - at) + " bytes after the request";
    return false;
  }
  prepared->gltf_version = static_cast<unsigned char>(flags[0]);
  prepared->options.allow_outside_uris = flags[1] != 0;
  prepared->path = std::string(path);
  prepared->read_as = std::string(read_as);
  prepared->bytes.assign(file_bytes.begin(), file_bytes.end());
  return true;
}

}  // namespace ikpose::asset
