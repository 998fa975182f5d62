//! MPI calls (OpenMPI's ABI: handles are addresses of globals such as
//! `ompi_mpi_comm_world`, `ompi_mpi_double`): which calls are known, what
//! their arguments are, which buffers send and which receive. Both modes and
//! the activity analysis read this; the derivatives are built by
//! `modes::mpi`.
use crate::ir::llvm::*;

/// An MPI entry point, by what its derivative does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MpiCall {
    /// No derivative: setup, communicators, queries, timing.
    Inactive,
    /// Synchronization, kept at the mirrored point of the reverse sweep.
    Barrier,
    /// `MPI_Send`, `MPI_Ssend`, `MPI_Bsend`, `MPI_Rsend`.
    Send,
    Recv,
    /// `MPI_Isend`, `MPI_Issend`.
    Isend,
    Irecv,
    Sendrecv,
    Wait,
    Waitall,
    Test,
    Bcast,
    Reduce,
    Allreduce,
    Gather,
    Gatherv,
    Scatter,
    Scatterv,
    Allgather,
    Alltoall,
    Alltoallv,
    /// Known to have no derivative rule (one-sided communication, other
    /// collectives, persistent requests, ...): an error when differentiated.
    Unsupported,
}

/// The MPI call a function name is (`MPI_*` or its profiling `PMPI_*`
/// spelling); `None` for anything else.
pub fn mpi_call(n: &str) -> Option<MpiCall> {
    use MpiCall::*;
    let base = n.strip_prefix("MPI_").or_else(|| n.strip_prefix("PMPI_"))?;
    Some(match base {
        "Send" | "Ssend" | "Bsend" | "Rsend" => Send,
        "Recv" => Recv,
        "Isend" | "Issend" => Isend,
        "Irecv" => Irecv,
        "Sendrecv" => Sendrecv,
        "Wait" => Wait,
        "Waitall" => Waitall,
        "Test" => Test,
        "Bcast" => Bcast,
        "Reduce" => Reduce,
        "Allreduce" => Allreduce,
        "Gather" => Gather,
        "Gatherv" => Gatherv,
        "Scatter" => Scatter,
        "Scatterv" => Scatterv,
        "Allgather" => Allgather,
        "Alltoall" => Alltoall,
        "Alltoallv" => Alltoallv,
        "Barrier" => Barrier,
        _ if is_inactive(base) => Inactive,
        _ => Unsupported,
    })
}

/// MPI functions that move no floating-point data between ranks.
fn is_inactive(base: &str) -> bool {
    const EXACT: &[&str] = &[
        "Init",
        "Init_thread",
        "Initialized",
        "Finalize",
        "Finalized",
        "Abort",
        "Wtime",
        "Wtick",
        "Get_count",
        "Get_elements",
        "Get_processor_name",
        "Get_version",
        "Get_library_version",
        "Get_address",
        "Query_thread",
        "Is_thread_main",
        "Probe",
        "Iprobe",
        "Error_string",
        "Error_class",
        "Dims_create",
        "Op_create",
        "Op_free",
        "Op_commutative",
        "Alloc_mem",
        "Free_mem",
    ];
    EXACT.contains(&base)
        || [
            "Comm_",
            "Type_",
            "Group_",
            "Cart_",
            "Graph_",
            "Status_",
            "Errhandler_",
            "Info_",
        ]
        .iter()
        .any(|p| base.starts_with(p))
}

/// What a datatype argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Datatype {
    /// `MPI_DOUBLE` / `MPI_FLOAT`: carries derivatives.
    Float,
    /// Another predefined datatype: carries none.
    Other,
    /// Not a predefined constant (a derived datatype, a variable).
    Unknown,
}

/// A reduction operation argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Sum,
    MaxMin,
    /// Another predefined operation, or a user's (`MPI_Op_create`).
    Other,
}

