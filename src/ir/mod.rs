//! IR helpers: LLVM-C wrappers, a named-method builder, the C++ shim's safe
//! wrappers. Nothing here knows about derivatives.
pub mod builder;
pub mod consts;
pub mod globals;
pub mod bitcode;
pub mod link;
pub mod llvm;
pub mod metadata;
pub mod shim;
pub mod types;
pub mod values;

pub use builder::Builder;
