"""The board's memory (one SQLite database, `board.sqlite3` in the state directory: WAL,
`synchronous = FULL`) against crashes and failing storage, at the process level: the real binary
(`tictactoe simulate --serve`, the service's own parts on the simulated chip) under strace,
killed at each system call of a commit in turn, or with calls made to fail as a full, read-only
or broken card fails them; what a card pays for a move and for a game; a damaged database set
aside, never overwritten; and release 0.4's files imported, whole or not at all.

A kill is a crash, not a power cut: the kernel still writes back what the process handed it
(a commit is the old one until its last frame is in the log, the new one from then on). Power
cuts are the block-level and machine-level parts of the same promise.

What a restart found is read twice: by `tictactoe check-state --json` (read only: it must leave
the database and its log byte for byte as they were), and by the board started again on it,
over its API (`status`, `history`)."""

import json
import os
import pathlib
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "browser"))
sys.path.insert(0, str(ROOT / "storage"))

from served import BIN, Board, wait  # noqa: E402
import trace  # noqa: E402

RESULTS = ROOT / "test-results" / "storage"
FIXTURES = ROOT / "Tests" / "Service" / "BoardMemoryTests" / "Fixtures" / "release-0.4.0"

DATABASE = "board.sqlite3"
# The database and what SQLite keeps beside it: the log (WAL), the log's index (mmap'd, so its
# writes are no system calls), and the rollback journal (only while the file is made).
DATABASE_FILES = [DATABASE, DATABASE + "-wal", DATABASE + "-shm", DATABASE + "-journal"]
# The database while the import makes it, before it is renamed into place.
IMPORT_FILES = [DATABASE + "-import" + part for part in ("", "-wal", "-shm", "-journal")]
# Release 0.4's files, and the names the import keeps them under.
RELEASE_FILES = ["state.json", "history.jsonl", "history.json"]
IMPORTED_FILES = [name + ".imported" for name in RELEASE_FILES]
# A WAL frame: its 24-byte header and one 4 KiB page; the log's own header is 32 bytes.
PAGE, FRAME_HEADER, LOG_HEADER = 4096, 24, 32
FRAME = PAGE + FRAME_HEADER
# The calls that change what is on disk (or its order): where the import is killed. A kill at
# any other call (a read, a stat, a lock) leaves what a kill at the next of these leaves.
CHANGING = {"openat", "write", "pwrite64", "fsync", "fdatasync", "ftruncate", "rename", "renameat2",
            "unlink", "unlinkat", "close", "fchown", "mkdir"}
# Keypad numbers (what `press` takes) to cells in reading order (what status shows).
CELL = {7: 0, 8: 1, 9: 2, 4: 3, 5: 4, 6: 5, 1: 6, 2: 7, 3: 8}

# Release 0.4's figures, from this suite before the database (test-results/storage/card-cost-100.json
# of release 0.4): a move's save, and a whole game (a new game's save, 9 moves' and the history's line).
RELEASE_0_4 = {"bytes per move": 310, "writes per move": 1, "fsyncs per move": 2,
               "bytes per game": 3748, "writes per game": 11, "fsyncs per game": 21}


@pytest.fixture(autouse=True)
def no_board_outlives_its_test(tmp_path):
    """Whatever a failed test left running in its folder (a board, its strace) is killed."""
    yield
    for process in pathlib.Path("/proc").glob("[0-9]*"):
        try:
            if str(tmp_path).encode() in (process / "cmdline").read_bytes():
                os.kill(int(process.name), signal.SIGKILL)
        except (OSError, ValueError):
            pass


def command(board, *arguments, check=True):
    result = subprocess.run([BIN / "tictactoe", *arguments, "--socket", board.socket],
                            capture_output=True, text=True, timeout=30)
    assert not check or result.returncode == 0, (arguments, result.stderr, board.log.read_text())
    return result


def play(board, *cells):
    for cell in cells:
        command(board, "press", str(cell))


def status_of(board):
    """The board's whole status: `state` (what it shows) and `health` (`saves`: the commits it
    wrote since it started)."""
    return json.loads(command(board, "status", "--json").stdout)


def history_of(board, *arguments):
    return json.loads(command(board, "history", "--json", *arguments).stdout)["games"]


def wait_for_saves(board, count, what="the commit"):
    return wait(lambda: status_of(board)["health"]["saves"] >= count, what, timeout=30)


def check_state(state):
    """`tictactoe check-state --json` on a state directory: its exit status and what it found."""
    result = subprocess.run([BIN / "tictactoe", "check-state", "--state-dir", state, "--json"],
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.strip(), (result.returncode, result.stderr)
    return result.returncode, json.loads(result.stdout)


def check_state_changing_nothing(state):
    """check-state, which must leave the database and its log as they were, byte for byte (the
    log's index, `-shm`, is SQLite's to rebuild and holds no data). Where there was no log, an
    empty one and its index are let pass here: SQLite's read-only connection makes them and
    cannot remove them (a bug: test_check_state_leaves_a_stopped_boards_files_as_they_were)."""
    kept = [DATABASE, DATABASE + "-wal"]
    names = set(files(state))
    before = {name: (state / name).read_bytes() for name in kept if (state / name).exists()}
    rc, found = check_state(state)
    after = {name: (state / name).read_bytes() for name in kept if (state / name).exists()}
    assert all(after.get(n) == before[n] for n in before), ("check-state changed the database", sorted(before), sorted(after))
    made = set(files(state)) - names
    assert made <= {DATABASE + "-wal", DATABASE + "-shm"} and after.get(DATABASE + "-wal", b"") in (b"", before.get(DATABASE + "-wal")), \
        ("check-state made files", sorted(made))
    return rc, found


def files(directory):
    return sorted(p.name for p in pathlib.Path(directory).iterdir())


def log_lines_of(folder):
    log = pathlib.Path(folder) / "board.log"
    return log.read_text().splitlines() if log.exists() else []


def troubles(lines):
    return [line for line in lines if line.startswith(("error", "warning"))]


def made(tmp_path, name, *cells, then_new_game_and=()):
    """A state directory with a game played into it (and, after a new game, more moves), the
    board stopped: the database alone, its log checkpointed into it."""
    (tmp_path / name).mkdir()
    board = Board(tmp_path / name)
    play(board, *cells)
    if then_new_game_and:
        command(board, "new-game")
        play(board, *then_new_game_and)
    board.stop()
    settled(board.state_dir)
    return board.state_dir


def settled(state):
    """The database alone, its log checkpointed into it: what a stop leaves, most of the time.
    The board closes its database only when the last reference to it goes, which the process's
    exit sometimes beats: then the log and its index stay (the next start recovers them; nothing
    is lost). Checkpointed here, so that every run starts from the same files; said in the output."""
    if files(state) != [DATABASE]:
        print(f"\n(a stop left {files(state)}: checkpointed for the test)")
        database = sqlite3.connect(state / DATABASE)
        database.execute("PRAGMA user_version").fetchall()
        database.close()
    assert files(state) == [DATABASE], files(state)


def copy_of(state, folder):
    folder.mkdir(parents=True)
    shutil.copytree(state, folder / "state")
    return folder


def report(name, value):
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(value, indent=2) + "\n")
    print(f"\n{name}: " + json.dumps(value))


