# Helpers that give every ikpose target the same warnings and enforce the layer rules of
# docs/DESIGN.md: a library listing FORBID patterns fails to build when one of its sources
# includes a header of a layer it must not use.

set(IKPOSE_WARNINGS -Wall -Wextra -Wshadow)
# g++ 12 reports `"literal" + std::string` as an overlapping memcpy at -O2 (GCC bug 105651);
# that false positive would make -Werror reject ordinary string code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND IKPOSE_WARNINGS -Wno-restrict)
endif()

# clang (the fuzz build) flags `&` on bools, which the solver's fast path uses on purpose (several
# conditions without a branch each), and GCC's loop pragmas it does not know.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  list(APPEND IKPOSE_WARNINGS -Wno-bitwise-instead-of-logical -Wno-unknown-pragmas)
endif()

function(ikpose_warnings target)
  target_compile_options(${target} PRIVATE ${IKPOSE_WARNINGS})
  if(IKPOSE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# ikpose_layer(<target> FORBID <regex>...)
# Scans the target's own sources before compiling; an #include matching a FORBID regex is a
# build error naming the file, the line and the rule.
function(ikpose_layer target)
  cmake_parse_arguments(ARG "" "" "FORBID" ${ARGN})
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(files "")
  foreach(s IN LISTS sources)
    cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY ${source_dir} OUTPUT_VARIABLE abs)
    list(APPEND files ${abs})
  endforeach()
  file(GLOB headers ${source_dir}/*.h)
  list(APPEND files ${headers})
  list(REMOVE_DUPLICATES files)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${target}.layer.stamp)
  string(REPLACE ";" "@@" forbid "${ARG_FORBID}")
  string(REPLACE ";" "@@" filelist "${files}")
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} "-DFILES=${filelist}" "-DFORBID=${forbid}" "-DLAYER=${target}"
            -DSTAMP=${stamp} -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayer.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/CheckLayer.cmake
    COMMENT "Checking the layer rules of ${target}"
    VERBATIM)
  add_custom_target(${target}_layer_check DEPENDS ${stamp})
  add_dependencies(${target} ${target}_layer_check)
endfunction()

# ikpose_library(<name> SOURCES ... [DEPS ...] [PRIVATE_DEPS ...] [FORBID ...])
function(ikpose_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS;FORBID" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  # The build tree includes "ik/...", "anim/..." from src; an installed library (IkposeInstall.cmake)
  # adds its own include folder.
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  ikpose_warnings(${name})
  if(ARG_FORBID)
    ikpose_layer(${name} FORBID ${ARG_FORBID})
  endif()
endfunction()

# ikpose_test(<name> SOURCES ... LIBS ... [LABELS label] [ENVIRONMENT NAME=value])
# One label and one environment entry: gtest_discover_tests flattens lists in PROPERTIES.
function(ikpose_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS;ENVIRONMENT" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE
    IKPOSE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    IKPOSE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  ikpose_warnings(${name})
  if(TARGET ikpose_import)
    add_dependencies(${name} ikpose_import)  # loading a model runs it
  endif()
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  set(props LABELS "${ARG_LABELS}")
  if(ARG_ENVIRONMENT)
    list(APPEND props ENVIRONMENT "${ARG_ENVIRONMENT}")
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES ${props})
endfunction()

# Headers of each outside layer, as include regexes.
set(IKPOSE_INC_GL "#include *[<\"](glad/|GL/|GLES|EGL/)")
set(IKPOSE_INC_SDL "#include *[<\"](SDL2?/|SDL[_.a-z]*\\.h)")
set(IKPOSE_INC_IMGUI "#include *[<\"](imgui/|imgui[_a-z]*\\.h|backends/)")
set(IKPOSE_INC_ASSIMP "#include *[<\"]assimp/")
set(IKPOSE_INC_JSON "#include *[<\"]nlohmann/")
# Networking (Asio, sockets) belongs to the app layer: the live link.
set(IKPOSE_INC_NET "#include *[<\"](asio[./]|sys/socket\\.h|netinet/|arpa/inet\\.h|netdb\\.h)")

# Programs that open a GL context: Mesa dlcloses its driver before exit, so LeakSanitizer sees
# the driver's allocations from an "<unknown module>" that no suppression can name. Those runs
# keep every address and UB check but skip the leak report; leak checks stay on everywhere else.
set(IKPOSE_GL_TEST_ENV "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
