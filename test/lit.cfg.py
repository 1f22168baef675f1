# ===- lit.cfg.py - lit configuration for cuda-tidy -------------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
#
# Parameters (lit --param NAME=VALUE):
#   headers=stub     hermetic: test/Inputs/cuda stubs, no toolkit (default)
#   headers=toolkit  the real CUDA toolkit's headers (feature cuda-toolkit)
#
# Substitutions:
#   %check_cuda_tidy  test/cuda_tidy_check.py with clang-tidy and the plugin
#   %cuda_args        the compiler arguments of the header mode
#   %cuda_path        the CUDA toolkit's folder
#   %clang_tidy, %plugin, %inputs, %nvcc, %python
# Features: nvcc (nvcc is installed), cuda-toolkit (headers=toolkit),
#   stub-headers (headers=stub).
import os
import shutil
import lit.formats

config.name = "cuda-tidy"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".cu", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cuda_tidy_obj_root, "test")
config.excludes = ["Inputs", "unit", "gpu", "robustness", "CMakeLists.txt", "lit.cfg.py",
                   "cuda_tidy_check.py", "check_manifest.py", "compare_checks.py"]

# FileCheck, not and count come from LLVM's tools folder.
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.filecheck), os.environ.get("PATH", "")])

inputs = os.path.join(config.test_source_root, "Inputs")
headers = lit_config.params.get("headers", "stub")
if headers == "stub":
    cuda_args = "-nocudainc -nocudalib -isystem %s" % os.path.join(inputs, "cuda")
    config.available_features.add("stub-headers")
elif headers == "toolkit":
    if not os.path.exists(os.path.join(config.cuda_path, "include",
                                       "cuda_runtime.h")):
        lit_config.fatal("headers=toolkit needs the CUDA toolkit; none at '%s'"
                         % config.cuda_path)
    cuda_args = ("--cuda-path=%s -I%s -Wno-unknown-cuda-version"
                 % (config.cuda_path,
                    os.path.join(config.cuda_path, "include", "cccl")))
    config.available_features.add("cuda-toolkit")
else:
    lit_config.fatal("unknown headers mode '%s' (stub or toolkit)" % headers)
config.name += " (%s headers)" % headers

if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")

# The clang++ of the same LLVM, to make precompiled headers.
clangxx = os.path.join(os.path.dirname(config.clang_tidy), "clang++")
if os.path.exists(clangxx):
    config.available_features.add("clangxx")
    config.substitutions.append(("%clangxx", clangxx))

# Another major version of clang-tidy, to show that the plugin refuses to load
# into it with a clear message.
import glob
import re
for other in sorted(glob.glob("/usr/lib/llvm-*/bin/clang-tidy")):
    m = re.search(r"llvm-(\d+)/", other)
    if m and m.group(1) != "22":
        config.available_features.add("other-clang-tidy")
        config.substitutions.append(("%other_clang_tidy", other))
        break

runner = os.path.join(config.test_source_root, "cuda_tidy_check.py")
check = ("%s %s --clang-tidy=%s --plugin=%s --filecheck=%s"
         % (config.python, runner, config.clang_tidy, config.plugin,
            config.filecheck))
if "nvcc" in config.available_features:
    # The two header modes of a test usually fix the file alike: nvcc's
    # verdict on a fixed text is kept in the build folder and replayed.
    nvcc_cache = os.path.join(config.cuda_tidy_obj_root, "test", "nvcc-cache")
    config.substitutions.append(("%nvcc_fixed",
                                 "--nvcc=%s --nvcc-cache=%s --nvcc-arch=sm_75 "
                                 "--nvcc-arch=sm_90 --nvcc-arch=sm_100 "
                                 "--nvcc-arch=sm_120"
                                 % (config.nvcc, nvcc_cache)))
    config.substitutions.append(("%nvcc_sm90", "--nvcc=%s --nvcc-cache=%s "
                                 "--nvcc-arch=sm_90"
                                 % (config.nvcc, nvcc_cache)))
config.substitutions.append(("%check_cuda_tidy", check))
config.substitutions.append(("%cuda_args", cuda_args))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%clang_tidy", config.clang_tidy))
config.substitutions.append(("%plugin", config.plugin))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%nvcc", config.nvcc))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%src_root", config.cuda_tidy_src_root))
config.substitutions.append(("%build_root", config.cuda_tidy_obj_root))

# The driver's runs share their precompiled CUDA headers through a kept
# folder (tools/cuda-tidy/PchCache.h), one per header mode, as a user's
# repeated runs do; --param pch=off runs every test without it (each run
# then shares PCHs only between the files of one run).
# The folder starts empty in every lit run, so that no run depends on an
# earlier one.
if lit_config.params.get("pch", "kept") == "kept":
    pch_cache = os.path.join(config.cuda_tidy_obj_root, "test",
                             "pch-cache-" + headers)
    shutil.rmtree(pch_cache, ignore_errors=True)
    config.environment["CUDA_TIDY_PCH_CACHE"] = pch_cache

# The drivers (tools/): %cuda_tidy, %cuda_clangd, %clang_apply_replacements,
# %run_clang_tidy, %cmake, %node, %sarif_validate, %lsp_client. Features:
# cuda-tidy-driver, cuda-clangd, cmake, sarif-validator (node with ajv and
# the SARIF 2.1.0 schema installed under --param sarif_tools=DIR, default
# /opt/cuda-tidy-ci/npm; .ci/run installs them).
drivers_bin = os.path.join(config.cuda_tidy_obj_root, "bin")
llvm_bin = os.path.dirname(config.clang_tidy)
for name, feature in (("cuda-tidy", "cuda-tidy-driver"),
                      ("cuda-clangd", "cuda-clangd")):
    path = os.path.join(drivers_bin, name)
    if os.path.exists(path):
        config.available_features.add(feature)
    config.substitutions.append(("%" + name.replace("-", "_"), path))
config.substitutions.append(("%clang_apply_replacements",
                             os.path.join(llvm_bin, "clang-apply-replacements")))
config.substitutions.append(("%run_clang_tidy",
                             os.path.join(llvm_bin, "run-clang-tidy")))
drivers_tests = os.path.join(config.test_source_root, "drivers")
config.substitutions.append(("%lsp_client", "%s %s" % (
    config.python, os.path.join(drivers_tests, "Inputs", "lsp_client.py"))))
# Neovim (Debian's 0.7) for the editor recipe's test: feature nvim.
nvim = shutil.which("nvim")
if nvim:
    config.available_features.add("nvim")
    config.substitutions.append(("%nvim", nvim))
# pre-commit (Debian's 3.0.4) for the hook's test: feature pre-commit.
pre_commit = shutil.which("pre-commit")
if pre_commit and shutil.which("git"):
    config.available_features.add("pre-commit")
    config.substitutions.append(("%pre_commit", pre_commit))
cmake = shutil.which("cmake")
if cmake:
    config.available_features.add("cmake")
    config.substitutions.append(("%cmake", cmake))
sarif_tools = lit_config.params.get("sarif_tools", "/opt/cuda-tidy-ci/npm")
sarif_schema = os.path.join(sarif_tools, "node_modules", "@microsoft",
                            "sarif-multitool-linux", "sarif-2.1.0.json")
node = shutil.which("node")
if node and os.path.exists(sarif_schema) and os.path.isdir(
        os.path.join(sarif_tools, "node_modules", "ajv")):
    config.available_features.add("sarif-validator")
    config.substitutions.append(("%sarif_validate", "%s %s %s %s" % (
        node, os.path.join(drivers_tests, "Inputs", "validate_sarif.js"),
        sarif_tools, sarif_schema)))
