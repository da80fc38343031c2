import Basics

/// What a `history` request asks for: the latest finished games that match every filter given,
/// at most ``limit`` of them.
///
/// ```
/// {"command":"history"}
/// {"command":"history","player":"Alice","opponent":"learner","outcome":"o-wins","since":"2026-11-01","limit":20}
/// ```
///
/// A filter's values are data, never SQL: the board binds them to its query.
public struct HistoryQuery: Sendable, Hashable, Codable {
    /// The most games one answer holds (about 700 bytes each: a line of at most about 70 KB).
    public static let largestLimit = 100
    /// The longest text a filter takes, in bytes: a player's name is at most 32 characters.
    public static let longestText = 128
    public static let outcomes = ["x-wins", "o-wins", "draw"]

    /// A name either player went by.
    public var player: String?
    /// Who played O, by the opponent's name ("two-players", "computer-2", "learner" …).
    public var opponent: String?
    /// "x-wins", "o-wins" or "draw".
    public var outcome: String?
    /// Games finished on or after this day ("2026-11-01") or moment ("2026-11-01T18:00:00Z"), UTC.
    public var since: String?
    /// At most this many games, the latest: 1 to ``largestLimit``.
    public var limit: Int

    public init(player: String? = nil, opponent: String? = nil, outcome: String? = nil, since: String? = nil, limit: Int = largestLimit) {
        self.player = player
        self.opponent = opponent
        self.outcome = outcome
        self.since = since
        self.limit = limit
    }

    /// Every game, the latest ``largestLimit``.
    public static let all = HistoryQuery()

    /// The fields a `history` request may hold besides its command: unlike other commands',
    /// any other is refused, so that a misspelt filter is not taken for none.
    public static let fields = ["player", "opponent", "outcome", "since", "limit"]

    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        for key in all.allKeys where key.stringValue != "command" && !Self.fields.contains(key.stringValue) {
            throw Refusal(text: "\(key.stringValue.quoted()) is no filter of history's; give \(Self.fields.joined(separator: ", "))")
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String? {
            do {
                return try container.decodeIfPresent(String.self, forKey: key)
            } catch {
                throw Refusal(text: "\"\(key.stringValue)\" must be text")
            }
        }
        (player, opponent, outcome, since) = (try text(.player), try text(.opponent), try text(.outcome), try text(.since))
        do {
            limit = try container.decodeIfPresent(Int.self, forKey: .limit) ?? Self.largestLimit
        } catch {
            throw Refusal(text: "\"limit\" must be a whole number of games, 1 to \(Self.largestLimit)")
        }
    }

    /// Why a request's fields are not a query, naming the field.
    public struct Refusal: Error, Sendable {
        public var text: String
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Why this is not a query the board answers, naming the field as `name` spells it (the
    /// JSON key, quoted, by default); `nil` when it is.
    public func problem(naming name: (String) -> String = { "\"\($0)\"" }) -> String? {
        for (field, text) in [("player", player), ("opponent", opponent), ("since", since)] {
            guard let text else { continue }
            if text.isEmpty || text.utf8.count > Self.longestText || text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                return "\(name(field)) must be 1 to \(Self.longestText) bytes of text without control characters"
            }
        }
        if let outcome, !Self.outcomes.contains(outcome) {
            return "\(name("outcome")) is \(outcome.quoted()); give one of \(Self.outcomes.joined(separator: ", "))"
        }
        if let since, !Self.isDayOrMoment(since) {
            return "\(name("since")) is \(since.quoted()); give a day such as 2026-11-01 or a UTC moment such as 2026-11-01T18:00:00Z"
        }
        guard (1...Self.largestLimit).contains(limit) else {
            return "\(name("limit")) is \(limit); give a number of games from 1 to \(Self.largestLimit)"
        }
        return nil
    }

    /// "2026-11-01" or "2026-11-01T18:00:00Z" (``UTCText``).
    static func isDayOrMoment(_ text: String) -> Bool { UTCText.isDay(text) || UTCText.isMoment(text) }
}

/// Days and moments as the API and the history write them: UTC, ISO 8601, to the second. The
/// one reader of their shape, for a filter a client sends and a time a saved game holds.
public enum UTCText {
    /// "2026-11-23T22:41:05Z", a real month, day, hour, minute and second.
    public static func isMoment(_ text: String) -> Bool { matches(Array(text), length: 20) }

    /// "2026-11-23".
    public static func isDay(_ text: String) -> Bool { matches(Array(text), length: 10) }

    private static func matches(_ characters: [Character], length: Int) -> Bool {
        let pattern = Array("dddd-dd-ddTdd:dd:ddZ".prefix(length))
        guard characters.count == length,
              zip(characters, pattern).allSatisfy({ character, expected in expected == "d" ? ("0"..."9").contains(character) : character == expected })
        else { return false }
        func number(_ range: Range<Int>) -> Int { Int(String(characters[range])) ?? -1 }
        guard (1...12).contains(number(5..<7)), (1...31).contains(number(8..<10)) else { return false }
        return length == 10 || (number(11..<13) < 24 && number(14..<16) < 60 && number(17..<19) < 60)
    }
}
