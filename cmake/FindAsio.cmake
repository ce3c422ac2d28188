# Standalone Asio (Debian: libasio-dev), header-only and without a CMake package of its own.
# Defines Asio::Asio: the include folder, ASIO_STANDALONE (no Boost) and the thread library.
find_path(ASIO_INCLUDE_DIR asio.hpp)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Asio REQUIRED_VARS ASIO_INCLUDE_DIR)
if(Asio_FOUND AND NOT TARGET Asio::Asio)
  find_package(Threads REQUIRED)
  add_library(Asio::Asio INTERFACE IMPORTED)
  set_target_properties(Asio::Asio PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${ASIO_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS "ASIO_STANDALONE;ASIO_NO_DEPRECATED"
    INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
mark_as_advanced(ASIO_INCLUDE_DIR)
