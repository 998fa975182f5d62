; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; Vector forward mode: each lane's tangent travels as its own message, in
; lane order, with its own request record in that lane's shadow of the
; request slot; MAX winners are found once and freed after the last lane.

%struct.dt = type opaque
%struct.comm = type opaque
%struct.op = type opaque
@ompi_mpi_double = external global %struct.dt
@ompi_mpi_comm_world = external global %struct.comm
@ompi_mpi_op_max = external global %struct.op

declare i32 @MPI_Isend(ptr, i32, ptr, i32, i32, ptr, ptr)
declare i32 @MPI_Wait(ptr, ptr)
declare i32 @MPI_Allreduce(ptr, ptr, i32, ptr, ptr, ptr)
declare void @__enzyme_fwddiff(ptr, ...)

define void @post(ptr %buf, ptr %out) {
entry:
  %req = alloca ptr
  %s = call i32 @MPI_Isend(ptr %buf, i32 2, ptr @ompi_mpi_double, i32 1, i32 0, ptr @ompi_mpi_comm_world, ptr %req)
  %w = call i32 @MPI_Wait(ptr %req, ptr null)
  %r = call i32 @MPI_Allreduce(ptr %buf, ptr %out, i32 2, ptr @ompi_mpi_double, ptr @ompi_mpi_op_max, ptr @ompi_mpi_comm_world)
  ret void
}

define void @test(ptr %b, ptr %db0, ptr %db1, ptr %o, ptr %do0, ptr %do1) {
entry:
  call void (ptr, ...) @__enzyme_fwddiff(ptr @post, metadata !"enzyme_width", i64 2, ptr %b, ptr %db0, ptr %db1, ptr %o, ptr %do0, ptr %do1)
  ret void
}

; CHECK-LABEL: define internal void @enzyme_rs.fwd2.post(
; CHECK: call i32 @MPI_Isend(ptr %buf, i32 2
; CHECK-NEXT: call void @__enzyme_rs_mpi_isend_fwd(ptr %{{[^,]*}}, i32 2, ptr @ompi_mpi_double, i32 1, i32 0, ptr @ompi_mpi_comm_world, ptr [[R0:%[^)]*]])
; CHECK-NEXT: call void @__enzyme_rs_mpi_isend_fwd(ptr %{{[^,]*}}, i32 2, ptr @ompi_mpi_double, i32 1, i32 0, ptr @ompi_mpi_comm_world, ptr [[R1:%[^)]*]])
; CHECK: call i32 @MPI_Wait(ptr %req, ptr null)
; CHECK-NEXT: call void @__enzyme_rs_mpi_wait_fwd(ptr [[R0]])
; CHECK-NEXT: call void @__enzyme_rs_mpi_wait_fwd(ptr [[R1]])
; CHECK: [[SAVED:%.*]] = call ptr @__enzyme_rs_mpi_save(
; CHECK: call i32 @MPI_Allreduce(
; CHECK-NEXT: [[WIN:%.*]] = call ptr @__enzyme_rs_mpi_winners(ptr [[SAVED]]
; CHECK-NEXT: call void @__enzyme_rs_mpi_reduce_fwd({{.*}}, ptr [[WIN]])
; CHECK-NEXT: call void @__enzyme_rs_mpi_reduce_fwd({{.*}}, ptr [[WIN]])
; CHECK-NEXT: call void @__enzyme_rs_mpi_drop(ptr [[WIN]])
