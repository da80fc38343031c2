import BoardProtocol
import FlyingFox
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebView

/// Every request the HTTP server answers: the page's files (``PageFiles``) and its WebSocket
/// (`/ws`), after the ``HostPolicy``'s checks, with the same security headers on every response.
struct PageRoutes: HTTPHandler {
    let files: PageFiles
    let policy: HostPolicy
    let sockets: WebSocketHTTPHandler
    /// The machine's addresses now.
    let addresses: @Sendable () -> Set<String>

    /// The page runs only its own script and style, reaches only its own server, and cannot be
    /// framed: no inline script (docs/WEB.md).
    static let securityHeaders: [(HTTPHeader, String)] = [
        (HTTPHeader("Content-Security-Policy"),
         "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        (HTTPHeader("X-Content-Type-Options"), "nosniff"),
        (HTTPHeader("X-Frame-Options"), "DENY"),
        (HTTPHeader("Referrer-Policy"), "no-referrer"),
        (.cacheControl, "no-cache"),
    ]

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let refusal = policy.refusal(host: request.headers[.host], addresses: addresses()) {
            return Self.text(.misdirectedRequest, refusal)
        }
        guard request.method == .GET else {
            var response = Self.text(.methodNotAllowed, "the board's page is only read (GET)")
            response.headers[HTTPHeader("Allow")] = "GET"
            return response
        }
        if request.path == "/ws" {
            if let refusal = policy.upgradeRefusal(host: request.headers[.host], origin: request.headers[HTTPHeader("Origin")], addresses: addresses()) {
                return Self.text(.forbidden, refusal)
            }
            return try await sockets.handleRequest(request)
        }
        guard let file = files.files[request.path] else {
            return Self.text(.notFound, "no such page here: the board's page is at /")
        }
        var response = HTTPResponse(statusCode: .ok, body: file.bytes)
        response.headers[.contentType] = file.contentType
        Self.secure(&response)
        return response
    }

    static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        var response = HTTPResponse(statusCode: status, body: Data((text + "\n").utf8))
        response.headers[.contentType] = "text/plain; charset=utf-8"
        secure(&response)
        return response
    }

    static func secure(_ response: inout HTTPResponse) {
        for (header, value) in securityHeaders { response.headers[header] = value }
    }
}
