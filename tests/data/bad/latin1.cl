kernel void café(global float* a) { a[0] = 1; }
