; Rust's allocator entry points as rustc's fat-LTO module has them: the
; v0-mangled `__rust_alloc` / `__rust_realloc` / `__rust_dealloc` shims
; forwarding to std's System allocator (`__rdl_*`: malloc, realloc, free),
; and the plain spelling `__rust_alloc_zeroed`. A buffer allocated,
; written, grown by `__rust_realloc` (the old size is its second operand)
; and read, in reverse and forward mode; a buffer that stays unallocated
; for n = 0 (the dangling address 8, as an empty Vec's, merged with the
; allocation as integers: `phi i64 [ptrtoint], [8]`).
; RUN: %opt %loadenzyme -passes=enzyme,verify %s -o %t.bc
; RUN: %clang %t.bc -o %t -lm
; RUN: %t | %FileCheck %s
; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s --check-prefix=IR

@enzyme_dup = external global i32, align 4
@fmt2 = private constant [14 x i8] c"%s %.6g %.6g\0A\00"
@fmt3 = private constant [19 x i8] c"%s %.6g %.6g %.6g\0A\00"
@s_f = private constant [6 x i8] c"rev_f\00"
@s_fwd = private constant [6 x i8] c"fwd_f\00"
@s_g = private constant [6 x i8] c"rev_g\00"
@s_g0 = private constant [7 x i8] c"rev_g0\00"
@s_h = private constant [6 x i8] c"fwd_h\00"
declare i32 @printf(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)

define internal ptr @_RNvCs1a2b3c_7___rustc12___rust_alloc(i64 %size, i64 %align) {
  %p = tail call ptr @_RNvCs1a2b3c_7___rustc11___rdl_alloc(i64 %size, i64 %align)
  ret ptr %p
}
define internal ptr @_RNvCs1a2b3c_7___rustc11___rdl_alloc(i64 %size, i64 %align) {
  %p = call ptr @malloc(i64 %size)
  ret ptr %p
}
define internal ptr @__rust_alloc_zeroed(i64 %size, i64 %align) {
  %p = tail call ptr @__rdl_alloc_zeroed(i64 %size, i64 %align)
  ret ptr %p
}
define internal ptr @__rdl_alloc_zeroed(i64 %size, i64 %align) {
  %p = call ptr @calloc(i64 1, i64 %size)
  ret ptr %p
}
define internal ptr @_RNvCs1a2b3c_7___rustc14___rust_realloc(ptr %p, i64 %old, i64 %align, i64 %new) {
  %q = tail call ptr @_RNvCs1a2b3c_7___rustc13___rdl_realloc(ptr %p, i64 %old, i64 %align, i64 %new)
  ret ptr %q
}
define internal ptr @_RNvCs1a2b3c_7___rustc13___rdl_realloc(ptr %p, i64 %old, i64 %align, i64 %new) {
  %q = call ptr @realloc(ptr %p, i64 %new)
  ret ptr %q
}
define internal void @_RNvCs1a2b3c_7___rustc14___rust_dealloc(ptr %p, i64 %size, i64 %align) {
  tail call void @_RNvCs1a2b3c_7___rustc13___rdl_dealloc(ptr %p, i64 %size, i64 %align)
  ret void
}
define internal void @_RNvCs1a2b3c_7___rustc13___rdl_dealloc(ptr %p, i64 %size, i64 %align) {
  call void @free(ptr %p)
  ret void
}

