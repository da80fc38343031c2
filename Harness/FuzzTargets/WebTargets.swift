import WebRules

/// The web view's request head (``RequestHead``), and the reader around it (``ClientTraffic``)
/// in its heads mode.
///
/// Kept: a head read is written back out and read again the same; the reader finds the same
/// heads and frames, and the same refusal, whether the bytes come at once, one at a time, in
/// pieces or a unit a scan (as the server scans), an upgrade answered either way; a head it
/// passes has a Host; a head `RequestHead` reads whole is the reader's first unit.
public enum RequestHeadTarget: FuzzTarget {
    public static let name = "request-head"

    public static func check(_ bytes: [UInt8]) -> String? {
        if let head = try? RequestHead(parsing: bytes) {
            let written = serialised(head)
            guard let again = try? RequestHead(parsing: written) else { return "a head read, written back out, is refused" }
            guard again == head else { return "a head read, written back out, reads differently" }
            guard Set(head.fields.map(\.name)).count == head.fields.count else { return "a head with a field twice was passed" }
        }
        let (whole, other) = Reading.readings(of: bytes, frames: false)
        if let other { return "the bytes read differently cut into pieces: \(other) against \(whole) at once" }
        for case .head(let head) in whole.units {
            guard let host = head["host"], !host.isEmpty else { return "a head without Host was passed" }
        }
        // The two readers agree: a whole head within the limit, without a body, is the
        // reader's first unit.
        if let head = try? RequestHead(parsing: bytes), bytes.count <= ClientTraffic.Limits().head,
            head["content-length"] ?? "0" == "0", head["transfer-encoding"] == nil {
            guard whole.units.first == .head(head) else { return "a head RequestHead reads is not the traffic's first unit: \(whole)" }
        }
        return nil
    }

    static func serialised(_ head: RequestHead) -> [UInt8] {
        var text = "\(head.method) \(head.target) \(head.version)\r\n"
        for field in head.fields { text += "\(field.name): \(field.value)\r\n" }
        return Array((text + "\r\n").utf8)
    }
}

/// The web view's WebSocket frames (``ClientTraffic`` once a connection is upgraded).
///
/// Kept: the same frames and refusal however the bytes are cut; every frame passed is whole, of
/// a kind the page may send, within the message limit (a control frame within 125 bytes); the
/// frames passed, masked again and read, are the same frames.
public enum WebSocketFramesTarget: FuzzTarget {
    public static let name = "websocket-frames"

    public static func check(_ bytes: [UInt8]) -> String? {
        let (whole, other) = Reading.readings(of: bytes, frames: true)
        if let other { return "the bytes read differently cut into pieces: \(other) against \(whole) at once" }
        var frames: [PageFrame] = []
        for unit in whole.units {
            guard case .frame(let frame) = unit else { return "a head read after the upgrade" }
            guard [.text, .close, .ping, .pong].contains(frame.opcode) else { return "a frame of kind \(frame.opcode) was passed" }
            guard frame.payload.count <= ClientTraffic.Limits().message else { return "a frame over the limit was passed" }
            guard frame.opcode == .text || frame.payload.count <= 125 else { return "a control frame over 125 bytes was passed" }
            frames.append(frame)
        }
        let again = Reading(of: [frames.flatMap(masked)[...]], frames: true, upgrade: true)
        guard again.units == frames.map({ .frame($0) }), again.refusal == nil else { return "the frames passed, masked again, read as \(again)" }
        return nil
    }

    /// `frame` as a browser sends it: masked, with a mask of its own bytes.
    static func masked(_ frame: PageFrame) -> [UInt8] {
        var bytes = frame.encoded
        let headerLength = bytes.count - frame.payload.count
        let mask: [UInt8] = [0x5A, UInt8(truncatingIfNeeded: frame.payload.count), 0xC3, frame.opcode.rawValue]
        bytes[1] |= 0x80
        bytes.insert(contentsOf: mask, at: headerLength)
        for index in frame.payload.indices { bytes[headerLength + 4 + index] ^= mask[index % 4] }
        return bytes
    }
}

/// What one client's bytes made of a ``ClientTraffic``, read the way the server reads them: the
/// bytes a scan leaves are offered again with the next, and a head that asks for a WebSocket is
/// answered (`upgrade`: switched, else an ordinary response) before the bytes after it are read.
struct Reading: Equatable, CustomStringConvertible {
    var units: [ClientTraffic.Unit] = []
    var refusal: ClientTraffic.Refusal?
    var consumed = 0

    /// Reads `pieces` in turn, up to `most` units a scan; with `frames`, after a head that asks
    /// for a WebSocket, switched.
    init(of pieces: [ArraySlice<UInt8>], frames: Bool, upgrade: Bool, most: Int = .max) {
        var traffic = ClientTraffic()
        if frames {
            _ = traffic.scan(Array("GET /live HTTP/1.1\r\nHost: board\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8))
            traffic.upgraded()
        }
        var pending: [UInt8] = []
        for piece in pieces {
            pending += piece
            while !pending.isEmpty {
                let scanned = traffic.scan(pending, upTo: most)
                units += scanned.units
                consumed += scanned.consumed
                pending.removeFirst(scanned.consumed)
                if let refusal = scanned.refusal {
                    self.refusal = refusal
                    return
                }
                if traffic.isWaitingForUpgrade {
                    if upgrade { traffic.upgraded() } else { traffic.notUpgraded() }
                } else if scanned.units.count < most {
                    break  // every byte read: the next piece
                }
            }
        }
    }

    /// The same bytes read at once, byte by byte, in pieces, and a unit a scan: each reading
    /// must be the first's.
    static func readings(of bytes: [UInt8], frames: Bool) -> (whole: Reading, other: Reading?) {
        // Which answer an upgrade gets: from the bytes, so that mutations try both.
        let upgrade = bytes.reduce(0) { $0 ^ $1 } & 1 == 1
        let whole = Reading(of: [bytes[...]], frames: frames, upgrade: upgrade)
        let others = [
            Reading(of: singleBytes(of: bytes), frames: frames, upgrade: upgrade),
            Reading(of: pieces(of: bytes), frames: frames, upgrade: upgrade),
            Reading(of: [bytes[...]], frames: frames, upgrade: upgrade, most: 1),
        ]
        return (whole, others.first { $0 != whole })
    }

    var description: String { "\(units.count) units, \(consumed) bytes read, refusal \(refusal.map { "\($0)" } ?? "none")" }
}
