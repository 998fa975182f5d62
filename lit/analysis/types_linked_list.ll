; A linked list: node {double v; node* next}. The tree stays finite (paths
; are bounded in depth) while the fixed point goes around the loop.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @total(ptr %head) {
entry:
  br label %loop
loop:
  %n = phi ptr [ %head, %entry ], [ %next, %body ]
  %s = phi double [ 0.0, %entry ], [ %s1, %body ]
  %z = icmp eq ptr %n, null
  br i1 %z, label %exit, label %body
body:
  %v = load double, ptr %n
  %s1 = fadd double %s, %v
  %pn = getelementptr inbounds i8, ptr %n, i64 8
  %next = load ptr, ptr %pn
  br label %loop
exit:
  ret double %s
}

; CHECK-LABEL: types: total
; CHECK-NEXT: arg ptr %head : {[0]:Pointer, [0,0]:Float@double, [0,8]:Pointer, [0,8,0]:Float@double, [0,8,8]:Pointer, [0,8,8,0]:Float@double
; CHECK: %next = load ptr, ptr %pn, align 8 : {[0]:Pointer, [0,0]:Float@double, [0,8]:Pointer
