//! OpenMP runtime functions (libomp's `__kmpc_*` and `omp_*`): which the
//! modes treat specially, which carry no derivative, which are unsupported.
//! The modes' handling is in `modes/openmp`.

/// An OpenMP runtime call the modes treat specially.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OmpCall {
    /// `__kmpc_fork_call`: a parallel region.
    Fork,
    /// `__kmpc_barrier`: mirrored in the reverse sweep.
    Barrier,
    /// `__kmpc_critical(_with_hint)`: the reverse gives up its turn here.
    Critical,
    /// `__kmpc_end_critical`.
    EndCritical,
    /// `__kmpc_reduce(_nowait)` (lowered by `prepare`).
    Reduce { nowait: bool },
    /// `__kmpc_end_reduce(_nowait)` (lowered by `prepare`).
    EndReduce { nowait: bool },
    /// Our turn counter (inserted by `prepare`): the reverse waits here.
    TurnTake,
    /// Carries no derivative and needs nothing in the reverse sweep.
    Inactive,
    /// A construct we cannot differentiate: its name.
    Unsupported(&'static str),
}

pub const TURN_TAKE: &str = "enzyme_rs.omp.turn_take";
pub const TURN_WAIT: &str = "enzyme_rs.omp.turn_wait";
pub const TURN_RELEASE: &str = "enzyme_rs.omp.turn_release";

/// Recognise an OpenMP runtime function by name.
pub fn openmp_call(n: &str) -> Option<OmpCall> {
    use OmpCall::*;
    let c = match n {
        "__kmpc_fork_call" => Fork,
        "__kmpc_barrier" => Barrier,
        "__kmpc_critical" | "__kmpc_critical_with_hint" => Critical,
        "__kmpc_end_critical" => EndCritical,
        "__kmpc_reduce" => Reduce { nowait: false },
        "__kmpc_reduce_nowait" => Reduce { nowait: true },
        "__kmpc_end_reduce" => EndReduce { nowait: false },
        "__kmpc_end_reduce_nowait" => EndReduce { nowait: true },
        TURN_TAKE => TurnTake,
        TURN_WAIT | TURN_RELEASE => Inactive,
        // A guarded call of a runtime entry point (modes::openmp::compat).
        _ if n.starts_with("enzyme_rs.omp.weak.") => Inactive,
        "__kmpc_fork_call_if" => {
            Unsupported("parallel region with an if clause (__kmpc_fork_call_if)")
        }
        "__kmpc_fork_teams" | "__kmpc_push_num_teams" => Unsupported("teams"),
        "__kmpc_ordered" | "__kmpc_end_ordered" => Unsupported("ordered"),
        "__kmpc_omp_taskwait" => Unsupported("taskwait"),
        "__kmpc_omp_taskyield" => Unsupported("taskyield"),
        "__kmpc_taskloop" | "__kmpc_taskloop_5" => Unsupported("taskloop"),
        "__kmpc_taskgroup" | "__kmpc_end_taskgroup" => Unsupported("taskgroup"),
        "__kmpc_cancel" | "__kmpc_cancellationpoint" | "__kmpc_cancel_barrier" => {
            Unsupported("cancel")
        }
        "__kmpc_flush" => Unsupported("flush"),
        // Updates under a lock would need their order replayed like
        // critical sections.
        "omp_set_lock"
        | "omp_unset_lock"
        | "omp_test_lock"
        | "omp_set_nest_lock"
        | "omp_unset_nest_lock"
        | "omp_test_nest_lock" => Unsupported("locks (omp_set_lock)"),
        _ if n.starts_with("__kmpc_omp_task") => Unsupported("task"),
        _ if n.starts_with("__kmpc_doacross") => Unsupported("ordered (doacross)"),
        _ if n.starts_with("__tgt_") || n.starts_with("__kmpc_target") => {
            Unsupported("target offload")
        }
        _ if n.starts_with("__kmpc_") || n.starts_with("omp_") => Inactive,
        _ => return None,
    };
    Some(c)
}
