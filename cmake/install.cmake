# cmake/install.cmake - what `cmake --install` puts where, and the Debian package `cpack -G DEB`
# makes of it (docs/INSTALL.md). Paths are relative to the prefix, so an installed tree can move.
include(GNUInstallDirs)

install(TARGETS llctrace RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# the Python package's C library, and the script --renderdoc runs
install(TARGETS llctrace_py LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES scripts/rdc_events.py DESTINATION ${CMAKE_INSTALL_DATADIR}/llctrace)

# The layer, and its manifest where the Vulkan loader looks for explicit layers
# (PREFIX/share/vulkan/explicit_layer.d: /usr/share, /usr/local/share and $XDG_DATA_DIRS are
# searched), naming the library by a path relative to the manifest.
if(LLCT_CAPTURE)
  install(TARGETS VkLayer_llctrace_capture LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  set(LLCT_MANIFEST_DIR ${CMAKE_INSTALL_DATADIR}/vulkan/explicit_layer.d)
  file(RELATIVE_PATH LAYER_PATH /${LLCT_MANIFEST_DIR}
       /${CMAKE_INSTALL_LIBDIR}/libVkLayer_llctrace_capture.so)
  configure_file(capture/13-device/VkLayer_llctrace_capture.json.in
                 ${CMAKE_BINARY_DIR}/install/VkLayer_llctrace_capture.json @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/install/VkLayer_llctrace_capture.json
          DESTINATION ${LLCT_MANIFEST_DIR})
endif()

# The Python package, where Debian's python3 finds packages under /usr
# (lib/python3/dist-packages), with the path of its C library relative to it.
set(LLCT_PYTHON_DIR lib/python3/dist-packages CACHE STRING
    "where the Python package goes, relative to the prefix")
file(RELATIVE_PATH LLCT_PY_LIB /${LLCT_PYTHON_DIR}/llctrace /${CMAKE_INSTALL_LIBDIR}/libllctrace.so)
file(WRITE ${CMAKE_BINARY_DIR}/install/_installed.py
     "\"\"\"Written by cmake --install: where this installed package's C library is.\"\"\"\n"
     "LIBRARY = \"${LLCT_PY_LIB}\"  # relative to this folder\n")
install(FILES python/llctrace/__init__.py python/llctrace/_version.py
              ${CMAKE_BINARY_DIR}/install/_installed.py
        DESTINATION ${LLCT_PYTHON_DIR}/llctrace)

# The manual page, made from the program's own help (so it cannot drift from it), bash
# completion, the documents.
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/llctrace.1
  COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/manpage.sh $<TARGET_FILE:llctrace>
          ${CMAKE_BINARY_DIR}/llctrace.1
  DEPENDS llctrace ${CMAKE_SOURCE_DIR}/scripts/manpage.sh
  COMMENT "Writing the manual page from llctrace's help")
add_custom_target(manpage ALL DEPENDS ${CMAKE_BINARY_DIR}/llctrace.1)
install(FILES ${CMAKE_BINARY_DIR}/llctrace.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES scripts/llctrace.bash RENAME llctrace
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")

# cpack -G DEB: one package, its dependencies stated (dpkg-shlibdeps adds what the binaries
# link); what only some features need is recommended.
set(CPACK_PACKAGE_NAME llctrace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "llctrace developers <llctrace@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "GPU last-level cache traces of real frames: a Vulkan capture layer, replay, results")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libvulkan1, liblz4-1, libsqlite3-0, zlib1g, libinih1, python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "mesa-vulkan-drivers, xvfb, python3-numpy, python3-pandas, python3-renderdoc, librenderdoc")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "vulkan-validationlayers, slurm-wlm, chromium")
include(CPack)
