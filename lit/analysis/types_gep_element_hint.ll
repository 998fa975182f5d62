; An i64 copy out of a `double *` indexed with `gep double` (a memcpy of
; one element lowered to integers): the GEP's element type says the memory
; holds doubles.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define void @copy_words(ptr %dst, ptr %src, i64 %i) {
entry:
  %ps = getelementptr inbounds double, ptr %src, i64 %i
  %w = load i64, ptr %ps
  %pd = getelementptr inbounds double, ptr %dst, i64 %i
  store i64 %w, ptr %pd
  ret void
}

; CHECK-LABEL: types: copy_words
; CHECK-NEXT: arg ptr %dst : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: arg ptr %src : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: arg i64 %i : {[0]:Integer}
; CHECK-NEXT: %ps = {{.*}} : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: %w = load i64, ptr %ps, align 4 : {[0]:Float@double}
