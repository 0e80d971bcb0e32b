#include "cycle_a.h"
