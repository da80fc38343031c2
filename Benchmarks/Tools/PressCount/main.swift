import Basics
import BoardUnderTest
import TicTacToe
#if canImport(Glibc)
import Glibc
#endif

// Runs one of the benchmarks' workloads on the counting chip, for scripts/bench-instructions.sh
// (run by `make bench`), which counts the instructions executed inside `measured` under
// callgrind and divides by the count given here. Instructions, unlike wall time, hold still on a
// busy machine. Run natively, it prints the wall time of each run too (a plain loop around the
// same work, with no benchmark harness around it).
//
//   PressCount full N        N presses through the whole stack, each until its cell is lit
//   PressCount imperative N  the same presses by the imperative program
//   PressCount scan N        N scan steps of a frame with an X and an O, colour only
//   PressCount scan-dim N    the same with O's mark and status LED dim
//   PressCount o-to-start N  N milliseconds of virtual time of a new game with O to start and the
//                            default marks: nothing lit but O's dim status LED
//   PressCount served-K N    N presses through the whole stack with the board's API served
//                            beside it and K clients reading every state (the loop's cost
//                            only: the server and the clients run on threads of their own)
//   PressCount move N        N moves of the perfect computer, cycling through every position in
//                            play (its table filled beforehand, outside the count)
//   PressCount latency N     N presses sent on the board's socket, each timed until another
//                            client has read the state it caused (a real game loop thread,
//                            the matrix scanning in real time); prints p50 and p99

/// Everything inside is counted; the replay, releases and new games around it are not.
@inline(never)
func measured(_ work: () -> Int) -> Int { work() }

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
    print("usage: PressCount full|imperative|scan|scan-dim|o-to-start|served-K|move|latency COUNT")
    exit(2)
}
/// The wall time of each run, in nanoseconds, read outside `measured`.
var times: [Int64] = []
times.reserveCapacity(count)

/// Runs `work` inside `measured` and notes how long it took.
@MainActor func timed(_ work: () -> Int) -> Int {
    let start = MonotonicInstant.now()
    let result = measured(work)
    times.append(MonotonicInstant.now().nanoseconds - start.nanoseconds)
    return result
}

/// Presses `count` cells of the replayed games on `board`, counting only the presses.
@MainActor func press<Board: PressedBoard>(_ board: inout Board, times count: Int) -> Int {
    var steps = 0
    for _ in 0..<count {
        let cell = board.nextCell()
        steps += timed { board.pressAndScanOneFrame(cell) }
        board.release(cell)
    }
    return steps
}

/// Moves `stack`'s clock on by `step` nanoseconds `count` times, counting only the advances.
/// The next deadline is worked out outside: `Duration` arithmetic is the test clock's cost, not
/// the program's. (One function for every such mode: two copies of the closure were merged by
/// the optimiser and `measured` was no longer found.)
@MainActor func advance(_ stack: FullStack<CountingChip>, by step: Int64, times count: Int) -> Int {
    var steps = 0
    for _ in 0..<count {
        let next = MonotonicInstant(nanoseconds: stack.scheduler.now.nanoseconds + step)
        steps += timed {
            stack.scheduler.advance(to: next)
            return 1
        }
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
case "scan", "scan-dim":
    let stack = FullStack.scanning(marks: arguments[1] == "scan" ? .colour : .colourAndBrightness, chip: CountingChip())
    steps = advance(stack, by: stack.rowPeriod.nanoseconds, times: count)
case "o-to-start":
    steps = advance(FullStack.oToStart(chip: CountingChip()), by: 1_000_000, times: count)
case let mode where mode.hasPrefix("served-"):
    guard let watchers = Int(mode.dropFirst("served-".count)) else {
        print("usage: PressCount served-K COUNT (K clients)")
        exit(2)
    }
    var stack = FullStack(chip: CountingChip())
    let served = ServedStack(board: stack.board, loop: stack.scheduler, watchers: watchers)
    steps = press(&stack, times: count)
    served.stop()
case "move":
    let positions = positionsInPlay()
    var computer = ComputerPlayer(level: .perfect, random: SeededRandom(seed: 1))
    _ = computer.move(on: positions[0])
    for run in 0..<count {
        let board = positions[run % positions.count]
        steps += timed { computer.move(on: board)?.index ?? 0 }
    }
case "latency":
    times = socketPressLatencies(count)
    steps = count
default:
    print("usage: PressCount full|imperative|scan|scan-dim|o-to-start|served-K|move|latency COUNT")
    exit(2)
}
times.sort()
print("\(arguments[1]): \(count) runs (checksum \(steps)); wall time p50 \(times[count / 2]) ns, p90 \(times[count * 9 / 10]) ns, p99 \(times[count * 99 / 100]) ns")
