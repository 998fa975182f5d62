//! Enzyme's source attributes, as the clang plugin (cpp/clang_attrs.cc)
//! leaves them: entries of `llvm.global.annotations` whose text is
//! `enzyme:ATTR:TARGET[=VALUE]` (TARGET: the IR name of a function or a
//! global; empty: the annotated function itself, for templates). [`apply`] turns those on functions into function attributes
//! (read like hand-written ones: `"enzyme_inactive"`,
//! `"enzyme_function_like"="malloc"`, ...) and returns those on globals.
use crate::ir::attrs::set_fn_string_attr;
use crate::ir::llvm::*;

/// An attribute on a global variable.
pub enum GlobalAttr {
    /// `enzyme_inactive`: the global carries no derivative.
    Inactive(V),
    /// `enzyme_shadow(s)`: `s` is the global's shadow.
    Shadow(V, V),
}

/// The text of a C string constant that `v` points to.
fn string_of(v: V) -> Option<String> {
    let mut g = strip_casts(v);
    while is_const_gep(g) {
        g = strip_casts(operand(g, 0));
    }
    if !is_global_var(g) {
        return None;
    }
    let bytes = const_bytes(global_initializer(g)?)?;
    Some(
        String::from_utf8_lossy(&bytes)
            .trim_end_matches('\0')
            .to_string(),
    )
}

/// The `enzyme:` annotations of module `m`, as (attribute, target, value).
fn entries(m: LLVMModuleRef) -> Vec<(String, String, String)> {
    let Some(init) = named_global(m, "llvm.global.annotations").and_then(global_initializer) else {
        return Vec::new();
    };
    if !is_const_array(init) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for e in operands(init) {
        if num_operands(e) < 2 {
            continue;
        }
        let Some(text) = string_of(operand(e, 1)) else {
            continue;
        };
        let Some(rest) = text.strip_prefix("enzyme:") else {
            continue;
        };
        let Some((attr, target)) = rest.split_once(':') else {
            continue;
        };
        let (target, value) = target.split_once('=').unwrap_or((target, ""));
        // No target: the annotated function itself (an instantiation of
        // a template the attribute was on).
        let target = match target {
            "" => name(strip_casts(operand(e, 0))),
            t => t.to_string(),
        };
        out.push((attr.to_string(), target, value.to_string()));
    }
    out
}

/// Apply the annotations on functions; return those on globals.
pub fn apply(m: LLVMModuleRef) -> Vec<GlobalAttr> {
    let mut globals_out = Vec::new();
    for (attr, target, value) in entries(m) {
        if let Some(f) = get_function(m, &target) {
            match attr.as_str() {
                "inactive" => set_fn_string_attr(f, "enzyme_inactive", ""),
                "inactive_noblock" => {
                    set_fn_string_attr(f, "enzyme_inactive", "");
                    set_fn_string_attr(f, "enzyme_inactive_noblock", "");
                }
                "function_like" => set_fn_string_attr(f, "enzyme_function_like", &value),
                // `no_escaping_allocation`: read by the capture analysis
                // (reverse/distinct.rs); the others are accepted hints with
                // no effect on the derivative here (`sparse_accumulate`
                // marks a store function for Enzyme's automatic sparsity).
                "no_escaping_allocation"
                | "notypeanalysis"
                | "checkpoint"
                | "sparse_accumulate" => set_fn_string_attr(f, &format!("enzyme_{attr}"), ""),
                _ => log::warn!("enzyme-rs: unknown attribute enzyme_{attr} on '{target}'"),
            }
        } else if let Some(g) = named_global(m, &target) {
            match attr.as_str() {
                "inactive" => globals_out.push(GlobalAttr::Inactive(g)),
                "shadow" => match named_global(m, &value) {
                    Some(s) => globals_out.push(GlobalAttr::Shadow(g, s)),
                    None => log::warn!(
                        "enzyme-rs: the shadow '{value}' of '{target}' is not in this module"
                    ),
                },
                _ => {}
            }
        }
    }
    globals_out
}
