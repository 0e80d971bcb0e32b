kernel void bits(global uint* a, const uint k) {
  uint i = get_global_id(0);
  uint v = a[i];
  v <<= 2;
  v ^= k;
  v = (v >> 3) | (v & 7u) % 5u;
  a[i] = v != 0 ? v : ~v;
}
