@testable import BoardAPI
import BoardProtocol
import Foundation
import Testing
import TestSupport

/// docs/API.md's "Limits" tell clients numbers the code defines: each is read from the code here,
/// so the two cannot drift.
@Suite("The API's documented limits")
struct DocumentedLimitsTests {
    private static func limitsSection() throws -> String {
        let document = repositoryRoot.appendingPathComponent("docs/API.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let start = text.range(of: "### Limits\n") else { return "" }
        return String(text[start.upperBound...].prefix { $0 != "#" })
    }

    @Test("docs/API.md states the line length, the clients, the bad lines in a row and the back-pressure bounds the server uses")
    func limitsAgree() throws {
        let section = try Self.limitsSection()
        #expect(section.count > 500, "docs/API.md has no Limits section")
        let limits = BoardAPIServer.Limits()
        let stated = [
            "A line is at most \(APIRequest.maximumLineLength) bytes",
            "after \(limits.badLinesInARow) bad lines in a row",
            "At most \(limits.clients) clients",
            "fewer than \(Outbox.byteLimit / 1024) KiB (and \(Outbox.replyLimit - 2)\nreplies)",
            "one read of its lines (\(BoardAPIServer.readSize / 1024) KiB) and \(Outbox.byteLimit / 1024) KiB",
            "about 70 KB for \(HistoryQuery.largestLimit) games",
        ]
        for sentence in stated {
            let flattened = section.replacingOccurrences(of: "\n  ", with: " ").replacingOccurrences(of: "\n", with: " ")
            #expect(flattened.contains(sentence.replacingOccurrences(of: "\n", with: " ")), "docs/API.md's Limits should say: \(sentence)")
        }
    }
}
