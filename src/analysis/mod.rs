//! Analyses shared by every mode. They read IR and never build it.
pub mod activity;
pub mod callgraph;
pub mod escape;
pub mod halves;
pub mod mincut;
pub mod printer;
pub mod ptruse;
pub mod scc;
pub mod types;
