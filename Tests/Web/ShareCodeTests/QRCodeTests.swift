import ShareCode
import Testing

@Suite("The QR code of the page's address, from libqrencode, and its renderings")
struct QRCodeTests {
    let address = "http://192.168.1.20:8080/"

    @Test("the smallest symbol that holds the text: 21 modules a side for one byte, 25 for an address, 177 for the most")
    func sizes() throws {
        #expect(try QRCode(encoding: "a").size == 21)
        let code = try QRCode(encoding: address)
        #expect(code.size == 25)
        #expect(code.modules.count == 25 * 25)
        #expect(try QRCode(encoding: String(repeating: "a", count: QRCode.capacity)).size == 177)
    }

    @Test("a text too long for version 40, or holding a NUL, is refused with a typed error that says why")
    func refusals() {
        let long = String(repeating: "a", count: QRCode.capacity + 1)
        #expect(throws: QRCode.Failure.tooLong(bytes: QRCode.capacity + 1)) { try QRCode(encoding: long) }
        #expect(QRCode.Failure.tooLong(bytes: 2_332).description.contains("too long for a QR code"))
        #expect(throws: QRCode.Failure.containsNul) { try QRCode(encoding: "http://a\u{0}b/") }
    }

    @Test("the three finder patterns are in their corners, each with its light separator, and the fourth corner has none")
    func finderPatterns() throws {
        let code = try QRCode(encoding: address)
        let last = code.size - 7
        for (top, left) in [(0, 0), (0, last), (last, 0)] {
            for row in 0..<7 {
                for column in 0..<7 {
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(code.isDark(row: top + row, column: left + column) == (ring != 2), "finder at \(top),\(left): \(row),\(column)")
                }
            }
        }
        for index in 0..<8 {
            #expect(!code.isDark(row: 7, column: index) && !code.isDark(row: index, column: 7), "top left separator at \(index)")
            #expect(!code.isDark(row: 7, column: last - 1 + index) && !code.isDark(row: last - 1, column: index), "a separator at \(index)")
        }
        let corner = (0..<7).flatMap { row in (0..<7).map { code.isDark(row: last + row, column: last + $0) } }
        // The closures' types spelt out [6.0.3: type-check-steps]: inferred, Swift 6.0.3 takes 13 s to type-check them.
        let finder = (0..<7).flatMap { (row: Int) -> [Bool] in (0..<7).map { (column: Int) -> Bool in max(abs(column - 3), abs(row - 3)) != 2 } }
        #expect(corner != finder)
    }

    @Test("the quiet zone: four light modules on every side of the framed square")
    func quietZone() throws {
        let code = try QRCode(encoding: address)
        #expect(code.framedSize == code.size + 8)
        for index in 0..<code.framedSize {
            for band in 0..<QRCode.quietZone {
                let far = code.framedSize - 1 - band
                #expect(!code.isDarkFramed(row: band, column: index) && !code.isDarkFramed(row: far, column: index))
                #expect(!code.isDarkFramed(row: index, column: band) && !code.isDarkFramed(row: index, column: far))
            }
        }
        #expect(code.isDarkFramed(row: 4, column: 4), "the symbol starts inside the quiet zone")
    }

    @Test("the SVG: its viewBox the framed square, white behind, black runs covering exactly the dark modules, a title")
    func svg() throws {
        let code = try QRCode(encoding: address)
        let svg = code.svg(title: "the <page> & \"it\"")
        #expect(svg.contains(#"viewBox="0 0 33 33""#))
        #expect(svg.contains(#"shape-rendering="crispEdges""#))
        #expect(svg.contains(##"<rect width="33" height="33" fill="#ffffff"/>"##))
        #expect(svg.contains("<title>the &lt;page&gt; &amp; &quot;it&quot;</title>"))
        #expect(svg.contains(##"<path fill="#000000" d=""##))
        let drawn = Set(Self.squares(in: svg))
        #expect(drawn.count == Self.squares(in: svg).count, "a square drawn twice")
        var dark: Set<[Int]> = []
        for row in 0..<code.framedSize {
            for column in 0..<code.framedSize where code.isDarkFramed(row: row, column: column) { dark.insert([column, row]) }
        }
        #expect(drawn == dark)
    }

    @Test("the terminal text: two modules a character, the quiet zone included, module for module the code; coloured black on white")
    func terminal() throws {
        let code = try QRCode(encoding: address)
        let plain = code.terminalLines(colours: false)
        #expect(plain.count == (code.framedSize + 1) / 2)
        #expect(plain.allSatisfy { $0.count == code.framedSize })
        for row in 0..<code.framedSize {
            for column in 0..<code.framedSize {
                let glyph = Array(plain[row / 2])[column]
                let dark = row % 2 == 0 ? "▀█".contains(glyph) : "▄█".contains(glyph)
                #expect(dark == code.isDarkFramed(row: row, column: column), "module \(row),\(column)")
            }
        }
        let coloured = code.terminalLines(colours: true)
        let black = "\u{1B}[38;5;16;48;5;231m", reset = "\u{1B}[0m"
        #expect(zip(coloured, plain).allSatisfy { $0 == black + $1 + reset })
    }

    /// The unit squares an SVG path of `M x y h n v1 h-n z` runs draws, as [x, y].
    static func squares(in svg: String) -> [[Int]] {
        let parts = svg.split(separator: #" d=""#)
        guard parts.count == 2, let data = parts[1].split(separator: "\"").first else { return [] }
        return data.split(separator: "z").flatMap { run -> [[Int]] in
            // "M12 3h4v1h-4": the start, and the run's length twice.
            let fields = run.dropFirst().split(whereSeparator: { " hv".contains($0) }).compactMap { Int($0) }
            guard fields.count == 5, fields[3] == 1, fields[4] == -fields[2], fields[2] > 0 else { return [[-1, -1]] }
            return (0..<fields[2]).map { [fields[0] + $0, fields[1]] }
        }
    }
}

@Suite("The addresses the page is opened by")
struct PageAddressTests {
    @Test("on every interface: the machine's addresses but loopback and link-local, IPv4 first, then NAME.local")
    func everyInterface() {
        let urls = PageAddress.urls(
            listenHost: "*", port: 8080, machineName: "Board.lan",
            machineAddresses: ["127.0.0.1", "::1", "fe80::1", "169.254.3.4", "2001:db8::2", "192.168.1.20", "10.0.0.5"])
        #expect(urls == ["http://10.0.0.5:8080/", "http://192.168.1.20:8080/", "http://[2001:db8::2]:8080/", "http://board.local:8080/"])
    }

    @Test("on one address: that one alone; port 80 unwritten; nothing known: localhost")
    func oneAddress() {
        #expect(PageAddress.urls(listenHost: "192.168.1.20", port: 80, machineName: "pi", machineAddresses: ["10.0.0.5"]) == ["http://192.168.1.20/"])
        #expect(PageAddress.urls(listenHost: "::1", port: 8080, machineName: "pi", machineAddresses: []) == ["http://[::1]:8080/"])
        #expect(PageAddress.urls(listenHost: "*", port: 8080, machineName: "", machineAddresses: ["127.0.0.1"]) == ["http://localhost:8080/"])
    }
}
