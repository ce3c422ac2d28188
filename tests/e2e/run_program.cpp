#include "run_program.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ikpose::test {

namespace {

std::string Quote(const std::string& s) {
  std::string q(1, '\'');
  for (char c : s) {
    if (c == '\'') {
      q.append("'\\''");
    } else {
      q.push_back(c);
    }
  }
  q.push_back('\'');
  return q;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::string MakeTempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "ikpose-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

ProgramResult RunIkpose(const std::vector<std::string>& args, const std::string& stdin_text,
                        const std::vector<std::string>& env,
                        const std::vector<std::string>& wrapper) {
  const std::filesystem::path dir = MakeTempDir();
  {
    std::ofstream in(dir / "stdin", std::ios::binary);
    in << stdin_text;
  }
  // Built with append(): g++ 12 misreports `"literal" + std::string` as overlapping (-Wrestrict).
  std::string command = "env";
  const auto add = [&command](const std::string& word) { command.append(" ").append(word); };
  for (const auto& e : env) add(Quote(e));
  for (const auto& w : wrapper) add(Quote(w));
  add(Quote(IKPOSE_EXE));
  for (const auto& a : args) add(Quote(a));
  add("<" + Quote((dir / "stdin").string()));
  add(">" + Quote((dir / "stdout").string()));
  add("2>" + Quote((dir / "stderr").string()));
  const int status = std::system(command.c_str());
  ProgramResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = ReadFile(dir / "stdout");
  result.err = ReadFile(dir / "stderr");
  std::filesystem::remove_all(dir);
  return result;
}

}  // namespace ikpose::test
