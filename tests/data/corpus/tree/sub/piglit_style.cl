/*!
[config]
name: uses a define from build_options
build_options: -D FACTOR=3
!*/
kernel void times(global int* out, global const int* in) {
  out[get_global_id(0)] = in[get_global_id(0)] * FACTOR;
}