def ready(board, timeout=60):
    """Waits for the board's start to end (its socket is up before it has read its memory)."""
    wait(lambda: any(line.startswith("info: ready on ") for line in log_lines_of(board.folder)), "the board's start", timeout=timeout)
    return board


def attach(board, trace_file, paths, *injections):
    """strace attached to the running board, every thread it has and makes, tracing the calls
    on `paths` (with `injections`): the start's calls are not counted, so each commit, on a
    saver thread of its own (a burst of commits starts one), counts its calls from 1."""
    ready(board)
    tracer = subprocess.Popen(trace.strace_attached(trace_file, board.pid, paths, *injections))
    # strace gone (it could not attach) is a failure at once, with its status, not a timeout.
    wait(lambda: trace.attached(board.pid, tracer.pid) or tracer.poll() is not None, "strace attached to every thread of the board")
    assert tracer.poll() is None, f"strace exited with {tracer.returncode} before it traced every thread of the board"
    return tracer


def detach(tracer):
    """strace lets go of the board, which runs on."""
    tracer.send_signal(signal.SIGTERM)
    tracer.wait(timeout=30)


def database_paths(state, names=DATABASE_FILES):
    return [state / name for name in names] + [state]


def committing_threads(found, board_pid):
    """The threads that wrote the database (each a saver thread: a burst of commits), in order."""
    threads = []
    for call in found:
        if call.thread != board_pid and call.name in ("pwrite64", "fdatasync", "fsync") and call.thread not in threads:
            threads.append(call.thread)
    return threads


def test_the_trace_reader_takes_paths_from_arguments_not_from_the_bytes_written():
    """A WAL frame's random salt once held `\\"/` and was read as a path, so a kill at that
    write looked like a kill somewhere else (CI, stop 62). strace's own lines, as it prints them."""
    written = trace.calls(r'''41 pwrite64(8</s/board.sqlite3-import-wal>, "\0\r\365{\"/\273m\0214$&) = 3 <\"/x>"..., 24, 90672) = ?
42 renameat2(AT_FDCWD</w>, "/s/a \"b\"", AT_FDCWD</w>, "/s/a.imported", RENAME_NOREPLACE <unfinished ...>
42 <... renameat2 resumed>) = 0''')
    assert [(c.name, c.paths, c.result) for c in written] == [
        ("pwrite64", ("/s/board.sqlite3-import-wal",), "?"),
        ("renameat2", (r'/s/a \"b\"', "/s/a.imported"), "0")]


def step_key(call, folder):
    return f"{call.name} {' '.join(p.replace(str(folder), '') for p in call.paths)}"


def commits_in(calls):
    """How many write transactions a saver thread's calls hold: each ends by releasing the log's
    write lock (byte 120 of its index)."""
    return sum(1 for c in calls if c.name == "fcntl" and "F_UNLCK" in c.text and "l_start=120," in c.text)


class Commit:
    """A press played from a copy of `old` (a state directory, the database alone), `before`
    pressed first and committed, strace attached once the board is up: the commit the press
    makes, every call of it, and the same press killed at each of those calls."""

    def __init__(self, tmp_path, old, press, before=()):
        self.tmp_path, self.old, self.press, self.before = tmp_path, old, press, before
        self.runs = 0

    def run(self, *injections):
        folder = copy_of(self.old, self.tmp_path / f"run-{self.runs}")
        self.runs += 1
        board = Board(folder)
        if self.before:
            play(board, *self.before)
            wait_for_saves(board, len(self.before), "the commits before the traced press")
        tracer = attach(board, folder / "trace", database_paths(folder / "state"), *injections)
        command(board, "press", str(self.press), check=not injections)
        return folder, board, tracer

    def baseline(self):
        """The press played to its end: its commit's calls, by its saver thread, in order; the
        state directory after it (the board stopped, strace detached before)."""
        folder, board, tracer = self.run()
        saves = len(self.before) + 1
        wait_for_saves(board, saves)
        # The saver thread ends once its burst is done: nothing of it is left to trace.
        found = lambda: trace.calls((folder / "trace").read_text())  # noqa: E731
        wait(lambda: all(not pathlib.Path(f"/proc/{board.pid}/task/{t}").exists() for t in committing_threads(found(), board.pid)),
             "the saver thread's end")
        detach(tracer)
        assert status_of(board)["health"]["saves"] == saves, "the press made more than one commit"
        board.stop()
        calls = found()
        threads = committing_threads(calls, board.pid)
        assert len(threads) == 1, ("one saver thread, one burst", threads)
        steps = [c for c in calls if c.thread == threads[0]]
        assert all(c.returned for c in steps), [c.text for c in steps]
        assert commits_in(steps) == 1, ("one commit", [c.text for c in steps])
        return folder, steps

    def kill_at(self, steps, index, folder0):
        """The press again, killed at `steps[index]` (named by its thread's count of its kind,
        which is the same in every run: the thread is the only one touching the database)."""
        call = steps[index]
        n = trace.ordinal(steps, call)
        folder, board, tracer = self.run(f"{call.name}:signal=KILL:when={n}")
        assert board.process.wait(timeout=60) == -signal.SIGKILL, board.log.read_text()
        tracer.wait(timeout=30)
        killed = [c for c in trace.calls((folder / "trace").read_text()) if not c.returned]
        assert [c for c in killed if step_key(c, folder) == step_key(call, folder0)], \
            (index, step_key(call, folder0), [c.text for c in killed])
        return folder, f"{call.name} {n}"


