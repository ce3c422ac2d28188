#include "asset/gltf_document.h"

#include <algorithm>
#include <cstring>

#include "asset/read_file.h"

namespace ikpose::asset {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kGlbMagic = 0x46546C67u;  // "glTF"
constexpr std::uint32_t kJsonChunk = 0x4E4F534Au;
constexpr std::uint32_t kBinChunk = 0x004E4942u;
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{4} << 30;  // 4 GiB

[[noreturn]] void Fail(const std::string& what) {
  throw GltfError(what);
}

std::uint32_t U32(const std::vector<std::uint8_t>& bytes, std::size_t at) {
  return static_cast<std::uint32_t>(bytes[at]) | static_cast<std::uint32_t>(bytes[at + 1]) << 8 |
         static_cast<std::uint32_t>(bytes[at + 2]) << 16 |
         static_cast<std::uint32_t>(bytes[at + 3]) << 24;
}

// Brackets nested deeper than the limit (outside strings) are refused before parsing: JSON
// parsers, assimp's included, recurse per level.
void CheckJsonDepth(const std::uint8_t* begin, const std::uint8_t* end) {
  int depth = 0;
  bool in_string = false;
  for (const std::uint8_t* p = begin; p != end; ++p) {
    if (in_string) {
      if (*p == '\\') {
        if (p + 1 != end) ++p;
      } else if (*p == '"') {
        in_string = false;
      }
    } else if (*p == '"') {
      in_string = true;
    } else if (*p == '[' || *p == '{') {
      if (++depth > kGltfMaxJsonDepth) {
        Fail("JSON: nested deeper than " + std::to_string(kGltfMaxJsonDepth) + " levels");
      }
    } else if (*p == ']' || *p == '}') {
      --depth;
    }
  }
}

// Ill-formed UTF-8 bytes replaced by '?': glTF requires UTF-8, but assimp reads such names,
// and one bad bone name should not make the rest of the file unreadable here.
std::vector<std::uint8_t> ValidUtf8(const std::uint8_t* begin, const std::uint8_t* end) {
  std::vector<std::uint8_t> out(begin, end);
  std::size_t i = 0;
  while (i < out.size()) {
    const std::uint8_t c = out[i];
    std::size_t n = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    bool ok = n > 0 && i + n <= out.size() && !(n == 2 && c < 0xC2) && !(n == 4 && c > 0xF4);
    for (std::size_t k = 1; ok && k < n; ++k) ok = (out[i + k] & 0xC0) == 0x80;
    if (ok && n == 3) {
      const unsigned cp = (c & 0xFu) << 12 | (out[i + 1] & 0x3Fu) << 6 | (out[i + 2] & 0x3Fu);
      ok = cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF);
    }
    if (ok && n == 4) {
      const unsigned cp = (c & 0x7u) << 18 | (out[i + 1] & 0x3Fu) << 12;
      ok = cp >= 0x10000 && cp <= 0x10FFFF;
    }
    if (!ok) {
      out[i] = '?';
      n = 1;
    }
    i += n;
  }
  return out;
}

GltfJson ParseJson(const std::uint8_t* begin, const std::uint8_t* end) {
  CheckJsonDepth(begin, end);
  const std::vector<std::uint8_t> text = ValidUtf8(begin, end);
  GltfJson json = GltfJson::parse(text.begin(), text.end(), nullptr, false);
  if (json.is_discarded() || !json.is_object()) Fail("JSON: cannot be parsed as a JSON object");
  return json;
}

std::size_t Size(const GltfJson& object, const char* key, std::size_t fallback,
                 const std::string& field) {
  if (!object.contains(key)) return fallback;
  const GltfJson& value = object[key];
  if (!value.is_number_unsigned()) {
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
      return value.get<std::size_t>();
    }
    Fail(field + "." + key + ": must be a non-negative integer");
  }
  const std::uint64_t v = value.get<std::uint64_t>();
  if (v > (std::uint64_t{1} << 48))
    Fail(field + "." + key + ": " + std::to_string(v) + " is too large");
  return static_cast<std::size_t>(v);
}

