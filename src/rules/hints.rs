//! Enzyme's type annotations: calls through which a program tells type
//! analysis what memory holds, `__enzyme_double(ptr, bytes)`,
//! `__enzyme_float(ptr, bytes)`, `__enzyme_integer(ptr, bytes)` and
//! `__enzyme_pointer(ptr, bytes)` (any name containing these, so C++
//! manglings match; without `bytes`, one element). The calls carry no
//! derivative (`is_inactive_function_name`), type analysis reads them
//! (`analysis::types::known`), and the pass erases them once every
//! derivative is built (`modes::hints`), so they need no definition.

/// `__enzyme_ptr_size_hint(ptr, bytes[, space])`: the extent of memory
/// behind a pointer a checkpointed loop writes (`loops::annotated`); no
/// derivative, erased with the type annotations.
pub fn is_size_hint(n: &str) -> bool {
    crate::callsite::unmangled_head(n).starts_with("__enzyme_ptr_size_hint")
}

/// What an annotation says the memory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    Double,
    Float,
    Integer,
    Pointer,
}

impl Hint {
    /// The size of one element in bytes.
    pub fn step(self) -> u64 {
        match self {
            Hint::Double | Hint::Pointer => 8,
            Hint::Float => 4,
            Hint::Integer => 1,
        }
    }
}

/// The annotation function `n` names, if any.
pub fn type_hint(n: &str) -> Option<Hint> {
    if !n.contains("__enzyme_") {
        return None;
    }
    [
        ("__enzyme_double", Hint::Double),
        ("__enzyme_float", Hint::Float),
        ("__enzyme_integer", Hint::Integer),
        ("__enzyme_pointer", Hint::Pointer),
    ]
    .into_iter()
    .find(|(s, _)| n.contains(s))
    .map(|(_, h)| h)
}
