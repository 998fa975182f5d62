//! Derivatives of MPI calls (OpenMPI), for forward mode and both sweeps of
//! reverse mode. Each mode calls in here through [`Sweep`] (its builder,
//! shadow pointers, primal values); the work is done by small runtime
//! helpers (`runtime/mpi_rt.c`, linked into the module on first use).
//!
//! - forward: tangents travel as a second message right after the primal
//!   one (same peer, tag, communicator), collectives run again on the
//!   tangents; MAX/MIN pass on the tangent of the rank that won.
//! - reverse: a send's adjoint receives the adjoint and adds it into the
//!   send buffer's shadow; a receive's sends the receive buffer's shadow
//!   back and zeroes it; broadcast <-> sum-reduce, gather <-> scatter,
//!   all-gather <-> reduce-scatter. A nonblocking call keeps a record in
//!   the shadow of its request slot; the reverse of its wait starts the
//!   adjoint message, the reverse of the call completes it.
//!
//! Every communication with a floating-point datatype gets its derivative
//! message even when this rank's buffer is inactive (zeros are sent,
//! received values dropped): the peer may hold active data and expects it.
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::rules::mpi::{datatype, layout, op, Datatype, MpiCall, Op};

const RUNTIME: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/mpi_rt.bc"));
const PREFIX: &str = "__enzyme_rs_mpi_";

/// What a mode gives the MPI derivatives.
pub trait Sweep {
    fn builder(&self) -> &Builder;
    /// The user's function (for error messages).
    fn user_fn(&self) -> V;
    /// The shadow of primal pointer `p` where code is being emitted.
    fn shadow_ptr(&mut self, p: V) -> Result<Option<V>>;
    /// Primal value `v` where code is being emitted.
    fn value(&mut self, v: V) -> Result<V>;
    /// Forward mode's lanes (`enzyme_width`); [`Sweep::shadow_ptr`] gives
    /// the shadow of the lane last set.
    fn lanes(&self) -> usize {
        1
    }
    fn set_lane(&mut self, _lane: usize) {}
}

/// The runtime helper `name` (linking the helpers into the module first).
fn helper(m: LLVMModuleRef, name: &str) -> Result<V> {
    let full = format!("{PREFIX}{name}");
    if let Some(f) = get_function(m, &full).filter(|f| !is_declaration(*f)) {
        return Ok(f);
    }
    crate::ir::bitcode::link_bitcode(m, RUNTIME, PREFIX)
        .map_err(|e| Error::internal(format!("MPI runtime: {e}")))?;
    get_function(m, &full).ok_or_else(|| Error::internal(format!("MPI runtime has no {full}")))
}

fn err(s: &impl Sweep, i: V, msg: String) -> Error {
    Error::new(ErrorKind::Unsupported(msg), s.user_fn(), Some(i))
}

fn call_name(i: V) -> String {
    called_function(i).map(name).unwrap_or_default()
}

/// Whether a call moves floating-point data (its derivative communicates).
fn moves_floats(i: V, k: MpiCall) -> bool {
    let l = layout(k);
    l.sends
        .iter()
        .chain(l.recvs.iter())
        .any(|(_, dt)| datatype(operand(i, *dt)) != Datatype::Other)
}

/// Errors for calls without derivatives: unsupported entry points,
/// datatypes that are not predefined constants, operations other than
/// SUM/MAX/MIN, receives from any source.
fn check(s: &impl Sweep, i: V, k: MpiCall) -> Result<()> {
    let n = call_name(i);
    if k == MpiCall::Unsupported {
        return Err(err(
            s,
            i,
            format!("'{n}' has no derivative (supported: point-to-point send/receive, Isend/Irecv with Wait/Waitall/Test, Bcast, Reduce/Allreduce with MPI_SUM/MAX/MIN, Gather(v)/Scatter(v)/Allgather/Alltoall(v), Barrier, and inactive setup/query calls)"),
        ));
    }
    let l = layout(k);
    for (_, dt) in l.sends.iter().chain(l.recvs.iter()) {
        if datatype(operand(i, *dt)) == Datatype::Unknown {
            return Err(err(
                s,
                i,
                format!("'{n}' with a datatype that is not a predefined MPI datatype constant (a derived datatype may hold active data): use MPI_DOUBLE/MPI_FLOAT buffers"),
            ));
        }
    }
    if !moves_floats(i, k) {
        return Ok(());
    }
    if let Some(o) = l.op {
        if op(operand(i, o)) == Op::Other {
            return Err(err(
                s,
                i,
                format!("'{n}' with an operation other than MPI_SUM, MPI_MAX, MPI_MIN (a custom MPI_Op) has no derivative"),
            ));
        }
    }
    let peers: &[u32] = match k {
        MpiCall::Recv | MpiCall::Irecv => &[3, 4],
        MpiCall::Sendrecv => &[8, 9],
        _ => &[],
    };
    for p in peers {
        if const_int_value(operand(i, *p)) == Some(-1) {
            return Err(err(
                s,
                i,
                format!("'{n}' from MPI_ANY_SOURCE / with MPI_ANY_TAG has no derivative (the derivative message needs the peer and tag)"),
            ));
        }
    }
    Ok(())
}

