/// A documented trap: the program stops with `message` when `condition` is false.
///
/// Where a contract promises a message for a programming error, this keeps the promise in
/// release builds too: `precondition` prints its message only in debug builds (an optimised
/// build traps with a bare SIGILL), while `fatalError` always prints, so the journal says why.
@inlinable
public func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError(message(), file: file, line: line) }
}
