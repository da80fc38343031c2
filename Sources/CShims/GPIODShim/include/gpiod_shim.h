// One small C API over both generations of libgpiod (v1: 1.6.x, v2: 2.x), for the Swift
// KernelGPIO module. Functions that fail return NULL or -1 and leave the reason in errno.
#ifndef GPIOD_SHIM_H
#define GPIOD_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct ttg_chip ttg_chip;
typedef struct ttg_request ttg_request;

typedef struct {
    unsigned int offset;
    int rising;             // 1 for a rising edge, 0 for a falling one
    uint64_t timestamp_ns;  // CLOCK_MONOTONIC on kernels >= 5.7
} ttg_event;

enum { TTG_BIAS_AS_IS = 0, TTG_BIAS_PULL_UP = 1, TTG_BIAS_PULL_DOWN = 2, TTG_BIAS_DISABLED = 3 };

/// 1 or 2: the libgpiod API generation this shim was compiled against.
int ttg_library_generation(void);
/// The library's own version string, such as "1.6.3" or "2.1.3".
const char *ttg_library_version(void);

ttg_chip *ttg_chip_open(const char *path);
void ttg_chip_close(ttg_chip *chip);
const char *ttg_chip_name(ttg_chip *chip);
const char *ttg_chip_label(ttg_chip *chip);
unsigned int ttg_chip_num_lines(ttg_chip *chip);
/// 1 when the line is in use (its consumer, possibly empty, copied to buffer), 0 when free, -1 on error.
int ttg_chip_line_consumer(ttg_chip *chip, unsigned int offset, char *buffer, size_t length);

/// Inputs with edge detection on both edges. debounce_us is applied by the kernel with v2 and
/// ignored with v1, which has no debounce.
ttg_request *ttg_request_inputs(ttg_chip *chip, const unsigned int *offsets, size_t count,
                                int bias, unsigned long debounce_us, const char *consumer);
ttg_request *ttg_request_outputs(ttg_chip *chip, const unsigned int *offsets, size_t count,
                                 const int *values, const char *consumer);

/// The file descriptors to poll for edge events: one per line with v1, one in all with v2.
size_t ttg_request_fd_count(ttg_request *request);
int ttg_request_fd(ttg_request *request, size_t index);
/// Reads the pending events of one descriptor (call when poll reports it readable).
/// Returns how many were stored, at most max, or -1.
int ttg_request_read_events(ttg_request *request, size_t fd_index, ttg_event *events, size_t max);

/// 0 or 1, or -1.
int ttg_request_get_value(ttg_request *request, unsigned int offset);
/// Sets the given lines (a subset of the request) in one call. 0, or -1.
int ttg_request_set_values(ttg_request *request, const unsigned int *offsets, const int *values, size_t count);
void ttg_request_release(ttg_request *request);

#endif