int Index(const GltfJson& object, const char* key, const std::string& field) {
  const GltfJson& value = object[key];
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0 ||
      value.get<std::int64_t>() > 0x7fffffff) {
    Fail(field + "." + key + ": not an index");
  }
  return value.get<int>();
}

std::string Name(const char* array, int index) {
  return std::string(array) + "[" + std::to_string(index) + "]";
}

}  // namespace

bool IsGlb(const std::vector<std::uint8_t>& bytes) {
  return bytes.size() >= 4 && U32(bytes, 0) == kGlbMagic;
}

bool LooksLikeGltf(const std::vector<std::uint8_t>& bytes) {
  if (IsGlb(bytes)) return true;
  const auto first =
      std::find_if(bytes.begin(), bytes.end(), [](std::uint8_t c) { return !std::isspace(c); });
  if (first == bytes.end() || *first != '{') return false;
  static constexpr char kAsset[] = "\"asset\"";
  return std::search(bytes.begin(), bytes.end(), kAsset, kAsset + 7) != bytes.end();
}

int GltfTypeWidth(const std::string& type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4") return 4;
  if (type == "MAT2") return 4;
  if (type == "MAT3") return 9;
  if (type == "MAT4") return 16;
  return 0;
}

int GltfComponentSize(int component_type) {
  switch (component_type) {
    case 5120:
    case 5121:
      return 1;
    case 5122:
    case 5123:
      return 2;
    case 5125:
    case 5126:
      return 4;
    default:
      return 0;
  }
}

std::vector<std::uint8_t> DecodeBase64(const std::string& text) {
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char ch : text) {
    int value;
    if (ch >= 'A' && ch <= 'Z') {
      value = ch - 'A';
    } else if (ch >= 'a' && ch <= 'z') {
      value = ch - 'a' + 26;
    } else if (ch >= '0' && ch <= '9') {
      value = ch - '0' + 52;
    } else if (ch == '+' || ch == '-') {
      value = 62;
    } else if (ch == '/' || ch == '_') {
      value = 63;
    } else if (ch == '=') {
      break;
    } else {
      continue;
    }
    buffer = (buffer << 6) | static_cast<std::uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

std::string EncodeBase64(const std::vector<std::uint8_t>& bytes) {
  static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t left = bytes.size() - i;
    const std::uint32_t v = static_cast<std::uint32_t>(bytes[i]) << 16 |
                            static_cast<std::uint32_t>(left > 1 ? bytes[i + 1] : 0) << 8 |
                            static_cast<std::uint32_t>(left > 2 ? bytes[i + 2] : 0);
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += left > 1 ? kDigits[(v >> 6) & 63] : '=';
    out += left > 2 ? kDigits[v & 63] : '=';
  }
  return out;
}

GltfDocument GltfDocument::Parse(const std::vector<std::uint8_t>& bytes, const fs::path& path,
                                 bool allow_outside_uris) {
  GltfDocument doc;
  doc.path = path;
  doc.allow_outside_uris = allow_outside_uris;
  if (!IsGlb(bytes)) {
    doc.json = ParseJson(bytes.data(), bytes.data() + bytes.size());
    return doc;
  }
  doc.binary = true;
  if (bytes.size() < 20) Fail("GLB header: the file ends inside its 12-byte header");
  if (U32(bytes, 4) != 2) Fail("GLB header: version " + std::to_string(U32(bytes, 4)) + ", not 2");
  const std::uint32_t declared = U32(bytes, 8);
  if (declared > bytes.size()) {
    Fail("GLB header: length " + std::to_string(declared) + " is past the end of the " +
         std::to_string(bytes.size()) + "-byte file");
  }
  std::size_t at = 12;
  int chunk = 0;
  while (at + 8 <= declared) {
    const std::uint32_t length = U32(bytes, at);
    const std::uint32_t type = U32(bytes, at + 4);
    const std::string field = "GLB chunk " + std::to_string(chunk);
    if (length > declared - at - 8) {
      Fail(field + ": length " + std::to_string(length) + " runs past the end of the " +
           std::to_string(declared) + "-byte file");
    }
    const std::uint8_t* begin = bytes.data() + at + 8;
    if (chunk == 0) {
      if (type != kJsonChunk) Fail(field + ": the first chunk is not JSON");
      doc.json = ParseJson(begin, begin + length);
    } else if (chunk == 1 && type == kBinChunk) {
      doc.bin.assign(begin, begin + length);
    }
    at += 8 + static_cast<std::size_t>(length);
    ++chunk;
  }
  if (chunk == 0) Fail("GLB chunk 0: missing (the file holds no JSON)");
  if (at != declared) Fail("GLB chunk " + std::to_string(chunk) + ": truncated header");
  return doc;
}

