#ifndef STANDARD_STREAMS_H
#define STANDARD_STREAMS_H

/// Whether standard input (0), output (1) or error (2) was closed when the process started.
/// Such a stream is held open on /dev/null from before `main`, so that no file the runtime or
/// the program opens later takes its number: a closed standard input must read as closed, not
/// as the runtime's eventfd, and a closed standard output must never become a socket.
int standard_stream_was_closed(int fd);

#endif