/// Operand `k` as a value where code is emitted.
fn a(s: &mut impl Sweep, i: V, k: u32) -> Result<V> {
    s.value(operand(i, k))
}

/// The shadow of pointer operand `k`, or null.
fn d(s: &mut impl Sweep, i: V, k: u32) -> Result<V> {
    let p = operand(i, k);
    let ctx = s.builder().ctx;
    if is_constant(p) && !is_global_var(strip_casts(p)) {
        return Ok(zero(ptr_type(ctx)));
    }
    Ok(s.shadow_ptr(p)?.unwrap_or_else(|| zero(ptr_type(ctx))))
}

/// Emit a call to helper `name`.
fn emit(s: &impl Sweep, name: &str, args: &mut [V]) -> Result<V> {
    let b = s.builder();
    let f = helper(b.module, name)?;
    Ok(b.call_fn(f, args))
}

/// A helper's argument, from call `i`'s operand k.
#[derive(Clone, Copy)]
enum A {
    /// The operand's value.
    V(u32),
    /// The shadow of a pointer operand (null when it has none).
    D(u32),
    /// A buffer the helper only compares with MPI_IN_PLACE: null when it
    /// is certainly a buffer (local or global memory), which keeps it off
    /// the reverse sweep's tape.
    P(u32),
    /// A null pointer.
    Null,
}

/// Whether pointer `p` is certainly memory of this program, not
/// MPI_IN_PLACE.
fn is_memory(p: V) -> bool {
    crate::analysis::activity::underlying_objects(p)
        .into_iter()
        .all(|o| is_global_var(o) || opcode(o) == Some(LLVMOpcode::LLVMAlloca) || is_call(o))
}

/// The helper arguments `spec`, in order.
fn args(s: &mut impl Sweep, i: V, spec: &[A]) -> Result<Vec<V>> {
    let null = zero(ptr_type(s.builder().ctx));
    spec.iter()
        .map(|x| match *x {
            A::V(k) => a(s, i, k),
            A::D(k) => d(s, i, k),
            A::P(k) if !is_constant(operand(i, k)) && is_memory(operand(i, k)) => Ok(null),
            A::P(k) => a(s, i, k),
            A::Null => Ok(null),
        })
        .collect()
}

/// The argument spec of the helper pair `<name>_fwd` / `<name>_rev` for
/// the blocking calls (same layout in both directions), and the name.
/// Specs are written as in [`spec`]: "D0 V1-5" is the shadow of operand 0
/// and the values of operands 1 to 5.
fn blocking_spec(k: MpiCall) -> Option<(&'static str, Vec<A>)> {
    use MpiCall::*;
    let (name, text) = match k {
        Send => ("send", "D0 V1-5"),
        Recv => ("recv", "D0 V1-5"),
        Sendrecv => ("sendrecv", "D0 V1-4 D5 V6-10"),
        Bcast => ("bcast", "D0 V1-4"),
        Gather => ("gather", "P0 D0 V1-2 D3 V4-7"),
        Allgather => ("allgather", "P0 D0 V1-2 D3 V4-6"),
        Alltoall => ("alltoall", "P0 D0 V1-2 D3 V4-6"),
        Scatter => ("scatter", "D0 V1-2 P3 D3 V4-7"),
        Gatherv => ("gatherv", "P0 D0 V1-2 D3 V4-8"),
        Scatterv => ("scatterv", "D0 V1-3 P4 D4 V5-8"),
        Alltoallv => ("alltoallv", "P0 D0 V1-3 D4 V5-8"),
        _ => return None,
    };
    Some((name, spec(text)))
}

/// Parses a helper-argument spec: space-separated items `V<k>`, `D<k>`,
/// `P<k>` (see [`A`]), where `V<a>-<b>` stands for `V<a>` .. `V<b>`.
fn spec(text: &str) -> Vec<A> {
    let mut out = Vec::new();
    for item in text.split_whitespace() {
        let (kind, range) = item.split_at(1);
        let (lo, hi) = match range.split_once('-') {
            Some((lo, hi)) => (lo, hi),
            None => (range, range),
        };
        let (lo, hi): (u32, u32) = (lo.parse().unwrap_or(0), hi.parse().unwrap_or(0));
        for k in lo..=hi {
            out.push(match kind {
                "D" => A::D(k),
                "P" => A::P(k),
                _ => A::V(k),
            });
        }
    }
    out
}

