; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; MPI point-to-point in reverse mode: the augmented sweep keeps the primal
; calls; the reverse sweep receives the send buffer's adjoint
; (__enzyme_rs_mpi_send_rev) and sends the receive buffer's adjoint back
; (__enzyme_rs_mpi_recv_rev), in reverse order, with the same peer, tag and
; communicator. The helpers are linked into the module with internal linkage.

%struct.dt = type opaque
%struct.comm = type opaque
@ompi_mpi_double = external global %struct.dt
@ompi_mpi_comm_world = external global %struct.comm

declare i32 @MPI_Send(ptr, i32, ptr, i32, i32, ptr)
declare i32 @MPI_Recv(ptr, i32, ptr, i32, i32, ptr, ptr)
declare void @__enzyme_autodiff(ptr, ...)

define void @exchange(ptr %out, ptr %in, i32 %peer) {
entry:
  %s = call i32 @MPI_Send(ptr %out, i32 4, ptr @ompi_mpi_double, i32 %peer, i32 7, ptr @ompi_mpi_comm_world)
  %r = call i32 @MPI_Recv(ptr %in, i32 4, ptr @ompi_mpi_double, i32 %peer, i32 7, ptr @ompi_mpi_comm_world, ptr null)
  ret void
}

define void @test(ptr %o, ptr %do, ptr %i, ptr %di) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @exchange, ptr %o, ptr %do, ptr %i, ptr %di, i32 1)
  ret void
}

; CHECK-LABEL: define internal void @enzyme_rs.aug.exchange(
; CHECK: call i32 @MPI_Send(ptr %out, i32 4
; CHECK: call i32 @MPI_Recv(ptr %in, i32 4
; CHECK-LABEL: define internal void @enzyme_rs.rev.exchange(
; CHECK: call void @__enzyme_rs_mpi_recv_rev(ptr %{{.*}}, i32 4, ptr @ompi_mpi_double, i32 %{{.*}}, i32 7, ptr @ompi_mpi_comm_world)
; CHECK: call void @__enzyme_rs_mpi_send_rev(ptr %{{.*}}, i32 4, ptr @ompi_mpi_double, i32 %{{.*}}, i32 7, ptr @ompi_mpi_comm_world)
; CHECK: define internal void @__enzyme_rs_mpi_send_rev(
