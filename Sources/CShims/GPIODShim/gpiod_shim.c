#include "gpiod_shim.h"

#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Only the v1 header defines GPIOD_LINE_BULK_MAX_LINES: that is how the two generations are told apart.
#ifdef GPIOD_LINE_BULK_MAX_LINES
#define TTG_V1 1
#else
#define TTG_V1 0
#endif

#define TTG_MAX_LINES 64

static void copy_string(char *buffer, size_t length, const char *text) {
    if (!buffer || length == 0) return;
    if (!text) text = "";
    strncpy(buffer, text, length - 1);
    buffer[length - 1] = '\0';
}

int ttg_library_generation(void) { return TTG_V1 ? 1 : 2; }

const char *ttg_library_version(void) {
#if TTG_V1
    return gpiod_version_string();
#else
    return gpiod_api_version();
#endif
}

#if TTG_V1
// ---------------------------------------------------------------- libgpiod v1

struct ttg_chip {
    struct gpiod_chip *chip;
};

struct ttg_request {
    struct gpiod_line_bulk bulk;
    unsigned int offsets[TTG_MAX_LINES];
    int values[TTG_MAX_LINES];
    size_t count;
};

ttg_chip *ttg_chip_open(const char *path) {
    struct gpiod_chip *handle = gpiod_chip_open(path);
    if (!handle) return NULL;
    ttg_chip *chip = calloc(1, sizeof *chip);
    if (!chip) { gpiod_chip_close(handle); errno = ENOMEM; return NULL; }
    chip->chip = handle;
    return chip;
}

void ttg_chip_close(ttg_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *ttg_chip_name(ttg_chip *chip) { return gpiod_chip_name(chip->chip); }
const char *ttg_chip_label(ttg_chip *chip) { return gpiod_chip_label(chip->chip); }
unsigned int ttg_chip_num_lines(ttg_chip *chip) { return gpiod_chip_num_lines(chip->chip); }

int ttg_chip_line_consumer(ttg_chip *chip, unsigned int offset, char *buffer, size_t length) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return -1;
    if (gpiod_line_update(line) < 0) return -1;
    if (!gpiod_line_is_used(line)) return 0;
    copy_string(buffer, length, gpiod_line_consumer(line));
    return 1;
}

static ttg_request *new_request(ttg_chip *chip, const unsigned int *offsets, size_t count) {
    if (count == 0 || count > TTG_MAX_LINES) { errno = EINVAL; return NULL; }
    ttg_request *request = calloc(1, sizeof *request);
    if (!request) { errno = ENOMEM; return NULL; }
    if (gpiod_chip_get_lines(chip->chip, (unsigned int *)offsets, (unsigned int)count, &request->bulk) < 0) {
        int saved = errno;
        free(request);
        errno = saved;
        return NULL;
    }
    memcpy(request->offsets, offsets, count * sizeof *offsets);
    request->count = count;
    return request;
}

ttg_request *ttg_request_inputs(ttg_chip *chip, const unsigned int *offsets, size_t count,
                                int bias, unsigned long debounce_us, const char *consumer) {
    (void)debounce_us;  // v1 has no kernel debounce; the device layer debounces on timestamps.
    ttg_request *request = new_request(chip, offsets, count);
    if (!request) return NULL;
    int flags = 0;
    switch (bias) {
    case TTG_BIAS_PULL_UP: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
    case TTG_BIAS_PULL_DOWN: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
    case TTG_BIAS_DISABLED: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
    default: break;
    }
    if (gpiod_line_request_bulk_both_edges_events_flags(&request->bulk, consumer, flags) < 0) {
        int saved = errno;
        free(request);
        errno = saved;
        return NULL;
    }
    return request;
}

ttg_request *ttg_request_outputs(ttg_chip *chip, const unsigned int *offsets, size_t count,
                                 const int *values, const char *consumer) {
    ttg_request *request = new_request(chip, offsets, count);
    if (!request) return NULL;
    memcpy(request->values, values, count * sizeof *values);
    if (gpiod_line_request_bulk_output(&request->bulk, consumer, request->values) < 0) {
        int saved = errno;
        free(request);
        errno = saved;
        return NULL;
    }
    return request;
}

size_t ttg_request_fd_count(ttg_request *request) { return request->count; }

