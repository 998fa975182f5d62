//! The fixed point: each instruction's rule refines the trees of its
//! result and operands (in both directions: a load types the memory its
//! pointer points to, and the memory types the load), calls link arguments
//! with parameters and results with returned values, and a worklist
//! re-visits the users of every value whose tree grew. Trees only grow and
//! are bounded (see `tree.rs`), so it terminates, recursion included.
use super::known::{self, Known};
use super::layout::{float_kind, Layout};
use super::pieces;
use super::tbaa;
use super::tree::{Base, Off, TypeTree};
use crate::callsite::{self, Activity};
use crate::ir::llvm::*;
use std::collections::{HashMap, HashSet, VecDeque};

pub struct Engine {
    pub lay: Layout,
    pub trees: HashMap<V, TypeTree>,
    /// Defined functions whose bodies take part.
    pub funcs: Vec<V>,
    in_scope: HashSet<V>,
    /// (argument, parameter) pairs each call links.
    links: HashMap<V, Vec<(V, V)>>,
    /// Calls whose callee is a function in scope (return values link).
    callers: HashMap<V, Vec<V>>,
    rets: HashMap<V, Vec<V>>,
    /// Calls to summarised callees (`cache.rs`), which stay out of scope:
    /// the trees their arguments get, and the tree of the result.
    fixed: HashMap<V, (Vec<(V, TypeTree)>, TypeTree)>,
    work: VecDeque<V>,
    queued: HashSet<V>,
    pub visits: usize,
    /// Updates that grew a tree, and the time spent widening (for the log).
    pub changes: usize,
    pub widen_ns: u128,
}

/// What parameter `p`'s tree `t` tells a caller about its argument. A
/// parameter that promises `dereferenceable(N)` (a C++ reference or `this`)
/// refers to an object of N bytes: only those bytes of what it points to go
/// back. The parameter of a small helper (an Eigen `variable_if_dynamic`
/// member's constructor) is given pointers into many different objects, at
/// different offsets; the flow-insensitive join of what follows them would
/// otherwise go back to every caller and mix those objects' fields (a
/// pointer field joined with another object's double reads as a double).
fn back_to_caller(p: V, t: TypeTree) -> TypeTree {
    match param_dereferenceable(p) {
        Some(n) if is_ptr(type_of(p)) => {
            let mut r = TypeTree::pointer_to(&t.pointee().restrict(n));
            for (o, b) in t.first_level() {
                r.insert(vec![o], b);
            }
            r
        }
        _ => t,
    }
}

fn is_call_like(i: V) -> bool {
    matches!(
        opcode(i),
        Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke)
    )
}

/// The function an `__enzyme_*` call differentiates (its first argument: a
/// function, a cast of one, or a load of a constant global holding one).
pub fn enzyme_target(call: V) -> Option<V> {
    let callee = called_function(call)?;
    let n = name(callee);
    if !n.starts_with("__enzyme_") || call_num_args(call) == 0 {
        return None;
    }
    // What the modes will differentiate, when the call is well formed.
    if let Ok(req) = callsite::scan(call) {
        return (!is_declaration(req.func)).then_some(req.func);
    }
    let mut a = strip_casts(operand(call, 0));
    if opcode(a) == Some(LLVMOpcode::LLVMLoad) {
        let g = strip_casts(operand(a, 0));
        if is_global_var(g) {
            if let Some(init) = global_initializer(g) {
                a = strip_casts(init);
            }
        }
    }
    (is_function(a) && !is_declaration(a)).then_some(a)
}

/// The (call argument, parameter) pairs of an `__enzyme_*` call: each
/// primal argument and each shadow go with the parameter they stand for.
fn enzyme_pairs(call: V, f: V) -> Vec<(V, V)> {
    enzyme_args(call, f).0
}

/// Which parameters of `f` an `__enzyme_*` call makes active (a shadow
/// follows, or an active float scalar), from its argument markers.
pub fn enzyme_call_activity(call: V, f: V) -> Vec<bool> {
    enzyme_args(call, f).1
}

