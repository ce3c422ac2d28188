#include "asset/format_precheck.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>
#include <system_error>

#include <nlohmann/json.hpp>

#include "anim/bounded_input.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;

// A graph of nodes by number, edges parent -> child, checked for cycles and depth without
// recursion (the point is not to overflow the stack ourselves).
class NodeGraph {
 public:
  int Node(const std::string& name) {
    const auto [it, added] = ids_.emplace(name, static_cast<int>(names_.size()));
    if (added) {
      names_.push_back(name);
      children_.emplace_back();
    }
    return it->second;
  }
  void Edge(int parent, int child) { children_[static_cast<std::size_t>(parent)].push_back(child); }
  bool Has(const std::string& name) const { return ids_.count(name) != 0; }

  // "" or what is wrong: a node that is its own ancestor, or a chain deeper than max_depth
  // (counted in nodes, from any node down).
  std::string Check(const char* what, int max_depth) const {
    const std::size_t n = names_.size();
    std::vector<int> depth(n, 0);                   // longest chain from the node down, once known
    std::vector<char> state(n, 0);                  // 0 new, 1 on the path, 2 done
    std::vector<std::pair<int, std::size_t>> path;  // node, next child to visit
    for (std::size_t start = 0; start < n; ++start) {
      if (state[start] != 0) continue;
      path.emplace_back(static_cast<int>(start), 0);
      state[start] = 1;
      while (!path.empty()) {
        auto& [node, next] = path.back();
        const std::vector<int>& kids = children_[static_cast<std::size_t>(node)];
        if (next < kids.size()) {
          const int child = kids[next++];
          const std::size_t c = static_cast<std::size_t>(child);
          if (state[c] == 1) {
            return child == node
                       ? std::string(what) + " '" + names_[c] + "' is its own child"
                       : std::string(what) + " '" + names_[c] + "' is its own ancestor (a cycle)";
          }
          if (state[c] == 0) {
            if (static_cast<int>(path.size()) >= max_depth) {
              return std::string(what) + "s nested more than " + std::to_string(max_depth) +
                     " levels deep";
            }
            state[c] = 1;
            path.emplace_back(child, 0);
          }
          continue;
        }
        int deepest = 0;
        for (int k : kids) deepest = std::max(deepest, depth[static_cast<std::size_t>(k)]);
        depth[static_cast<std::size_t>(node)] = deepest + 1;
        if (deepest + 1 > max_depth) {
          return std::string(what) + "s nested more than " + std::to_string(max_depth) +
                 " levels deep";
        }
        state[static_cast<std::size_t>(node)] = 2;
        path.pop_back();
      }
    }
    return "";
  }

 private:
  std::map<std::string, int> ids_;
  std::vector<std::string> names_;
  std::vector<std::vector<int>> children_;
};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ReadHead(const fs::path& path, std::size_t max_bytes, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  text->assign(max_bytes, '\0');
  in.read(text->data(), static_cast<std::streamsize>(max_bytes));
  text->resize(static_cast<std::size_t>(in.gcount()));
  return true;
}

// --- glTF 1.0: "nodes" is an object of id -> {"children": [ids]}.

std::string CheckGltf1Json(std::string_view text) {
  if (!anim::JsonNestingWithin(text)) {
    return "JSON nested deeper than " + std::to_string(anim::kMaxJsonDepth) + " levels";
  }
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "";  // the importer says what is wrong
  const auto nodes = j.find("nodes");
  if (nodes == j.end() || !nodes->is_object()) return "";
  NodeGraph graph;
  for (const auto& [id, node] : nodes->items()) graph.Node(id);
  std::map<std::string, std::string> parent_of;
  for (const auto& [id, node] : nodes->items()) {
    if (!node.is_object()) continue;
    const auto children = node.find("children");
    if (children == node.end() || !children->is_array()) continue;
    for (const auto& child : *children) {
      if (!child.is_string()) return "node '" + id + "': a child that is not a node id";
      const std::string name = child.get<std::string>();
      if (!graph.Has(name)) return "node '" + id + "': child '" + name + "' is not a node";
      if (name == id) return "node '" + id + "' is its own child";
      const auto [it, added] = parent_of.emplace(name, id);
      if (!added && it->second != id) {
        return "node '" + name + "' has two parents ('" + it->second + "' and '" + id + "')";
      }
      graph.Edge(graph.Node(id), graph.Node(name));
    }
  }
  return graph.Check("node", kMaxNodeDepth);
}

// --- COLLADA: <node> elements nest; <instance_node url="#id"> puts node `id` under the
// enclosing one.

