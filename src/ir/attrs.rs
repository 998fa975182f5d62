//! String attributes with values on functions (`"key"="value"`).
use super::llvm::*;
use super::sys::core::*;

/// Set the function attribute `key` to `value`.
pub fn set_fn_string_attr(f: V, key: &str, value: &str) {
    unsafe {
        let ctx = LLVMGetTypeContext(type_of(f));
        let a = LLVMCreateStringAttribute(
            ctx,
            key.as_ptr() as *const _,
            key.len() as u32,
            value.as_ptr() as *const _,
            value.len() as u32,
        );
        LLVMAddAttributeAtIndex(f, super::sys::LLVMAttributeFunctionIndex, a);
    }
}

/// The value of function attribute `key`, if `f` has it.
pub fn fn_string_attr(f: V, key: &str) -> Option<String> {
    unsafe {
        let a = LLVMGetStringAttributeAtIndex(
            f,
            super::sys::LLVMAttributeFunctionIndex,
            key.as_ptr() as *const _,
            key.len() as u32,
        );
        if a.is_null() {
            return None;
        }
        let mut len = 0u32;
        let p = LLVMGetStringAttributeValue(a, &mut len);
        let bytes = std::slice::from_raw_parts(p as *const u8, len as usize);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// Remove the function attribute `key` from `f` (if it has it).
pub fn remove_fn_string_attr(f: V, key: &str) {
    unsafe {
        LLVMRemoveStringAttributeAtIndex(
            f,
            super::sys::LLVMAttributeFunctionIndex,
            key.as_ptr() as *const _,
            key.len() as u32,
        );
    }
}

/// Mark parameter `i` (0-based) of `f` with the string attribute `key`
/// (clones made with `shim::clone_into` keep it).
pub fn add_param_string_attr(f: V, i: u32, key: &str) {
    super::link::add_string_attr_at(f, i + 1, key, "")
}

/// Whether `f` has the string attribute `key` at attribute index `idx`.
pub(crate) fn has_string_attr_at(f: V, idx: u32, key: &str) -> bool {
    unsafe {
        !LLVMGetStringAttributeAtIndex(f, idx, key.as_ptr() as *const _, key.len() as u32).is_null()
    }
}

/// Whether parameter `i` (0-based) of `f` carries the string attribute `key`.
pub fn param_has_string_attr(f: V, i: u32, key: &str) -> bool {
    has_string_attr_at(f, i + 1, key)
}
