; A phi of two pointers: what is learnt through the phi types both
; incoming pointers.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @pick(ptr %a, ptr %b, i1 %c) {
entry:
  br i1 %c, label %l, label %r
l:
  br label %join
r:
  br label %join
join:
  %p = phi ptr [ %a, %l ], [ %b, %r ]
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %v = load double, ptr %q
  %n = load i32, ptr %p
  %z = icmp eq i32 %n, 0
  %w = select i1 %z, double 0.0, double %v
  ret double %w
}

; CHECK-LABEL: types: pick
; CHECK-NEXT: arg ptr %a : {[0]:Pointer, [0,8]:Float@double}
; CHECK-NEXT: arg ptr %b : {[0]:Pointer, [0,8]:Float@double}
; CHECK-NEXT: arg i1 %c : {[0]:Integer}
; CHECK: %p = phi ptr {{.*}} : {[0]:Pointer, [0,8]:Float@double}
; CHECK-NEXT: %q = getelementptr inbounds i8, ptr %p, i64 8 : {[0]:Pointer, [0,0]:Float@double}