/// Reduce/Allreduce: (send, recv, count, type, op, root or -1, comm).
fn reduce_args(s: &mut impl Sweep, i: V, k: MpiCall) -> Result<Vec<V>> {
    let ctx = s.builder().ctx;
    let mut v = args(
        s,
        i,
        &[A::P(0), A::D(0), A::D(1), A::V(2), A::V(3), A::V(4)],
    )?;
    if k == MpiCall::Reduce {
        v.push(a(s, i, 5)?);
        v.push(a(s, i, 6)?);
    } else {
        v.push(const_i32(ctx, -1));
        v.push(a(s, i, 5)?);
    }
    Ok(v)
}

/// MAX/MIN reductions: before the call, a copy of this rank's input;
/// after it, which elements this rank won. Returns the winners (or null
/// for MPI_SUM). The builder must be before `i`; it ends after `i`.
fn winners(s: &mut impl Sweep, i: V, k: MpiCall) -> Result<V> {
    let ctx = s.builder().ctx;
    if op(operand(i, 4)) != Op::MaxMin {
        s.builder().after(i);
        return Ok(zero(ptr_type(ctx)));
    }
    let mut pre = args(s, i, &[A::V(0), A::V(1), A::V(2), A::V(3), A::V(4)])?;
    let saved = emit(s, "save", &mut pre)?;
    s.builder().after(i);
    let root = if k == MpiCall::Reduce {
        a(s, i, 5)?
    } else {
        const_i32(ctx, -1)
    };
    let comm = a(s, i, if k == MpiCall::Reduce { 6 } else { 5 })?;
    let mut post = vec![saved, a(s, i, 1)?, a(s, i, 2)?, a(s, i, 3)?, a(s, i, 4)?];
    post.push(root);
    post.push(comm);
    emit(s, "winners", &mut post)
}

/// Forward mode: the tangent communication of call `i` (the builder is
/// moved around `i` as needed). In vector mode each lane communicates in
/// turn (same order on every rank, so the messages match); MAX/MIN
/// winners are found once for all lanes.
pub fn forward(s: &mut impl Sweep, i: V, k: MpiCall) -> Result<()> {
    use MpiCall::*;
    check(s, i, k)?;
    s.builder().after(i);
    let win = match k {
        Reduce | Allreduce if moves_floats(i, k) => {
            s.builder().before(i);
            Some(winners(s, i, k)?)
        }
        _ => None,
    };
    for lane in 0..s.lanes() {
        s.set_lane(lane);
        forward_lane(s, i, k, win)?;
    }
    s.set_lane(0);
    // MPI_SUM has no winners (null) to free.
    if let Some(w) = win.filter(|_| op(operand(i, 4)) == Op::MaxMin) {
        emit(s, "drop", &mut [w])?;
    }
    Ok(())
}

/// [`forward`] for the current lane.
fn forward_lane(s: &mut impl Sweep, i: V, k: MpiCall, win: Option<V>) -> Result<()> {
    use MpiCall::*;
    match k {
        Inactive | Barrier | Unsupported => {}
        Wait => {
            let mut v = args(s, i, &[A::D(0)])?;
            emit(s, "wait_fwd", &mut v)?;
        }
        Waitall => {
            let mut v = args(s, i, &[A::V(0), A::D(1)])?;
            emit(s, "waitall_fwd", &mut v)?;
        }
        Test => {
            let mut v = args(s, i, &[A::V(1), A::D(0)])?;
            emit(s, "test_fwd", &mut v)?;
        }
        _ if !moves_floats(i, k) => {}
        Isend | Irecv => {
            let spec = [
                A::D(0),
                A::V(1),
                A::V(2),
                A::V(3),
                A::V(4),
                A::V(5),
                A::D(6),
            ];
            let mut v = args(s, i, &spec)?;
            emit(
                s,
                if k == Isend { "isend_fwd" } else { "irecv_fwd" },
                &mut v,
            )?;
        }
        Reduce | Allreduce => {
            let mut v = reduce_args(s, i, k)?;
            v.push(win.ok_or_else(|| Error::internal("MPI winners"))?);
            emit(s, "reduce_fwd", &mut v)?;
        }
        _ => {
            let (n, spec) = blocking_spec(k).ok_or_else(|| Error::internal("MPI spec"))?;
            let mut v = args(s, i, &spec)?;
            emit(s, &format!("{n}_fwd"), &mut v)?;
        }
    }
    Ok(())
}