; t = [x0*x0, 3*x1]; grown to 4; t[2] = t[0]*x1; t[3] = t[1]*t[2];
; f = t0 + t1 + t2 + t3 = x0^2 + 3 x1 + x0^2 x1 + 3 x0^2 x1^2
define double @f(ptr %x) {
entry:
  %x0 = load double, ptr %x
  %x1p = getelementptr double, ptr %x, i64 1
  %x1 = load double, ptr %x1p
  %t = call ptr @_RNvCs1a2b3c_7___rustc12___rust_alloc(i64 16, i64 8)
  %t0 = fmul double %x0, %x0
  store double %t0, ptr %t
  %t1p = getelementptr double, ptr %t, i64 1
  %t1 = fmul double 3.0, %x1
  store double %t1, ptr %t1p
  %u = call ptr @_RNvCs1a2b3c_7___rustc14___rust_realloc(ptr %t, i64 16, i64 8, i64 32)
  %a0 = load double, ptr %u
  %u1p = getelementptr double, ptr %u, i64 1
  %a1 = load double, ptr %u1p
  %t2 = fmul double %a0, %x1
  %u2p = getelementptr double, ptr %u, i64 2
  store double %t2, ptr %u2p
  %t3 = fmul double %a1, %t2
  %u3p = getelementptr double, ptr %u, i64 3
  store double %t3, ptr %u3p
  %b2 = load double, ptr %u2p
  %b3 = load double, ptr %u3p
  %s1 = fadd double %a0, %a1
  %s2 = fadd double %s1, %b2
  %s3 = fadd double %s2, %b3
  call void @_RNvCs1a2b3c_7___rustc14___rust_dealloc(ptr %u, i64 32, i64 8)
  ret double %s3
}

; sum x_i^3 through a scratch buffer a[i] = x_i^2 that is not allocated
; for n = 0 (a dangling address, never accessed).
define double @g(ptr %x, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %z = icmp eq i64 %n, 0
  br i1 %z, label %join, label %alloc
alloc:
  %p = call ptr @_RNvCs1a2b3c_7___rustc12___rust_alloc(i64 %bytes, i64 8)
  %pi = ptrtoint ptr %p to i64
  br label %join
join:
  %ai = phi i64 [ 8, %entry ], [ %pi, %alloc ]
  %a = inttoptr i64 %ai to ptr
  br i1 %z, label %done, label %fill
fill:
  %i = phi i64 [ 0, %join ], [ %i1, %fill ]
  %xp = getelementptr double, ptr %x, i64 %i
  %xv = load double, ptr %xp
  %sq = fmul double %xv, %xv
  %ap = getelementptr double, ptr %a, i64 %i
  store double %sq, ptr %ap
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %fill, label %sum
sum:
  %j = phi i64 [ 0, %fill ], [ %j1, %sum ]
  %acc = phi double [ 0.0, %fill ], [ %acc1, %sum ]
  %bp = getelementptr double, ptr %a, i64 %j
  %bv = load double, ptr %bp
  %yp = getelementptr double, ptr %x, i64 %j
  %yv = load double, ptr %yp
  %c = fmul double %bv, %yv
  %acc1 = fadd double %acc, %c
  %j1 = add i64 %j, 1
  %more2 = icmp ult i64 %j1, %n
  br i1 %more2, label %sum, label %free
free:
  call void @_RNvCs1a2b3c_7___rustc14___rust_dealloc(ptr %a, i64 %bytes, i64 8)
  br label %done
done:
  %r = phi double [ 0.0, %join ], [ %acc1, %free ]
  ret double %r
}

; A zeroed buffer accumulated into: h = sum_k (x0 * k + x1)^2, k = 0..3
define double @h(ptr %x) {
entry:
  %x0 = load double, ptr %x
  %x1p = getelementptr double, ptr %x, i64 1
  %x1 = load double, ptr %x1p
  %b = call ptr @__rust_alloc_zeroed(i64 32, i64 8)
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %kf = uitofp i64 %k to double
  %m = fmul double %x0, %kf
  %e = fadd double %m, %x1
  %bp = getelementptr double, ptr %b, i64 %k
  %old = load double, ptr %bp
  %e2 = fmul double %e, %e
  %new = fadd double %old, %e2
  store double %new, ptr %bp
  %acc1 = fadd double %acc, %new
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, 4
  br i1 %more, label %loop, label %out
out:
  call void @_RNvCs1a2b3c_7___rustc14___rust_dealloc(ptr %b, i64 32, i64 8)
  ret double %acc1
}

