; RUN: not %opt %loadenzyme -passes=enzyme -disable-output %s 2>&1 | %FileCheck %s
; MPI calls without a derivative are compile errors naming the call.

%struct.dt = type opaque
%struct.comm = type opaque
@ompi_mpi_double = external global %struct.dt
@ompi_mpi_comm_world = external global %struct.comm

declare i32 @MPI_Accumulate(ptr, i32, ptr, i32, i64, i32, ptr, ptr, ptr)
declare void @__enzyme_autodiff(ptr, ...)

define void @acc(ptr %x, ptr %win) {
entry:
  %r = call i32 @MPI_Accumulate(ptr %x, i32 1, ptr @ompi_mpi_double, i32 0, i64 0, i32 1, ptr @ompi_mpi_double, ptr null, ptr %win)
  ret void
}

define void @test(ptr %x, ptr %dx, ptr %w) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @acc, ptr %x, ptr %dx, ptr %w)
  ret void
}

; CHECK: 'MPI_Accumulate' has no derivative
; CHECK: in function 'acc'
