// Crashes Clang 15.0.6 inside Sema (a segfault while it diagnoses the
// address-space mismatch of a function pointer initialised from a bare name).
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
void g(void) {}
void k(void) { void (*p)(void) = g; }
kernel void crash(global int* a) { a[0] = 1; }
