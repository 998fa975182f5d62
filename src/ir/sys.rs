//! The LLVM-C bindings of the LLVM the plugin is built against (exactly one
//! of the features `llvm16-0` and `llvm22-1`), under one name. Only `src/ir/`
//! uses them: `use crate::ir::sys::core::*` and so on.
#[cfg(feature = "llvm16-0")]
pub use ::llvm_sys::*;
#[cfg(all(feature = "llvm22-1", not(feature = "llvm16-0")))]
pub use ::llvm_sys_221::*;
