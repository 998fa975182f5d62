//! Rust's global allocator entry points, as allocation functions.
//!
//! rustc lowers every heap allocation (`Vec`, `Box`, `String`, ...) to
//! calls of four shims: `__rust_alloc(size, align)`,
//! `__rust_alloc_zeroed(size, align)`, `__rust_dealloc(ptr, size, align)`
//! and `__rust_realloc(ptr, old_size, align, new_size)`. With fat LTO
//! (what `std::autodiff` uses) they are defined in the module, mangled in
//! the v0 scheme under the pseudo-crate `__rustc`
//! (`_RNvCs<hash>_7___rustc12___rust_alloc`), and forward to std's System
//! allocator, `__rdl_alloc` & co. (malloc / posix_memalign, realloc,
//! free), or to a `#[global_allocator]`'s methods through `__rg_alloc` &
//! co. Older rustc versions and non-LTO builds use the plain names.
//!
//! Only the System allocator's blocks are classified: they are malloc
//! blocks, so the shadows and the reverse sweep's own bookkeeping
//! (`malloc`, `free`, `malloc_usable_size` on them: the realloc lowering,
//! the deferred-free list) are valid on them. A shim that forwards to a
//! user's `#[global_allocator]` (`__rg_*`) is left alone: it is then
//! differentiated (or refused) as ordinary code.
use super::AllocKind;
use crate::ir::llvm::*;

/// The Rust allocator entry point named `n` (plain or v0-mangled), as
/// (its base name, its kind).
pub fn rust_alloc_name(n: &str) -> Option<(&str, AllocKind)> {
    let base = if n.starts_with("__r") {
        n
    } else {
        v0_rustc_item(n)?
    };
    let what = base
        .strip_prefix("__rust_")
        .or_else(|| base.strip_prefix("__rdl_"))
        .or_else(|| base.strip_prefix("__rg_"))?;
    let k = match what {
        "alloc" | "alloc_zeroed" => AllocKind::Malloc { size_arg: 0 },
        "dealloc" => AllocKind::Free,
        "realloc" => AllocKind::Realloc { size_arg: 3 },
        _ => return None,
    };
    Some((base, k))
}

/// The allocation kind of function `f` when it is a Rust allocator entry
/// point backed by the System allocator (see the module comment).
pub fn rust_alloc_kind(f: V) -> Option<AllocKind> {
    let n = name(f);
    let (base, k) = rust_alloc_name(&n)?;
    if base.starts_with("__rdl_") {
        return Some(k);
    }
    if base.starts_with("__rg_") {
        return None;
    }
    // `__rust_*`: a declaration is taken as the default allocator (a
    // module compiled without LTO); a definition must forward to `__rdl_*`.
    if is_declaration(f) {
        return Some(k);
    }
    let forwards_to_system = blocks(f).into_iter().flat_map(instructions).any(|i| {
        is_call(i)
            && called_function(i)
                .map(|g| {
                    let gn = name(g);
                    rust_alloc_name(&gn).is_some_and(|(b, _)| b.starts_with("__rdl_"))
                })
                .unwrap_or(false)
    });
    forwards_to_system.then_some(k)
}

/// std's noreturn allocation-failure paths (`alloc::raw_vec::handle_error`,
/// `alloc::alloc::handle_alloc_error`, `capacity_overflow`): they never
/// return, so they carry no derivative (without LTO they are declarations
/// the backend has no body of).
pub fn is_alloc_failure(f: V) -> bool {
    let n = name(f);
    n.starts_with("_R")
        && [
            "5alloc7raw_vec12handle_error",
            "5alloc18handle_alloc_error",
            "17capacity_overflow",
        ]
        .iter()
        .any(|s| n.contains(s))
        && fn_has_attr(f, "noreturn")
}

/// `_RNvC[s<disambiguator>_]<len>___rustc<len><ident>`: the item `<ident>`
/// of the pseudo-crate `__rustc`, if `n` is such a v0 symbol.
fn v0_rustc_item(n: &str) -> Option<&str> {
    let rest = n.strip_prefix("_RNvC")?;
    let rest = match rest.strip_prefix('s') {
        Some(r) => {
            let end = r.find('_')?;
            if !r[..end].bytes().all(|c| c.is_ascii_alphanumeric()) {
                return None;
            }
            &r[end + 1..]
        }
        None => rest,
    };
    let (krate, rest) = v0_ident(rest)?;
    if krate != "__rustc" {
        return None;
    }
    let (item, rest) = v0_ident(rest)?;
    rest.is_empty().then_some(item)
}

/// A v0 identifier: decimal length, an optional `_` separator (present
/// when the identifier starts with `_` or a digit), the bytes.
fn v0_ident(s: &str) -> Option<(&str, &str)> {
    let digits = s.bytes().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let len: usize = s[..digits].parse().ok()?;
    let mut rest = &s[digits..];
    if rest.starts_with('_') && rest.len() > len {
        rest = &rest[1..];
    }
    if rest.len() < len || !rest.is_char_boundary(len) {
        return None;
    }
    Some((&rest[..len], &rest[len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let m = |n| rust_alloc_name(n).map(|(b, k)| (b.to_string(), k));
        assert_eq!(
            m("_RNvCseulmdZsCeCG_7___rustc12___rust_alloc"),
            Some(("__rust_alloc".into(), AllocKind::Malloc { size_arg: 0 }))
        );
        assert_eq!(
            m("_RNvCseulmdZsCeCG_7___rustc14___rust_realloc"),
            Some(("__rust_realloc".into(), AllocKind::Realloc { size_arg: 3 }))
        );
        assert_eq!(
            m("_RNvCseulmdZsCeCG_7___rustc19___rust_alloc_zeroed").map(|x| x.1),
            Some(AllocKind::Malloc { size_arg: 0 })
        );
        assert_eq!(
            m("_RNvCseulmdZsCeCG_7___rustc13___rdl_dealloc").map(|x| x.1),
            Some(AllocKind::Free)
        );
        assert_eq!(m("__rust_dealloc").map(|x| x.1), Some(AllocKind::Free));
        assert_eq!(m("__rg_alloc").map(|x| x.0), Some("__rg_alloc".into()));
        // Not allocator entry points.
        assert_eq!(m("_RNvCseulmdZsCeCG_7___rustc12___rust_abort"), None);
        assert_eq!(
            m("_RNvCseulmdZsCeCG_7___rustc35___rust_no_alloc_shim_is_unstable_v2"),
            None
        );
        assert_eq!(
            m("_RNvCseulmdZsCeCG_7___rustc25___rdl_alloc_error_handler"),
            None
        );
        assert_eq!(m("_RNvCseulmdZsCeCG_5other12___rust_alloc"), None);
        assert_eq!(m("_RNvCseulmdZsCeCG_7___rustc12___rust_allocx"), None);
        assert_eq!(m("malloc"), None);
    }
}
