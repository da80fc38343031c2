import Foundation
import TestSupport
import Testing

/// `tictactoe simulate` with a script on standard input, as a user runs it.
@Suite("tictactoe simulate, the command", .process)
struct SimulateCommandTests {
    @Test("a script on standard input is played and the board printed after each key")
    func scripted() throws {
        let result = try Tictactoe.run(["simulate", "--x-name", "Alice", "--o-name", "Bob"], input: .text("7 8 5 9 3\n"))
        #expect(result.status == 0)
        #expect(result.out.hasPrefix("Alice (X) vs Bob (O)\n"))
        #expect(result.out.contains("  [X]  O   O\n   ·  [X]  ·     status LEDs: X blinking, O off\n   ·   ·  [X]\nAlice (X) wins.\n"))
        #expect(result.out.hasSuffix("score: Alice (X) 1 · Bob (O) 0 · draws 0\n"))
    }

    @Test("an unknown key in a script exits 65 and names the key, line and column")
    func badScript() throws {
        let result = try Tictactoe.run(["simulate"], input: .text("5 1\n9 x\n"))
        #expect(result.status == 65)
        #expect(result.err.hasPrefix("tictactoe: script line 2, column 3: unknown key 'x'."))
        #expect(result.out.isEmpty)
    }

    @Test("the transcript streams: each key's board is out before the script ends, so a killed run has shown its moves")
    func streams() throws {
        let executable = try #require(Tictactoe.executable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // The z waits a day of virtual time with the LEDs scanning: far longer than this test runs.
        process.arguments = ["simulate", "--idle-sleep", "86400"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { process.terminate() }
        input.fileHandleForWriting.write(Data("5 z\n".utf8))
        try input.fileHandleForWriting.close()

        var seen = ""
        let reader = output.fileHandleForReading
        while !seen.contains("> 5: press cell 5") {
            let chunk = reader.availableData  // blocks until output arrives or the program ends
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        #expect(seen.contains("> 5: press cell 5 — X took cell 5."), "got: \(seen)")
        #expect(process.isRunning, "the script should still be playing its z")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
    }
}
