//! Cache or recompute: which values the reverse sweep keeps on the tape.
//!
//! When the reverse sweep needs a value it can recompute (pure integer or
//! floating-point work, loads of memory nothing writes), the values below
//! it form a small graph: its operands, theirs, down to values the reverse
//! sweep has for free (constants, arguments, loop counters and induction
//! variables, replayed load recurrences, loop invariants, values it already
//! has in this block) or to values it cannot recompute (calls, loads of
//! written memory, phis it cannot replay: *opaque*). Every path from an
//! opaque value up to the needed one must be cut by a taped value; the
//! cheapest cut (bytes per iteration, each vertex weighted by the size of
//! its type) is a minimum vertex cut, found here by max-flow on the graph
//! with each vertex split in two. Of the minimum cuts, the one closest to
//! the opaque values is taken, so a value shared by several needed ones is
//! taped once, and an `i1` branch decision rather than the `double` it was
//! computed from. Recomputation is bounded: at most `MAX_NODES` values
//! below the needed one and `MAX_WORK` units of floating-point work (an
//! add 1, a division or square root 4, a libm call 10); past the bound
//! values count as opaque.
//!
//! This module reads IR only; the reverse sweep builds what it decides.
use crate::ir::llvm::*;
use std::collections::{HashMap, VecDeque};

/// At most this many values are considered below a needed one.
pub const MAX_NODES: usize = 48;
/// At most this much floating-point work is redone for one needed value.
pub const MAX_WORK: u32 = 16;

/// How the reverse sweep can get a value, as its caller sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Available without the tape and without work worth counting.
    Free,
    /// Recomputable from its operands at this much work (0 for integer
    /// and address arithmetic and loads).
    Recompute(u32),
    /// Only the tape has it.
    Opaque,
}

/// What a plan decides for one needed value: the values to take from the
/// tape (in the current block) and those to recompute from them.
#[derive(Debug, Default, Clone)]
pub struct Plan {
    pub tape: Vec<V>,
    pub recompute: Vec<V>,
    /// Bytes the cut tapes (per execution of the current block).
    pub bytes: u64,
}

/// Floating-point instructions worth recomputing, with their work: no
/// side effects, no memory access. Calls are libm-like functions (no
/// pointer arguments) the caller has recognised as pure rules.
pub fn float_work(i: V, pure_call: &dyn Fn(V) -> bool) -> Option<u32> {
    use LLVMOpcode::*;
    match opcode(i)? {
        LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFNeg | LLVMFPExt | LLVMFPTrunc | LLVMSIToFP
        | LLVMUIToFP | LLVMFCmp => Some(1),
        LLVMFPToSI | LLVMFPToUI => Some(1),
        LLVMSelect | LLVMExtractValue | LLVMExtractElement | LLVMInsertElement
        | LLVMShuffleVector | LLVMInsertValue => Some(1),
        LLVMFDiv => Some(4),
        LLVMCall => {
            let f = called_function(i)?;
            let n = name(f);
            let cheap = [
                "llvm.fmuladd.",
                "llvm.fma.",
                "llvm.fabs.",
                "llvm.minnum.",
                "llvm.maxnum.",
                "llvm.copysign.",
                "llvm.floor.",
                "llvm.ceil.",
                "llvm.trunc.",
            ];
            if cheap.iter().any(|p| n.starts_with(p)) {
                return Some(1);
            }
            if n.starts_with("llvm.sqrt.") {
                return Some(4);
            }
            if call_args(i).iter().any(|a| is_ptr(type_of(*a))) || !pure_call(i) {
                return None;
            }
            Some(10)
        }
        _ => None,
    }
}

/// The cheapest set of values to tape so that `target` can be recomputed
/// (see the module comment). `origin` classifies values (the target
/// included, which must be recomputable); `deps` gives what a value is
/// recomputed from (its operands, or for a load of a scratch array the
/// values the store that wrote it is recomputed from); `bytes` sizes a
/// taped value.
pub fn plan(
    target: V,
    origin: &mut dyn FnMut(V) -> Origin,
    deps: &dyn Fn(V) -> Vec<V>,
    bytes: &dyn Fn(V) -> u64,
) -> Plan {
    // Collect the graph below the target, breadth first.
    let mut index: HashMap<V, usize> = HashMap::new();
    let mut nodes: Vec<V> = Vec::new();
    let mut opaque: Vec<bool> = Vec::new();
    let mut preds: Vec<Vec<usize>> = Vec::new();
    let mut work = 0u32;
    let mut queue = VecDeque::new();
    index.insert(target, 0);
    nodes.push(target);
    opaque.push(false);
    preds.push(Vec::new());
    queue.push_back(0usize);
    while let Some(k) = queue.pop_front() {
        let v = nodes[k];
        if opaque[k] {
            continue;
        }
        for o in deps(v) {
            if is_block_value(o) || is_constant(o) {
                continue;
            }
            let j = match index.get(&o) {
                Some(j) => *j,
                None => {
                    let kind = origin(o);
                    if kind == Origin::Free {
                        continue;
                    }
                    let is_opaque = match kind {
                        Origin::Recompute(w) => {
                            if nodes.len() >= MAX_NODES || work + w > MAX_WORK {
                                true
                            } else {
                                work += w;
                                false
                            }
                        }
                        _ => true,
                    };
                    let j = nodes.len();
                    index.insert(o, j);
                    nodes.push(o);
                    opaque.push(is_opaque);
                    preds.push(Vec::new());
                    queue.push_back(j);
                    j
                }
            };
            if !preds[k].contains(&j) {
                preds[k].push(j);
            }
        }
    }
    let weights: Vec<u64> = nodes.iter().map(|v| bytes(*v).max(1)).collect();
    let cut = min_vertex_cut(&weights, &preds, &opaque, 0);
    let mut plan = Plan::default();
    for (k, v) in nodes.iter().enumerate() {
        if cut[k] {
            plan.tape.push(*v);
            plan.bytes += weights[k];
        } else if !opaque[k] {
            plan.recompute.push(*v);
        }
    }
    plan
}

