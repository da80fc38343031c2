import ViewModel
import Testing
import WiredBoard
@testable import Console

/// The scripted terminal game: the full stack in virtual time, its appearance after each key in plain text.
@Suite("Scripted terminal game")
struct ScriptedGameTests {
    private func play(_ keys: String, bounce: Bool = false) throws -> [String] {
        // A short idle time: every virtual second of scanning costs real time.
        let settings = BoardSettings(game: GameTimings(idleSleep: .seconds(20)), players: PlayerNames(x: "Alice", o: "Bob"))
        let transcript = try ScriptedGame(settings: settings, bounce: bounce).play(KeyScript(parsing: keys))
        return transcript.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The block printed after the key at `index` (0-based): its header, three rows and the
    /// headline.
    private func block(_ lines: [String], _ index: Int) -> [String] {
        let start = 1 + 4 + index * 5
        return Array(lines[start..<(start + 5)])
    }

    @Test("X wins on a diagonal, presses after the end, new game, a refused press, a draw")
    func completeRun() throws {
        // X: 7 5 3 (diagonal), O: 8 9. Then 1 after the end, n, then O starts:
        // 5 (O), 5 again (refused), and a draw.
        let lines = try play("7 8 5 9 3  1  n  5 5  7 9 1 4 6 8 2 3", bounce: true)
        #expect(lines[0] == "Alice (X) vs Bob (O)")
        #expect(Array(lines[1...4]) == ["   ·   ·   ·", "   ·   ·   ·     status LEDs: X on, O off", "   ·   ·   ·", "Alice (X) to move."])
        #expect(block(lines, 0) == [
            "> 7: press cell 7 — Alice (X) took cell 7.",
            "   X   ·   ·", "   ·   ·   ·     status LEDs: X off, O dim", "   ·   ·   ·", "Bob (O) to move.",
        ])
        #expect(block(lines, 4) == [
            "> 3: press cell 3 — Alice (X) took cell 3. Alice (X) wins along the diagonal from top left!",
            "  [X]  O   O", "   ·  [X]  ·     status LEDs: X blinking, O off", "   ·   ·  [X]", "Alice (X) wins.",
        ])
        #expect(block(lines, 5) == [
            "> 1: press cell 1 — The game is over; cell 1 ignored. Press n for a new game.",
            "  [X]  O   O", "   ·  [X]  ·     status LEDs: X blinking, O off", "   ·   ·  [X]", "Alice (X) wins.",
        ])
        #expect(block(lines, 6) == [
            "> n: press new game — New game: Bob (O) starts.",
            "   ·   ·   ·", "   ·   ·   ·     status LEDs: X off, O dim", "   ·   ·   ·", "Bob (O) to move.",
        ])
        #expect(block(lines, 7)[1...4] == ["   ·   ·   ·", "   ·   O   ·     status LEDs: X on, O off", "   ·   ·   ·", "Alice (X) to move."])
        #expect(block(lines, 8) == [
            "> 5: press cell 5 — Not allowed: cell 5 is already taken by O.",
            "   ·   ·   ·", "   ·  !O!  ·     status LEDs: X on, O off", "   ·   ·   ·", "Alice (X) to move.",
        ])
        // The draw (X O O / O O X / X X O): every cell and both status LEDs blink.
        #expect(block(lines, 16) == [
            "> 3: press cell 3 — Bob (O) took cell 3. A draw.",
            "  =X= =O= =O=", "  =O= =O= =X=    status LEDs: X blinking, O dim blinking", "  =X= =X= =O=", "A draw.",
        ])
        #expect(lines.last(where: { !$0.isEmpty }) == "score: Alice (X) 1 · Bob (O) 0 · draws 1")
    }

    @Test("holding new game restarts mid-game; a short press mid-game does not")
    func holdToRestart() throws {
        let lines = try play("5 n N")
        #expect(block(lines, 1)[1...4] == ["   ·   ·   ·", "   ·   X   ·     status LEDs: X off, O dim", "   ·   ·   ·", "Bob (O) to move."])
        #expect(block(lines, 2) == [
            "> N: hold new game — New game: Bob (O) starts.",
            "   ·   ·   ·", "   ·   ·   ·     status LEDs: X off, O dim", "   ·   ·   ·", "Bob (O) to move.",
        ])
    }

    @Test("z waits until the lights sleep: the marks stay, the words say so; the next key only wakes them")
    func sleep() throws {
        let lines = try play("5 z 1 1")
        #expect(block(lines, 1)[1...4] == [
            "   ·   ·   ·", "   ·   X   ·     status LEDs: X off, O off", "   ·   ·   ·", "The lights are asleep: press any cell to wake them.",
        ])
        #expect(block(lines, 2)[0] == "> 1: press cell 1 — Awake again.")
        #expect(block(lines, 2)[1...4] == ["   ·   ·   ·", "   ·   X   ·     status LEDs: X off, O dim", "   ·   ·   ·", "Bob (O) to move."])
        #expect(block(lines, 3)[3] == "   O   ·   ·")
    }

    @Test("q ends the script early")
    func quit() throws {
        let lines = try play("5 q 1")
        #expect(lines.contains("> q: quit"))
        #expect(!lines.contains { $0.hasPrefix("> 1") })
    }

    @Test("m steps through the opponents; against the computer it thinks, and its moves show after")
    func againstTheComputer() throws {
        let lines = try play("m . 5 . 1 . 9 . 3 . 7 .")
        #expect(block(lines, 0)[0] == "> m: hold new game and tap a cell — Against the computer at level 1 now. New game: Computer (O) starts.")
        #expect(block(lines, 0)[1...4] == [
            "  <O>  ·   ·", "   ·   ·   ·     status LEDs: X off, O off", "   ·   ·   ·",
            "O is now played by the computer at level 1; a new game starts.",
        ], "level 1: one of O's cells")
        // Each move of X's that leaves the game open is followed by the computer's thinking (its
        // own moves are its choice: the first may take the cell a key of the script names).
        let xMoved = (1..<12).map { block(lines, $0) }.filter { block in
            block[0].contains("Alice (X) took cell") && !block[0].contains("wins") && !block[0].contains("draw")
        }
        #expect(!xMoved.isEmpty && xMoved.allSatisfy { $0[4] == "Computer (O) is thinking…" }, "\(xMoved)")
        #expect(lines.contains { $0.contains("Computer (O) took cell") })
        #expect(lines[0] == "Alice (X) vs Bob (O)")
        #expect(lines.last(where: { !$0.isEmpty })?.hasPrefix("score: Alice (X) ") == true)
        #expect(lines.last(where: { !$0.isEmpty })?.contains("Computer (O)") == true)
    }
}
