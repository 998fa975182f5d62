//! Errors as values until the FFI boundary, where they become LLVM
//! diagnostics (clang: `error:` with the source location, non-zero exit).
use crate::ir::llvm::{self, V};
use crate::ir::shim;
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
        let mut s = format!("enzyme-rs: {}", self.kind);
        if let Some(at) = self.at {
            let fname = llvm::name(at.func);
            if !fname.is_empty() {
                s.push_str(&format!("\n  in function '{fname}'"));
            }
            if let Some(i) = at.inst {
                if let Some((file, line)) = shim::debug_location(i) {
                    s.push_str(&format!(" at {file}:{line}"));
                }
                let text = llvm::print_value(i);
                s.push_str(&format!("\n  instruction: {}", text.trim()));
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
}
