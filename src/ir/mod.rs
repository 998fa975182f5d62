//! IR helpers: LLVM-C wrappers, a named-method builder, the C++ shim's safe
//! wrappers. Nothing here knows about derivatives.
pub mod attrs;
pub mod bitcode;
pub mod blocks;
pub mod builder;
pub mod consts;
pub mod demangle;
pub mod globals;
pub mod gpu;
pub mod link;
pub mod llvm;
pub mod loopgen;
pub mod metadata;
pub mod omp;
pub mod outline;
pub mod pin;
pub mod shim;
pub mod strictfp;
pub mod sys;
pub mod typed;
pub mod types;
pub mod values;
pub mod vector;

pub use builder::Builder;
#[cfg(feature = "llvm22-1")]
pub mod plugin22;
#[cfg(feature = "llvm22-1")]
pub mod rustc_autodiff;
