/* Bytes the heap holds now: the sanitizer allocator's count under ASan,
 * glibc's mallinfo2 otherwise. For tests that a loop of gradients does not
 * grow the heap. */
#ifndef ENZYME_RS_TEST_HEAP_H
#define ENZYME_RS_TEST_HEAP_H
#include <stddef.h>
#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if __has_feature(address_sanitizer) || defined(__SANITIZE_ADDRESS__)
#include <sanitizer/allocator_interface.h>
static size_t heap_bytes(void) { return __sanitizer_get_current_allocated_bytes(); }
#else
#include <malloc.h>
static size_t heap_bytes(void) { return mallinfo2().uordblks; }
#endif
#endif
