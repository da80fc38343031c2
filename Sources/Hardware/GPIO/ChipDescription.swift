/// A GPIO chip as the system lists it: enough to recognise it and to say which one to pick.
public struct ChipDescription: Sendable, Hashable, CustomStringConvertible {
    /// The device file, such as `/dev/gpiochip0`.
    public var path: String
    /// The kernel's name for it, such as `gpiochip0`.
    public var name: String
    /// The driver's label, such as `pinctrl-bcm2711` or `gpio-sim.0-node0`.
    public var label: String
    public var lineCount: Int

    public init(path: String, name: String, label: String, lineCount: Int) {
        self.path = path
        self.name = name
        self.label = label
        self.lineCount = lineCount
    }

    public var description: String { "\(name) [\(label)] \(lineCount) lines at \(path)" }

    /// Whether `spec` names this chip by path, by name or by label.
    public func matches(_ spec: String) -> Bool {
        spec == path || spec == name || spec == label
    }
}