int ttg_request_fd(ttg_request *request, size_t index) {
    if (index >= request->count) { errno = EINVAL; return -1; }
    return gpiod_line_event_get_fd(request->bulk.lines[index]);
}

int ttg_request_read_events(ttg_request *request, size_t fd_index, ttg_event *events, size_t max) {
    if (fd_index >= request->count) { errno = EINVAL; return -1; }
    struct gpiod_line_event raw[16];
    if (max > 16) max = 16;
    int fd = gpiod_line_event_get_fd(request->bulk.lines[fd_index]);
    int read = gpiod_line_event_read_fd_multiple(fd, raw, (unsigned int)max);
    for (int i = 0; i < read; i++) {
        events[i].offset = request->offsets[fd_index];
        events[i].rising = raw[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
        events[i].timestamp_ns = (uint64_t)raw[i].ts.tv_sec * 1000000000u + (uint64_t)raw[i].ts.tv_nsec;
    }
    return read;
}

static int index_of(ttg_request *request, unsigned int offset) {
    for (size_t i = 0; i < request->count; i++)
        if (request->offsets[i] == offset) return (int)i;
    return -1;
}

int ttg_request_get_value(ttg_request *request, unsigned int offset) {
    int index = index_of(request, offset);
    if (index < 0) { errno = EINVAL; return -1; }
    return gpiod_line_get_value(request->bulk.lines[index]);
}

int ttg_request_set_values(ttg_request *request, const unsigned int *offsets, const int *values, size_t count) {
    // v1 sets a whole bulk at once: keep the others at their last value.
    int next[TTG_MAX_LINES];
    memcpy(next, request->values, sizeof next);
    for (size_t i = 0; i < count; i++) {
        int index = index_of(request, offsets[i]);
        if (index < 0) { errno = EINVAL; return -1; }
        next[index] = values[i] ? 1 : 0;
    }
    if (gpiod_line_set_value_bulk(&request->bulk, next) < 0) return -1;
    memcpy(request->values, next, sizeof next);
    return 0;
}

void ttg_request_release(ttg_request *request) {
    if (!request) return;
    gpiod_line_release_bulk(&request->bulk);
    free(request);
}

#else
// ---------------------------------------------------------------- libgpiod v2

struct ttg_chip {
    struct gpiod_chip *chip;
    struct gpiod_chip_info *info;
};

struct ttg_request {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *buffer;
};

ttg_chip *ttg_chip_open(const char *path) {
    struct gpiod_chip *handle = gpiod_chip_open(path);
    if (!handle) return NULL;
    struct gpiod_chip_info *info = gpiod_chip_get_info(handle);
    if (!info) {
        int saved = errno;
        gpiod_chip_close(handle);
        errno = saved;
        return NULL;
    }
    ttg_chip *chip = calloc(1, sizeof *chip);
    if (!chip) { gpiod_chip_info_free(info); gpiod_chip_close(handle); errno = ENOMEM; return NULL; }
    chip->chip = handle;
    chip->info = info;
    return chip;
}

void ttg_chip_close(ttg_chip *chip) {
    if (!chip) return;
    gpiod_chip_info_free(chip->info);
    gpiod_chip_close(chip->chip);
    free(chip);
}

const char *ttg_chip_name(ttg_chip *chip) { return gpiod_chip_info_get_name(chip->info); }
const char *ttg_chip_label(ttg_chip *chip) { return gpiod_chip_info_get_label(chip->info); }
unsigned int ttg_chip_num_lines(ttg_chip *chip) { return (unsigned int)gpiod_chip_info_get_num_lines(chip->info); }

int ttg_chip_line_consumer(ttg_chip *chip, unsigned int offset, char *buffer, size_t length) {
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip->chip, offset);
    if (!info) return -1;
    int used = gpiod_line_info_is_used(info) ? 1 : 0;
    if (used) copy_string(buffer, length, gpiod_line_info_get_consumer(info));
    gpiod_line_info_free(info);
    return used;
}

