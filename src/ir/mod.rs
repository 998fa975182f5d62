//! IR helpers: LLVM-C wrappers, a named-method builder, the C++ shim's safe
//! wrappers. Nothing here knows about derivatives.
pub mod builder;
pub mod llvm;
pub mod shim;

pub use builder::Builder;
#[cfg(feature = "llvm22-1")]
pub mod plugin22;
#[cfg(feature = "llvm22-1")]
pub mod rustc_autodiff;
