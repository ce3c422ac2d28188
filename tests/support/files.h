// Looking at files the way a test of a writer needs to: what a folder holds (a temporary file
// left behind shows up whatever its name), a file's bytes, and its inode (which says whether a
// file was replaced or rewritten in place).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ikpose::test {

// Every name in `dir`, sorted.
inline std::vector<std::string> Listing(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The file's bytes; empty when it cannot be read.
inline std::string FileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every byte of the open file `fd` from its start (pread: the offset stays where it was), as
// a reader holding the file open sees it.
inline std::string OpenFileBytes(int fd) {
  std::string text;
  char buffer[4096];
  off_t at = 0;
  for (ssize_t n; (n = ::pread(fd, buffer, sizeof buffer, at)) > 0; at += n) {
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

// The file's inode number, 0 when it does not exist.
inline ino_t InodeOf(const std::filesystem::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

}  // namespace ikpose::test
