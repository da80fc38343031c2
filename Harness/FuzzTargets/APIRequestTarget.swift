import BoardProtocol

/// The board's API as its socket reads a client: lines (``LineBuffer``), each a request
/// (``APIRequest/parse(_:)``).
///
/// Kept: the same lines however the bytes are cut; no line longer than the limit is passed; a
/// request read, written as a client writes it (``APIRequest/line``), reads as the same
/// request; a refusal has a reason and words.
public enum APIRequestTarget: FuzzTarget {
    public static let name = "api-request"

    public static func check(_ bytes: [UInt8]) -> String? {
        let whole = lines(of: [bytes[...]])
        for cut in [singleBytes(of: bytes), pieces(of: bytes)] {
            guard lines(of: cut) == whole else { return "the bytes make other lines when cut into pieces" }
        }
        for line in whole {
            guard case .complete(let line) = line else { continue }
            guard line.count <= APIRequest.maximumLineLength else { return "a line of \(line.count) bytes was passed" }
            switch APIRequest.parse(line) {
            case .success(let request):
                guard case .success(let again) = APIRequest.parse(Array(request.line.utf8)) else {
                    return "the request read, written again (\(request.line)), is refused"
                }
                guard again == request else { return "the request read, written again (\(request.line)), reads as \(again)" }
            case .failure(let error):
                guard !error.text.isEmpty else { return "a refusal without words" }
            }
        }
        return nil
    }

    static func lines(of pieces: [ArraySlice<UInt8>]) -> [LineBuffer.Line] {
        var buffer = LineBuffer()
        return pieces.flatMap { buffer.append($0) }
    }
}
