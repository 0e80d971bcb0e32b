kernel void histogram(global const int_t* keys, global int* bins) {
  int_t k = keys[get_global_id(0)];
  atomic_inc(&bins[k % 16]);
}
