// The target is its header; a C target needs one source file to build.
#include "linux_events.h"