def last_frame(steps, folder):
    """The index of the commit's last write to the log: the end of its last frame, after which
    the commit is in the log whole (what a crash keeps: the kernel holds it)."""
    wal = str(folder / "state" / (DATABASE + "-wal"))
    return max(i for i, c in enumerate(steps) if c.name == "pwrite64" and wal in c.paths)


def restarted_board(folder):
    """The board started again on what a crash left, with the log's lines of that start."""
    before = len(log_lines_of(folder))
    board = Board(folder)
    return board, lambda: log_lines_of(folder)[before:]


@pytest.mark.parametrize("moment, before, press", [("first commit after a start", (), 1), ("a commit in play", (1,), 3)])
def test_a_crash_at_every_step_of_a_commit_leaves_the_old_game_or_the_new_one(tmp_path, moment, before, press):
    """X in the centre, O in a corner; a press is committed (the first commit after the board
    started, which also begins the log anew, or one in play), and the board is killed at each
    call of that commit on the database's files in turn, then checked by check-state and started
    again: the game is exactly the old one or the new one, the old one until the commit's last
    frame is in the log, and the database goes on working (a further move is kept)."""
    old = made(tmp_path, "old", 5, 7)
    commit = Commit(tmp_path, old, press, before)
    folder0, steps = commit.baseline()
    rc, new = check_state(folder0 / "state")
    assert rc == 0 and new["state"] == "restored", new
    cells_before = ["O", "", "", "", "X", "", "", "", ""]
    rc, found = check_state(old)
    assert found["cells"] == cells_before, found
    if before:
        cells_before[CELL[before[0]]] = "X"
    assert new["cells"] != cells_before and sum(a != b for a, b in zip(new["cells"], cells_before)) == 1, (cells_before, new)
    wal = str(folder0 / "state" / (DATABASE + "-wal"))
    syncs = [c for c in steps if c.name in ("fsync", "fdatasync")]
    # A commit ends with one flush of the log; the first after a start begins the log anew: its
    # header written and flushed, and the directory flushed (the log may be a new file).
    assert [c.paths for c in syncs][-1] == (wal,), [c.text for c in syncs]
    assert len(syncs) == (3 if not before else 1), [c.text for c in syncs]
    end = last_frame(steps, folder0)
    assert steps[end + 1].name == "fdatasync", [c.text for c in steps[end:]]
    results = []
    for index, call in enumerate(steps):
        folder, when = commit.kill_at(steps, index, folder0)
        state = folder / "state"
        left = files(state)
        rc, found = check_state_changing_nothing(state)
        assert rc == 0 and found["state"] == "restored" and not found["problems"], (index, found)
        outcome = "old" if found["cells"] == cells_before else "new" if found["cells"] == new["cells"] else None
        assert outcome, (index, step_key(call, folder0), found["cells"])
        board, lines = restarted_board(folder)
        try:
            shown = status_of(board)["state"]
            assert shown["cells"] == found["cells"], (index, shown["cells"], found)
            # The database works after the crash: a further move is kept.
            free = next(k for k in (9, 8, 6, 4, 2) if found["cells"][CELL[k]] == "")
            play(board, free)
            wait_for_saves(board, 1, "the commit after the restart")
            assert not troubles(lines()), lines()
        finally:
            board.stop()
        assert not [n for n in files(state) if ".corrupt" in n or "-import" in n], files(state)
        rc, after = check_state(state)
        assert rc == 0 and after["cells"][CELL[free]] != "" and sum(a != b for a, b in zip(after["cells"], found["cells"])) == 1, (index, after)
        results.append({"step": index + 1, "call": step_key(call, folder0), "when": when, "files after the kill": left, "after restart": outcome})
        shutil.rmtree(folder)
    # Old until the last frame of the commit is written; new from the log's flush on.
    assert [r["after restart"] for r in results] == ["old"] * (end + 1) + ["new"] * (len(steps) - end - 1), results
    report("crash-steps-" + ("first-commit" if not before else "commit-in-play"), results)