/// Reverse mode, augmented sweep: what the reverse of `i` needs that is
/// made here (a nonblocking call's record, MAX/MIN winners), to be handed
/// to [`reverse`] as `kept`.
pub fn augment(s: &mut impl Sweep, i: V, k: MpiCall) -> Result<Option<V>> {
    use MpiCall::*;
    check(s, i, k)?;
    s.builder().after(i);
    let ctx = s.builder().ctx;
    Ok(match k {
        Wait | Waitall | Test => {
            let (n, spec) = match k {
                Wait => ("take", vec![A::D(0)]),
                Waitall => ("take_all", vec![A::V(0), A::D(1)]),
                _ => ("take_if", vec![A::V(1), A::D(0)]),
            };
            let mut v = args(s, i, &spec)?;
            Some(emit(s, n, &mut v)?)
        }
        Isend | Irecv if moves_floats(i, k) => {
            let recv = const_i32(ctx, (k == Irecv) as i64);
            let mut v = vec![recv];
            v.extend(args(
                s,
                i,
                &[
                    A::D(0),
                    A::V(1),
                    A::V(2),
                    A::V(3),
                    A::V(4),
                    A::V(5),
                    A::D(6),
                ],
            )?);
            Some(emit(s, "irec", &mut v)?)
        }
        Gatherv | Scatterv if moves_floats(i, k) => {
            // (counts, displacements, root, comm)
            let spec = if k == Gatherv {
                [A::V(4), A::V(5), A::V(7), A::V(8)]
            } else {
                [A::V(1), A::V(2), A::V(7), A::V(8)]
            };
            let mut v = args(s, i, &spec)?;
            Some(emit(s, "keep_counts", &mut v)?)
        }
        Alltoallv if moves_floats(i, k) => {
            // (send buffer, send counts, displacements, receive counts,
            // displacements, comm)
            let spec = [A::P(0), A::V(1), A::V(2), A::V(5), A::V(6), A::V(8)];
            let mut v = args(s, i, &spec)?;
            Some(emit(s, "keep_v", &mut v)?)
        }
        Reduce | Allreduce if moves_floats(i, k) && op(operand(i, 4)) == Op::MaxMin => {
            s.builder().before(i);
            Some(winners(s, i, k)?)
        }
        _ => None,
    })
}

/// Reverse mode, reverse sweep: the adjoint of `i` (the builder is at the
/// point of the reverse sweep mirroring `i`).
pub fn reverse(s: &mut impl Sweep, i: V, k: MpiCall, kept: Option<V>) -> Result<()> {
    use MpiCall::*;
    let ctx = s.builder().ctx;
    let null = zero(ptr_type(ctx));
    match k {
        Inactive | Unsupported => {}
        Barrier => {
            let comm = a(s, i, 0)?;
            let b = s.builder();
            let fty = fn_type_of(i32_type(ctx), &mut [ptr_type(ctx)], false);
            let f = get_or_declare(b.module, &call_name(i), fty);
            b.call(fty, f, &mut [comm]);
        }
        Wait | Test => {
            emit(s, "wait_rev", &mut [kept.unwrap_or(null)])?;
        }
        Waitall => {
            let n = a(s, i, 0)?;
            emit(s, "waitall_rev", &mut [n, kept.unwrap_or(null)])?;
        }
        _ if !moves_floats(i, k) => {}
        Isend | Irecv => {
            emit(s, "start_rev", &mut [kept.unwrap_or(null)])?;
        }
        Reduce | Allreduce => {
            let mut v = reduce_args(s, i, k)?;
            v.push(kept.unwrap_or(null));
            emit(s, "reduce_rev", &mut v)?;
        }
        _ => {
            let (n, mut spec) = blocking_spec(k).ok_or_else(|| Error::internal("MPI spec"))?;
            // Gatherv/Scatterv/Alltoallv: the counts and displacements
            // kept by the augmented sweep (the caller's arrays are gone by
            // now) go in the first of their helper arguments.
            let counts_at: &[usize] = match k {
                Gatherv => &[5, 6],
                Scatterv => &[1, 2],
                Alltoallv => &[2, 3, 6, 7],
                _ => &[],
            };
            for at in counts_at {
                spec[*at] = A::Null;
            }
            let mut v = args(s, i, &spec)?;
            if let Some(at) = counts_at.first() {
                v[*at] = kept.unwrap_or(null);
            }
            emit(s, &format!("{n}_rev"), &mut v)?;
        }
    }
    Ok(())
}
