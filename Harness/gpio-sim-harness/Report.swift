import Foundation

/// Sends one observation to the host as a line `@@ {json}` on the console. The host test asserts
/// on these; the harness itself judges nothing.
func report(_ scenario: String, _ fields: [String: Any]) {
    var object = fields
    object["scenario"] = scenario
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
    FileHandle.standardOutput.write(Data("@@ ".utf8) + data + Data("\n".utf8))
}

/// Monotonic time in seconds.
func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func pause(_ seconds: Double) { Thread.sleep(forTimeInterval: seconds) }
