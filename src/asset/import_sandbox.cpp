#include "asset/import_sandbox.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace ikpose::asset {

namespace {

// Every filesystem right of Landlock's first ABI; later ABIs add the ones below.
constexpr std::uint64_t kAbi1Rights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
    LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
    LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
    LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
    LANDLOCK_ACCESS_FS_MAKE_SYM;
// Rights the kernel's headers may not name yet (Debian 12's are from Linux 6.1).
constexpr std::uint64_t kReferRight = std::uint64_t{1} << 13;     // ABI 2: rename/link across
constexpr std::uint64_t kTruncateRight = std::uint64_t{1} << 14;  // ABI 3
constexpr std::uint64_t kReadRights = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;

std::string Errno(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

}  // namespace

int LandlockAbi() {
  const long abi =
      syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi > 0 ? static_cast<int>(abi) : 0;
}

std::string RestrictToReading(const std::vector<std::filesystem::path>& folders) {
  const int abi = LandlockAbi();
  if (abi <= 0) return Errno("the kernel has no Landlock");
  std::uint64_t handled = kAbi1Rights;
  if (abi >= 2) handled |= kReferRight;
  if (abi >= 3) handled |= kTruncateRight;

  // Only the filesystem rights: the header's later fields (network, scopes) stay zero.
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = handled;
  const long ruleset = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (ruleset < 0) return Errno("no Landlock ruleset");
  const int ruleset_fd = static_cast<int>(ruleset);
  std::string problem;
  for (const std::filesystem::path& folder : folders) {
    const int fd = open(folder.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) continue;  // gone: nothing there to read
    landlock_path_beneath_attr beneath{};
    beneath.allowed_access = kReadRights;
    beneath.parent_fd = fd;
    if (syscall(SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) != 0 &&
        problem.empty()) {
      problem = Errno(("no Landlock rule for " + folder.string()).c_str());
    }
    close(fd);
  }
  if (problem.empty() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    problem = Errno("no no_new_privs");
  }
  if (problem.empty() && syscall(SYS_landlock_restrict_self, ruleset_fd, 0) != 0) {
    problem = Errno("Landlock refused");
  }
  close(ruleset_fd);
  return problem;
}

}  // namespace ikpose::asset