define i32 @main() {
  %x = alloca [3 x double]
  %dx = alloca [3 x double]
  %x1 = getelementptr double, ptr %x, i64 1
  %x2 = getelementptr double, ptr %x, i64 2
  %dx1 = getelementptr double, ptr %dx, i64 1
  %dx2 = getelementptr double, ptr %dx, i64 2
  store double 1.5, ptr %x
  store double -0.5, ptr %x1
  store double 2.0, ptr %x2
  ; reverse f
  store double 0.0, ptr %dx
  store double 0.0, ptr %dx1
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx)
  %a0 = load double, ptr %dx
  %a1 = load double, ptr %dx1
  call i32 (ptr, ...) @printf(ptr @fmt2, ptr @s_f, double %a0, double %a1)
  ; forward f, direction (1, 2)
  store double 1.0, ptr %dx
  store double 2.0, ptr %dx1
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx)
  %pf = call double @f(ptr %x)
  call i32 (ptr, ...) @printf(ptr @fmt2, ptr @s_fwd, double %pf, double %t)
  ; reverse g, n = 3 and n = 0
  store double 0.0, ptr %dx
  store double 0.0, ptr %dx1
  store double 0.0, ptr %dx2
  call double (ptr, ...) @__enzyme_autodiff(ptr @g, ptr @enzyme_dup, ptr %x, ptr %dx, i64 3)
  %g0 = load double, ptr %dx
  %g1 = load double, ptr %dx1
  %g2 = load double, ptr %dx2
  call i32 (ptr, ...) @printf(ptr @fmt3, ptr @s_g, double %g0, double %g1, double %g2)
  store double 0.0, ptr %dx
  call double (ptr, ...) @__enzyme_autodiff(ptr @g, ptr @enzyme_dup, ptr %x, ptr %dx, i64 0)
  %z0 = load double, ptr %dx
  %pg = call double @g(ptr %x, i64 0)
  call i32 (ptr, ...) @printf(ptr @fmt2, ptr @s_g0, double %pg, double %z0)
  ; forward h, direction (1, 0) and reverse h
  store double 1.0, ptr %dx
  store double 0.0, ptr %dx1
  %th = call double (ptr, ...) @__enzyme_fwddiff(ptr @h, ptr @enzyme_dup, ptr %x, ptr %dx)
  store double 0.0, ptr %dx
  store double 0.0, ptr %dx1
  call double (ptr, ...) @__enzyme_autodiff(ptr @h, ptr @enzyme_dup, ptr %x, ptr %dx)
  %h0 = load double, ptr %dx
  %h1 = load double, ptr %dx1
  call i32 (ptr, ...) @printf(ptr @fmt3, ptr @s_h, double %th, double %h0, double %h1)
  ret i32 0
}

; df/dx0 = 2x0 + 2x0x1 + 6x0x1^2 = 3.75, df/dx1 = 3 + x0^2 + 6x0^2x1 = -1.5
; CHECK: rev_f 3.75 -1.5
; f = 1.3125; along (1, 2): 3.75 - 3 = 0.75
; CHECK: fwd_f 1.3125 0.75
; CHECK: rev_g 6.75 0.75 12
; CHECK: rev_g0 0 0
; e_k = x0 k + x1 = -0.5, 1, 2.5, 4: dh/dx0 = sum 2 e_k k = 36,
; dh/dx1 = sum 2 e_k = 14
; CHECK: fwd_h 36 36 14

; The shims stay calls (allocation functions: no derivative of their
; bodies); the grown buffer is copied by its old size, 16 bytes.
; IR-LABEL: define internal {{.*}} @enzyme_rs.aug.f(
; IR-NOT: rust_realloc
; IR: call ptr @malloc(i64 32)
; IR: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}, ptr {{.*}}, i64 16, i1 false)
