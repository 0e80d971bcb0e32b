kernel void axpy(global const real* x, global real* y, const real alpha) {
  int i = get_global_id(0);
  y[i] = alpha * x[i] + y[i];
}
