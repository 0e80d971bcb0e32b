kernel void gemv(global DATA_TYPE* A, global DATA_TYPE* x, global DATA_TYPE* y) {
  int i = get_global_id(0);
  DATA_TYPE acc = 0;
  for (int j = 0; j < NJ; j++) acc += A[i * NJ + j] * x[j];
  y[i] = acc;
}
