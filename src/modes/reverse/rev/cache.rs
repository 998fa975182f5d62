//! Cache or recompute, in the reverse sweep: what `avail` does with a value
//! it can recompute. The decision is `analysis::mincut`'s: the cheapest set
//! of values below it to take from the tape (bytes), within a bound on the
//! work redone; the rest is recomputed. Values the reverse already has
//! (constants, arguments, loop counters, induction variables, loop
//! invariants, replayed load recurrences, values made in this block) are
//! free.
use super::loops::affine_iv;
use super::RevGen;
use crate::analysis::mincut::{self, Origin};
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::ir::shim::LoadRecurrence;
use crate::modes::reverse::memory;
use crate::rules::{self, CallKind};

/// A call the reverse sweep may make again: a rule-table function (libm)
/// with a body elsewhere and no pointer arguments.
pub(super) fn pure_rule_call(c: V) -> bool {
    matches!(rules::classify(c), CallKind::Rule(r) if r.is_pure())
        && called_function(c).is_some_and(is_declaration)
}

/// On an augmented forward function of a function registered with
/// `__enzyme_shouldrecompute`: the primal's name.
const RECOMPUTE_AS: &str = "enzyme_rs.recompute_as";

/// Mark `aug`, the augmented forward of `f`, when `f` is registered with
/// `__enzyme_shouldrecompute` (or has the attribute).
pub fn mark_recompute_as(aug: V, f: V) {
    if fn_has_attr(f, "enzyme_shouldrecompute") {
        crate::ir::attrs::set_fn_string_attr(aug, RECOMPUTE_AS, &name(f));
    }
}

/// A call whose result the reverse sweep computes again instead of
/// taping it, as Enzyme does for functions registered with
/// `__enzyme_shouldrecompute`: a call of such a function (or of its
/// augmented forward) whose arguments are all scalars. Returns the
/// function to call and how many leading arguments it takes. The user
/// vouches that calling it again gives the same value.
pub(super) fn should_recompute(c: V) -> Option<(V, usize)> {
    if !is_call(c) || is_void(type_of(c)) {
        return None;
    }
    let callee = called_function(c)?;
    let f = match crate::ir::attrs::fn_string_attr(callee, RECOMPUTE_AS) {
        Some(n) => get_function(module_of(callee), &n)?,
        None if fn_has_attr(callee, "enzyme_shouldrecompute")
            && !name(callee).starts_with("enzyme_rs.") =>
        {
            callee
        }
        None => return None,
    };
    let n = params(f).len();
    let args = call_args(c);
    let scalar = |t: T| !is_ptr(t) && !contains_ptr(t);
    (fn_return_type(f) == type_of(c)
        && !is_vararg(fn_type(f))
        && args.len() >= n
        && params(f).iter().all(|p| scalar(type_of(*p)))
        && args[..n]
            .iter()
            .zip(params(f))
            .all(|(a, p)| type_of(*a) == type_of(p)))
    .then_some((f, n))
}

/// A recomputed libm call with an LLVM intrinsic of the same value
/// (`sin`, `cos`, `exp`, `exp2`, `log`, `log2`, `log10`, double or float)
/// becomes that intrinsic: the reverse sweep needs only the value (errno
/// was set by the forward sweep). The intrinsic reads and writes no
/// memory, so the cleanup merges the same value recomputed by several
/// reverse blocks (a libm `exp` writes errno: nothing merges two of them),
/// no errno guard is put around it, and `llvm.sin` pairs with the
/// `llvm.cos` of the derivative into one `sincos` call. Code generation
/// calls the same libm function.
pub(super) fn recomputed_as_intrinsic(c: V) {
    let Some(f) = called_function(c) else { return };
    let n = name(f);
    let (op, ty) = match n.as_str() {
        "sin" | "cos" | "exp" | "exp2" | "log" | "log2" | "log10" => (n.as_str(), "f64"),
        "sinf" | "cosf" | "expf" | "exp2f" | "logf" | "log2f" | "log10f" => {
            (&n[..n.len() - 1], "f32")
        }
        _ => return,
    };
    let m = module_of(f);
    let t = type_of(c);
    let bytes = if ty == "f64" { 8 } else { 4 };
    if !is_declaration(f)
        || call_num_args(c) != 1
        || !is_fp_scalar(t)
        || type_store_size(m, t) != bytes
        || type_of(operand(c, 0)) != t
    {
        return;
    }
    let intr = get_or_declare(m, &format!("llvm.{op}.{ty}"), fn_type(f));
    crate::ir::values::set_operand(c, num_operands(c) - 1, intr);
}

