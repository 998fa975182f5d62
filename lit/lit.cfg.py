# lit configuration for enzyme-rs: IR-shape, printer and diagnostic tests.
# ENZYME_RS_LLVM=22 runs them with opt-22/clang-22/FileCheck-22 and the
# LLVM 22 plugin (target/llvm22/release); the default is LLVM 16.
import os
import lit.formats

llvm = os.environ.get("ENZYME_RS_LLVM", "16")
config.name = "enzyme-rs (LLVM %s)" % llvm
config.test_format = lit.formats.ShTest(False)
config.suffixes = [".ll", ".c"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(root, "target", "lit" if llvm == "16" else "lit" + llvm)
release = os.path.join("target", "release") if llvm == "16" else os.path.join("target", "llvm" + llvm, "release")
plugin = os.path.join(root, release, "libenzyme_rs.so")
llvm_bin = "/usr/lib/llvm-%s/bin" % llvm
# tests/plugin-checked.sh: another build of the plugin (debug assertions),
# and a folder of wrappers that run opt/clang under a leak check.
plugin = os.environ.get("ENZYME_RS_PLUGIN", plugin)
wrap = os.environ.get("ENZYME_RS_TOOL_WRAP")
if wrap:
    config.environment["ENZYME_RS_REAL_BIN"] = llvm_bin
    config.environment["LSAN_OPTIONS"] = os.environ.get("LSAN_OPTIONS", "")
    config.environment["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "")
    llvm_bin = wrap
config.available_features.add("llvm" + llvm)
config.environment["ENZYME_RS_LLVM"] = llvm
config.environment["PATH"] = llvm_bin + os.pathsep + os.environ.get("PATH", "")
config.substitutions.append(("%loadenzyme", "-load-pass-plugin=" + plugin))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%include", os.path.join(root, "include")))
config.substitutions.append(("%opt", os.path.join(llvm_bin, "opt")))
config.substitutions.append(("%clang", os.path.join(llvm_bin, "clang")))
config.substitutions.append(("%FileCheck", os.path.join(llvm_bin, "FileCheck")))
