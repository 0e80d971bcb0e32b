kernel void mix64(global u64* h, const u64 k) {
  int i = get_global_id(0);
  h[i] ^= k;
  h[i] *= 0x100000001b3UL;
}
