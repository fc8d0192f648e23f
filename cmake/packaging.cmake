# cmake/packaging.cmake: Debian packages through CPack (`cpack -G DEB` in a build directory;
# .ci/package.sh builds them as they are meant to be: shared library, prefix /usr, no tests).
#   ampcl      the runtime: libampcl.so.<major> and the amp- programs (component runtime, the
#              default of every install() that names none)
#   ampcl-dev  headers, the kernel prelude, the CMake package with ampcl_embed_cl, ampcl.pc, the
#              libampcl.so link (component dev)
# Dependencies: dpkg-shlibdeps computes the runtime's from what its binaries link (OpenCL's ICD
# loader, CLBlast, OpenBLAS, libpng, SDL2, MPI ...); an OpenCL implementation is recommended, the
# -dev package needs the runtime of the same version and OpenCL's headers and loader link.
set(CPACK_PACKAGE_NAME ampcl)
set(CPACK_PACKAGE_VENDOR "ampcl")
# Debian requires a Maintainer field; this names no real address (the .invalid domain).
set(CPACK_PACKAGE_CONTACT "ampcl maintainers <maintainers@ampcl.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "The C++ AMP programming model in C, over OpenCL")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # ampcl_0.1.0_amd64.deb, ampcl-dev_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION libs)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ampcl)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "ampcl brings C++ AMP's model to plain C: accelerators, array views with lazy
synchronisation, extents and tiles, and parallel_for_each over OpenCL C kernels. This package
holds the shared library and the amp- programs (amp-info, the examples, amp-bench).")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# The programs link libampcl.so.<major> of this same package: dpkg-shlibdeps finds it here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME ampcl-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "Headers, the CMake package (find_package(ampcl), ampcl_embed_cl), the pkg-config file and the
scripts that embed a program's kernels, check them with the kernel prelude at build time (with
clang) and write their typed launchers, for building programs against ampcl.")
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "ampcl (= ${PROJECT_VERSION}), ocl-icd-opencl-dev, opencl-c-headers")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "cmake (>= 3.20), pkg-config")
# clang's OpenCL C front end: ampcl_embed_cl's build-time kernel checks (off without it)
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "clang")
include(CPack)
