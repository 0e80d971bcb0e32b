kernel void limit(global CLAMP_T* a, const CLAMP_T hi) {
  int i = get_global_id(0);
  if (a[i] > hi) a[i] = hi;
}
