// libgpiod as installed (v1 from libgpiod-dev 1.6, or v2 from a 2.x prefix found by pkg-config).
#include <gpiod.h>
