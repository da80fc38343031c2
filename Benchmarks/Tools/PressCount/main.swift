import Basics
import BoardUnderTest
#if canImport(Glibc)
import Glibc
#endif

// Runs one of the benchmarks' workloads on the counting chip, for `make bench-instructions`,
// which counts the instructions executed inside `measured` under callgrind and divides by the
// count given here. Instructions, unlike wall time, hold still on a busy machine.
//
//   PressCount full N        N presses through the whole stack, each until its cell is lit
//   PressCount imperative N  the same presses by the imperative program
//   PressCount scan N        N scan steps of a lit frame

/// Everything inside is counted; the replay, releases and new games around it are not.
@inline(never)
func measured(_ work: () -> Int) -> Int { work() }

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
    print("usage: PressCount full|imperative|scan COUNT")
    exit(2)
}
/// Presses `count` cells of the replayed games on `board`, counting only the presses.
func press<Board: PressedBoard>(_ board: inout Board, times count: Int) -> Int {
    var steps = 0
    for _ in 0..<count {
        let cell = board.nextCell()
        steps += measured { board.pressUntilLit(cell) }
        board.release(cell)
    }
    return steps
}

var steps = 0
switch arguments[1] {
case "full":
    var stack = FullStack(chip: CountingChip())
    steps = press(&stack, times: count)
case "imperative":
    var baseline = ImperativeBoard(chip: CountingChip())
    steps = press(&baseline, times: count)
case "scan":
    let stack = FullStack(chip: CountingChip())
    let cell = stack.nextCell()
    _ = stack.pressUntilLit(cell)
    stack.release(cell)
    // The next deadline is worked out outside: `Duration` arithmetic is the test clock's cost,
    // not the scan's.
    let period = stack.rowPeriod.nanoseconds
    for _ in 0..<count {
        let next = MonotonicInstant(nanoseconds: stack.scheduler.now.nanoseconds + period)
        steps += measured {
            stack.scheduler.advance(to: next)
            return 1
        }
    }
default:
    print("usage: PressCount full|imperative|scan COUNT")
    exit(2)
}
print("\(arguments[1]): \(count) runs, \(steps) scan steps")
