import Presentation
import Testing
import WiredBoard
@testable import Console

/// The scripted terminal game: the full stack in virtual time, read back from the LED lines.
@Suite("Scripted terminal game")
struct ScriptedGameTests {
    private func play(_ keys: String, bounce: Bool = false) throws -> [String] {
        // A short idle time: every virtual second of scanning costs real time.
        let settings = BoardSettings(game: GameTimings(idleSleep: .seconds(20)), players: PlayerNames(x: "Alice", o: "Bob"))
        let transcript = try ScriptedGame(settings: settings, bounce: bounce).play(KeyScript(parsing: keys))
        return transcript.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The block printed after the key at `index` (0-based): its header and three rows.
    private func block(_ lines: [String], _ index: Int) -> [String] {
        let start = 1 + 3 + index * 4
        return Array(lines[start..<(start + 4)])
    }

    @Test("X wins on a diagonal, presses after the end, new game, an illegal press, a draw")
    func completeRun() throws {
        // X: 7 5 3 (diagonal), O: 8 9. Then 1 after the end, n, then O starts:
        // 5 (O), 5 again (amber), and a draw.
        let lines = try play("7 8 5 9 3  1  n  5 5  7 9 1 4 6 8 2 3", bounce: true)
        #expect(lines[0] == "Alice (X) vs Bob (O)")
        #expect(Array(lines[1...3]) == ["  . . .", "  . . .    X(red) on  O(green) off", "  . . ."])
        #expect(block(lines, 0) == ["> 7: press cell (0, 0) — Alice (X) took (0, 0).", "  R . .", "  . . .    X(red) off  O(green) on", "  . . ."])
        #expect(block(lines, 4) == [
            "> 3: press cell (2, 2) — Alice (X) took (2, 2). Alice (X) wins along the diagonal from top left!",
            "  r G G", "  . r .    X(red) blinking  O(green) off", "  . . r",
        ])
        #expect(block(lines, 5) == [
            "> 1: press cell (2, 0) — The game is over; (2, 0) ignored. Press n for a new game.",
            "  r G G", "  . r .    X(red) blinking  O(green) off", "  . . r",
        ])
        #expect(block(lines, 6) == ["> n: press new game — New game: Bob (O) starts.", "  . . .", "  . . .    X(red) off  O(green) on", "  . . ."])
        #expect(block(lines, 7)[1...3] == ["  . . .", "  . G .    X(red) on  O(green) off", "  . . ."])
        #expect(block(lines, 8) == [
            "> 5: press cell (1, 1) — Not allowed at (1, 1): cell (1, 1) is already taken by O.",
            "  . . .", "  . A .    X(red) on  O(green) off", "  . . .",
        ])
        // The draw (X O O / O O X / X X O): every cell and both status LEDs blink.
        let last = block(lines, 16)
        #expect(last == ["> 3: press cell (2, 2) — Bob (O) took (2, 2). A draw.",
                         "  r g g", "  g g r    X(red) blinking  O(green) blinking", "  r r g"])
        #expect(lines.last(where: { !$0.isEmpty }) == "score: Alice (X) 1 · Bob (O) 0 · draws 1")
    }

    @Test("holding new game restarts mid-game; a short press mid-game does not")
    func holdToRestart() throws {
        let lines = try play("5 n N")
        #expect(block(lines, 1)[1...3] == ["  . . .", "  . R .    X(red) off  O(green) on", "  . . ."])
        #expect(block(lines, 2) == ["> N: hold new game — New game: Bob (O) starts.", "  . . .", "  . . .    X(red) off  O(green) on", "  . . ."])
    }

    @Test("z waits until the lights sleep; the next key only wakes them")
    func sleep() throws {
        let lines = try play("5 z 1 1")
        #expect(block(lines, 1)[1...3] == ["  . . .", "  . . .    X(red) off  O(green) off", "  . . ."])
        #expect(block(lines, 2)[0] == "> 1: press cell (2, 0) — Awake again.")
        #expect(block(lines, 2)[1...3] == ["  . . .", "  . R .    X(red) off  O(green) on", "  . . ."])
        #expect(block(lines, 3)[3] == "  G . .")
    }

    @Test("q ends the script early")
    func quit() throws {
        let lines = try play("5 q 1")
        #expect(lines.contains("> q: quit"))
        #expect(!lines.contains { $0.hasPrefix("> 1") })
    }

    @Test("m steps through the opponents; against the computer its moves show after its thinking time")
    func againstTheComputer() throws {
        let lines = try play("m . 5 . 1 . 9 . 3 . 7 .")
        #expect(block(lines, 0)[0] == "> m: hold new game and tap a cell — Against the computer at level 1 now. New game: Computer (O) starts.")
        #expect(block(lines, 0)[1...3] == ["  G . .", "  . . .    X(red) off  O(green) off", "  . . ."], "level 1: one green cell")
        #expect(lines.contains { $0.contains("Computer (O) took") })
        #expect(lines[0] == "Alice (X) vs Bob (O)")
        #expect(lines.last(where: { !$0.isEmpty })?.hasPrefix("score: Alice (X) ") == true)
        #expect(lines.last(where: { !$0.isEmpty })?.contains("Computer (O)") == true)
    }
}
