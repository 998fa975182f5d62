//! Errors as values until the FFI boundary, where they become LLVM
//! diagnostics (clang: `error:` with the source location, non-zero exit).
use crate::ir::llvm::{self, V};
use crate::ir::{demangle, shim};
use thiserror::Error;

/// Where an error happened: the function and, when known, the instruction.
#[derive(Debug, Clone, Copy)]
pub struct At {
    pub func: V,
    pub inst: Option<V>,
}

#[derive(Debug, Error)]
pub enum ErrorKind {
    #[error("{0}")]
    BadCall(String),
    #[error("cannot differentiate: {0}")]
    Unsupported(String),
    #[error("no derivative known for external function '{0}' (it has no body in this module); give it a body, declare a custom derivative with __enzyme_register_derivative_{0} / __enzyme_register_gradient_{0}, or mark it inactive")]
    UnknownFunction(String),
    #[error("type analysis: {0}")]
    Type(String),
    #[error("internal error: {0}")]
    Internal(String),
}

#[derive(Debug, Error)]
#[error("{kind}")]
pub struct Error {
    pub kind: ErrorKind,
    pub at: Option<At>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, func: V, inst: Option<V>) -> Error {
        Error {
            kind,
            at: Some(At { func, inst }),
        }
    }
    pub fn bad_call(call: V, msg: impl Into<String>) -> Error {
        Error::new(
            ErrorKind::BadCall(msg.into()),
            llvm::inst_fn(call),
            Some(call),
        )
    }
    pub fn unsupported(inst: V, msg: impl Into<String>) -> Error {
        Error::new(
            ErrorKind::Unsupported(msg.into()),
            llvm::inst_fn(inst),
            Some(inst),
        )
    }
    pub fn internal(msg: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Internal(msg.into()),
            at: None,
        }
    }

    /// The full message: what is wrong, in which function, at which line.
    pub fn message(&self) -> String {
        // Names as the user wrote them: C++ and Rust symbols demangled.
        let mut kind = demangle::demangle_in(&self.kind.to_string());
        if self.at.is_some_and(|at| demangle::from_rustc(at.func)) {
            kind = rust_activity_names(&kind);
        }
        let mut s = format!("enzyme-rs: {kind}");
        if let Some(at) = self.at {
            let fname = demangle::demangle(&llvm::name(at.func));
            if !fname.is_empty() {
                s.push_str(&format!("\n  in function '{fname}'"));
            }
            if let Some((file, line)) = at.inst.and_then(shim::debug_location) {
                s.push_str(&format!(" at {file}:{line}"));
            } else if let Some((file, line)) = demangle::function_location(at.func) {
                s.push_str(&format!(" (defined at {file}:{line})"));
            }
            if let Some(i) = at.inst {
                let text = llvm::print_value(i);
                s.push_str(&format!(
                    "\n  instruction: {}",
                    demangle::demangle_in(text.trim())
                ));
            }
        }
        s
    }

    /// Emit the error as an LLVM diagnostic in `fallback_fn` when the error has
    /// no location of its own.
    pub fn emit(&self, fallback_fn: V) {
        let msg = self.message();
        log::debug!("{msg}");
        let (f, i) = match self.at {
            Some(at) => (at.func, at.inst),
            None => (fallback_fn, None),
        };
        shim::diagnose_error(f, i, &msg);
    }

    /// Emit the error of the differentiation call `call` (in `caller`).
    /// For rustc, whose users see one location, an error inside a callee
    /// (std code, say) is reported at the user's call, naming where it
    /// arose in the message.
    pub fn emit_for_call(&self, call: V, caller: V) {
        match self.at {
            Some(at) if at.func != caller && demangle::from_rustc(caller) => {
                let msg = format!(
                    "{}\n  while differentiating for '{}'",
                    self.message(),
                    demangle::demangle(&llvm::name(caller))
                );
                log::debug!("{msg}");
                shim::diagnose_error(caller, Some(call), &msg);
            }
            _ => self.emit(caller),
        }
    }
}

/// Enzyme's markers in a message followed by the activities of Rust's
/// `std::autodiff` that rustc lowers to them.
fn rust_activity_names(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(word);
        let rust = match word.as_str() {
            "enzyme_out" => Some("Active"),
            "enzyme_dup" => Some("Dual / Duplicated"),
            "enzyme_dupnoneed" => Some("DualOnly / DuplicatedOnly"),
            "enzyme_const" => Some("Const"),
            _ => None,
        };
        if let Some(r) = rust {
            out.push_str(&format!(" ({r})"));
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn rust_activity_names() {
        assert_eq!(
            super::rust_activity_names("x cannot be enzyme_out: use enzyme_dup."),
            "x cannot be enzyme_out (Active): use enzyme_dup (Dual / Duplicated)."
        );
    }
}
