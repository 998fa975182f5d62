//! The tape: a growable byte stack `{ptr data, i64 top, i64 cap}` shared by
//! an augmented forward sweep (which pushes what the reverse sweep needs)
//! and the reverse sweep (which pops it back in reverse order). Calls inside
//! a differentiated function push onto the same tape, so recursion needs
//! nothing special. Each block pushes all of its values at once (one
//! capacity check per block execution) at fixed offsets.
use crate::ir::llvm::*;
use crate::ir::Builder;

pub const RESERVE: &str = "enzyme_rs.tape.reserve";
pub const POP: &str = "enzyme_rs.tape.pop";

/// `{ptr, i64, i64}`
pub fn tape_type(ctx: LLVMContextRef) -> T {
    struct_type(ctx, &mut [ptr_type(ctx), i64_type(ctx), i64_type(ctx)])
}

/// `ptr reserve(ptr tape, i64 n)`: make room for n bytes, bump the top,
/// return the address of the reserved bytes.
pub fn reserve_fn(m: LLVMModuleRef) -> V {
    if let Some(f) = get_function(m, RESERVE) {
        return f;
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(p, &mut [p, i64t], false);
    let f = get_or_declare(m, RESERVE, fty);
    unsafe { LLVMSetLinkage(f, llvm_sys::LLVMLinkage::LLVMInternalLinkage) };
    let ps = params(f);
    let (tape, n) = (ps[0], ps[1]);
    let tt = tape_type(ctx);
    let entry = append_block(f, "entry");
    let grow = append_block(f, "grow");
    let done = append_block(f, "done");
    b.at_end(entry);
    let top_p = b.gep(tt, tape, &mut [const_i32(ctx, 0), const_i32(ctx, 1)]);
    let cap_p = b.gep(tt, tape, &mut [const_i32(ctx, 0), const_i32(ctx, 2)]);
    let top = b.load(i64t, top_p);
    let cap = b.load(i64t, cap_p);
    let end = b.add(top, n);
    let full = b.icmp(LLVMIntPredicate::LLVMIntUGT, end, cap);
    b.cond_br(full, grow, done);
    b.at_end(grow);
    let dbl = b.add(cap, cap);
    let c1 = b.select(b.icmp(LLVMIntPredicate::LLVMIntUGT, end, dbl), end, dbl);
    let min = const_i64(ctx, 4096);
    let newcap = b.select(b.icmp(LLVMIntPredicate::LLVMIntULT, c1, min), min, c1);
    let data = b.load(p, tape);
    let nd = b.realloc(data, newcap);
    b.store(nd, tape);
    b.store(newcap, cap_p);
    b.br(done);
    b.at_end(done);
    let data = b.load(p, tape);
    b.store(end, top_p);
    let r = b.gep(i8_type(ctx), data, &mut [top]);
    b.ret(r);
    f
}

/// `ptr pop(ptr tape, i64 n)`: drop n bytes from the top, return their address.
pub fn pop_fn(m: LLVMModuleRef) -> V {
    if let Some(f) = get_function(m, POP) {
        return f;
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(p, &mut [p, i64t], false);
    let f = get_or_declare(m, POP, fty);
    unsafe { LLVMSetLinkage(f, llvm_sys::LLVMLinkage::LLVMInternalLinkage) };
    let ps = params(f);
    let (tape, n) = (ps[0], ps[1]);
    let tt = tape_type(ctx);
    let entry = append_block(f, "entry");
    b.at_end(entry);
    let top_p = b.gep(tt, tape, &mut [const_i32(ctx, 0), const_i32(ctx, 1)]);
    let top = b.load(i64t, top_p);
    let nt = b.sub(top, n);
    b.store(nt, top_p);
    let data = b.load(p, tape);
    let r = b.gep(i8_type(ctx), data, &mut [nt]);
    b.ret(r);
    f
}

pub fn append_block(f: V, n: &str) -> BB {
    let c = cstr(n);
    unsafe { LLVMAppendBasicBlockInContext(LLVMGetTypeContext(type_of(f)), f, c.as_ptr()) }
}

/// Byte layout of a block's pushed values: offsets, 8-byte aligned slots.
#[derive(Default, Clone)]
pub struct Layout {
    pub offsets: Vec<u64>,
    pub total: u64,
}

impl Layout {
    pub fn add(&mut self, size: u64) -> u64 {
        let off = self.total;
        self.offsets.push(off);
        self.total += size.div_ceil(8) * 8;
        off
    }
}
