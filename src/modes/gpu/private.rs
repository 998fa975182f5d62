//! Adjoints that need no atomic add on a GPU: an element `base[gid]` of a
//! pointer argument, with `gid = blockIdx.x * blockDim.x + threadIdx.x`,
//! when every access of the function through `base` is at `base[gid]`
//! (loads and stores only) and at least one stores there. Then no other
//! thread's derivative touches that element's shadow: another thread of a
//! 1-D grid has another gid, and two threads sharing a gid (a grid with
//! more dimensions) would already race on the primal's store. Enzyme's
//! GPU paper shows the plain update matters for speed.
use crate::ir::llvm::*;

/// Whether the adjoint at pointer `p` (in the function being
/// differentiated) belongs to the calling thread alone (see module doc).
pub fn thread_private(p: V) -> bool {
    if !is_instruction(p) || !super::is_device(module_of(inst_fn(p))) {
        return false;
    }
    let Some((base, idx)) = gep1(p) else {
        return false;
    };
    if !is_argument(base) || !is_global_thread_index(idx) {
        return false;
    }
    let mut stored = false;
    for u in users(base) {
        let Some((b2, idx2)) = gep1(u) else {
            return false;
        };
        if b2 != base || strip_int_casts(idx2) != strip_int_casts(idx) {
            return false;
        }
        for uu in users(u) {
            match opcode(uu) {
                Some(LLVMOpcode::LLVMLoad) => {}
                Some(LLVMOpcode::LLVMStore) if operand(uu, 1) == u && operand(uu, 0) != u => {
                    stored = true
                }
                _ => return false,
            }
        }
    }
    stored
}

/// `getelementptr T, ptr base, idx` with one index: (base, idx).
fn gep1(v: V) -> Option<(V, V)> {
    (opcode(v)? == LLVMOpcode::LLVMGetElementPtr && num_operands(v) == 2)
        .then(|| (operand(v, 0), operand(v, 1)))
}

fn strip_int_casts(mut v: V) -> V {
    while matches!(opcode(v), Some(LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt)) {
        v = operand(v, 0);
    }
    v
}

/// `ctaid.x * ntid.x + tid.x` (NVPTX index registers), in any operand order.
fn is_global_thread_index(v: V) -> bool {
    let v = strip_int_casts(v);
    if opcode(v) != Some(LLVMOpcode::LLVMAdd) {
        return false;
    }
    let (a, b) = (operand(v, 0), operand(v, 1));
    let (mul, tid) = if opcode(a) == Some(LLVMOpcode::LLVMMul) {
        (a, b)
    } else {
        (b, a)
    };
    if opcode(mul) != Some(LLVMOpcode::LLVMMul) || !is_sreg(tid, "tid.x") {
        return false;
    }
    let (x, y) = (operand(mul, 0), operand(mul, 1));
    (is_sreg(x, "ctaid.x") && is_sreg(y, "ntid.x"))
        || (is_sreg(y, "ctaid.x") && is_sreg(x, "ntid.x"))
}

fn is_sreg(v: V, which: &str) -> bool {
    is_call(v)
        && called_function(v).is_some_and(|f| name(f) == format!("llvm.nvvm.read.ptx.sreg.{which}"))
}