/// The (call argument, parameter) pairs and the active parameters of an
/// `__enzyme_*` call, as the call-site parser reads them (the one reader of
/// markers). A call it rejects links nothing here; the driver reports it.
fn enzyme_args(call: V, f: V) -> (Vec<(V, V)>, Vec<bool>) {
    let ps = params(f);
    let mut out = Vec::new();
    let mut active = vec![false; ps.len()];
    let Ok(req) = callsite::scan(call) else {
        return (out, active);
    };
    if req.func != f {
        return (out, active);
    }
    for (k, (spec, p)) in req.args.iter().zip(ps.iter()).enumerate() {
        active[k] = spec.activity.has_shadow() || spec.activity == Activity::Active;
        if k == 0 && req.fn_sret.is_some() {
            continue; // the hidden result buffer: made by the mode
        }
        out.push((spec.primal, *p));
        out.extend(spec.shadows.iter().map(|s| (*s, *p)));
    }
    (out, active)
}

impl Engine {
    /// An engine over `roots` and every function they call directly (or
    /// through an `__enzyme_*` call).
    pub fn new(m: LLVMModuleRef, roots: &[V]) -> Engine {
        Engine::with_summaries(m, roots, &mut |_| None)
    }

    /// The number of functions [`Self::new`] would take in, counted up to
    /// `limit` (then `limit + 1`).
    pub fn scope_size(roots: &[V], limit: usize) -> usize {
        let mut seen = HashSet::new();
        let mut stack: Vec<V> = roots
            .iter()
            .copied()
            .filter(|f| !is_declaration(*f))
            .collect();
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            if seen.len() > limit {
                break;
            }
            for bb in blocks(f) {
                for i in instructions(bb) {
                    if !is_call_like(i) {
                        continue;
                    }
                    if let Some(t) = enzyme_target(i) {
                        stack.push(t);
                    } else if let Some(c) = called_function(i) {
                        if !is_declaration(c) {
                            stack.push(c);
                        }
                    }
                }
            }
        }
        seen.len()
    }

    /// As [`Self::new`]; a direct callee (other than a root) for which
    /// `summary` gives a summary stays out of scope, its calls typed by
    /// the summary.
    pub fn with_summaries(
        m: LLVMModuleRef,
        roots: &[V],
        summary: &mut dyn FnMut(V) -> Option<super::cache::Summary>,
    ) -> Engine {
        let mut e = Engine {
            lay: Layout::new(m),
            trees: HashMap::new(),
            funcs: Vec::new(),
            in_scope: HashSet::new(),
            links: HashMap::new(),
            callers: HashMap::new(),
            rets: HashMap::new(),
            fixed: HashMap::new(),
            work: VecDeque::new(),
            queued: HashSet::new(),
            visits: 0,
            changes: 0,
            widen_ns: 0,
        };
        let mut summaries: HashMap<V, Option<super::cache::Summary>> = HashMap::new();
        let mut stack: Vec<V> = roots
            .iter()
            .copied()
            .filter(|f| !is_declaration(*f))
            .collect();
        while let Some(f) = stack.pop() {
            if !e.in_scope.insert(f) {
                continue;
            }
            e.funcs.push(f);
            for bb in blocks(f) {
                for i in instructions(bb) {
                    if opcode(i) == Some(LLVMOpcode::LLVMRet) {
                        e.rets.entry(f).or_default().push(i);
                    }
                    if !is_call_like(i) {
                        continue;
                    }
                    if let Some(t) = enzyme_target(i) {
                        e.links.insert(i, enzyme_pairs(i, t));
                        e.callers.entry(t).or_default();
                        stack.push(t);
                    } else if let Some(c) = called_function(i) {
                        if !is_declaration(c) {
                            let s = if roots.contains(&c) {
                                None
                            } else {
                                summaries.entry(c).or_insert_with(|| summary(c)).clone()
                            };
                            if let Some(s) = s {
                                let args = call_args(i).into_iter().zip(s.params).collect();
                                e.fixed.insert(i, (args, s.ret));
                                continue;
                            }
                            let pairs = call_args(i).into_iter().zip(params(c)).collect();
                            e.links.insert(i, pairs);
                            e.callers.entry(c).or_default().push(i);
                            stack.push(c);
                        }
                    }
                }
            }
        }
        // What LLVM's types say, then every instruction once.
        for f in e.funcs.clone() {
            for p in params(f) {
                let t = e.lay.type_tree(type_of(p), false);
                e.trees.insert(p, t);
            }
            for bb in blocks(f) {
                for i in instructions(bb) {
                    let t = e.lay.type_tree(type_of(i), false);
                    e.trees.insert(i, t);
                    e.push(i);
                }
            }
        }
        e
    }

    fn push(&mut self, i: V) {
        if self.queued.insert(i) {
            self.work.push_back(i);
        }
    }

    /// The trees of `f`'s parameters and the join of its returned values'.
    pub fn summary_of(&mut self, f: V) -> (Vec<TypeTree>, TypeTree) {
        let ps = params(f).into_iter().map(|p| self.tree(p)).collect();
        let mut ret = TypeTree::new();
        for r in self.rets.get(&f).cloned().unwrap_or_default() {
            if num_operands(r) > 0 {
                ret.merge(&self.tree(operand(r, 0)));
            }
        }
        (ps, ret)
    }

    pub fn run(&mut self) {
        while let Some(i) = self.work.pop_front() {
            self.queued.remove(&i);
            self.visits += 1;
            if self.visits % 20_000 == 0 {
                let big = self.trees.iter().max_by_key(|(_, t)| t.len());
                log::debug!(
                    "type analysis: {} visits, {} changes, widen {:.3}s, {} queued, largest tree {} entries ({})",
                    self.visits,
                    self.changes,
                    self.widen_ns as f64 * 1e-9,
                    self.work.len(),
                    big.map_or(0, |(_, t)| t.len()),
                    big.map_or(String::new(), |(v, _)| print_value(*v).chars().take(120).collect()),
                );
            }
            self.transfer(i);
        }
    }

    /// The tree of any value (constants are computed, not stored).
    pub fn tree(&mut self, v: V) -> TypeTree {
        if let Some(t) = self.trees.get(&v) {
            return t.clone();
        }
        if is_global_var(v) {
            let t = self.global_tree(v);
            self.trees.insert(v, t.clone());
            return t;
        }
        self.constant_tree(v)
    }

    fn global_tree(&self, g: V) -> TypeTree {
        let vt = global_type(g);
        let Some(init) = global_initializer(g) else {
            return TypeTree::scalar(Base::Pointer);
        };
        // A zero initializer or a byte array says nothing about integers.
        let zero = is_const_aggregate_zero(init) || is_null(init);
        let bytes = is_array(vt) && is_int(elem_type(vt)) && int_width(elem_type(vt)) == 8;
        TypeTree::pointer_to(&self.lay.type_tree(vt, !zero && !bytes))
    }

    fn constant_tree(&mut self, v: V) -> TypeTree {
        let t = type_of(v);
        if is_function(v) {
            return TypeTree::scalar(Base::Pointer);
        }
        if is_undef(v) || is_poison(v) {
            return TypeTree::scalar(Base::Anything);
        }
        if let Some(c) = const_int_value(v) {
            return TypeTree::scalar(if c == 0 {
                Base::Anything
            } else {
                Base::Integer
            });
        }
        if let Some(op) = const_opcode(v) {
            match op {
                LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMAddrSpaceCast
                | LLVMOpcode::LLVMPtrToInt
                | LLVMOpcode::LLVMIntToPtr => {
                    return self.tree(operand(v, 0));
                }
                LLVMOpcode::LLVMGetElementPtr => {
                    let base = self.tree(operand(v, 0));
                    let (off, strides) = self.const_gep_offset(v);
                    return self.gep_view(&base, off, &strides);
                }
                _ => return self.lay.type_tree(t, false),
            }
        }
        if is_constant(v) {
            if is_const_aggregate_zero(v) || is_const_null_ptr(v) {
                return self.lay.type_tree(t, false);
            }
            return self.lay.type_tree(t, true);
        }
        self.lay.type_tree(t, false)
    }

    fn const_gep_offset(&self, v: V) -> (i64, Vec<i64>) {
        let src = gep_source_type(v);
        let idx: Vec<V> = operands(v)[1..].to_vec();
        self.lay.gep_offset(v, src, &idx)
    }

    /// The pointer `base + off + sum(stride_k * i_k)` seen from `base`.
    fn gep_view(&self, base: &TypeTree, off: i64, strides: &[i64]) -> TypeTree {
        let mut pointee = base.pointee();
        if !strides.is_empty() {
            let g = strides.iter().fold(0, |a, s| super::tree::gcd(a, *s));
            if g <= 1 {
                return TypeTree::scalar(Base::Pointer);
            }
            pointee = pointee.fold(g);
        }
        TypeTree::pointer_to(&pointee.shift(-off))
    }

    /// The inverse: what a GEP's result says about its base.
    fn gep_base_view(&self, res: &TypeTree, off: i64, strides: &[i64]) -> TypeTree {
        let mut pointee = res.pointee().shift(off);
        if !strides.is_empty() {
            let g = strides.iter().fold(0, |a, s| super::tree::gcd(a, *s));
            if g <= 1 {
                return TypeTree::scalar(Base::Pointer);
            }
            pointee = pointee.fold(g);
        }
        TypeTree::pointer_to(&pointee)
    }

    /// Join `t` into the tree of `v`; re-visit what depends on it.
    pub fn update(&mut self, v: V, t: &TypeTree) {
        if t.is_empty() || v.is_null() {
            return;
        }
        let tracked = is_instruction(v) || is_argument(v);
        if tracked || is_global_var(v) {
            if !self.trees.contains_key(&v) {
                if tracked {
                    return; // outside the analysed functions
                }
                let g = self.global_tree(v);
                self.trees.insert(v, g);
            }
            let tree = self.trees.get_mut(&v).unwrap();
            if !tree.merge(t) {
                return;
            }
            self.changes += 1;
            let t0 = std::time::Instant::now();
            if let Some(w) = tree.widen() {
                *tree = w;
            }
            self.widen_ns += t0.elapsed().as_nanos();
            if is_instruction(v) {
                self.push(v);
            }
            if is_argument(v) {
                let f = param_parent(v);
                for c in self.callers.get(&f).cloned().unwrap_or_default() {
                    self.push(c);
                }
            }
            self.push_users(v, 0);
            return;
        }
        // A constant expression over a global: the update goes to the global.
        match const_opcode(v) {
            Some(LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast) => {
                self.update(operand(v, 0), t)
            }
            Some(LLVMOpcode::LLVMGetElementPtr) => {
                let (off, strides) = self.const_gep_offset(v);
                let b = self.gep_base_view(t, off, &strides);
                self.update(operand(v, 0), &b);
            }
            _ => {}
        }
    }

    fn push_users(&mut self, v: V, depth: u32) {
        for u in users(v) {
            if is_instruction(u) {
                if self.trees.contains_key(&u) {
                    self.push(u);
                }
            } else if depth < 4 && is_constant(u) {
                self.push_users(u, depth + 1);
            }
        }
    }

    fn size(&self, t: T) -> u64 {
        self.lay.store_size(t)
    }

    fn transfer(&mut self, i: V) {
        use LLVMOpcode::*;
        let Some(op) = opcode(i) else { return };
        let int = TypeTree::scalar(Base::Integer);
        match op {
            LLVMLoad | LLVMStore | LLVMAtomicRMW | LLVMAtomicCmpXchg | LLVMGetElementPtr => {
                self.transfer_memory(i, op)
            }
            LLVMPHI => {
                let n = count_incoming(i);
                for k in 0..n {
                    let v = incoming_value(i, k);
                    let t = self.tree(v);
                    self.update(i, &t);
                }
                let me = self.tree(i);
                for k in 0..n {
                    let v = incoming_value(i, k);
                    self.update(v, &me);
                }
            }
            LLVMSelect => {
                self.update(operand(i, 0), &int);
                for k in 1..3 {
                    let t = self.tree(operand(i, k));
                    self.update(i, &t);
                }
                let me = self.tree(i);
                self.update(operand(i, 1), &me);
                self.update(operand(i, 2), &me);
            }
            LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze | LLVMPtrToInt | LLVMIntToPtr => {
                let o = operand(i, 0);
                let t = self.tree(o);
                self.update(i, &t);
                let me = self.tree(i);
                self.update(o, &me);
            }
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl
            | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMICmp | LLVMFCmp
            | LLVMTrunc | LLVMZExt | LLVMSExt | LLVMSIToFP | LLVMUIToFP | LLVMFPToSI
            | LLVMFPToUI => self.transfer_int(i, op),
            LLVMExtractValue | LLVMInsertValue | LLVMExtractElement | LLVMInsertElement => {
                self.transfer_aggregate(i, op)
            }
            LLVMAlloca => {
                self.update(operand(i, 0), &int);
            }
            LLVMBr | LLVMSwitch => {
                if num_operands(i) > 1 || op == LLVMSwitch {
                    self.update(operand(i, 0), &int);
                }
            }
            LLVMRet => {
                let f = inst_fn(i);
                for c in self.callers.get(&f).cloned().unwrap_or_default() {
                    self.push(c);
                }
            }
            LLVMCall | LLVMInvoke => self.transfer_call(i),
            _ => {}
        }
    }

    /// Loads, stores, atomics and GEPs: what memory holds and what points to it.
    fn transfer_memory(&mut self, i: V, op: LLVMOpcode) {
        use LLVMOpcode::*;
        let ty = type_of(i);
        let int = TypeTree::scalar(Base::Integer);
        match op {
            LLVMLoad => {
                let p = operand(i, 0);
                let size = self.size(ty);
                let sc = self.lay.scalar_offsets(ty);
                let mut vt = self.tree(p).pointee().restrict(size).instantiate(&sc);
                if let Some(b) = tbaa::access_type(i) {
                    vt.insert(vec![Off::exact(0)], b);
                }
                self.update(i, &vt);
                let me = self.tree(i).restrict(size);
                self.update(p, &TypeTree::pointer_to(&me));
            }
            LLVMStore => {
                let (v, p) = (operand(i, 0), operand(i, 1));
                let size = self.size(type_of(v));
                let mut vt = self.tree(v).restrict(size);
                if let Some(b) = tbaa::access_type(i) {
                    vt.insert(vec![Off::exact(0)], b);
                    self.update(v, &TypeTree::scalar(b));
                }
                self.update(p, &TypeTree::pointer_to(&vt));
                let sc = self.lay.scalar_offsets(type_of(v));
                let mem = self.tree(p).pointee().restrict(size).instantiate(&sc);
                self.update(v, &mem);
            }
            LLVMAtomicRMW | LLVMAtomicCmpXchg => {
                let p = operand(i, 0);
                let v = operand(i, if op == LLVMAtomicRMW { 1 } else { 2 });
                let size = self.size(type_of(v));
                let vt = self.tree(v).restrict(size);
                self.update(p, &TypeTree::pointer_to(&vt));
                let sc = self.lay.scalar_offsets(type_of(v));
                let mem = self.tree(p).pointee().restrict(size).instantiate(&sc);
                self.update(v, &mem);
                if op == LLVMAtomicRMW {
                    self.update(i, &mem);
                }
            }
            LLVMGetElementPtr => {
                let base = operand(i, 0);
                let src = gep_source_type(i);
                let idx: Vec<V> = operands(i)[1..].to_vec();
                for x in &idx {
                    self.update(*x, &int);
                }
                let (off, strides) = self.lay.gep_offset(i, src, &idx);
                // clang indexes a `double *` with `gep double`: the element
                // type of a GEP over floats says what the memory holds.
                if let Some(k) = float_kind(src) {
                    let elem = TypeTree::scalar(Base::Float(k));
                    self.update(i, &TypeTree::pointer_to(&elem));
                }
                let bt = self.tree(base);
                let view = self.gep_view(&bt, off, &strides);
                self.update(i, &view);
                // Into the middle of a float (a double's 32-bit halves).
                let piece = strides.is_empty() && off > 0;
                if let Some(v) = piece
                    .then(|| pieces::piece_view(&bt.pointee(), off))
                    .flatten()
                {
                    log::debug!(
                        "piece: {} into {} (off {off})",
                        print_value(i),
                        bt.pointee()
                    );
                    self.update(i, &v);
                }
                let rt = self.tree(i);
                let mut back = self.gep_base_view(&rt, off, &strides);
                if piece {
                    back = pieces::drop_pieces(&back, &self.tree(base).pointee());
                }
                self.update(base, &back);
            }
            _ => {}
        }
    }

    /// Integer arithmetic, comparisons and conversions.
    fn transfer_int(&mut self, i: V, op: LLVMOpcode) {
        use LLVMOpcode::*;
        let ty = type_of(i);
        let int = TypeTree::scalar(Base::Integer);
        match op {
            LLVMAdd | LLVMSub => {
                let (a, b) = (self.tree(operand(i, 0)), self.tree(operand(i, 1)));
                let (ba, bb) = (a.base_at(0), b.base_at(0));
                if ba == Base::Pointer || bb == Base::Pointer {
                    self.update(i, &TypeTree::scalar(Base::Pointer));
                } else if !ba.is_float() && !bb.is_float() {
                    // Integer arithmetic: result and operands are integers
                    // (pointer arithmetic shows as a Pointer operand).
                    self.update(i, &int);
                    if self.tree(i).base_at(0) == Base::Integer {
                        self.update(operand(i, 0), &int);
                        self.update(operand(i, 1), &int);
                    }
                }
            }
            LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr | LLVMAShr => {
                self.update(i, &int);
                self.update(operand(i, 0), &int);
                self.update(operand(i, 1), &int);
            }
            LLVMAnd | LLVMOr | LLVMXor => {
                let (a, b) = (operand(i, 0), operand(i, 1));
                let width = if is_int(ty) { int_width(ty) } else { 64 };
                // Masking a float's bits (fabs, fneg through integers)
                // keeps it a float.
                let other = if is_constant(b) {
                    Some(a)
                } else if is_constant(a) {
                    Some(b)
                } else {
                    None
                };
                match other {
                    Some(o) if width >= 16 => {
                        let t = self.tree(o);
                        self.update(i, &t.truncate(1));
                        let me = self.tree(i);
                        self.update(o, &me);
                    }
                    _ => {
                        let (ta, tb) = (self.tree(a), self.tree(b));
                        if ta.base_at(0) == Base::Integer
                            || tb.base_at(0) == Base::Integer
                            || width < 16
                        {
                            self.update(i, &int);
                        }
                    }
                }
            }
            LLVMICmp => {
                self.update(i, &int);
                // Comparing with an integer: the other side is one too.
                let (a, b) = (operand(i, 0), operand(i, 1));
                let (ta, tb) = (self.tree(a).base_at(0), self.tree(b).base_at(0));
                if is_int(type_of(a)) {
                    if ta == Base::Integer {
                        self.update(b, &int);
                    }
                    if tb == Base::Integer {
                        self.update(a, &int);
                    }
                }
            }
            LLVMFCmp => {
                self.update(i, &int);
            }
            LLVMTrunc | LLVMZExt | LLVMSExt => {
                self.update(i, &int);
                self.update(operand(i, 0), &int);
            }
            LLVMSIToFP | LLVMUIToFP => {
                self.update(operand(i, 0), &int);
            }
            LLVMFPToSI | LLVMFPToUI => {
                self.update(i, &int);
            }
            _ => {}
        }
    }

    /// Fields of aggregates and elements of vectors.
    fn transfer_aggregate(&mut self, i: V, op: LLVMOpcode) {
        use LLVMOpcode::*;
        let ty = type_of(i);
        let int = TypeTree::scalar(Base::Integer);
        match op {
            LLVMExtractValue => {
                let agg = operand(i, 0);
                let idx = indices(i);
                let (off, _) = self.lay.aggregate_offset(type_of(agg), &idx);
                let size = self.size(ty);
                let sc = self.lay.scalar_offsets(ty);
                let t = self.tree(agg).extract(off, size).instantiate(&sc);
                self.update(i, &t);
                let me = self.tree(i).restrict(size).shift(off);
                self.update(agg, &me);
            }
            LLVMInsertValue => {
                let (agg, v) = (operand(i, 0), operand(i, 1));
                let idx = indices(i);
                let (off, _) = self.lay.aggregate_offset(ty, &idx);
                let size = self.size(type_of(v));
                let ta = self.tree(agg);
                self.update(i, &ta);
                let tv = self.tree(v).restrict(size).shift(off);
                self.update(i, &tv);
                let me = self.tree(i);
                self.update(v, &me.extract(off, size));
            }
            LLVMExtractElement | LLVMInsertElement => {
                let vec_op = operand(i, 0);
                let vt = type_of(vec_op);
                let es = self.lay.alloc_size(elem_type(vt)) as i64;
                let ix = operand(i, if op == LLVMExtractElement { 1 } else { 2 });
                self.update(ix, &int);
                if let Some(c) = const_int_value(ix) {
                    if op == LLVMExtractElement {
                        let t = self.tree(vec_op).extract(c * es, es as u64);
                        self.update(i, &t);
                    } else {
                        let ta = self.tree(vec_op);
                        self.update(i, &ta);
                        let tv = self.tree(operand(i, 1)).restrict(es as u64).shift(c * es);
                        self.update(i, &tv);
                    }
                }
            }
            _ => {}
        }
    }

    /// A masked load, store, gather or scatter: what a load or store says,
    /// lane by lane (the addresses of a gather and a scatter are a vector
    /// of pointers, one per lane); the mask is integer, a load's passthru
    /// the result's type.
    fn transfer_masked(&mut self, i: V) {
        let Some(a) = crate::rules::vecmem::masked_access(i) else {
            return;
        };
        let int = TypeTree::scalar(Base::Integer);
        self.update(a.mask, &int);
        let data = a.value.unwrap_or(i);
        if let Some(p) = a.passthru {
            let t = self.tree(p);
            self.update(i, &t);
            let me = self.tree(i);
            self.update(p, &me);
        }
        let ty = type_of(data);
        if !is_vector(ty) {
            return;
        }
        let size = self.size(ty);
        let sc = self.lay.scalar_offsets(ty);
        if !a.op.per_lane_pointers() {
            // One pointer to the lanes, as a load or store of the vector.
            let mem = self.tree(a.ptr).pointee().restrict(size).instantiate(&sc);
            self.update(data, &mem);
            let vt = self.tree(data).restrict(size);
            self.update(a.ptr, &TypeTree::pointer_to(&vt));
            return;
        }
        // Lane k's element at lane k's pointer (pointers are 8 bytes).
        let n = vector_size(ty) as i64;
        let es = self.lay.alloc_size(elem_type(ty)) as i64;
        let ptrs = self.tree(a.ptr);
        let mut elem = TypeTree::new();
        let mut from_mem = TypeTree::new();
        for k in 0..n {
            elem.merge(&self.tree(data).extract(k * es, es as u64));
            from_mem.merge(&ptrs.extract(k * 8, 8).pointee().restrict(es as u64));
        }
        let mut lanes = TypeTree::new();
        let mut addrs = TypeTree::new();
        for k in 0..n {
            lanes.merge(&from_mem.shift(k * es));
            addrs.merge(&TypeTree::pointer_to(&elem).shift(k * 8));
        }
        self.update(data, &lanes.instantiate(&sc));
        self.update(a.ptr, &addrs);
    }

    fn transfer_call(&mut self, i: V) {
        if let Some((args, ret)) = self.fixed.get(&i).cloned() {
            for (a, t) in &args {
                self.update(*a, t);
            }
            self.update(i, &ret);
            return;
        }
        if let Some(pairs) = self.links.get(&i).cloned() {
            for (a, p) in &pairs {
                let ta = self.tree(*a);
                self.update(*p, &ta);
                let tp = self.tree(*p);
                self.update(*a, &back_to_caller(*p, tp));
            }
            if let Some(c) = called_function(i) {
                if enzyme_target(i).is_none() {
                    for r in self.rets.get(&c).cloned().unwrap_or_default() {
                        if num_operands(r) == 0 {
                            continue;
                        }
                        let rv = operand(r, 0);
                        let t = self.tree(rv);
                        self.update(i, &t);
                        let me = self.tree(i);
                        self.update(rv, &me);
                    }
                }
            }
            return;
        }
        let Some(c) = called_function(i) else { return };
        let args = call_args(i);
        let int = TypeTree::scalar(Base::Integer);
        let Some(k) = known::classify(c) else { return };
        match k {
            Known::Alloc { size_args } => {
                for s in size_args {
                    if let Some(a) = args.get(s as usize) {
                        self.update(*a, &int);
                    }
                }
            }
            Known::Realloc { size_arg } => {
                let t = self.tree(args[0]);
                self.update(i, &t);
                let me = self.tree(i);
                self.update(args[0], &me);
                for a in &args[1..=(size_arg as usize).min(args.len() - 1)] {
                    self.update(*a, &int);
                }
            }
            Known::Free => {
                self.update(args[0], &TypeTree::scalar(Base::Pointer));
            }
            Known::Copy => {
                let (d, s, len) = (args[0], args[1], args[2]);
                self.update(len, &int);
                let mut fields = TypeTree::new();
                for (o, b) in tbaa::struct_fields(i) {
                    fields.insert(vec![Off::exact(o)], b);
                }
                let restrict = |t: TypeTree| match const_int_value(len) {
                    Some(n) => t.restrict(n.max(0) as u64),
                    None => t,
                };
                let st = restrict(self.tree(s).pointee()).join(&fields);
                self.update(d, &TypeTree::pointer_to(&st));
                let dt = restrict(self.tree(d).pointee()).join(&fields);
                self.update(s, &TypeTree::pointer_to(&dt));
            }
            Known::Set => {
                self.update(args[0], &TypeTree::scalar(Base::Pointer));
                if let Some(l) = args.get(2) {
                    self.update(*l, &int);
                }
            }
            Known::Math => {
                for a in args {
                    if is_int(type_of(a)) {
                        self.update(a, &int);
                    }
                }
                if is_int(type_of(i)) {
                    self.update(i, &int);
                }
            }
            Known::Masked => self.transfer_masked(i),
            Known::Printf { fmt } | Known::Scanf { fmt } => {
                let scan = matches!(k, Known::Scanf { .. });
                if is_int(type_of(i)) {
                    self.update(i, &int);
                }
                let Some(a) = args.get(fmt as usize) else {
                    return;
                };
                self.update(*a, &known::char_pointer());
                let Some(s) = known::constant_string(*a) else {
                    return;
                };
                for (t, a) in known::format_args(&s, scan)
                    .into_iter()
                    .zip(args.iter().skip(fmt as usize + 1))
                {
                    self.update(*a, &t);
                }
            }
            Known::Str => {
                for a in args {
                    if is_ptr(type_of(a)) {
                        self.update(a, &known::char_pointer());
                    } else if is_int(type_of(a)) {
                        self.update(a, &int);
                    }
                }
                if is_int(type_of(i)) {
                    self.update(i, &int);
                } else if is_ptr(type_of(i)) {
                    self.update(i, &known::char_pointer());
                }
            }
            Known::Hint { base, step } => {
                let Some(p) = args.first().filter(|p| is_ptr(type_of(**p))) else {
                    return;
                };
                // Elements at 0, step, ... below the size (a constant), or
                // every offset (an unknown or large size).
                let bytes = args
                    .get(1)
                    .map_or(Some(step as i64), |s| const_int_value(*s));
                let mut t = TypeTree::new();
                match bytes {
                    Some(b) if b >= 0 && (b as u64) / step <= 64 => {
                        for o in (0..b as u64).step_by(step as usize) {
                            t.insert(vec![Off::exact(o as i64)], base);
                        }
                    }
                    _ => {
                        t.insert(vec![Off::EVERY], base);
                    }
                }
                self.update(*p, &TypeTree::pointer_to(&t));
                if let Some(s) = args.get(1) {
                    self.update(*s, &int);
                }
            }
            Known::Int => {
                for a in args {
                    if is_int(type_of(a)) {
                        self.update(a, &int);
                    }
                }
                if is_int(type_of(i)) {
                    self.update(i, &int);
                }
            }
        }
    }
}

pub fn is_float_type(t: T) -> bool {
    float_kind(t).is_some()
}
