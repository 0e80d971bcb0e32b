// Numerically stable softmax over each row of a matrix.
float row_max(global const float* row, int cols) {
  float m = row[0];
  for (int j = 1; j < cols; ++j) m = fmax(m, row[j]);
  return m;
}

kernel void softmax_row(global const float* in, global float* out, const int cols) {
  int r = get_global_id(0);
  global const float* row = in + r * cols;
  float m = row_max(row, cols);
  float sum = 0.0f;
  for (int j = 0; j < cols; ++j) sum += exp(row[j] - m);
  for (int j = 0; j < cols; ++j) out[r * cols + j] = exp(row[j] - m) / sum;
}
