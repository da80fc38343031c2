import ArgumentParser
import BoardProtocol

/// `api-games SOCKET COUNT`: COUNT finished games played through the board's API as fast as it
/// answers (the appliance's upgrade test needs a board with a long history, and a press of
/// `tictactoe` a process is seconds under TCG). Each game is the top row against the bottom one
/// between two players: 7 1 8 2 9, then a new game. Prints the games it finished.
struct APIGames: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-games", abstract: "Play COUNT two-player games through the board's API socket, as fast as it answers.")

    @Argument(help: "The board's API socket.")
    var socket: String

    @Argument(help: "How many games to finish.")
    var count: Int

    func run() throws {
        let board = try BoardConnection(path: socket)
        defer { board.close() }
        for game in 0..<count {
            for cell in [7, 1, 8, 2, 9] {
                let reply = try board.ask(.press(cell: cell), timeout: .seconds(30))
                guard reply.type == .ok else { throw ValidationError("game \(game + 1), cell \(cell): \(reply.text ?? reply.type.rawValue)") }
            }
            let next = try board.ask(.newGame, timeout: .seconds(30))
            guard next.type == .ok else { throw ValidationError("game \(game + 1), new game: \(next.text ?? next.type.rawValue)") }
        }
        print(count)
    }
}
