//! Strongly connected components of a small graph given by successor lists
//! (nodes are indices), without recursion: a deep CFG or call graph cannot
//! overflow the stack. Used to summarize "what happens after this block" in
//! time linear in the graph (one pass over the condensation) instead of one
//! reachability search per block.

/// The SCCs of the graph `succ` (node `i` has edges to `succ[i]`), sinks
/// first: when SCC `a` has an edge into SCC `b`, `b` is listed before `a`.
/// Iterative Tarjan.
pub fn sccs(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const NONE: usize = usize::MAX;
    let n = succ.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut next = 0usize;
    // (node, position in its successor list)
    let mut work: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        work.push((root, 0));
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            if let Some(&w) = succ[v].get(*pos) {
                *pos += 1;
                if index[w] == NONE {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(comp);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sccs;

    #[test]
    fn chain_and_cycle() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3
        let g = vec![vec![1], vec![2], vec![1, 3], vec![]];
        let s = sccs(&g);
        let pos = |x: usize| s.iter().position(|c| c.contains(&x)).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(pos(1), pos(2));
        assert!(pos(3) < pos(1) && pos(1) < pos(0));
    }

    #[test]
    fn deep_chain_does_not_overflow() {
        let n = 1_000_000;
        let g: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
            .collect();
        let s = sccs(&g);
        assert_eq!(s.len(), n);
        assert_eq!(s[0], vec![n - 1]);
    }
}
