kernel void scale(global FLOAT_T* a, const FLOAT_T s) { int i = get_global_id(0); a[i] = a[i] * s; }
