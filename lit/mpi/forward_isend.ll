; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; Forward mode: the tangent of a nonblocking send travels as a second
; message whose request lives in the shadow of the request slot; the wait
; completes it.

%struct.dt = type opaque
%struct.comm = type opaque
@ompi_mpi_double = external global %struct.dt
@ompi_mpi_comm_world = external global %struct.comm

declare i32 @MPI_Isend(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Wait(ptr, ptr)
declare void @__enzyme_fwddiff(ptr, ...)

define void @post(ptr %buf) {
entry:
  %req = alloca ptr
  %s = call i32 @MPI_Isend(ptr %buf, i32 2, ptr @ompi_mpi_double, i32 1, i32 0, ptr @ompi_mpi_comm_world, ptr %req)
  %w = call i32 @MPI_Wait(ptr %req, ptr null)
  ret void
}

define void @test(ptr %b, ptr %db) {
entry:
  call void (ptr, ...) @__enzyme_fwddiff(ptr @post, ptr %b, ptr %db)
  ret void
}

; CHECK-LABEL: define internal void @enzyme_rs.fwd.post(
; CHECK: %"req'" = alloca ptr
; CHECK: call i32 @MPI_Isend(ptr %buf, i32 2
; CHECK-NEXT: call void @__enzyme_rs_mpi_isend_fwd(ptr %{{.*}}, i32 2, ptr @ompi_mpi_double, i32 1, i32 0, ptr @ompi_mpi_comm_world, ptr %"req'")
; CHECK: call i32 @MPI_Wait(ptr %req, ptr null)
; CHECK-NEXT: call void @__enzyme_rs_mpi_wait_fwd(ptr %"req'")
