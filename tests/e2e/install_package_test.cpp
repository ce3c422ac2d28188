// The installed package, as a game developer uses it: `cmake --install` into a fresh prefix,
// examples/consumer built against it with find_package(ikpose) and with pkg-config, and the C
// program's answers compared with `ikpose solve` on the same cases.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct CommandResult {
  int exit_code = -1;
  std::string out;  // standard output and standard error together
};

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q.append("'\\''");
    } else {
      q.push_back(c);
    }
  }
  return q.append("'");
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `words` (env assignments first are fine: the command goes through `env`) with `input`
// on standard input.
CommandResult RunCommand(const std::vector<std::string>& words, const fs::path& dir,
                         const std::string& input = "") {
  const fs::path in = dir / "command.in", out = dir / "command.out";
  std::ofstream(in, std::ios::binary) << input;
  std::string command = "env";
  for (const std::string& w : words) command.append(" ").append(Quote(w));
  command.append(" <").append(Quote(in.string())).append(" >").append(Quote(out.string()));
  command.append(" 2>&1");
  const int status = std::system(command.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadText(out);
  return r;
}

std::string Digits(float x) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

struct Cases {
  std::string numbers;  // the consumer's input: 12 numbers a line, 15 with a pole
  std::string json;     // `ikpose solve`'s input: the same floats
  int count = 0;
};

// Reachable, too far, too close, targets on the hip, zero bones; a fifth of them with a pole.
Cases MakeCases(int count) {
  std::mt19937 rng(2111);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> kind(0, 9);
  Cases cases;
  for (int i = 0; i < count; ++i) {
    float p[15];
    for (float& x : p) x = u(rng);
    const int points = i % 5 == 4 ? 5 : 4;  // every fifth case with a pole
    const int k = kind(rng);
    if (k == 0) {
      for (int j = 0; j < 3; ++j) p[9 + j] = 10.f * p[9 + j];  // far away
    } else if (k == 1) {
      for (int j = 0; j < 3; ++j) p[9 + j] = p[j] + 1e-3f * p[9 + j];  // close to the hip
    } else if (k == 2) {
      for (int j = 0; j < 3; ++j) p[9 + j] = p[j];  // on the hip: refused
    } else if (k == 3) {
      for (int j = 0; j < 3; ++j) p[6 + j] = p[3 + j];  // a zero lower bone: refused
    }
    std::string numbers, line = "{";
    const char* keys[5] = {"a", "b", "c", "t", "pole"};
    for (int v = 0; v < points; ++v) {
      line.append(v ? ",\"" : "\"").append(keys[v]).append("\":[");
      for (int j = 0; j < 3; ++j) {
        const std::string d = Digits(p[3 * v + j]);
        numbers.append(numbers.empty() ? "" : " ").append(d);
        line.append(j ? "," : "").append(d);
      }
      line.append("]");
    }
    cases.numbers += numbers + "\n";
    cases.json += line + "}\n";
    ++cases.count;
  }
  return cases;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

int ExpectedCode(const json& line) {
  if (!line.contains("error_message")) return 0;
  const std::string m = line["error_message"];
  if (m.find("(non_finite)") != std::string::npos) return 2;
  if (m.find("(zero_length_upper)") != std::string::npos) return 3;
  if (m.find("(zero_length_lower)") != std::string::npos) return 4;
  if (m.find("(target_on_hip)") != std::string::npos) return 5;
  return -1;
}

// The consumer's output against `ikpose solve`'s: the same floats (both print digits that read
// back to the exact float) and the same refusals.
void ExpectSameAsSolve(const std::string& consumer_out, const std::vector<json>& solve,
                       const std::string& how) {
  const std::vector<std::string> got = Lines(consumer_out);
  ASSERT_EQ(got.size(), solve.size()) << how << ":\n" << consumer_out.substr(0, 2000);
  int solved = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    std::istringstream words(got[i]);
    std::string status;
    words >> status;
    const int expected = ExpectedCode(solve[i]);
    ASSERT_NE(expected, -1) << solve[i].dump();
    if (expected != 0) {
      int code = 0;
      words >> code;
      EXPECT_EQ(status, "error") << how << " case " << i << ": " << got[i];
      EXPECT_EQ(code, expected) << how << " case " << i << ": " << got[i];
      continue;
    }
    ASSERT_EQ(status, "ok") << how << " case " << i << ": " << got[i];
    ++solved;
    for (const char* key : {"b", "c"}) {
      for (int j = 0; j < 3; ++j) {
        double value = 0.;
        words >> value;
        EXPECT_EQ(static_cast<float>(value), static_cast<float>(solve[i][key][j].get<double>()))
            << how << " case " << i << " " << key << "[" << j << "]: " << got[i] << "\n"
            << solve[i].dump();
      }
    }
  }
  EXPECT_GT(solved, static_cast<int>(got.size()) / 2) << how;
}

TEST(InstalledPackage, CmakeAndPkgConfigConsumersGiveWhatIkposeSolveGives) {
  const fs::path tmp = MakeTempDir();
  // Removed however the test ends (an ASSERT returns early): a prefix and two builds.
  struct RemoveOnExit {
    fs::path dir;
    ~RemoveOnExit() {
      std::error_code ignored;
      fs::remove_all(dir, ignored);
    }
  } remove_on_exit{tmp};
  const fs::path prefix = tmp / "prefix";
  const fs::path source = fs::path(IKPOSE_SOURCE_DIR) / "examples" / "consumer";

  // Install into a fresh prefix: the solver, the animation layer, their headers, the package.
  const CommandResult install =
      RunCommand({IKPOSE_CMAKE, "--install", IKPOSE_BINARY_DIR, "--prefix", prefix.string()}, tmp);
  ASSERT_EQ(install.exit_code, 0) << install.out;
  const fs::path libdir = prefix / IKPOSE_INSTALL_LIBDIR;
  for (const fs::path& file :
       {prefix / "include/ikpose/ikpose.h", prefix / "include/ikpose/ikpose_link.h",
        prefix / "include/ikpose/ik/two_bone_positions.h",
        prefix / "include/ikpose/anim/knee_policy.h", libdir / "libikpose_ik.a",
        libdir / "libikpose_anim.a", libdir / "cmake/ikpose/ikposeConfig.cmake",
        libdir / "cmake/ikpose/ikposeConfigVersion.cmake", libdir / "pkgconfig/ikpose.pc"}) {
    EXPECT_TRUE(fs::is_regular_file(file)) << file;
  }
  // Nothing of the window, the GPU, the UI, the importer or JSON comes along.
  for (const auto& entry : fs::recursive_directory_iterator(prefix)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find("ikpose_app"), std::string::npos) << entry.path();
    EXPECT_EQ(name.find("ikpose_render"), std::string::npos) << entry.path();
    EXPECT_EQ(name.find("ikpose_ui"), std::string::npos) << entry.path();
    EXPECT_EQ(name.find("ikpose_asset"), std::string::npos) << entry.path();
    EXPECT_EQ(name.find("ikpose_scene"), std::string::npos) << entry.path();
    if (entry.path().extension() == ".h") {
      const std::string text = ReadText(entry.path());
      for (const char* outside : {"<SDL", "<GL/", "<glad/", "imgui", "<assimp/", "<nlohmann/"}) {
        EXPECT_EQ(text.find(outside), std::string::npos) << entry.path() << " includes " << outside;
      }
    }
  }

  // find_package(ikpose 0.1): the example's CMake project, configured and built from scratch.
  const fs::path cmake_build = tmp / "cmake-build";
  const CommandResult configure = RunCommand(
      {IKPOSE_CMAKE, "-S", source.string(), "-B", cmake_build.string(), "-G", IKPOSE_GENERATOR,
       "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_C_COMPILER=" IKPOSE_C_COMPILER,
       "-DCMAKE_PREFIX_PATH=" + prefix.string()},
      tmp);
  ASSERT_EQ(configure.exit_code, 0) << configure.out;
  const CommandResult cmake_make = RunCommand({IKPOSE_CMAKE, "--build", cmake_build.string()}, tmp);
  ASSERT_EQ(cmake_make.exit_code, 0) << cmake_make.out;

  // pkg-config --cflags --libs ikpose: the example's Makefile, run from another folder.
  const fs::path pc_build = tmp / "pkg-config-build";
  fs::create_directories(pc_build);
  const CommandResult pc_make =
      RunCommand({"PKG_CONFIG_PATH=" + (libdir / "pkgconfig").string(),
                  "PKG_CONFIG=" IKPOSE_PKG_CONFIG, IKPOSE_MAKE, "-C", pc_build.string(), "-f",
                  (source / "Makefile").string(), "CC=" IKPOSE_C_COMPILER},
                 tmp);
  ASSERT_EQ(pc_make.exit_code, 0) << pc_make.out;

  const std::vector<fs::path> programs = {cmake_build / "consumer", pc_build / "consumer"};
  for (const fs::path& program : programs) {
    const CommandResult version = RunCommand({program.string(), "--version"}, tmp);
    EXPECT_EQ(version.exit_code, 0) << version.out;
    EXPECT_NE(version.out.find("header " IKPOSE_PROJECT_VERSION), std::string::npos) << version.out;
    // The natural policy from C: a foot lifted forward puts the knee ahead of the foot.
    const CommandResult natural = RunCommand({program.string(), "--natural"}, tmp);
    ASSERT_EQ(natural.exit_code, 0) << natural.out;
    std::istringstream words(natural.out);
    std::string knee_word, foot_word;
    float knee[3] = {}, foot[3] = {};
    words >> knee_word >> knee[0] >> knee[1] >> knee[2] >> foot_word >> foot[0] >> foot[1] >>
        foot[2];
    EXPECT_EQ(knee_word, "knee") << natural.out;
    EXPECT_NEAR(foot[2], 0.4f, 1e-5f) << natural.out;
    EXPECT_GT(knee[2], 0.45f) << natural.out;
  }

  // 500 cases through `ikpose solve` and through both programs.
  const Cases cases = MakeCases(500);
  const ProgramResult solve = RunIkpose({"solve"}, cases.json);
  std::vector<json> solved;
  for (const std::string& line : Lines(solve.out)) solved.push_back(json::parse(line));
  ASSERT_EQ(static_cast<int>(solved.size()), cases.count) << solve.err;
  for (const fs::path& program : programs) {
    const CommandResult run = RunCommand({program.string()}, tmp, cases.numbers);
    EXPECT_EQ(run.exit_code, 1) << "the refused cases make the run fail";
    ExpectSameAsSolve(run.out, solved, program.parent_path().filename().string());
  }

  // Semantic versioning: the package answers a request for its own major version only.
  const fs::path script = tmp / "version_check.cmake";
  std::ofstream(script) << "set(PACKAGE_FIND_VERSION ${V})\n"
                           "string(REPLACE \".\" \";\" parts ${V})\n"
                           "list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)\n"
                           "list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)\n"
                           "set(PACKAGE_FIND_VERSION_PATCH 0)\n"
                           "include(${F})\n"
                           "message(\"compatible=${PACKAGE_VERSION_COMPATIBLE}\")\n";
  const std::string version_file = (libdir / "cmake/ikpose/ikposeConfigVersion.cmake").string();
  const auto compatible = [&](const std::string& v) {
    return RunCommand({IKPOSE_CMAKE, "-DV=" + v, "-DF=" + version_file, "-P", script.string()}, tmp)
        .out;
  };
  EXPECT_NE(compatible("0.1").find("compatible=TRUE"), std::string::npos);
  EXPECT_NE(compatible("1.0").find("compatible=FALSE"), std::string::npos);
  EXPECT_NE(compatible("0.99").find("compatible=FALSE"), std::string::npos);  // newer than this
}

}  // namespace
}  // namespace ikpose::test
