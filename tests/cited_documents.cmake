# cmake -DROOT=<source dir> -P cited_documents.cmake
# Every document the project's files cite (a `*.md` name in source, CMake, scripts and the
# README) exists in the repository: a clone has what the code calls its contract. A name is
# looked for from the root and from the citing file's folder (`README.md here`).
file(GLOB_RECURSE files LIST_DIRECTORIES false
     "${ROOT}/src/*" "${ROOT}/cmake/*" "${ROOT}/tests/*" "${ROOT}/bench/*" "${ROOT}/fuzz/*"
     "${ROOT}/tools/*" "${ROOT}/shaders/*" "${ROOT}/.ci/*")
list(FILTER files EXCLUDE REGEX "/fuzz/corpus/|/node_modules/|\\.(glb|png|bin)$")
list(APPEND files "${ROOT}/CMakeLists.txt" "${ROOT}/CMakePresets.json" "${ROOT}/setup.sh"
     "${ROOT}/README.md" "${ROOT}/third_party/CMakeLists.txt" "${ROOT}/docs/DESIGN.md")
set(missing "")
set(cited 0)
foreach(f IN LISTS files)
  if(NOT EXISTS "${f}")
    continue()
  endif()
  file(STRINGS "${f}" lines REGEX "[A-Za-z0-9_]\\.md")
  get_filename_component(dir "${f}" DIRECTORY)
  foreach(line IN LISTS lines)
    # `.md` ends the name (not `.md5mesh`).
    string(REGEX MATCHALL "[A-Za-z0-9_./-]*[A-Za-z0-9_]\\.md([^A-Za-z0-9_]|$)" names "${line}")
    foreach(name IN LISTS names)
      string(REGEX REPLACE "[^A-Za-z0-9_]$" "" name "${name}")
      math(EXPR cited "${cited} + 1")
      if(NOT EXISTS "${ROOT}/${name}" AND NOT EXISTS "${dir}/${name}")
        file(RELATIVE_PATH where "${ROOT}" "${f}")
        list(APPEND missing "${where} cites ${name}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(missing)
  list(JOIN missing "\n  " text)
  message(FATAL_ERROR "documents cited but not in the repository:\n  ${text}")
endif()
message(STATUS "${cited} citations of documents, all present")
