kernel void accumulate(global const float* a) {
  total = total + a[get_global_id(0)];
}
