kernel void broken(global float* a) {
  a[get_global_id(0)] = undefined_function_call(a, 1, 2, 3) +;
}
