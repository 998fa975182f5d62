//! Readable names in diagnostics: C++ (Itanium) and Rust (v0 and legacy)
//! symbols demangled with LLVM's demangler (cpp/shim.cc), and the source
//! line of a function.
use std::ffi::{c_char, c_uint, CStr, CString};

use super::llvm::V;

extern "C" {
    fn ers_demangle(name: *const c_char) -> *mut c_char;
    fn ers_free(p: *mut c_char);
    fn ers_function_line(f: V, file: *mut *const c_char) -> c_uint;
    fn ers_from_rustc(f: V) -> std::ffi::c_int;
}

/// Whether function `f`'s module was made by rustc (its `llvm.ident`).
pub fn from_rustc(f: V) -> bool {
    !f.is_null() && unsafe { ers_from_rustc(f) } != 0
}

/// The demangled form of a symbol; the name itself when it is not mangled
/// (or not in a scheme LLVM knows). Legacy Rust symbols (`_ZN...17h<hash>E`)
/// lose their hash segment, as rustc prints them.
pub fn demangle(name: &str) -> String {
    if !(name.starts_with("_Z") || name.starts_with("_R") || name.starts_with("__Z")) {
        return name.to_string();
    }
    let Ok(c) = CString::new(name) else {
        return name.to_string();
    };
    let out = unsafe {
        let p = ers_demangle(c.as_ptr());
        if p.is_null() {
            return name.to_string();
        }
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        ers_free(p);
        s
    };
    strip_rust_hash(&out).to_string()
}

/// `main::foo::h0123456789abcdef` -> `main::foo`.
fn strip_rust_hash(s: &str) -> &str {
    if let Some(i) = s.rfind("::h") {
        let h = &s[i + 3..];
        if h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return &s[..i];
        }
    }
    s
}

/// Every mangled symbol in a message replaced by its demangled form. A
/// symbol is a run of identifier characters (`[A-Za-z0-9_$]`) starting
/// with `_Z` or `_R`.
pub fn demangle_in(text: &str) -> String {
    // '.' separates: `enzyme_rs.aug._RNv...`, `_ZN3fooE.llvm.12`.
    let is_sym = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        if !is_sym(c) {
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let len = text[i..]
            .find(|c: char| !is_sym(c))
            .unwrap_or(text.len() - i);
        let word = &text[i..i + len];
        if word.starts_with("_Z") || word.starts_with("_R") {
            out.push_str(&demangle(word));
        } else {
            out.push_str(word);
        }
        i += len;
    }
    out
}

/// `file:line` of a function's definition (its debug info), if it has one.
pub fn function_location(f: V) -> Option<(String, u32)> {
    let mut file: *const c_char = std::ptr::null();
    let line = unsafe { ers_function_line(f, &mut file) };
    if line == 0 {
        return None;
    }
    let name = if file.is_null() {
        String::new()
    } else {
        unsafe { CStr::from_ptr(file) }
            .to_string_lossy()
            .into_owned()
    };
    Some((name, line))
}

#[cfg(test)]
mod tests {
    use super::{demangle_in, strip_rust_hash};

    #[test]
    fn legacy_rust_hash() {
        assert_eq!(strip_rust_hash("main::foo::h0123456789abcdef"), "main::foo");
        assert_eq!(strip_rust_hash("main::foo::hello"), "main::foo::hello");
        assert_eq!(strip_rust_hash("foo(int)"), "foo(int)");
    }

    #[test]
    fn plain_text_unchanged() {
        let t = "in function 'foo.bar' at x.rs:3: a_b, ... (c) _x.";
        assert_eq!(demangle_in(t), t);
    }
}
