/// What waits to be written to one client, bounded whatever the client does: at most one
/// state (the newest replaces one not yet begun, so a client that stops reading costs one
/// state, not one per change) and at most ``replyLimit`` replies. The server reads a client's
/// next line only while the outbox ``hasRoom`` (back-pressure: a client that sends faster than
/// it reads is not read), and a line makes at most two replies, so the replies waiting never
/// pass ``replyLimit`` and their bytes never pass ``byteLimit`` plus the two largest replies.
struct Outbox {
    private struct Message {
        var bytes: [UInt8]
        var isState: Bool
    }

    static let replyLimit = 16
    /// Bytes of replies and state past which the server reads no more of a client's lines.
    static let byteLimit = 65_536

    private var queue: [Message] = []
    /// How much of the first message has been written.
    private var written = 0

    var isEmpty: Bool { queue.isEmpty }

    /// Replies waiting, the one being written included.
    var replyCount: Int { queue.count { !$0.isState } }

    /// Bytes waiting.
    var byteCount: Int { queue.reduce(0) { $0 + $1.bytes.count } - written }

    /// Whether a line may be read and answered now: its replies (an error and a `bye` at most)
    /// fit under ``replyLimit``, and fewer than ``byteLimit`` bytes wait.
    var hasRoom: Bool { replyCount + 2 <= Self.replyLimit && byteCount < Self.byteLimit }

    /// Adds the newest state, dropping a state that is waiting and not yet begun.
    mutating func add(state line: [UInt8]) {
        if let waiting = queue.indices.first(where: { queue[$0].isState && ($0 > 0 || written == 0) }) {
            queue.remove(at: waiting)
        }
        queue.append(Message(bytes: line, isState: true))
    }

    /// Adds a reply; `false` when ``replyLimit`` replies wait already (the client sends
    /// commands and reads nothing).
    mutating func add(reply line: [UInt8]) -> Bool {
        guard replyCount < Self.replyLimit else { return false }
        queue.append(Message(bytes: line, isState: false))
        return true
    }

    /// Writes what it can with `write`, which returns how many bytes it took (0 when the
    /// client takes no more now, `nil` on an error). Returns `false` on an error.
    mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int?) -> Bool {
        while let first = queue.first {
            let taken = first.bytes.withUnsafeBytes { bytes in write(UnsafeRawBufferPointer(rebasing: bytes[written...])) }
            guard let taken else { return false }
            if taken == 0 { return true }
            written += taken
            if written == first.bytes.count {
                queue.removeFirst()
                written = 0
            }
        }
        return true
    }
}