// The value of attribute `name` in the tag text `tag`, "" when absent.
std::string Attribute(std::string_view tag, std::string_view name) {
  std::size_t at = 0;
  while ((at = tag.find(name, at)) != std::string_view::npos) {
    const bool starts = at > 0 && std::isspace(static_cast<unsigned char>(tag[at - 1]));
    std::size_t i = at + name.size();
    at = i;
    if (!starts) continue;
    while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
    if (i >= tag.size() || tag[i] != '=') continue;
    ++i;
    while (i < tag.size() && std::isspace(static_cast<unsigned char>(tag[i]))) ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) continue;
    const char quote = tag[i];
    const std::size_t end = tag.find(quote, i + 1);
    if (end == std::string_view::npos) return "";
    return std::string(tag.substr(i + 1, end - i - 1));
  }
  return "";
}

bool NameIs(std::string_view text, std::size_t at, std::string_view name) {
  if (text.compare(at, name.size(), name) != 0) return false;
  const std::size_t after = at + name.size();
  return after >= text.size() || std::isspace(static_cast<unsigned char>(text[after])) ||
         text[after] == '>' || text[after] == '/';
}

std::string CheckCollada(std::string_view text) {
  NodeGraph graph;
  std::vector<int> open;  // the enclosing <node>s
  int unnamed = 0;
  std::size_t at = 0;
  while ((at = text.find('<', at)) != std::string_view::npos) {
    if (text.compare(at, 4, "<!--") == 0) {
      const std::size_t end = text.find("-->", at + 4);
      if (end == std::string_view::npos) break;
      at = end + 3;
      continue;
    }
    const std::size_t close = text.find('>', at);
    if (close == std::string_view::npos) break;
    const std::string_view tag = text.substr(at, close - at + 1);
    const bool self_closing = close > at && text[close - 1] == '/';
    if (NameIs(text, at + 1, "node")) {
      std::string id = Attribute(tag, "id");
      if (id.empty()) id = "\x01unnamed " + std::to_string(++unnamed);
      const int node = graph.Node(id);
      if (!open.empty()) graph.Edge(open.back(), node);
      if (!self_closing) {
        open.push_back(node);
        if (static_cast<int>(open.size()) > kMaxNodeDepth) {
          return "<node> elements nested more than " + std::to_string(kMaxNodeDepth) +
                 " levels deep";
        }
      }
    } else if (NameIs(text, at + 1, "/node")) {
      if (!open.empty()) open.pop_back();
    } else if (NameIs(text, at + 1, "instance_node") && !open.empty()) {
      const std::string url = Attribute(tag, "url");
      if (!url.empty() && url[0] == '#') graph.Edge(open.back(), graph.Node(url.substr(1)));
    }
    at = close + 1;
  }
  return graph.Check("node", kMaxNodeDepth);
}

// --- BVH: the joints' braces nest, in the HIERARCHY part before MOTION.

std::string CheckBvh(std::string_view text) {
  const std::size_t motion = text.find("MOTION");
  const std::string_view hierarchy = text.substr(0, motion);
  int depth = 0;
  for (const char c : hierarchy) {
    if (c == '{' && ++depth > kMaxNodeDepth) {
      return "joints nested more than " + std::to_string(kMaxNodeDepth) + " levels deep";
    }
    if (c == '}' && depth > 0) --depth;
  }
  return "";
}

// --- ASCII FBX: `C: "OO",child,parent` (7.x) or `Connect: "OO", "child", "parent"` (6.x).

std::string CheckFbxAscii(std::string_view text) {
  NodeGraph graph;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    std::size_t rest;
    if (line.compare(0, 2, "C:") == 0) {
      rest = 2;
    } else if (line.compare(0, 8, "Connect:") == 0) {
      rest = 8;
    } else {
      continue;
    }
    // Three comma-separated fields: kind, child, parent.
    std::vector<std::string> fields;
    std::string field;
    for (std::size_t i = rest; i <= line.size(); ++i) {
      if (i == line.size() || line[i] == ',') {
        const std::size_t b = field.find_first_not_of(" \t\r\"");
        const std::size_t e = field.find_last_not_of(" \t\r\"");
        fields.push_back(b == std::string::npos ? "" : field.substr(b, e - b + 1));
        field.clear();
      } else {
        field.push_back(line[i]);
      }
    }
    if (fields.size() < 3 || fields[0] != "OO") continue;
    if (fields[1] == fields[2]) return "model '" + fields[1] + "' is its own parent";
    graph.Edge(graph.Node(fields[2]), graph.Node(fields[1]));
  }
  return graph.Check("model", kMaxNodeDepth);
}

// --- PLY: the header's element counts against the bytes after it.

