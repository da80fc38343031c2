/// The statuses the web view answers with and their reason phrases, written once.
public enum HTTPStatus {
    /// `status`'s reason phrase ("Not Found"), or "Status" for one the web view never sends.
    public static func reason(_ status: Int) -> String { reasons[status] ?? "Status" }

    private static let reasons = [
        101: "Switching Protocols", 200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        413: "Content Too Large", 421: "Misdirected Request", 426: "Upgrade Required", 431: "Request Header Fields Too Large",
        503: "Service Unavailable",
    ]
}
