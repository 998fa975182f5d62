//! `__enzyme_allocation_like` deallocators whose pointer argument is not
//! their first: `{alloc, (void *)SIZE_ARG, (void *)"0,-1", dealloc}` with
//! `void dealloc(Pool *pool, void *p)`.
//!
//! Before the registry is read, each such deallocator gets a thunk taking
//! the pointer first (`enzyme_rs.dealloc.NAME(p, pool)`, calling
//! `dealloc(pool, p)`); the registration names the thunk (with the list
//! reordered to match, "-1,0") and every direct call of the deallocator
//! calls the thunk. The modes then see a deallocator like `free`: the
//! pointer first, the rest passed as registered.
use crate::ir::llvm::*;
use crate::ir::Builder;

/// The deallocation list of a registration (`"0,-1"`).
fn index_list(v: V) -> Option<Vec<i64>> {
    let s = crate::analysis::types::known::constant_string(v)?;
    let s = s.trim_end_matches('\0');
    let idx: Vec<i64> = s
        .split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<_>>()?;
    (!idx.is_empty()).then_some(idx)
}

/// Rewrite the registrations of module `m` whose deallocator takes the
/// pointer elsewhere than first. Returns whether anything changed.
pub fn reorder_deallocators(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for g in globals(m) {
        if !name(g).starts_with("__enzyme_allocation_like") {
            continue;
        }
        let Some(init) = global_initializer(g) else {
            continue;
        };
        if !is_array(type_of(init)) {
            continue;
        }
        let mut el: Vec<V> = operands(init);
        let Some(idx) = el.get(2).and_then(|v| index_list(*v)) else {
            continue;
        };
        let Some(k) = (3..el.len()).find(|k| is_function(strip_casts(el[*k]))) else {
            continue;
        };
        let d = strip_casts(el[k]);
        let pos = match idx.iter().position(|x| *x == -1) {
            Some(p) if p > 0 && params(d).len() == idx.len() => p,
            _ => continue,
        };
        let mut order: Vec<usize> = vec![pos];
        order.extend((0..idx.len()).filter(|j| *j != pos));
        let thunk = make_thunk(m, d, &order);
        retarget_calls(m, d, thunk, &order);
        let list: Vec<String> = order.iter().map(|j| idx[*j].to_string()).collect();
        let s = const_cstring_global(
            m,
            &format!("{}\0", list.join(",")),
            &format!("{}.reordered", name(g)),
        );
        el[2] = s;
        el[k] = thunk;
        let elem_ty = type_of(el[0]);
        set_initializer(g, const_array(elem_ty, &el));
        changed = true;
        log::debug!(
            "enzyme-rs: deallocator '{}' takes its pointer as argument {pos}: called through '{}'",
            name(d),
            name(thunk)
        );
    }
    changed
}

/// `enzyme_rs.dealloc.NAME(args in `order`)` calling `d` in its own order.
fn make_thunk(m: LLVMModuleRef, d: V, order: &[usize]) -> V {
    let pts: Vec<T> = params(d).iter().map(|p| type_of(*p)).collect();
    let mut tps: Vec<T> = order.iter().map(|j| pts[*j]).collect();
    let ret = fn_return_type(d);
    let thunk = add_function(
        m,
        &format!("enzyme_rs.dealloc.{}", name(d)),
        fn_type_of(ret, &mut tps, false),
    );
    make_internal(thunk);
    let b = Builder::new(m);
    let entry = append_block(thunk, "entry");
    b.at_end(entry);
    let tp = params(thunk);
    let mut args = vec![tp[0]; pts.len()];
    for (t, j) in order.iter().enumerate() {
        args[*j] = tp[t];
    }
    let r = b.call_fn(d, &mut args);
    if is_void(ret) {
        b.ret_void();
    } else {
        b.ret(r);
    }
    thunk
}

/// Every direct call of `d` (outside `thunk`) calls `thunk` instead.
fn retarget_calls(m: LLVMModuleRef, d: V, thunk: V, order: &[usize]) {
    let b = Builder::new(m);
    for u in users(d) {
        if !is_call(u) || strip_casts(called_value(u)) != d || inst_fn(u) == thunk {
            continue;
        }
        let args = call_args(u);
        if args.len() != order.len() {
            continue;
        }
        b.before(u);
        b.set_debug_loc_from(u);
        let mut na: Vec<V> = order.iter().map(|j| args[*j]).collect();
        let c = b.call_fn(thunk, &mut na);
        if !is_void(type_of(u)) {
            replace_all_uses(u, c);
        }
        erase(u);
    }
}