@pytest.mark.parametrize("moment, before", [("first commit after a start", ()), ("a commit in play", (2,))])
def test_a_crash_at_every_step_of_the_commit_that_ends_a_game_leaves_it_whole_or_not_at_all(tmp_path, moment, before):
    """A game won and recorded, a second one a move from its end (O started it: O 7, X 1, O 8,
    X 2); O's winning press commits the finished game (a row of `games`), the score that counts
    it and the board in one transaction (the first commit after a start, or one in play). The
    board is killed at each call of that commit in turn, then checked and started again: either
    the final board, the game in the history and the score counted, or the board before the
    press, no such game and the old score, never a mix."""
    old = made(tmp_path, "old", 7, 1, 8, 2, 9, then_new_game_and=(7, 1, 8, 2)[:4 - len(before)])
    rc, found = check_state(old)
    assert found["games"] == 1 and found["outcome"] == "playing", found
    cells_before = found["cells"]
    for cell in before:
        cells_before[CELL[cell]] = "X"
    commit = Commit(tmp_path, old, 9, before)
    folder0, steps = commit.baseline()
    rc, new = check_state(folder0 / "state")
    assert new["games"] == 2 and new["outcome"] == "o-wins", new
    end = last_frame(steps, folder0)
    results = []
    for index, call in enumerate(steps):
        folder, when = commit.kill_at(steps, index, folder0)
        state = folder / "state"
        rc, found = check_state_changing_nothing(state)
        assert rc == 0 and found["state"] == "restored" and not found["problems"], (index, found)
        board, lines = restarted_board(folder)
        try:
            whole = status_of(board)
            shown, kept = whole["state"], history_of(board)
            assert not troubles(lines()), lines()
        finally:
            board.stop()
        score = shown["scores"]["two-players"]
        both = (found["cells"] == new["cells"] and found["outcome"] == "o-wins" and found["games"] == 2
                and len(kept) == 2 and kept[-1]["outcome"] == "o-wins" and score == {"xWins": 1, "oWins": 1, "draws": 0})
        neither = (found["cells"] == cells_before and found["outcome"] == "playing" and found["games"] == 1
                   and len(kept) == 1 and score == {"xWins": 1, "oWins": 0, "draws": 0})
        assert both or neither, (index, step_key(call, folder0), found, kept, score)
        assert shown["cells"] == found["cells"], (index, shown, found)
        assert not [n for n in files(state) if ".corrupt" in n], files(state)
        results.append({"step": index + 1, "call": step_key(call, folder0), "when": when,
                        "games": found["games"], "score": score, "after restart": "both" if both else "neither"})
        shutil.rmtree(folder)
    assert [r["after restart"] for r in results] == ["neither"] * (end + 1) + ["both"] * (len(steps) - end - 1), results
    report("crash-steps-game-end" + ("-in-play" if before else ""), results)


STRERROR = {"ENOSPC": "no space left on device", "EROFS": "read-only file system", "EIO": "input/output error"}


@pytest.mark.parametrize("call, error", [("pwrite64", "ENOSPC"), ("pwrite64", "EROFS"), ("fdatasync", "EIO")])
def test_a_full_read_only_or_failing_card_costs_one_line_and_the_last_good_commit(tmp_path, call, error):
    """Every write to the database's log made to fail as a full card (ENOSPC) or one remounted
    read-only (EROFS), or every flush of it as a dying card (EIO): each commit fails. The board
    plays on, says so once, the database keeps its last good commit (read by check-state while
    the board runs, and as a crash would leave it: the database and its log copied, the index
    left behind), and once the card works again (strace detached) the next move is kept and
    the board says saving works again."""
    old = made(tmp_path, "old", 5)
    folder = copy_of(old, tmp_path / "failing")
    state = folder / "state"
    board = Board(folder, wrapper=trace.strace(folder / "trace", [state / (DATABASE + "-wal")], f"{call}:error={error}"))
    before = len(log_lines_of(folder))
    play(board, 7, 1, 3)
    assert board.status()["cells"] == ["O", "", "", "", "X", "", "X", "", "O"], "the board stopped playing"
    found = trace.calls((folder / "trace").read_text())
    failed = [c for c in found if c.name == call and c.result == "-1"]
    assert failed and all(error in c.text for c in failed), [c.text for c in found]
    assert status_of(board)["health"]["saves"] == 0
    rc, kept = check_state_changing_nothing(state)
    assert rc == 0 and kept["cells"] == ["", "", "", "", "X", "", "", "", ""], kept
    crash = tmp_path / "as-a-crash-leaves-it"
    crash.mkdir()
    for name in (DATABASE, DATABASE + "-wal"):
        if (state / name).exists():
            shutil.copyfile(state / name, crash / name)
    rc, crashed = check_state(crash)
    assert rc == 0 and crashed["cells"] == kept["cells"], crashed
    # The card works again: strace lets go of the board, which goes on running.
    pid = board.pid
    board.process.send_signal(signal.SIGTERM)
    board.process.wait(timeout=30)
    os.kill(pid, 0)
    play(board, 9)

    def saving_lines():
        return [line for line in log_lines_of(folder)[before:] if "saving the game" in line]
    wait(lambda: any(line.startswith("notice: ") for line in saving_lines()), "the notice that saving works again")
    lines = saving_lines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("error: saving the game failed: "), lines
    assert "play goes on and every change tries again (said once while it fails this way)" in lines[0], lines
    assert re.fullmatch(r"notice: saving the game works again, after \d+ failed saves?", lines[1]), lines
    rc, now = check_state(state)
    assert now["cells"] == ["O", "", "X", "", "X", "", "X", "", "O"], now
    os.kill(pid, signal.SIGTERM)
    wait(lambda: not pathlib.Path(f"/proc/{pid}").exists() or "zombie" in pathlib.Path(f"/proc/{pid}/status").read_text().lower(),
         "the board to stop")
    report(f"failing-card-{error}", {"call": call, "error": error, "calls failed": len(failed), "log lines": lines})
    # The line says what the card did, in the system's words, as release 0.4's did: "database or
    # disk is full" or "disk I/O error" alone does not tell a full card from a read-only or a
    # dying one.
    assert STRERROR[error] in lines[0], lines


# A draw: X O X / X O O / O X X, played so that nobody wins on the way (keypad numbers).
A_DRAW = (7, 8, 9, 5, 4, 6, 2, 1, 3)


def with_games(state, kept):
    """The database in `state` (one game finished in it) made to hold `kept` finished games,
    numbered without gaps (copies of its game), its log checkpointed into it."""
    with sqlite3.connect(state / DATABASE) as database:
        database.execute("""
            WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO games (number, opponent, x_name, o_name, starter, started, finished, outcome, carried_over, moves)
            SELECT i, opponent, x_name, o_name, starter, started, finished, outcome, carried_over, moves FROM n, games WHERE number = 1
            """, (kept,))
    database.close()
    with sqlite3.connect(state / DATABASE) as database:
        database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    database.close()
    for part in ("-wal", "-shm"):
        (state / (DATABASE + part)).unlink(missing_ok=True)


