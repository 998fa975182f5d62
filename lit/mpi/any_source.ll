; RUN: not %opt %loadenzyme -passes=enzyme -disable-output %s 2>&1 | %FileCheck %s
; A receive from MPI_ANY_SOURCE has no derivative (the derivative message
; needs the peer): a compile error naming the call.

%struct.dt = type opaque
%struct.comm = type opaque
@ompi_mpi_double = external global %struct.dt
@ompi_mpi_comm_world = external global %struct.comm

declare i32 @MPI_Recv(ptr, i32, ptr, i32, i32, ptr, ptr)
declare void @__enzyme_fwddiff(ptr, ...)

define void @get(ptr %x) {
entry:
  %r = call i32 @MPI_Recv(ptr %x, i32 1, ptr @ompi_mpi_double, i32 -1, i32 0, ptr @ompi_mpi_comm_world, ptr null)
  ret void
}

define void @test(ptr %x, ptr %dx) {
entry:
  call void (ptr, ...) @__enzyme_fwddiff(ptr @get, ptr %x, ptr %dx)
  ret void
}

; CHECK: 'MPI_Recv' from MPI_ANY_SOURCE / with MPI_ANY_TAG has no derivative
; CHECK: in function 'get'
