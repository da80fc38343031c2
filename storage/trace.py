"""strace's view of a commit: its output read back as calls, and the command lines that trace a
board, kill it at one call or make calls fail.

Traced with -f (every thread), -y (each descriptor shown with its path) and -P (only the calls
that touch the given paths, which is also what --inject counts). strace counts an injection's
`when=N` per thread and per system call, so a call is named by its thread's own count."""

import re
from dataclasses import dataclass

CALL = re.compile(r"^(\d+)\s+([a-z0-9_]+)\((.*)$")
RESUMED = re.compile(r"^(\d+)\s+<\.\.\. ([a-z0-9_]+) resumed>(.*)$")
# A string argument as strace prints it, escapes and all: a buffer's bytes may hold `"`, `<` or `/`.
LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')
DESCRIPTOR_PATH = re.compile(r"<(/[^>]*)>")
# Calls whose string argument is a buffer of data, never a path (a WAL frame may well begin with "/").
DATA_CALLS = {"read", "pread64", "write", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2", "pwritev2"}
RESULT = re.compile(r"\)\s+=\s+(-?\d+|\?)")


@dataclass
class Call:
    thread: int
    name: str
    text: str
    result: str | None  # the return value as printed, "?" when it never returned, None if unfinished

    @property
    def paths(self):
        # Not the working directory strace shows beside AT_FDCWD: the call's own paths.
        text = re.sub(r"AT_FDCWD<[^>]*>", "AT_FDCWD", self.text)
        literals = [m[1:-1] for m in LITERAL.findall(text)]
        named = [] if self.name in DATA_CALLS else [s for s in literals if s.startswith("/")]
        return tuple(sorted({*named, *DESCRIPTOR_PATH.findall(LITERAL.sub('""', text))}))

    @property
    def what(self):
        """The call and what it touches, without descriptor numbers: the same in every run."""
        return f"{self.name} {' '.join(self.paths)}"

    @property
    def returned(self):
        return self.result not in (None, "?")


def calls(text):
    """Every call in an strace -f output, in the order they started, with their results."""
    found, open_calls = [], {}
    for line in text.splitlines():
        if m := CALL.match(line):
            thread, name, rest = int(m.group(1)), m.group(2), m.group(3)
            if rest.endswith("<unfinished ...>"):
                call = Call(thread, name, rest, None)
                open_calls[thread] = call
            else:
                r = RESULT.search(LITERAL.sub('""', rest))
                call = Call(thread, name, rest, r.group(1) if r else None)
            found.append(call)
        elif m := RESUMED.match(line):
            call = open_calls.pop(int(m.group(1)), None)
            if call is not None:
                r = RESULT.search(LITERAL.sub('""', m.group(3)))
                call.result = r.group(1) if r else None
                call.text += m.group(3)
    return found


def matched(found, paths):
    """The calls -P would have matched for `paths`: those touching one of them."""
    wanted = {str(p) for p in paths}
    return [call for call in found if wanted & set(call.paths)]


def ordinal(found, call):
    """The call's number among its thread's calls of the same name in `found` (from 1)."""
    same = [c for c in found if c.thread == call.thread and c.name == call.name]
    return next(i for i, c in enumerate(same, 1) if c is call)


def unambiguous(found, call):
    """Whether `when=N` for this call's name can only stop this call: no other thread has made
    N calls of that name by the time it is made (a kill ends the whole process, so what the
    trace shows after it never runs in the run that kills there)."""
    n = ordinal(found, call)
    before = found[:next(i for i, c in enumerate(found) if c is call)]
    threads = {c.thread for c in before if c.name == call.name and c.thread != call.thread}
    return all(sum(1 for c in before if c.thread == t and c.name == call.name) < n for t in threads)


def strace(trace_file, paths, *injections):
    """The command prefix that traces a board into `trace_file`, only the calls touching
    `paths`, with `injections` (strace's --inject arguments)."""
    # -I1: SIGTERM makes strace let go of the board (with -o and a command it would block it;
    # SIGINT is ignored by whatever a non-interactive shell starts in the background, as CI does).
    command = ["strace", "-f", "-qq", "-y", "-s", "64", "-I1", "-o", str(trace_file)]
    for path in paths:
        command += ["-P", str(path)]
    for injection in injections:
        command.append(f"--inject={injection}")
    return command


def strace_attached(trace_file, pid, paths, *injections):
    """The command that attaches to the running process `pid` and every thread it has or makes,
    tracing into `trace_file` as `strace` does; calls made before it attached are not counted."""
    command = ["strace", "-f", "-qq", "-y", "-s", "64", "-o", str(trace_file), "-p", str(pid)]
    for path in paths:
        command += ["-P", str(path)]
    for injection in injections:
        command.append(f"--inject={injection}")
    return command


def attached(pid, tracer):
    """Whether `tracer` traces every thread of `pid` (each thread's TracerPid)."""
    import pathlib
    try:
        tasks = list(pathlib.Path(f"/proc/{pid}/task").iterdir())
        return all(f"TracerPid:\t{tracer}\n" in (task / "status").read_text() for task in tasks)
    except OSError:
        return False