@pytest.mark.parametrize("kept", [100, 20_000])
def test_what_a_card_pays_for_a_move_and_for_a_game(tmp_path, kept):
    """Bytes written and flushes (fsync and fdatasync) per commit, with the database holding 100
    finished games, or 20,000 (BoardMemory.keptGames: the game's commit then also folds the
    oldest game into its month's summary). strace attached once the board is up; a new game and
    a move first (the first commit after a start begins the log anew, counted apart), then a new
    game and a drawn game, each commit waited for before the next press. And the log lines a
    game costs."""
    old = made(tmp_path, "old", 7, 1, 8, 2, 9)
    with_games(old, kept)
    folder = copy_of(old, tmp_path / "counted")
    state = folder / "state"
    started = time.monotonic()
    board = ready(Board(folder))
    start_seconds = time.monotonic() - started
    assert f"{kept} finished games kept" in board.log.read_text() or kept == 1, board.log.read_text()
    tracer = attach(board, folder / "trace", database_paths(state))
    # The database's game is over: a new game is the first commit, a move the next, then the
    # game counted: a new game (abandoning that move's) and a draw (whoever starts it).
    presses = [("new-game",), ("press", "5"), ("new-game", "--abandon")] + [("press", str(cell)) for cell in A_DRAW]
    for n, arguments in enumerate(presses, 1):
        if n == 3:
            before = len(log_lines_of(folder))
        command(board, *arguments)
        # Each commit is on disk before the next press: so each is counted as its own.
        wait_for_saves(board, n, f"commit {n}")
    lines = log_lines_of(folder)[before:]
    wait(lambda: all(not pathlib.Path(f"/proc/{board.pid}/task/{t}").exists()
                     for t in committing_threads(trace.calls((folder / "trace").read_text()), board.pid)), "the last saver thread's end")
    detach(tracer)
    assert status_of(board)["health"]["saves"] == len(presses), "a press made more than one commit"
    board.stop()
    found = trace.calls((folder / "trace").read_text())
    threads = committing_threads(found, board.pid)
    assert len(threads) == len(presses), threads
    wal, database = str(state / (DATABASE + "-wal")), str(state / DATABASE)

    def cost(thread):
        calls = [c for c in found if c.thread == thread]
        writes = [c for c in calls if c.name in ("pwrite64", "write") and c.returned]
        assert commits_in(calls) == 1, [c.text for c in calls]
        return {"bytes": sum(int(c.result) for c in writes), "writes": len(writes),
                "fsyncs": sum(1 for c in calls if c.name in ("fsync", "fdatasync")),
                "frames": sum(1 for c in writes if wal in c.paths and int(c.result) == PAGE),
                "checkpoints": int(any(database in c.paths for c in writes))}
    costs = [cost(thread) for thread in threads]
    first, new_game, moves = costs[0], costs[2], costs[3:]
    game = [new_game] + moves
    per_move = moves[:-1]
    figures = {
        "games in the database": kept, "board's start, seconds": round(start_seconds, 2),
        "first commit after a start": first,
        "bytes per move": round(sum(c["bytes"] for c in per_move) / len(per_move)),
        "most bytes for a move": max(c["bytes"] for c in per_move),
        "frames per move": [c["frames"] for c in per_move],
        "writes per move": round(sum(c["writes"] for c in per_move) / len(per_move), 1),
        "fsyncs per move": round(sum(c["fsyncs"] for c in per_move) / len(per_move), 1),
        "commit that ends the game": moves[-1],
        "commit of a new game": new_game,
        "bytes per game": sum(c["bytes"] for c in game), "writes per game": sum(c["writes"] for c in game),
        "fsyncs per game": sum(c["fsyncs"] for c in game),
        "checkpoints seen": sum(c["checkpoints"] for c in costs),
        "log lines per game": len(lines),
        "release 0.4": RELEASE_0_4,
    }
    report(f"card-cost-{kept}", figures)
    # A commit is its frames (a 24-byte header and a 4 KiB page each) and one flush of the log:
    # nothing else is written or flushed, and no checkpoint comes within these few commits
    # (SQLite checkpoints once the log holds 1,000 pages).
    for c in costs[1:]:
        assert c["fsyncs"] == 1 and c["bytes"] == c["frames"] * FRAME and c["writes"] == 2 * c["frames"], costs
    # A move rewrites one row: the page that holds it, at most a few pages.
    assert all(1 <= c["frames"] <= 2 for c in per_move), figures
    # The game's end: the game's row and its index entry, the score and the board (5 pages when
    # measured), and at 20,000 games the oldest folded into its month's summary and deleted (9);
    # room for a page split of the games' table or index.
    assert moves[-1]["frames"] <= (8 if kept == 100 else 12), figures
    # The first commit after a start writes everything (the log's header flushed, and its
    # directory), as the board does not know what the database holds until it has committed.
    assert first["fsyncs"] == 3 and first["bytes"] <= LOG_HEADER + 8 * FRAME, figures
    assert figures["checkpoints seen"] == 0, figures
    # A line for the new game, one a move and one for the outcome; nothing per commit.
    assert len(lines) <= len(A_DRAW) + 2, lines


