kernel void count_positive(global const int* v, global int* counter, local int* partial) {
  int i = get_global_id(0);
  if (v[i] > 0) atomic_inc(counter);
  if (get_local_id(0) == 0) atomic_add(&partial[0], 1);
  atomic_max(counter + 1, v[i]);
}
