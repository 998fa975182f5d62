//! Small edits of the control-flow graph (for outlining a loop iteration:
//! `modes/iface/fixed_point.rs`).
use crate::ir::llvm::*;
use crate::ir::sys::core::{LLVMMoveBasicBlockBefore, LLVMSetSuccessor};

/// Make successor `k` of terminator `term` the block `bb`.
pub fn set_successor(term: V, k: u32, bb: BB) {
    unsafe { LLVMSetSuccessor(term, k, bb) }
}

/// Move `bb` to the front of its function (making it the entry block; it
/// must have no predecessors).
pub fn move_to_front(f: V, bb: BB) {
    if let Some(first) = blocks(f).first().copied() {
        if first != bb {
            unsafe { LLVMMoveBasicBlockBefore(bb, first) }
        }
    }
}

/// A basic block as a value (for value maps).
pub fn block_as_value(bb: BB) -> V {
    unsafe { crate::ir::sys::core::LLVMBasicBlockAsValue(bb) }
}

/// The basic block a value (from [`block_as_value`]) stands for.
pub fn value_as_block(v: V) -> BB {
    unsafe { crate::ir::sys::core::LLVMValueAsBasicBlock(v) }
}
