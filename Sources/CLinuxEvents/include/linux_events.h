#ifndef LINUX_EVENTS_H
#define LINUX_EVENTS_H

// The kernel's readiness and wake-up calls, epoll and eventfd, which the Glibc module Swift
// imports does not export: the web view's page server waits on its sockets with them.
#include <sys/epoll.h>
#include <sys/eventfd.h>

#endif