std::string CheckPly(std::string_view head, std::uintmax_t file_size) {
  const std::size_t end = head.find("end_header");
  if (head.compare(0, 3, "ply") != 0 || end == std::string_view::npos) return "";
  const double size = static_cast<double>(file_size);
  std::istringstream lines{std::string(head.substr(0, end))};
  std::string line;
  bool ascii = true;
  double needed = 0.0;       // bytes the claimed elements take at least
  double per_element = 0.0;  // of the element being described
  double count = 0.0;
  std::string claims;
  const auto finish = [&] { needed += count * per_element; };
  const auto type_bytes = [](const std::string& type) {
    if (type == "char" || type == "uchar" || type == "int8" || type == "uint8") return 1.0;
    if (type == "short" || type == "ushort" || type == "int16" || type == "uint16") return 2.0;
    if (type == "double" || type == "float64") return 8.0;
    return 4.0;
  };
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word == "format") {
      std::string kind;
      words >> kind;
      ascii = kind == "ascii";
    } else if (word == "element") {
      finish();
      std::string name, number;
      words >> name >> number;
      count = std::strtod(number.c_str(), nullptr);
      if (!(count >= 0.0)) count = 0.0;
      per_element = 0.0;
      if (!claims.empty()) claims += ", ";
      claims += number + " " + name;
    } else if (word == "property") {
      std::string type, count_type;
      words >> type;
      if (type == "list") {
        words >> count_type;
        per_element += ascii ? 2.0 : type_bytes(count_type);
      } else {
        per_element += ascii ? 2.0 : type_bytes(type);
      }
    }
  }
  finish();
  if (needed > size) {
    return "PLY header claims " + claims + ", more than a " +
           std::to_string(static_cast<long long>(size)) + "-byte file can hold";
  }
  return "";
}

// --- binary STL: 80 bytes, a triangle count, 50 bytes a triangle.

std::string CheckStl(std::string_view head, std::uintmax_t size) {
  if (head.size() < 84) return "";
  if (Lower(std::string(head.substr(0, 5))) == "solid") return "";  // ASCII (or says so)
  std::uint32_t triangles = 0;
  std::memcpy(&triangles, head.data() + 80, 4);  // little-endian, as the machines ikpose runs on
  if (84 + std::uintmax_t{50} * triangles > size) {
    return "binary STL claims " + std::to_string(triangles) + " triangles, more than a " +
           std::to_string(size) + "-byte file can hold";
  }
  return "";
}

// A problem quotes names from the file (node ids, model names): their control bytes become
// spaces, so the problem stays one line.
std::string OneLine(std::string problem) {
  for (char& c : problem) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return problem;
}

std::string CheckText(const std::string& extension, std::string_view text,
                      std::uintmax_t file_size) {
  const std::string ext = Lower(extension);
  if (ext == ".ply") return CheckPly(text, file_size);
  if (ext == ".stl") return CheckStl(text, file_size);
  if (ext == ".dae" || ext == ".xml") {
    return text.find("<COLLADA") == std::string_view::npos ? "" : CheckCollada(text);
  }
  if (ext == ".bvh") return CheckBvh(text);
  if (ext == ".fbx" && text.compare(0, 18, "Kaydara FBX Binary") != 0) return CheckFbxAscii(text);
  return "";
}

}  // namespace

std::string PrecheckGltf1(const std::vector<std::uint8_t>& bytes) {
  const std::string_view all(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (all.compare(0, 4, "glTF") == 0) {
    // Version 1 binary: magic, version, length, content length, content format, then JSON.
    if (bytes.size() < 20) return "";
    std::uint32_t content = 0;
    std::memcpy(&content, bytes.data() + 12, 4);
    if (content > bytes.size() - 20) return "binary glTF 1.0 header claims more JSON than it holds";
    return OneLine(CheckGltf1Json(all.substr(20, content)));
  }
  return OneLine(CheckGltf1Json(all));
}

std::string PrecheckModelText(const std::string& extension, std::string_view text,
                              std::uintmax_t file_size) {
  return OneLine(CheckText(extension, text, file_size));
}

std::string PrecheckModelFile(const fs::path& path) {
  const std::string ext = Lower(path.extension().string());
  std::size_t scan = kMaxScanBytes;
  if (ext == ".ply") {
    scan = 64u << 10;  // the header
  } else if (ext == ".stl") {
    scan = 84;
  } else if (ext != ".dae" && ext != ".xml" && ext != ".bvh" && ext != ".fbx") {
    return "";
  }
  std::string text;
  if (ext == ".fbx" && ReadHead(path, 18, &text) && text == "Kaydara FBX Binary") {
    return "";  // binary: not scanned
  }
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec ||
      !ReadHead(path, static_cast<std::size_t>(std::min<std::uintmax_t>(size, scan)), &text)) {
    return "";
  }
  return PrecheckModelText(ext, text, size);
}

}  // namespace ikpose::asset
