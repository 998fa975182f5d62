//! LLVM 22 plugin entry: `llvmGetPassPluginInfo`, exported from Rust (a
//! cdylib exports only Rust-defined symbols) and filled in by the C++
//! registration in cpp/plugin22.cc, which calls back into
//! `enzyme_rs_run_module_pass` (src/lib.rs).
use std::ffi::{c_char, c_void};

/// LLVM's `PassPluginLibraryInfo` (llvm/Plugins/PassPlugin.h).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_callbacks: Option<unsafe extern "C" fn(*mut c_void)>,
}

extern "C" {
    fn ers_plugin22_info() -> PassPluginLibraryInfo;
}

/// What opt, clang and rustc look up when they load the plugin.
#[no_mangle]
pub extern "C" fn llvmGetPassPluginInfo() -> PassPluginLibraryInfo {
    unsafe { ers_plugin22_info() }
}
