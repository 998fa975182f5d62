//! Linking LLVM bitcode (a helper library compiled at build time) into the
//! module being transformed.
use super::llvm::*;
use crate::ir::sys::core::*;

/// Read bitcode `bc` in `m`'s context and link it into `m`; then give the
/// functions it defined whose names start with `prefix` internal linkage
/// (each module keeps its own copy; unused ones are deleted later).
pub fn link_bitcode(m: LLVMModuleRef, bc: &[u8], prefix: &str) -> Result<(), String> {
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let buf_name = cstr("enzyme-rs-runtime");
        let buf = crate::ir::sys::core::LLVMCreateMemoryBufferWithMemoryRangeCopy(
            bc.as_ptr() as *const _,
            bc.len(),
            buf_name.as_ptr(),
        );
        let mut src: LLVMModuleRef = std::ptr::null_mut();
        let failed =
            crate::ir::sys::bit_reader::LLVMParseBitcodeInContext2(ctx, buf, &mut src) != 0;
        LLVMDisposeMemoryBuffer(buf);
        if failed {
            return Err("cannot read the runtime bitcode".into());
        }
        let defined: Vec<String> = functions(src)
            .into_iter()
            .filter(|f| !is_declaration(*f))
            .map(name)
            .filter(|n| n.starts_with(prefix))
            .collect();
        if crate::ir::sys::linker::LLVMLinkModules2(m, src) != 0 {
            return Err("linking the runtime IR failed".into());
        }
        for n in defined {
            if let Some(f) = get_function(m, &n) {
                LLVMSetLinkage(f, crate::ir::sys::LLVMLinkage::LLVMInternalLinkage);
                LLVMSetVisibility(f, crate::ir::sys::LLVMVisibility::LLVMDefaultVisibility);
            }
        }
    }
    Ok(())
}
