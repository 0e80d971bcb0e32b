#ifndef COMMON_H
#define COMMON_H
#define BLOCK 64
typedef struct {
  float x, y;
} pair_t;

/* squares a value */
inline float sq(float v) { return v * v; }
#endif
