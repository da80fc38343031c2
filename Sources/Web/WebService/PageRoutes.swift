import BoardProtocol
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ShareCode
import WebRules

/// Every request the web view answers: the page's files (``PageFiles``), its WebSocket
/// (`/ws`) and the QR code of the address it was reached by (``qrPath``), after the
/// ``HostPolicy``'s checks, with the same security headers on every response.
struct PageRoutes: Sendable {
    let files: PageFiles
    let policy: HostPolicy
    /// The machine's addresses now.
    let addresses: @Sendable () -> Set<String>

    enum Answer: Sendable {
        case response(PageResponse)
        /// A WebSocket for the page, with the handshake's accept value.
        case upgrade(accept: String)
    }

    /// The page runs only its own script and style, reaches only its own server, and cannot be
    /// framed: no inline script (docs/WEB.md).
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy",
         "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-cache"),
    ]

    func answer(_ request: RequestHead) -> Answer {
        if let refusal = policy.refusal(host: request["host"], addresses: addresses()) {
            return .response(Self.text(421, refusal))
        }
        guard request.method == "GET" else {
            var response = Self.text(405, "the board's page is only read (GET)")
            response.headers.append(("Allow", "GET"))
            return .response(response)
        }
        let path = String(request.target.prefix { $0 != "?" })
        if path == "/ws" {
            if let refusal = policy.upgradeRefusal(host: request["host"], origin: request["origin"], addresses: addresses()) {
                return .response(Self.text(403, refusal))
            }
            switch WebSocketHandshake.accept(request) {
            case .success(let accept): return .upgrade(accept: accept)
            case .failure(let refusal) where refusal.wantsVersion:
                var response = Self.text(426, refusal.text)
                response.headers.append(("Sec-WebSocket-Version", WebSocketHandshake.version))
                return .response(response)
            case .failure(let refusal): return .response(Self.text(400, refusal.text))
            }
        }
        if path == Self.qrPath, let host = request["host"] {
            return .response(Self.qrCode(host: host))
        }
        guard let file = files.files[path] else {
            return .response(Self.text(404, "no such page here: the board's page is at /"))
        }
        return .response(PageResponse(status: 200, headers: [("Content-Type", file.contentType)] + Self.securityHeaders, body: Array(file.bytes)))
    }

    /// The page's address as a QR code, made per request from the `Host` it came by (a page
    /// opened by the machine's name shares that name; by its address, that address).
    static let qrPath = "/qr.svg"

    /// The longest address encoded: the host policy already allows only the machine's names and
    /// addresses and `web.hosts` (at most 253 characters), so this bounds the work (a version-13
    /// symbol at most, about a millisecond) without refusing any address it allows.
    static let qrLimit = 300

    /// `/qr.svg` for a `Host` the policy allowed: an SVG of `http://HOST/`.
    static func qrCode(host: String) -> PageResponse {
        // The policy allowed `host[:port]` with spaces or tabs around it at most: none within.
        let address = "http://" + host.filter { $0 != " " && $0 != "\t" }.lowercased() + "/"
        guard address.utf8.count <= qrLimit else { return text(431, "the board's address is too long for a QR code") }
        do {
            let code = try QRCode(encoding: address)
            let body = code.svg(title: "QR code of this page's address, \(address)")
            return PageResponse(status: 200, headers: [("Content-Type", "image/svg+xml")] + securityHeaders, body: Array(body.utf8))
        } catch {
            return text(500, "no QR code of the address: \(error.description)")
        }
    }

    static func text(_ status: Int, _ text: String) -> PageResponse {
        PageResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + securityHeaders, body: Array((text + "\n").utf8))
    }
}

/// A response of the web view, every one with a `Content-Length`: a browser keeps the connection
/// for its next request.
struct PageResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    /// The head and the body; `closing` says the connection ends after it.
    func encoded(closing: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        if closing { head += "Connection: close\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// The answer to a WebSocket's upgrade, which has no body.
    static func switching(accept: String) -> [UInt8] {
        Array("HTTP/1.1 101 \(HTTPStatus.reason(101))\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n".utf8)
    }
}
