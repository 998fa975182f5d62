; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; MPI_Alltoallv in reverse mode: the augmented sweep copies the four count
; and displacement arrays (the caller's may be gone by the reverse sweep),
; the reverse runs the transposed exchange with that copy.

%struct.dt = type opaque
%struct.comm = type opaque
@ompi_mpi_double = external global %struct.dt
@ompi_mpi_comm_world = external global %struct.comm

declare i32 @MPI_Alltoallv(ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @__enzyme_autodiff(ptr, ...)

define void @xchg(ptr %s, ptr %sc, ptr %sd, ptr %r, ptr %rc, ptr %rd) {
entry:
  %c = call i32 @MPI_Alltoallv(ptr %s, ptr %sc, ptr %sd, ptr @ompi_mpi_double, ptr %r, ptr %rc, ptr %rd, ptr @ompi_mpi_double, ptr @ompi_mpi_comm_world)
  ret void
}

define void @test(ptr %s, ptr %ds, ptr %sc, ptr %sd, ptr %r, ptr %dr, ptr %rc, ptr %rd) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @xchg, metadata !"enzyme_dup", ptr %s, ptr %ds, metadata !"enzyme_const", ptr %sc, metadata !"enzyme_const", ptr %sd, metadata !"enzyme_dup", ptr %r, ptr %dr, metadata !"enzyme_const", ptr %rc, metadata !"enzyme_const", ptr %rd)
  ret void
}

; CHECK-LABEL: define internal void @enzyme_rs.aug.xchg(
; CHECK: call i32 @MPI_Alltoallv(ptr %s, ptr %sc, ptr %sd
; CHECK-NEXT: [[K:%.*]] = call ptr @__enzyme_rs_mpi_keep_v(ptr %s, ptr %sc, ptr %sd, ptr %rc, ptr %rd, ptr @ompi_mpi_comm_world)
; CHECK-LABEL: define internal void @enzyme_rs.rev.xchg(
; CHECK: [[T:%.*]] = load ptr
; CHECK: call void @__enzyme_rs_mpi_alltoallv_rev(ptr %s, ptr %"s'", ptr [[T]], ptr null, ptr @ompi_mpi_double, ptr %"r'", ptr null, ptr null, ptr @ompi_mpi_double, ptr @ompi_mpi_comm_world)