def damaged_database(kind, tmp_path):
    """A damaged `board.sqlite3`: bytes that are no SQLite file, or the board's own database cut
    short (its first pages only)."""
    if kind == "garbage":
        return b"SQLite format 2\0" + bytes(range(256)) * 12
    whole = made(tmp_path, "whole", 7, 1, 8, 2, 9, then_new_game_and=(5,)) / DATABASE
    contents = whole.read_bytes()
    return contents[:len(contents) // 2]


@pytest.fixture
def vfat_state(tmp_path):
    """A state directory on a small vfat file system (no hard links, no owners), in an image
    mounted for the test: by the kernel, or, where the kernel has no vfat, by fusefat in user
    space (which has no RENAME_NOREPLACE either, so the plain rename the board falls back to is
    tested too, and no ftruncate: SQLite cannot keep a WAL database there). Skipped, with the
    reason, only where this process can do neither: never passed without having run."""
    if os.geteuid() != 0:
        pytest.skip("mounting a vfat image needs root")
    if not shutil.which("mkfs.vfat"):
        pytest.skip("mkfs.vfat is missing (apt-get install dosfstools)")
    image, mountpoint = tmp_path / "vfat.img", tmp_path / "board" / "state"
    mountpoint.mkdir(parents=True)
    with open(image, "wb") as f:
        f.truncate(8 * 1024 * 1024)
    subprocess.run(["mkfs.vfat", str(image)], check=True, capture_output=True)
    mounted = subprocess.run(["mount", "-o", "loop", str(image), str(mountpoint)], capture_output=True, text=True)
    unmount, kind = ["umount", str(mountpoint)], "kernel"
    if mounted.returncode != 0:
        if not shutil.which("fusefat"):
            pytest.skip(f"cannot mount a loop image here ({mounted.stderr.strip()}) and fusefat is missing (apt-get install fusefat)")
        fused = subprocess.run(["fusefat", "-o", "rw+", str(image), str(mountpoint)], capture_output=True, text=True)
        if fused.returncode != 0:
            pytest.skip(f"cannot mount a vfat image here: {mounted.stderr.strip()}; fusefat: {fused.stderr.strip()}")
        unmount, kind = ["fusermount", "-u", str(mountpoint)], "fusefat"
    try:
        yield mountpoint, kind
    finally:
        subprocess.run(unmount, check=False)


NOBODY = 65534


@pytest.fixture
def state_of_another_user(tmp_path):
    """A state directory of the user `nobody`'s, for a database that another user (root) owns
    and only lets others read: with fs.protected_hardlinks (Debian's default) nobody may not
    link it (release 0.4's set-aside by link() failed, and the first save overwrote the file);
    a rename in nobody's own directory moves it."""
    if os.geteuid() != 0:
        pytest.skip("making files of two users needs root")
    if pathlib.Path("/proc/sys/fs/protected_hardlinks").read_text().strip() != "1":
        pytest.skip("fs.protected_hardlinks is off here: link() would not fail")
    # Not under tmp_path, whose parents only root may enter.
    with tempfile.TemporaryDirectory(prefix="tictactoe-nobody.") as name:
        folder = pathlib.Path(name) / "board"
        state = folder / "state"
        state.mkdir(parents=True)
        os.chmod(name, 0o755)
        for path in (folder, state):
            os.chown(path, NOBODY, NOBODY)
        yield state


AS_NOBODY = ("setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups")


def set_aside_names(state):
    """The databases set aside in `state` (not the log and index that go with one: `-wal`, `-shm`
    after its name, there when the board's own reading of a WAL database made them)."""
    names = files(state)
    asides = [n for n in names if re.fullmatch(re.escape(DATABASE) + r"\.corrupt-\d+(-\d+)?", n)]
    others = [n for n in names if n.startswith(DATABASE + ".corrupt-") and n not in asides]
    assert all(any(n in (a + "-wal", a + "-shm") for a in asides) for n in others), names
    return asides


@pytest.mark.parametrize("damage", ["garbage", "cut short"])
def test_a_damaged_database_another_user_owns_is_set_aside_not_overwritten(state_of_another_user, tmp_path, damage):
    """A damaged database (bytes that are no SQLite file, or the board's own database cut to
    half its length) that root owns, in the board's directory (nobody's): check-state calls it
    unusable, changing nothing; the board, as nobody, moves it aside whole (with the log and
    index its own reading made), says so as an error, makes a fresh database of its own and
    keeps the next move in it."""
    state = state_of_another_user
    damaged = damaged_database(damage, tmp_path)
    (state / DATABASE).write_bytes(damaged)
    os.chmod(state / DATABASE, 0o644)
    rc, found = check_state_changing_nothing(state)
    assert rc == 65 and found["state"] == "unusable" and found["problems"], found
    board = Board(state.parent, wrapper=AS_NOBODY)
    try:
        play(board, 5)
        wait_for_saves(board, 1, "the press's commit")
    finally:
        board.stop()
    asides = set_aside_names(state)
    assert len(asides) == 1, (files(state), board.log.read_text())
    assert (state / asides[0]).read_bytes() == damaged
    assert (state / asides[0]).stat().st_uid == 0
    assert (state / DATABASE).stat().st_uid == NOBODY
    lines = log_lines_of(state.parent)
    assert [line for line in lines if line.startswith("error: ") and "moved it to" in line and asides[0] in line], lines
    assert not [line for line in lines if "WITHOUT SAVING" in line], lines
    rc, now = check_state(state)
    assert rc == 0 and now["cells"][CELL[5]] == "X", now
    report(f"protected-hardlinks-set-aside-{damage.replace(' ', '-')}", {"files": files(state), "problems": found["problems"]})


def played_past_a_damaged_database(board, state, damaged):
    """A move played on `board`, started on the damaged database `damaged` in `state`, and seen;
    the board stopped. The database must have been set aside once, byte for byte. Returns the
    names set aside and the board's log lines."""
    try:
        play(board, 5)
        assert board.status()["cells"][CELL[5]] == "X"
    finally:
        board.stop()
    asides = set_aside_names(state)
    assert len(asides) == 1, (files(state), board.log.read_text())
    assert (state / asides[0]).read_bytes() == damaged
    return asides, log_lines_of(state.parent)


def test_a_damaged_database_on_vfat_is_set_aside_not_overwritten(vfat_state, tmp_path):
    """vfat has no hard links: release 0.4's set-aside by link() failed there, and the first save
    overwrote the file. The database is moved aside by a rename that replaces nothing. Where
    SQLite can keep its database on the file system (a kernel's vfat), the next move is kept;
    where it cannot (fusefat: no ftruncate), the board says it plays WITHOUT SAVING, and the log
    says what happened: the file was moved aside, a new one could not be made."""
    state, kind = vfat_state
    damaged = damaged_database("garbage", tmp_path)
    (state / DATABASE).write_bytes(damaged)
    asides, lines = played_past_a_damaged_database(Board(state.parent), state, damaged)
    assert [line for line in lines if "moved it to" in line and asides[0] in line], lines
    # Moved aside, it is not "could not be moved aside".
    assert not [line for line in lines if "could not be moved aside" in line], lines
    if kind == "kernel":
        rc, now = check_state(state)
        assert rc == 0 and now["cells"][CELL[5]] == "X", now
    else:
        assert [line for line in lines if line.startswith("error: ") and "WITHOUT SAVING" in line], lines
        assert not [n for n in files(state) if n.startswith(DATABASE) and not n.startswith(asides[0])], files(state)
    report("vfat-set-aside", {"mounted by": kind, "files": files(state), "log": troubles(lines)})


def test_a_damaged_database_set_aside_with_no_room_for_a_new_one_plays_without_saving(tmp_path):
    """The damaged database is moved aside, then the new one cannot be made (its creation fails
    as on a full card): the board plays WITHOUT SAVING, and the log says the file was moved
    aside (not that it could not be), and why no new one was made."""
    (tmp_path / "board" / "state").mkdir(parents=True)
    state = tmp_path / "board" / "state"
    damaged = damaged_database("garbage", tmp_path)
    (state / DATABASE).write_bytes(damaged)
    board = Board(state.parent, wrapper=trace.strace(state.parent / "trace", [state / (DATABASE + "-import")], "openat:error=ENOSPC"))
    asides, lines = played_past_a_damaged_database(board, state, damaged)
    assert [line for line in lines if line.startswith("error: ") and "WITHOUT SAVING" in line and STRERROR["ENOSPC"] in line], lines
    assert not [line for line in lines if "could not be moved aside" in line], lines
    assert not [line for line in lines if "started afresh" in line], lines
    assert not [n for n in files(state) if n.startswith(DATABASE) and not n.startswith(asides[0])], files(state)


@pytest.fixture
def sticky_state(tmp_path):
    """A state directory like /tmp: root's, sticky and writable by all, holding a database that
    root owns and lets everyone write. The board runs as nobody: it could write the file, but
    may not move it (the sticky bit), so it must leave it alone."""
    if os.geteuid() != 0:
        pytest.skip("making files of two users needs root")
    with tempfile.TemporaryDirectory(prefix="tictactoe-sticky.") as name:
        folder = pathlib.Path(name) / "board"
        state = folder / "state"
        state.mkdir(parents=True)
        os.chmod(name, 0o755)
        os.chown(folder, NOBODY, NOBODY)
        os.chmod(state, 0o1777)
        yield state


def test_a_damaged_database_that_cannot_be_moved_aside_is_kept_and_the_board_plays_without_saving(sticky_state, tmp_path):
    """A damaged database the board may write but not move (another user's, in a sticky
    directory): it is kept as it is, byte for byte, untouched (no log, no index, no new file
    beside it); the board plays WITHOUT SAVING, said once as an error, and check-state still
    calls the file unusable."""
    state = sticky_state
    damaged = damaged_database("garbage", tmp_path)
    (state / DATABASE).write_bytes(damaged)
    os.chmod(state / DATABASE, 0o666)
    stamp = (state / DATABASE).stat().st_mtime_ns
    board = Board(state.parent, wrapper=AS_NOBODY)
    try:
        play(board, 5, 7)
        assert board.status()["cells"][CELL[5]] == "X"
    finally:
        board.stop()
    assert files(state) == [DATABASE], files(state)
    assert (state / DATABASE).read_bytes() == damaged and (state / DATABASE).stat().st_mtime_ns == stamp
    lines = log_lines_of(state.parent)
    said = [line for line in lines if "WITHOUT SAVING" in line]
    assert len(said) == 1 and said[0].startswith("error: ") and "could not be moved aside" in said[0], lines
    rc, found = check_state(state)
    assert rc == 65 and found["state"] == "unusable", found
    report("cannot-be-moved-aside", {"files": files(state), "log": said})


def test_check_state_leaves_a_stopped_boards_files_as_they_were(tmp_path):
    """check-state reads the database read only and changes nothing: not a byte of it, and no
    file made beside it (a read-only SQLite connection to a WAL database makes an empty log and
    its index when there are none, and cannot remove them)."""
    state = made(tmp_path, "old", 5, 7)
    contents = (state / DATABASE).read_bytes()
    rc, found = check_state(state)
    assert rc == 0 and found["cells"][CELL[5]] == "X", found
    assert (state / DATABASE).read_bytes() == contents
    assert files(state) == [DATABASE], files(state)


def release_files(state):
    state.mkdir(parents=True)
    for name in ("state.json", "history.jsonl"):
        shutil.copyfile(FIXTURES / name, state / name)


def check_imported(board, state):
    """What the board shows after importing release 0.4's files (those of Fixtures/release-0.4.0,
    written by release 0.4.0): their game, their scores, their 9 games, the files kept aside."""
    saved = json.loads((FIXTURES / "state.json").read_text())
    journal = [json.loads(line) for line in (FIXTURES / "history.jsonl").read_text().splitlines()[1:]]
    shown = status_of(board)["state"]
    assert shown["cells"] == saved["cells"] and shown["opponent"] == saved["opponent"], shown
    for opponent, score in saved["scores"].items():
        assert shown["scores"][opponent] == score, (opponent, shown["scores"])
    assert shown["learner"]["games"] == saved["learner"]["games"] and shown["learner"]["boxes"] == len(saved["learner"]["boxes"]), shown["learner"]
    kept = history_of(board)
    assert len(kept) == len(journal) == 9, kept
    assert [(g["started"], g["outcome"], g["moves"]) for g in kept] == [(r["played"]["started"], r["played"]["outcome"], r["played"]["moves"]) for r in journal]
    assert len(history_of(board, "--opponent", "learner")) == sum(r["played"]["opponent"] == "learner" for r in journal)
    assert files(state) == sorted([DATABASE, DATABASE + "-shm", DATABASE + "-wal", "history.jsonl.imported", "state.json.imported"]), files(state)
    for name in ("state.json", "history.jsonl"):
        assert (state / (name + ".imported")).read_bytes() == (FIXTURES / name).read_bytes()


def test_release_0_4s_files_are_imported_into_the_database(tmp_path):
    """Release 0.4.0's own `state.json` and `history.jsonl` in a state directory: check-state
    says it will import them; the board imports them (the log says so, no error), shows their
    game, scores and learner, its history lists their 9 games (and answers a query by opponent),
    and keeps the files as *.imported, byte for byte; started again, it imports nothing twice."""
    state = tmp_path / "board" / "state"
    release_files(state)
    rc, found = check_state(state)
    assert rc == 0 and found["source"] == "release 0.4's files" and found["games"] == 9, found
    board = Board(state.parent)
    try:
        check_imported(board, state)
    finally:
        board.stop()
    lines = log_lines_of(state.parent)
    assert any(re.search(r"imported the saved game and 9 finished games from release 0\.4's files", line) for line in lines), lines
    assert not troubles(lines), lines
    rc, found = check_state(state)
    assert rc == 0 and found["source"] == "database" and found["games"] == 9, found
    # Started again: nothing imported twice.
    board = Board(state.parent)
    try:
        assert len(history_of(board)) == 9
    finally:
        board.stop()
    assert sum("imported the saved game" in line for line in log_lines_of(state.parent)) == 1


def start_killed(folder, injection, paths):
    """The board started under strace on `folder`, killed by `injection` before it serves."""
    state = folder / "state"
    process = subprocess.Popen(
        [*trace.strace(folder / "trace", paths, injection), BIN / "tictactoe", "simulate", "--serve", folder / "board.sock",
         "--state-dir", state, "--leds", folder / "leds.jsonl"],
        stdout=open(folder / "board.log", "ab"), stderr=subprocess.STDOUT)
    assert process.wait(timeout=60) == -signal.SIGKILL, (folder / "board.log").read_text()


def test_a_crash_at_every_step_of_the_import_leaves_no_database_or_all_of_it(tmp_path):
    """Release 0.4's files imported: the database made under another name, renamed into place,
    the files then kept as *.imported. The board is killed at each call of the import that
    changes what is on disk, then checked and started again: either there is no database and
    the files are as they were (the start imports them again), or the database is whole, and
    the files are kept once, nothing imported twice."""
    old = tmp_path / "old" / "state"
    release_files(old)
    state_names = DATABASE_FILES + IMPORT_FILES + RELEASE_FILES + IMPORTED_FILES
    folder0 = copy_of(old, tmp_path / "baseline")
    board = Board(folder0, wrapper=trace.strace(folder0 / "trace", database_paths(folder0 / "state", state_names)))
    pid = board.pid
    board.stop()
    found = trace.calls((folder0 / "trace").read_text())
    own = [c for c in found if c.thread == pid]
    first = next(i for i, c in enumerate(own) if c.name == "unlink" and any(p.endswith("/" + DATABASE + "-import") for p in c.paths))
    last = max(i for i, c in enumerate(own) if c.name == "renameat2" and any(p.endswith(".imported") for p in c.paths))
    steps = [c for c in own[first:last + 1] if c.name in CHANGING]
    renamed = next(i for i, c in enumerate(steps) if c.name == "rename" and any(p.endswith("/" + DATABASE) for p in c.paths))
    assert all(trace.unambiguous(found, c) for c in steps), "another thread touches the import's files"
    results = []
    for index, call in enumerate(steps):
        folder = copy_of(old, tmp_path / f"run-{index}")
        state = folder / "state"
        n = trace.ordinal(own, call)
        start_killed(folder, f"{call.name}:signal=KILL:when={n}", database_paths(state, state_names))
        killed = [c for c in trace.calls((folder / "trace").read_text()) if not c.returned]
        assert [c for c in killed if step_key(c, folder) == step_key(call, folder0)], (index, step_key(call, folder0), [c.text for c in killed])
        left = files(state)
        rc, found = check_state_changing_nothing(state)
        assert rc == 0 and found["games"] == 9 and found["cells"] == json.loads((FIXTURES / "state.json").read_text())["cells"], (index, found)
        if DATABASE in left:
            outcome = "imported"
            assert found["source"] == "database", (index, found)
        else:
            outcome = "no database"
            assert found["source"] == "release 0.4's files", (index, found)
        for name in ("state.json", "history.jsonl"):
            there = [n for n in (name, name + ".imported") if n in left]
            assert len(there) == 1 and (state / there[0]).read_bytes() == (FIXTURES / name).read_bytes(), (index, left)
            assert outcome == "imported" or there == [name], (index, left)
        board, lines = restarted_board(folder)
        try:
            check_imported(board, state)
            assert not troubles(lines()), lines()
        finally:
            board.stop()
        assert not [n for n in files(state) if "-import" in n or ".corrupt" in n], files(state)
        results.append({"step": index + 1, "call": step_key(call, folder0), "when": f"{call.name} {n}",
                        "files after the kill": left, "after the kill": outcome})
        shutil.rmtree(folder)
    # No database until the rename that puts it in place; all of it from then on.
    assert [r["after the kill"] for r in results] == ["no database"] * (renamed + 1) + ["imported"] * (len(steps) - renamed - 1), results
    report("crash-steps-import", results)