GltfDocument GltfDocument::Read(const fs::path& path, bool allow_outside_uris) {
  std::vector<std::uint8_t> bytes;
  std::string problem;
  if (!ReadRegularFile(path, kMaxFileBytes, &bytes, &problem)) Fail(problem);
  return Parse(bytes, path, allow_outside_uris);
}

const GltfJson& GltfDocument::At(const char* array, int index) const {
  if (!json.contains(array) || !json[array].is_array() || index < 0 ||
      static_cast<std::size_t>(index) >= json[array].size()) {
    Fail(Name(array, index) + " does not exist");
  }
  return json[array][static_cast<std::size_t>(index)];
}

const std::vector<std::uint8_t>& GltfDocument::Buffer(int index) {
  const auto found = buffers_.find(index);
  if (found != buffers_.end()) return found->second;
  const GltfJson& buffer = At("buffers", index);
  const std::string field = Name("buffers", index);
  if (!buffer.is_object()) Fail(field + ": not an object");
  const std::size_t length = Size(buffer, "byteLength", 0, field);
  std::vector<std::uint8_t> data;
  if (!buffer.contains("uri")) {
    if (index != 0 || !binary) Fail(field + ": has no uri and is not the GLB's BIN chunk");
    data = bin;
  } else {
    if (!buffer["uri"].is_string()) Fail(field + ".uri: not a string");
    const std::string uri = buffer["uri"].get<std::string>();
    if (uri.rfind("data:", 0) == 0) {
      const std::size_t comma = uri.find(',');
      if (comma == std::string::npos) Fail(field + ".uri: a data URI without data");
      data = DecodeBase64(uri.substr(comma + 1));
    } else {
      fs::path file;
      std::string problem;
      if (!ResolveBeside(path.parent_path(), PercentDecode(uri), allow_outside_uris, &file,
                         &problem)) {
        Fail(field + ".uri: " + problem);
      }
      if (!ReadRegularFile(file, std::max<std::uintmax_t>(length, 1), &data, &problem)) {
        Fail(field + ".uri: " + file.string() + " " + problem);
      }
    }
  }
  if (data.size() < length) {
    Fail(field + ".byteLength: " + std::to_string(length) + " bytes, but only " +
         std::to_string(data.size()) + " back it");
  }
  return buffers_.emplace(index, std::move(data)).first->second;
}

GltfAccessorLayout GltfDocument::Layout(int accessor_index) {
  const GltfJson& accessor = At("accessors", accessor_index);
  const std::string field = Name("accessors", accessor_index);
  if (!accessor.is_object()) Fail(field + ": not an object");
  GltfAccessorLayout l;
  l.width = GltfTypeWidth(accessor.value("type", ""));
  if (l.width == 0) Fail(field + ".type: not a glTF accessor type");
  l.component_type = accessor.value("componentType", 0);
  l.component_size = GltfComponentSize(l.component_type);
  if (l.component_size == 0) Fail(field + ".componentType: not a glTF component type");
  l.count = Size(accessor, "count", 0, field);
  const std::size_t element = static_cast<std::size_t>(l.width * l.component_size);
  if (!accessor.contains("bufferView")) {
    // All zeros as glTF says; still bounded, as if 16 MiB backed it.
    if (l.count > (std::size_t{16} << 20) / element) {
      Fail(field + ".count: " + std::to_string(l.count) + " elements with no buffer view");
    }
    return l;
  }
  const int view_index = Index(accessor, "bufferView", field);
  const GltfJson& view = At("bufferViews", view_index);
  const std::string view_field = Name("bufferViews", view_index);
  if (!view.is_object() || !view.contains("buffer")) Fail(view_field + ": has no buffer");
  l.buffer = Index(view, "buffer", view_field);
  const std::size_t view_offset = Size(view, "byteOffset", 0, view_field);
  const std::size_t view_length = Size(view, "byteLength", 0, view_field);
  l.stride = Size(view, "byteStride", 0, view_field);
  if (l.stride == 0) l.stride = element;
  if (l.stride < element) {
    Fail(view_field + ".byteStride: " + std::to_string(l.stride) + " is less than " + field +
         "'s " + std::to_string(element) + "-byte element");
  }
  const std::size_t offset = Size(accessor, "byteOffset", 0, field);
  if (l.count > 0 && (offset > view_length || (l.count - 1) > (view_length - offset) / l.stride ||
                      offset + l.stride * (l.count - 1) + element > view_length)) {
    Fail(field + ": " + std::to_string(l.count) + " elements from byte " + std::to_string(offset) +
         " run past the end of bufferViews[" + std::to_string(view_index) + "] (" +
         std::to_string(view_length) + " bytes)");
  }
  const std::vector<std::uint8_t>& buffer = Buffer(l.buffer);
  if (view_offset > buffer.size() || view_length > buffer.size() - view_offset) {
    Fail(view_field + ": bytes " + std::to_string(view_offset) + " + " +
         std::to_string(view_length) + " run past the end of buffers[" + std::to_string(l.buffer) +
         "] (" + std::to_string(buffer.size()) + " bytes)");
  }
  l.offset = view_offset + offset;
  return l;
}

