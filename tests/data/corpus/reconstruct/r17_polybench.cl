kernel void mm2(global DATA_TYPE* tmp, global DATA_TYPE* A, global DATA_TYPE* B, DATA_TYPE alpha) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < NI && j < NJ) {
    tmp[i * NJ + j] = 0;
    for (int k = 0; k < NK; k++) tmp[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
  }
}
