#===- cmake/Packaging.cmake - install rules and the Debian package ---------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
#===-----------------------------------------------------------------------===#
#
# cmake --install: the plugin, the drivers and the docs. cpack -G DEB: a
# package that uses Debian's LLVM ${CUDA_TIDY_LLVM_MAJOR} packages instead of
# carrying its own copy of LLVM.
include(GNUInstallDirs)

install(TARGETS ${CUDA_TIDY_DRIVERS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# A fixed folder, so that docs and scripts can name the plugin.
install(TARGETS CudaTidy LIBRARY DESTINATION lib/cuda-tidy)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
  DESTINATION ${CMAKE_INSTALL_DOCDIR}
  FILES_MATCHING PATTERN "*.md" PATTERN "DEVELOPING.md" EXCLUDE)
# CodeChecker: the labels of the cuda-* checks and the script that adds them
# to CodeChecker's own (docs/usage-codechecker.md).
install(FILES ${PROJECT_SOURCE_DIR}/tools/codechecker/cuda-tidy-labels.json
  DESTINATION ${CMAKE_INSTALL_DATADIR}/cuda-tidy/codechecker)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/codechecker/merge_labels.py
  DESTINATION ${CMAKE_INSTALL_DATADIR}/cuda-tidy/codechecker)
foreach(doc README.md LICENSE)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${doc})
    install(FILES ${PROJECT_SOURCE_DIR}/${doc} DESTINATION ${CMAKE_INSTALL_DOCDIR})
  endif()
endforeach()

set(CPACK_PACKAGE_NAME "cuda-tidy")
set(CPACK_PACKAGE_VERSION "${CUDA_TIDY_VERSION}")
set(CPACK_PACKAGE_CONTACT "cuda-tidy developers <cuda-tidy@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "clang-tidy checks for CUDA portability hazards, with clang-tidy and clangd drivers")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE "amd64")
# libclang-cpp and libLLVM are linked; the resource headers (the CUDA
# wrappers) come from libclang-common; the plugin is for clang-tidy-N.
set(M ${CUDA_TIDY_LLVM_MAJOR})
find_program(CUDA_TIDY_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(CUDA_TIDY_DPKG_SHLIBDEPS)
  # The shared libraries' packages (libclang-cpp22, libllvm22, and for
  # cuda-clangd libgrpc++ and libprotobuf) as dpkg-shlibdeps finds them.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-common-${M}-dev")
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libclang-cpp${M}, libllvm${M}, libclang-common-${M}-dev")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-${M}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clang-tools-${M}, nvidia-cuda-toolkit")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
include(CPack)
