import BoardAPI
import BoardProtocol

/// docs/API.md's limits: what the board's API promises a client, with every number read from
/// the code that enforces it.
enum APILimits {
    static var markdown: String {
        let limits = BoardAPIServer.Limits()
        let outbox = BoardAPIServer.outboxByteLimit / 1024, read = BoardAPIServer.readSize / 1024
        // A line makes at most two replies, so a line is read while two more fit.
        let replies = BoardAPIServer.outboxReplyLimit - 2
        return """
            - A line is at most \(APIRequest.maximumLineLength) bytes. A line over that, not UTF-8, not JSON, not an object, without a
              known `command` or with an argument of the wrong kind gets an `error` naming the problem, and
              the connection stays usable; after \(limits.badLinesInARow) bad lines in a row the board sends a `bye` and closes it.
            - A client's commands run one at a time: the next line is read once the last is answered.
            - A client may shut its sending side after its lines (`socat`, `nc -N`): every line is answered,
              then the board closes the connection.
            - At most \(limits.clients) clients; the next is sent a `bye` and closed.
            - A client that does not read falls behind by at most one state (the newest replaces one not yet
              sent), so it costs the board a fixed amount of memory and never delays the game.
            - Back-pressure, not loss: a client's next line is read only while fewer than \(outbox) KiB and at
              most \(replies) replies wait to be written to it. A client that pipelines its commands faster than
              it reads is simply not read until it has read; every reply reaches it, in order, and it is
              never closed for it. So a client can make the board hold at most one read of its lines
              (\(read) KiB) and \(outbox) KiB plus two replies.
            - The `history` reply, the largest (about 70 KB for \(HistoryQuery.largestLimit) games), reads at most \(HistoryQuery.largestLimit) games from the
              database (waiting for a game just finished to be committed first) and is encoded again only
              when its games differ from the last answer's, so clients asking the same question share one
              encoding and none holds up the others.
            - Clients never touch the game loop's time: the loop hands each new state to the server's thread,
              which serialises and writes it ([BENCHMARKS.md](BENCHMARKS.md#the-boards-api) has the cost with 0, 1 and
              32 clients).

            """
    }
}