/// A libm `sin`/`cos`: recomputed, it pairs with the `cos`/`sin` its
/// derivative needs into one `sincos` call (`recomputed_as_intrinsic`), so
/// keeping it on the tape saves little.
fn pairs_with_derivative(c: V) -> bool {
    called_function(c).is_some_and(|f| matches!(name(f).as_str(), "sin" | "cos" | "sinf" | "cosf"))
}

/// `mincut::float_work` of a libm call.
pub(super) const LIBM_WORK: u32 = 10;

/// Whether libm results outside loops are taped (`ENZYME_RS_TAPE_LIBM=1`).
fn tape_libm() -> bool {
    crate::options::switches::tape_libm()
}

/// Which libm results in loops are taped (`keeps_libm_result`), from
/// `ENZYME_RS_TAPE_LIBM_LOOPS`: `0` none, `all` every one but sin/cos (for
/// measuring), otherwise (default) by `libm_chain_taped`.
fn tape_libm_loops() -> Option<bool> {
    match crate::options::switches::tape_libm_loops() {
        Some(false) => None,
        Some(true) => Some(true),
        None => Some(false),
    }
}

impl RevGen<'_> {
    /// Whether `avail` recomputes `w` (true) or takes it from the tape.
    pub(super) fn recompute_or_tape(&mut self, w: V) -> bool {
        let key = (self.cur, w);
        if self.cut.contains(&key) {
            return false;
        }
        if self.planned.contains(&key) {
            return true;
        }
        if !matches!(self.origin(w), Origin::Recompute(_)) {
            return false;
        }
        let module = self.sess.module;
        let plan = {
            let me = &*self;
            mincut::plan(w, &mut |v| me.origin(v), &|v| me.deps(v), &|v| {
                crate::modes::reverse::tape::slot_size(module, type_of(v))
            })
        };
        for v in plan.tape {
            self.cut.insert((self.cur, v));
        }
        for v in plan.recompute {
            self.planned.insert((self.cur, v));
        }
        !self.cut.contains(&key)
    }

    /// How the reverse of the current block can have `v` (see `mincut`).
    fn origin(&self, v: V) -> Origin {
        if is_constant(v) || !is_instruction(v) {
            return Origin::Free;
        }
        let key = (self.cur, v);
        if self.memo.contains_key(&key) || self.cut.contains(&key) || self.loop_free(v) {
            return Origin::Free;
        }
        if memory::is_cheap_pure(v) {
            return Origin::Recompute(0);
        }
        if opcode(v) == Some(LLVMOpcode::LLVMLoad)
            && !is_volatile(v)
            && (self.written.unwritten_and_persistent(operand(v, 0)) || self.reload_ok(v))
        {
            return Origin::Recompute(0);
        }
        if should_recompute(v).is_some() {
            return Origin::Recompute(1);
        }
        if let Some(w) = mincut::float_work(v, &pure_rule_call) {
            if self.keeps_libm_result(v, w) {
                return Origin::Opaque;
            }
            return Origin::Recompute(w);
        }
        // A scratch array's element, recomputed from the store that wrote it.
        match self.forwarded(v) {
            Some(f) => Origin::Recompute(f.work),
            None => Origin::Opaque,
        }
    }

    /// The libm part of the policy. In a loop, a libm result is kept on
    /// the tape (8 bytes per iteration) rather than called again in the
    /// reverse sweep when recomputing it would need the tape anyway (a
    /// value below it only the tape has, so the loop tapes per iteration
    /// already) or would redo more than one libm call
    /// (`libm_chain_taped`); a libm call costs far more than the tape's
    /// store and load. A libm result recomputable from memory nothing
    /// writes and from loop-invariant values alone (logsumexp's
    /// `exp(x[i] - m)`) is recomputed: there the tape would be the
    /// loop's only per-iteration memory; so is `sin`/`cos`
    /// (`pairs_with_derivative`). `ENZYME_RS_TAPE_LIBM_LOOPS=0`
    /// turns the loop part off, `=all` tapes every libm result in loops.
    ///
    /// Outside loops only with `ENZYME_RS_TAPE_LIBM=1`: on the
    /// straight-line benchmark it made the compile slower, not faster
    /// (bench/results/compile_scaling.md): a value used by several
    /// blocks' reverse is pushed once per block, and the extra stores and
    /// loads cost instruction selection more than the calls they save.
    fn keeps_libm_result(&self, v: V, work: u32) -> bool {
        if work < LIBM_WORK || !is_call(v) {
            return false;
        }
        if self.a.loops.depth(inst_block(v)) == 0 {
            return tape_libm();
        }
        match tape_libm_loops() {
            None => false,
            Some(all) => !pairs_with_derivative(v) && (all || self.libm_chain_taped(v)),
        }
    }

    /// Whether recomputing the libm result `v` (in a loop) in the reverse
    /// of the current block reaches a value only the tape has, or more
    /// than one libm call, or more values than `mincut::MAX_NODES`. The
    /// walk classifies values as `origin` does, but without the tape
    /// decisions made so far, so the answer does not depend on the order
    /// in which values are asked for.
    fn libm_chain_taped(&self, v: V) -> bool {
        let key = (self.cur, v);
        if let Some(b) = self.libm_chains.borrow().get(&key) {
            return *b;
        }
        let taped = self.walk_libm_chain(v);
        self.libm_chains.borrow_mut().insert(key, taped);
        taped
    }

    fn walk_libm_chain(&self, v: V) -> bool {
        let mut seen = std::collections::HashSet::from([v]);
        let mut stack = vec![v];
        let mut libm_calls = 1;
        while let Some(x) = stack.pop() {
            for o in self.deps(x) {
                if is_block_value(o) || is_constant(o) || !is_instruction(o) || !seen.insert(o) {
                    continue;
                }
                if seen.len() > mincut::MAX_NODES {
                    return true;
                }
                if self.loop_free(o) {
                    continue;
                }
                if memory::is_cheap_pure(o) {
                    stack.push(o);
                    continue;
                }
                if opcode(o) == Some(LLVMOpcode::LLVMLoad)
                    && !is_volatile(o)
                    && (self.written.unwritten_and_persistent(operand(o, 0)) || self.reload_ok(o))
                {
                    continue;
                }
                if let Some(w) = mincut::float_work(o, &pure_rule_call) {
                    if w >= LIBM_WORK && is_call(o) {
                        libm_calls += 1;
                        if libm_calls > 1 {
                            return true;
                        }
                    }
                    stack.push(o);
                    continue;
                }
                if self.forwarded(o).is_some() {
                    stack.push(o);
                    continue;
                }
                return true;
            }
        }
        false
    }

    /// Whether `v` is taped by the libm part of the policy.
    pub(super) fn kept_libm_result(&self, v: V) -> bool {
        mincut::float_work(v, &pure_rule_call).is_some_and(|w| self.keeps_libm_result(v, w))
    }

    /// What recomputing `v` takes: its operands, or for a forwarded load
    /// the values its stored value is recomputed from.
    fn deps(&self, v: V) -> Vec<V> {
        if let Some((_, n)) = should_recompute(v) {
            return call_args(v)[..n].to_vec();
        }
        match self.forwarded(v) {
            Some(f) => f.deps.clone(),
            None => operands(v),
        }
    }

    /// Whether `loop_value` knows `w` (without building anything).
    fn loop_free(&self, w: V) -> bool {
        if self.cur.is_null() {
            return false;
        }
        let loops = self.counted_loops_of(self.cur);
        let def = inst_block(w);
        for &h in &loops {
            let c = self.a.counted[&h];
            if w == c.counter {
                return true;
            }
            if def == h && opcode(w) == Some(LLVMOpcode::LLVMPHI) {
                if is_int(type_of(w)) && affine_iv(w, c).is_some() {
                    return true;
                }
                if self.usable_recurrence(w).is_some() {
                    return true;
                }
            }
        }
        loops.iter().any(|h| !self.a.loops.contains(*h, def))
    }

    fn usable_recurrence(&self, w: V) -> Option<LoadRecurrence> {
        let r = self.a.recurrences.get(&w).copied()?;
        let (p0, p1) = (operand(r.init, 0), operand(r.inner, 0));
        let ok = !is_volatile(r.init)
            && !is_volatile(r.inner)
            && self.written.unwritten_and_persistent(p0)
            && self.written.unwritten_and_persistent(p1);
        ok.then_some(r)
    }

    /// A loop-header phi replaying a load recurrence (`Aug::recurrences`)
    /// over memory nothing writes: loaded again from `base + k*stride` at
    /// reverse iteration k, `base` being the preheader load's address.
    pub(super) fn replay_recurrence(&mut self, w: V, h: BB) -> Result<Option<V>> {
        let Some(r) = self.usable_recurrence(w) else {
            return Ok(None);
        };
        let ctx = self.b.ctx;
        let base = self.avail(operand(r.init, 0))?;
        let slot = self.rc_slot(h);
        let rc = self.b.load(i64_type(ctx), slot);
        let off = self.b.mul(rc, const_i64(ctx, r.stride));
        let p = self.b.gep(i8_type(ctx), base, &mut [off]);
        let l = self.b.load(type_of(w), p);
        let align = alignment(r.init).min(alignment(r.inner)).max(1);
        let stride_align = if r.stride == 0 {
            align
        } else {
            1u32 << r.stride.unsigned_abs().trailing_zeros().min(12)
        };
        set_alignment(l, align.min(stride_align));
        set_name(l, &format!("{}.replay", name(w)));
        Ok(Some(l))
    }

    /// Why `w` is taped rather than recomputed, in words (for remarks).
    pub(super) fn why_taped(&self, w: V) -> String {
        let recomputable = memory::is_cheap_pure(w)
            || mincut::float_work(w, &pure_rule_call).is_some()
            || (opcode(w) == Some(LLVMOpcode::LLVMLoad)
                && !is_volatile(w)
                && self.written.unwritten_and_persistent(operand(w, 0)));
        if self.kept_libm_result(w) {
            return "it is a libm result: keeping it is cheaper than calling the function again"
                .into();
        }
        if recomputable {
            return "recomputing it would need values the reverse sweep keeps no copy of, \
                    or more work than the bound; keeping it is the cheapest cut"
                .into();
        }
        match opcode(w) {
            Some(LLVMOpcode::LLVMLoad) => self.why_load(w),
            Some(LLVMOpcode::LLVMCall) => match called_function(w) {
                Some(f) => format!("it is the result of a call to '{}'", name(f)),
                None => "it is the result of an indirect call".into(),
            },
            Some(LLVMOpcode::LLVMPHI) => {
                "it is a phi (a value joined from several paths or carried by a loop) \
                 that the reverse sweep cannot replay"
                    .into()
            }
            Some(op) => format!("'{}' is not recomputed", opcode_name(op)),
            None => "it is not an instruction".into(),
        }
    }

    fn why_load(&self, w: V) -> String {
        let p = operand(w, 0);
        if is_volatile(w) {
            return "it is a volatile load".into();
        }
        for bb in blocks(self.a.func) {
            for i in instructions(bb) {
                if i != w && memory::may_write_through(i, p) {
                    let at = match crate::ir::shim::debug_location(i) {
                        Some((f, l)) => format!(" at {f}:{l}"),
                        None => String::new(),
                    };
                    return format!("the memory it loads is overwritten{at}");
                }
            }
        }
        if self.written.function_may_write(p) {
            return "the memory it loads may be written by the function".into();
        }
        "the memory it loads is local to the function or may be overwritten by the caller \
         before the reverse sweep"
            .into()
    }
}