static ttg_request *request_lines(ttg_chip *chip, const unsigned int *offsets, size_t count,
                                  struct gpiod_line_settings *settings, const int *values,
                                  const char *consumer, int with_events) {
    ttg_request *request = NULL;
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    int saved = ENOMEM;
    if (!line_config || !request_config) goto done;
    if (gpiod_line_config_add_line_settings(line_config, offsets, count, settings) < 0) { saved = errno; goto done; }
    if (values) {
        enum gpiod_line_value levels[TTG_MAX_LINES];
        for (size_t i = 0; i < count; i++) levels[i] = values[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
        if (gpiod_line_config_set_output_values(line_config, levels, count) < 0) { saved = errno; goto done; }
    }
    gpiod_request_config_set_consumer(request_config, consumer);
    request = calloc(1, sizeof *request);
    if (!request) { saved = ENOMEM; goto done; }
    request->request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
    if (!request->request) { saved = errno; free(request); request = NULL; goto done; }
    if (with_events) {
        request->buffer = gpiod_edge_event_buffer_new(64);
        if (!request->buffer) {
            saved = errno;
            gpiod_line_request_release(request->request);
            free(request);
            request = NULL;
        }
    }
done:
    gpiod_line_config_free(line_config);
    gpiod_request_config_free(request_config);
    if (!request) errno = saved;
    return request;
}

ttg_request *ttg_request_inputs(ttg_chip *chip, const unsigned int *offsets, size_t count,
                                int bias, unsigned long debounce_us, const char *consumer) {
    if (count == 0 || count > TTG_MAX_LINES) { errno = EINVAL; return NULL; }
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) { errno = ENOMEM; return NULL; }
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
    gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH);
    switch (bias) {
    case TTG_BIAS_PULL_UP: gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_PULL_UP); break;
    case TTG_BIAS_PULL_DOWN: gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_PULL_DOWN); break;
    case TTG_BIAS_DISABLED: gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_DISABLED); break;
    default: break;
    }
    if (debounce_us) gpiod_line_settings_set_debounce_period_us(settings, debounce_us);
    ttg_request *request = request_lines(chip, offsets, count, settings, NULL, consumer, 1);
    int saved = errno;
    gpiod_line_settings_free(settings);
    errno = saved;
    return request;
}

ttg_request *ttg_request_outputs(ttg_chip *chip, const unsigned int *offsets, size_t count,
                                 const int *values, const char *consumer) {
    if (count == 0 || count > TTG_MAX_LINES) { errno = EINVAL; return NULL; }
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) { errno = ENOMEM; return NULL; }
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
    ttg_request *request = request_lines(chip, offsets, count, settings, values, consumer, 0);
    int saved = errno;
    gpiod_line_settings_free(settings);
    errno = saved;
    return request;
}

size_t ttg_request_fd_count(ttg_request *request) { return request->buffer ? 1 : 0; }

int ttg_request_fd(ttg_request *request, size_t index) {
    if (index != 0 || !request->buffer) { errno = EINVAL; return -1; }
    return gpiod_line_request_get_fd(request->request);
}

int ttg_request_read_events(ttg_request *request, size_t fd_index, ttg_event *events, size_t max) {
    if (fd_index != 0 || !request->buffer) { errno = EINVAL; return -1; }
    if (max > 64) max = 64;
    int read = gpiod_line_request_read_edge_events(request->request, request->buffer, max);
    for (int i = 0; i < read; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(request->buffer, (unsigned long)i);
        events[i].offset = gpiod_edge_event_get_line_offset(event);
        events[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
        events[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    }
    return read;
}

int ttg_request_get_value(ttg_request *request, unsigned int offset) {
    enum gpiod_line_value value = gpiod_line_request_get_value(request->request, offset);
    if (value == GPIOD_LINE_VALUE_ERROR) return -1;
    return value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

int ttg_request_set_values(ttg_request *request, const unsigned int *offsets, const int *values, size_t count) {
    if (count > TTG_MAX_LINES) { errno = EINVAL; return -1; }
    enum gpiod_line_value levels[TTG_MAX_LINES];
    for (size_t i = 0; i < count; i++) levels[i] = values[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
    return gpiod_line_request_set_values_subset(request->request, count, offsets, levels);
}

void ttg_request_release(ttg_request *request) {
    if (!request) return;
    if (request->buffer) gpiod_edge_event_buffer_free(request->buffer);
    gpiod_line_request_release(request->request);
    free(request);
}

#endif
