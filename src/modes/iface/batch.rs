//! `__enzyme_batch(f, enzyme_width, N, args...)`: the primal `f` evaluated
//! on N lanes. Per parameter of `f`: `enzyme_vector` (the default) takes N
//! values, one per lane; `enzyme_scalar` takes one value shared by every
//! lane; `enzyme_buffer, stride, p` (a pointer parameter) gives the N lanes
//! in one buffer: lane k gets `(char *)p + k * stride` (stride in bytes, any
//! integer value). The result is an aggregate (struct or array, also
//! returned through an `sret` pointer) of the N results; a void `f` returns
//! nothing. The call becomes N calls of `f`, lane by lane (LLVM may
//! vectorize them).
use crate::callsite::{convert_arg, leaf_types, marker_name, pack, resolve_function};
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::modes::iface::markers::byte_strided;

pub fn lower(call: V) -> Result<()> {
    let all = call_args(call);
    let mut k = 0;
    let out = (call_has_sret(call, 0) && !all.is_empty()).then(|| all[0]);
    k += out.is_some() as usize;
    let f = resolve_function(
        call,
        *all.get(k).ok_or_else(|| {
            Error::bad_call(call, "__enzyme_batch needs the function to evaluate first")
        })?,
    )?;
    k += 1;
    let mut width = 1usize;
    if all.get(k).and_then(|v| marker_name(*v)).as_deref() == Some("enzyme_width") {
        width = all
            .get(k + 1)
            .and_then(|v| const_int_value(*v))
            .filter(|w| (1..=64).contains(w))
            .ok_or_else(|| {
                Error::bad_call(
                    call,
                    "enzyme_width must be followed by an integer constant from 1 to 64",
                )
            })? as usize;
        k += 2;
    }
    let b = Builder::new(module_of(inst_fn(call)));
    b.before(call);
    b.set_debug_loc_from(call);
    let fname = name(f);
    // lanes[l] = the arguments of lane l.
    let mut lanes: Vec<Vec<V>> = vec![Vec::new(); width];
    for (pi, p) in params(f).iter().enumerate() {
        let pty = type_of(*p);
        let mut n = width;
        match all.get(k).and_then(|v| marker_name(*v)).as_deref() {
            Some("enzyme_vector") => k += 1,
            Some("enzyme_scalar") => {
                k += 1;
                n = 1;
            }
            Some("enzyme_buffer") => {
                let (stride, base) = buffer_operands(call, &all, k, pi, &fname, pty)?;
                let ptrs = byte_strided(&b, base, stride, width as u32);
                for (lane, ptr) in lanes.iter_mut().zip(ptrs) {
                    lane.push(convert_arg(&b, ptr, pty).unwrap_or(ptr));
                }
                k += 3;
                continue;
            }
            Some(m) => {
                return Err(Error::bad_call(
                    call,
                    format!(
                        "marker {m} is not valid in __enzyme_batch (before argument {} of '{fname}'): use enzyme_vector, enzyme_scalar or enzyme_buffer",
                        pi + 1
                    ),
                ))
            }
            None => {}
        }
        if k + n > all.len() {
            return Err(Error::bad_call(
                call,
                format!(
                    "too few arguments to __enzyme_batch: argument {} of '{fname}' needs {n} value(s) (width {width})",
                    pi + 1
                ),
            ));
        }
        for (l, lane) in lanes.iter_mut().enumerate() {
            let v = all[k + if n == 1 { 0 } else { l }];
            let c = convert_arg(&b, v, pty).ok_or_else(|| {
                Error::bad_call(
                    call,
                    format!(
                        "__enzyme_batch: a {} cannot be passed as argument {} ({}) of '{fname}'",
                        print_type(type_of(v)),
                        pi + 1,
                        print_type(pty)
                    ),
                )
            })?;
            lane.push(c);
        }
        k += n;
    }
    if k != all.len() {
        return Err(Error::bad_call(
            call,
            format!(
                "too many arguments to __enzyme_batch: '{fname}' takes {} parameters at width {width}",
                params(f).len()
            ),
        ));
    }
    let results: Vec<V> = lanes
        .into_iter()
        .map(|mut args| b.call_fn(f, &mut args))
        .collect();
    let rty = fn_return_type(f);
    let want = match out {
        Some(_) => call_type_attr_at(call, 1, "sret"),
        None => Some(type_of(call)).filter(|t| !is_void(*t)),
    };
    let Some(want) = want else {
        erase(call);
        return Ok(());
    };
    let bad = || {
        Error::bad_call(
            call,
            format!(
                "__enzyme_batch of '{fname}' at width {width} returns {} values of type {}, which do not fit its declared result {}",
                width,
                print_type(rty),
                print_type(want)
            ),
        )
    };
    if is_void(rty) || leaf_types(rty).len() != 1 {
        return Err(bad());
    }
    let tys = leaf_types(want);
    if tys.len() != width {
        return Err(bad());
    }
    let mut leaves = Vec::new();
    for (r, t) in results.iter().zip(&tys) {
        leaves.push(convert_arg(&b, *r, *t).ok_or_else(bad)?);
    }
    let agg = pack(&b, want, &leaves).ok_or_else(bad)?;
    match out {
        Some(p) => {
            b.store(agg, p);
        }
        None => replace_all_uses(call, agg),
    }
    erase(call);
    Ok(())
}

/// The stride and the buffer of `enzyme_buffer, stride, p` at `all[k]`,
/// for parameter `pi` (of type `pty`) of `fname`.
fn buffer_operands(call: V, all: &[V], k: usize, pi: usize, fname: &str, pty: T) -> Result<(V, V)> {
    let usage = "enzyme_buffer takes the stride in bytes (an integer) and one pointer to the buffer of all lanes";
    let (Some(stride), Some(base)) = (all.get(k + 1).copied(), all.get(k + 2).copied()) else {
        return Err(Error::bad_call(
            call,
            format!(
                "too few arguments to __enzyme_batch after enzyme_buffer (argument {} of '{fname}'): {usage}",
                pi + 1
            ),
        ));
    };
    if !is_int(type_of(stride)) || marker_name(stride).is_some() {
        return Err(Error::bad_call(
            call,
            format!(
                "{usage}; the stride given for argument {} of '{fname}' is {}",
                pi + 1,
                print_value(stride).trim()
            ),
        ));
    }
    if !is_ptr(type_of(base)) || !is_ptr(pty) {
        return Err(Error::bad_call(
            call,
            format!(
                "{usage}: argument {} of '{fname}' is a {} and the buffer given is a {}; both must be pointers",
                pi + 1,
                print_type(pty),
                print_type(type_of(base))
            ),
        ));
    }
    Ok((stride, base))
}