namespace {

// Every component of every element through `convert(const std::uint8_t*)`, zeros without data.
template <typename T, typename Convert>
std::vector<T> ReadComponents(const GltfAccessorLayout& l, const std::uint8_t* data,
                              Convert convert) {
  std::vector<T> out(l.count * static_cast<std::size_t>(l.width), T{0});
  if (data == nullptr) return out;
  std::size_t k = 0;
  for (std::size_t i = 0; i < l.count; ++i) {
    const std::uint8_t* element = data + l.offset + i * l.stride;
    for (int c = 0; c < l.width; ++c) out[k++] = convert(element + c * l.component_size);
  }
  return out;
}

template <typename T>
T Load(const std::uint8_t* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

}  // namespace

std::vector<float> GltfDocument::Floats(int accessor) {
  const std::string field = Name("accessors", accessor);
  if (At("accessors", accessor).contains("sparse")) {
    Fail(field + ".sparse: sparse accessors are not read");
  }
  const GltfAccessorLayout l = Layout(accessor);
  if (l.component_type == 5125) Fail(field + ".componentType: not a float or normalized type");
  const std::uint8_t* data = l.buffer < 0 ? nullptr : Buffer(l.buffer).data();
  return ReadComponents<float>(l, data, [&l](const std::uint8_t* q) {
    switch (l.component_type) {
      case 5126:
        return Load<float>(q);
      case 5120:
        return std::max(static_cast<float>(Load<std::int8_t>(q)) / 127.f, -1.f);
      case 5121:
        return static_cast<float>(*q) / 255.f;
      case 5122:
        return std::max(static_cast<float>(Load<std::int16_t>(q)) / 32767.f, -1.f);
      default:
        return static_cast<float>(Load<std::uint16_t>(q)) / 65535.f;
    }
  });
}

std::vector<std::int64_t> GltfDocument::Integers(int accessor) {
  const GltfAccessorLayout l = Layout(accessor);
  if (l.component_type == 5126) Fail(Name("accessors", accessor) + ": not an integer accessor");
  const std::uint8_t* data = l.buffer < 0 ? nullptr : Buffer(l.buffer).data();
  return ReadComponents<std::int64_t>(l, data, [&l](const std::uint8_t* q) -> std::int64_t {
    switch (l.component_type) {
      case 5120:
        return Load<std::int8_t>(q);
      case 5121:
        return *q;
      case 5122:
        return Load<std::int16_t>(q);
      case 5123:
        return Load<std::uint16_t>(q);
      default:
        return Load<std::uint32_t>(q);
    }
  });
}

std::vector<std::uint8_t> GltfDocument::PackedBytes() const {
  if (binary) return PackGlb(json, bin);
  const std::string text = json.dump();
  return {text.begin(), text.end()};
}

}  // namespace ikpose::asset
