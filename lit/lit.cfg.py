# lit configuration for enzyme-rs: IR-shape, printer and diagnostic tests.
import os
import lit.formats

config.name = "enzyme-rs"
config.test_format = lit.formats.ShTest(False)
config.suffixes = [".ll", ".c"]
config.test_source_root = os.path.dirname(__file__)
root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(root, "target", "lit")
plugin = os.path.join(root, "target", "release", "libenzyme_rs.so")
llvm_bin = "/usr/lib/llvm-16/bin"
config.environment["PATH"] = llvm_bin + os.pathsep + os.environ.get("PATH", "")
config.substitutions.append(("%loadenzyme", "-load-pass-plugin=" + plugin))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%include", os.path.join(root, "include")))
config.substitutions.append(("%opt", os.path.join(llvm_bin, "opt")))
config.substitutions.append(("%clang", os.path.join(llvm_bin, "clang")))
config.substitutions.append(("%FileCheck", os.path.join(llvm_bin, "FileCheck")))
