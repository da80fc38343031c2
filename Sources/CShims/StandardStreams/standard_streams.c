#include "standard_streams.h"

#include <errno.h>
#include <fcntl.h>

static int closed_at_start;

// Runs before main and before the Swift runtime starts a thread: libdispatch's first eventfd
// and epoll take the lowest free number, and a standard stream closed by the parent would
// otherwise be one of them (a read of standard input then waited on dispatch's eventfd for
// ever). open() takes the lowest free number, so each closed one is filled in turn.
__attribute__((constructor)) static void reserve_standard_streams(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int held = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (held == fd) closed_at_start |= 1 << fd;
    }
}

int standard_stream_was_closed(int fd) {
    return fd >= 0 && fd <= 2 && (closed_at_start & (1 << fd)) != 0;
}