/// A minimum-weight set of vertices meeting every path from a vertex
/// marked `source` to `target` (`preds[v]`: the vertices v is computed
/// from), the one closest to the sources. Vertex v has weight `w[v]`.
pub fn min_vertex_cut(
    w: &[u64],
    preds: &[Vec<usize>],
    source: &[bool],
    target: usize,
) -> Vec<bool> {
    let n = w.len();
    // Vertex v is split into v_in = 2v and v_out = 2v+1 (edge of weight
    // w[v]); an operand's out feeds its user's in. S = 2n, T = target_out.
    let (s, t) = (2 * n, 2 * target + 1);
    let inf = u64::MAX / 4;
    let mut g = Flow::new(2 * n + 1);
    for v in 0..n {
        g.edge(2 * v, 2 * v + 1, w[v]);
        for &p in &preds[v] {
            g.edge(2 * p + 1, 2 * v, inf);
        }
        if source[v] {
            g.edge(s, 2 * v, inf);
        }
    }
    g.max_flow(s, t);
    let reach = g.reachable(s);
    (0..n).map(|v| reach[2 * v] && !reach[2 * v + 1]).collect()
}

/// A small flow network (Edmonds-Karp: the graphs have tens of vertices).
struct Flow {
    /// Per edge: (to, residual capacity); edge k's reverse is k ^ 1.
    edges: Vec<(usize, u64)>,
    adj: Vec<Vec<usize>>,
}

impl Flow {
    fn new(n: usize) -> Flow {
        Flow {
            edges: Vec::new(),
            adj: vec![Vec::new(); n],
        }
    }
    fn edge(&mut self, a: usize, b: usize, cap: u64) {
        self.adj[a].push(self.edges.len());
        self.edges.push((b, cap));
        self.adj[b].push(self.edges.len());
        self.edges.push((a, 0));
    }
    fn max_flow(&mut self, s: usize, t: usize) -> u64 {
        let mut total = 0;
        loop {
            let mut via = vec![usize::MAX; self.adj.len()];
            let mut q = VecDeque::from([s]);
            let mut seen = vec![false; self.adj.len()];
            seen[s] = true;
            while let Some(x) = q.pop_front() {
                for &e in &self.adj[x] {
                    let (y, c) = self.edges[e];
                    if c > 0 && !seen[y] {
                        seen[y] = true;
                        via[y] = e;
                        q.push_back(y);
                    }
                }
            }
            if !seen[t] {
                return total;
            }
            let mut f = u64::MAX;
            let mut y = t;
            while y != s {
                let e = via[y];
                f = f.min(self.edges[e].1);
                y = self.edges[e ^ 1].0;
            }
            let mut y = t;
            while y != s {
                let e = via[y];
                self.edges[e].1 -= f;
                self.edges[e ^ 1].1 += f;
                y = self.edges[e ^ 1].0;
            }
            total += f;
        }
    }
    fn reachable(&self, s: usize) -> Vec<bool> {
        let mut seen = vec![false; self.adj.len()];
        let mut stack = vec![s];
        seen[s] = true;
        while let Some(x) = stack.pop() {
            for &e in &self.adj[x] {
                let (y, c) = self.edges[e];
                if c > 0 && !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::min_vertex_cut;

    #[test]
    fn shared_operand_is_cut_once() {
        // 0 = f(1, 2); 1 = g(3); 2 = h(3); 3 opaque (8 bytes each).
        let w = [8, 8, 8, 8];
        let preds = vec![vec![1, 2], vec![3], vec![3], vec![]];
        let src = [false, false, false, true];
        let cut = min_vertex_cut(&w, &preds, &src, 0);
        assert_eq!(cut, vec![false, false, false, true]);
    }

    #[test]
    fn narrow_decision_is_cut() {
        // 0 (i1, 1 byte) = fcmp(1); 1 (8 bytes) opaque.
        let cut = min_vertex_cut(&[1, 8], &[vec![1], vec![]], &[false, true], 0);
        assert_eq!(cut, vec![true, false]);
    }

    #[test]
    fn nothing_opaque_nothing_cut() {
        let cut = min_vertex_cut(&[8, 8], &[vec![1], vec![]], &[false, false], 0);
        assert_eq!(cut, vec![false, false]);
    }
}
