import FlyingSocks
#if canImport(CLinuxEvents)
import CLinuxEvents
import Glibc

/// The HTTP server's epoll queue: which of its sockets are ready, for FlyingSocks' socket pool.
///
/// FlyingSocks' own (`ePoll`, FlyingFox 0.27.1) remembers what it registered for each descriptor and skips a
/// change that matches what it remembers. When a socket is closed before its registration is
/// removed (a WebSocket's reader closes it while its writer still waits), the kernel forgets the
/// registration but that queue does not; the next connection given the same descriptor number
/// waits for the same events, the change is skipped, and the connection is never read: a page
/// whose upgrade is never answered. Found by the hostile-client test (one page in a few hundred
/// after a refused frame). This queue tells the kernel every change and treats a registration the
/// kernel has already dropped as gone.
///
/// Confined as FlyingSocks confines its queue: changes on the pool's actor, waits on its dispatch
/// queue with a copy; only the epoll and wake descriptors are shared.
struct ReadinessQueue: EventQueue {
    private var epoll: Int32 = -1
    /// An eventfd that ends a wait when the pool stops.
    private var wake: Int32 = -1
    private var stopped = false
    /// The events last registered per descriptor, to know what is left after a removal.
    private var registered: [Int32: Socket.Events] = [:]

    mutating func open() throws {
        registered = [:]
        stopped = false
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SocketError.makeFailed("epoll_create1") }
        wake = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wake >= 0 else { throw SocketError.makeFailed("eventfd") }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wake
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event) == 0 else { throw SocketError.makeFailed("epoll_ctl EPOLL_CTL_ADD") }
    }

    mutating func stop() throws {
        registered = [:]
        guard !stopped, wake >= 0 else { throw SocketError.disconnected }
        stopped = true
        eventfd_write(wake, 1)
    }

    mutating func close() throws {
        guard epoll >= 0 else { throw SocketError.disconnected }
        Glibc.close(epoll)
        Glibc.close(wake)
        (epoll, wake) = (-1, -1)
    }

    /// `events` is everything now waited for on the socket (the pool passes the union).
    mutating func addEvents(_ events: Socket.Events, for socket: Socket.FileDescriptor) throws {
        try register(events, for: socket.rawValue)
    }

    mutating func removeEvents(_ events: Socket.Events, for socket: Socket.FileDescriptor) throws {
        try register((registered[socket.rawValue] ?? []).subtracting(events), for: socket.rawValue)
    }

    private mutating func register(_ events: Socket.Events, for fd: Int32) throws {
        guard !events.isEmpty else {
            registered[fd] = nil
            // ENOENT and EBADF: the descriptor was closed, and the kernel dropped it already.
            if epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil) != 0 && errno != ENOENT && errno != EBADF {
                throw SocketError.makeFailed("epoll_ctl EPOLL_CTL_DEL")
            }
            return
        }
        var event = epoll_event()
        event.events = EPOLLET.rawValue
        if events.contains(.read) { event.events |= EPOLLIN.rawValue }
        if events.contains(.write) { event.events |= EPOLLOUT.rawValue }
        event.data.fd = fd
        // A modification also reports a socket already ready, as an addition does.
        if epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) != 0 {
            guard errno == ENOENT, epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else {
                throw SocketError.makeFailed("epoll_ctl")
            }
        }
        registered[fd] = events
    }

    func getNotifications() throws -> [EventNotification] {
        guard !stopped else { throw SocketError.disconnected }
        var ready = [epoll_event](repeating: epoll_event(), count: 32)
        let count = epoll_wait(epoll, &ready, Int32(ready.count), -1)
        guard count >= 0 else {
            if errno == EINTR { return [] }
            throw SocketError.makeFailed("epoll_wait")
        }
        return try ready.prefix(Int(count)).map { event in
            guard event.data.fd != wake else { throw SocketError.disconnected }
            var notification = EventNotification(file: Socket.FileDescriptor(rawValue: event.data.fd), events: [], errors: [])
            if event.events & EPOLLIN.rawValue != 0 { notification.events.insert(.read) }
            if event.events & EPOLLOUT.rawValue != 0 { notification.events.insert(.write) }
            if !notification.events.contains(.read) && event.events & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0 {
                notification.errors.insert(.endOfFile)
            }
            if event.events & (EPOLLERR.rawValue | EPOLLPRI.rawValue) != 0 { notification.errors.insert(.error) }
            // A socket that failed or hung up wakes whoever waits on it, whatever they wait for.
            if notification.events.isEmpty { notification.events = [.read, .write] }
            return notification
        }
    }
}
#endif