/// The constant global a handle argument names, looking through a local
/// variable that only ever holds that constant (clang -O0).
fn handle_global(v: V) -> Option<String> {
    let v = strip_casts(v);
    if is_global_var(v) {
        return Some(name(v));
    }
    if opcode(v) == Some(LLVMOpcode::LLVMLoad) {
        let slot = operand(v, 0);
        if opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
            return None;
        }
        let mut found: Option<String> = None;
        for u in users(slot) {
            match opcode(u) {
                Some(LLVMOpcode::LLVMStore) if operand(u, 1) == slot => {
                    let g = strip_casts(operand(u, 0));
                    if !is_global_var(g) || found.as_ref().is_some_and(|f| *f != name(g)) {
                        return None;
                    }
                    found = Some(name(g));
                }
                Some(LLVMOpcode::LLVMLoad) => {}
                _ => return None,
            }
        }
        return found;
    }
    None
}

pub fn datatype(v: V) -> Datatype {
    match handle_global(v).as_deref() {
        Some("ompi_mpi_double" | "ompi_mpi_float") => Datatype::Float,
        Some(n) if n.starts_with("ompi_mpi_") => Datatype::Other,
        _ => Datatype::Unknown,
    }
}

pub fn op(v: V) -> Op {
    match handle_global(v).as_deref() {
        Some("ompi_mpi_op_sum") => Op::Sum,
        Some("ompi_mpi_op_max" | "ompi_mpi_op_min") => Op::MaxMin,
        _ => Op::Other,
    }
}

/// The argument positions of one call: buffers that send (their contents
/// leave this rank), buffers that receive, each with its datatype's
/// position, the request slot, and the positions of every datatype and
/// reduction operation.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub sends: Vec<(u32, u32)>,
    pub recvs: Vec<(u32, u32)>,
    pub request: Option<u32>,
    pub op: Option<u32>,
}

pub fn layout(k: MpiCall) -> Layout {
    use MpiCall::*;
    let l = |sends: &[(u32, u32)], recvs: &[(u32, u32)], request, op| Layout {
        sends: sends.to_vec(),
        recvs: recvs.to_vec(),
        request,
        op,
    };
    match k {
        Send => l(&[(0, 2)], &[], None, None),
        Recv => l(&[], &[(0, 2)], None, None),
        Isend => l(&[(0, 2)], &[], Some(6), None),
        Irecv => l(&[], &[(0, 2)], Some(6), None),
        Sendrecv => l(&[(0, 2)], &[(5, 7)], None, None),
        Bcast => l(&[(0, 2)], &[(0, 2)], None, None),
        // The receive buffer is the input too with MPI_IN_PLACE.
        Reduce | Allreduce => l(&[(0, 3), (1, 3)], &[(1, 3)], None, Some(4)),
        Gather | Scatter | Allgather | Alltoall => l(&[(0, 2), (3, 5)], &[(3, 5)], None, None),
        Gatherv => l(&[(0, 2), (3, 6)], &[(3, 6)], None, None),
        Scatterv => l(&[(0, 3), (4, 6)], &[(4, 6)], None, None),
        Alltoallv => l(&[(0, 3), (4, 7)], &[(4, 7)], None, None),
        _ => Layout::default(),
    }
}

/// The MPI call `i` is, if any.
pub fn call_of(i: V) -> Option<MpiCall> {
    if !is_call(i) {
        return None;
    }
    mpi_call(&name(called_function(i)?))
}

/// Whether a buffer with this datatype argument may carry derivatives.
pub fn may_be_float(dt: V) -> bool {
    datatype(dt) != Datatype::Other
}

/// Buffers of `f` whose contents some MPI call sends to other ranks (with
/// a datatype that may be floating point).
pub fn send_buffers(f: V) -> Vec<V> {
    let mut out = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            let Some(k) = call_of(i) else { continue };
            for (b, dt) in layout(k).sends {
                if may_be_float(operand(i, dt)) {
                    out.push(operand(i, b));
                }
            }
        }
    }
    out
}
