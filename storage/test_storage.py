"""The saved game and the games' history against crashes and failing storage, at the process
level: the real binary (`tictactoe simulate --serve`, the service's own parts on the simulated
chip) under strace, killed at each system call of a save in turn, or with calls made to fail as
a full, read-only or broken card fails them; and what a card pays for a move and for a game.

A kill is a crash, not a power cut: the kernel still writes back what the process handed it.
Power cuts are the block-level and machine-level parts of the same promise."""

import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "browser"))
sys.path.insert(0, str(ROOT / "storage"))

from served import BIN, Board, wait  # noqa: E402
import trace  # noqa: E402

RESULTS = ROOT / "test-results" / "storage"
# The steps of a save, as TextFile.write makes them: a temporary file of its own created, written
# and flushed, renamed over the file, and the directory flushed.
SAVE_STEPS = ["openat", "write", "fsync", "close", "rename", "openat", "fsync", "close"]
# The steps of the save that ends a game, as the saver makes them: the game's line appended to
# the history's journal and flushed (an fstat between, which changes nothing, left out), then the
# state that names it saved as above.
APPEND_STEPS = ["openat", "write", "fsync", "close"]
GAME_END_STEPS = APPEND_STEPS + SAVE_STEPS


def temporaries(name, count=12):
    """The temporary names the first writes of a board's process give `name` (TextFile numbers
    each write, from 1, across all its files): what strace is told to trace."""
    return [f"{name}.tmp-{n}" for n in range(1, count + 1)]


def is_temporary(name):
    """A temporary file's name (and the single name versions before 0.9 used)."""
    return re.fullmatch(r".+\.tmp(-\d+)?", name) is not None


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


def files(directory):
    return sorted(p.name for p in pathlib.Path(directory).iterdir())


def made(tmp_path, name, *cells, then_new_game_and=()):
    """A state directory with a game played into it (and, after a new game, more moves)."""
    (tmp_path / name).mkdir()
    board = Board(tmp_path / name)
    play(board, *cells)
    if then_new_game_and:
        command(board, "new-game")
        play(board, *then_new_game_and)
    board.stop()
    return board.state_dir


def copy_of(state, folder):
    folder.mkdir(parents=True)
    shutil.copytree(state, folder / "state")
    return folder


def save_of(found, file, folder):
    """The calls of the save of `file` that the trace saw, by the thread that wrote it: from the
    creation of its temporary file on, each step once, named by what it touches with the run's
    folder left out and the temporary file's number too (the same in every run)."""
    temporary = re.compile(re.escape(str(file)) + r"\.tmp-\d+")
    creating = [c for c in found if c.name == "openat" and any(temporary.fullmatch(p) for p in c.paths) and "O_CREAT" in c.text]
    assert len(creating) == 1, [c.text for c in creating]
    own = [c for c in found if c.thread == creating[0].thread]
    start = own.index(creating[0])
    steps, seen = [], set()
    for call in own[start:]:
        key = step_key(call, folder)
        if key in seen:
            break
        seen.add(key)
        steps.append((key, call))
        if len(steps) == len(SAVE_STEPS):
            break
    return steps


def step_key(call, folder):
    return re.sub(r"\.tmp-\d+", ".tmp-N", call.what.replace(str(folder), ""))


class Scenario:
    """One press that saves, played from a copy of `old` (a state directory), under strace."""

    def __init__(self, tmp_path, old, press, file):
        self.tmp_path, self.old, self.press, self.file = tmp_path, old, press, file
        self.runs = 0

    def run(self, paths, *injections):
        folder = copy_of(self.old, self.tmp_path / f"run-{self.runs}")
        self.runs += 1
        trace_file = folder / "trace"
        state = folder / "state"
        board = Board(folder, wrapper=trace.strace(trace_file, [state / p for p in paths], *injections))
        command(board, "press", str(self.press), check=not injections)
        return folder, board, trace_file

    def run_attached(self, paths, *injections):
        """`run`, with strace attached to the board once it has started: its start's calls (the
        history read, say) are not counted, so a save's call is its thread's first of its kind
        on those paths. Returns strace's process too: wait for it before reading the trace."""
        folder = copy_of(self.old, self.tmp_path / f"run-{self.runs}")
        self.runs += 1
        trace_file = folder / "trace"
        state = folder / "state"
        board = Board(folder)
        tracer = subprocess.Popen(trace.strace_attached(trace_file, board.pid, [state / p for p in paths], *injections))
        # strace gone (it could not attach) is a failure at once, with its status, not a timeout.
        wait(lambda: trace.attached(board.pid, tracer.pid) or tracer.poll() is not None, "strace attached to every thread of the board")
        assert tracer.poll() is None, f"strace exited with {tracer.returncode} before it traced every thread of the board"
        command(board, "press", str(self.press), check=not injections)
        return folder, board, trace_file, tracer


def check_restart(folder, old_files, new_files, file_names):
    """Starts the board again on what a crash left: each file is the old one or the new one,
    byte for byte, the board shows it, nothing was set aside and no temporary file stays.
    Returns which ("old"/"new") each file was."""
    state = folder / "state"
    leftovers = [n for n in files(state) if is_temporary(n)]
    assert len(leftovers) <= len(file_names), files(state)
    outcome = {}
    for name in file_names:
        now = (state / name).read_bytes() if (state / name).exists() else None
        assert untimed(now) in (untimed(old_files[name]), untimed(new_files[name])), (name, now)
        outcome[name] = "old" if untimed(now) == untimed(old_files[name]) else "new"
    before = len(log_lines_of(folder))
    board = Board(folder)
    try:
        shown = board.status()
        saved = json.loads((state / "state.json").read_text())
        assert shown["cells"] == saved["cells"], (shown, saved)
        assert not [n for n in files(state) if is_temporary(n) or ".corrupt" in n], files(state)
        lines = log_lines_of(folder)[before:]
        assert not [line for line in lines if line.startswith(("error", "warning"))], lines
        for leftover in leftovers:
            if leftover.startswith("state.json.tmp"):
                assert any("removed " in line and leftover in line for line in lines), lines
        if "history.jsonl" in file_names:
            history = command(board, "history", "--json").stdout
            kept = json.loads(history)
            wanted = journal_games(new_files["history.jsonl"] if outcome["history.jsonl"] == "new" else old_files["history.jsonl"])
            assert len(kept["games"]) == len(wanted), (kept, wanted)
    finally:
        board.stop()
    return outcome


def untimed(contents):
    """A file's bytes, but the history's wall times (of the run that wrote them) taken out: the
    rest byte for byte."""
    if contents is None or (b'"games"' not in contents and b'"played"' not in contents):
        return contents
    return re.sub(rb'"(at|started|finished)":"[^"]*"', b'"\\1":"-"', contents)


def log_lines_of(folder):
    log = folder / "board.log"
    return log.read_text().splitlines() if log.exists() else []


def crash_at_every_step(tmp_path, old, press, file, filters):
    """Kills the board at each call of `file`'s save in turn and checks each restart. `filters`
    are the sets of paths to trace (in the state directory; "" is the directory itself), widest
    first: for each step the first under which strace's per-thread count names that call alone."""
    scenario = Scenario(tmp_path, old, press, file)
    # The press played to its end under each filter: the new files, and every step of the save
    # with the `when=N` that would stop it.
    baselines = []
    for paths in filters:
        folder, board, trace_file = scenario.run(paths)
        board.stop()
        found = trace.calls(trace_file.read_text())
        stops = {key: (paths, trace.ordinal(found, call)) for key, call in save_of(found, folder / "state" / file, folder)
                 if trace.unambiguous(found, call)}
        baselines.append((folder, found, stops))
    widest = baselines[0]
    steps = save_of(widest[1], widest[0] / "state" / file, widest[0])
    assert [call.name for _, call in steps] == SAVE_STEPS, [call.text for _, call in steps]
    assert all(call.returned for _, call in steps), [call.text for _, call in steps]
    new_files = {name: (widest[0] / "state" / name).read_bytes() for name in ("state.json", "history.jsonl")
                 if (widest[0] / "state" / name).exists()}
    old_files = {name: (old / name).read_bytes() if (old / name).exists() else None for name in new_files}
    assert untimed(old_files[file]) != untimed(new_files[file]), "the press changed nothing in " + file
    results = []
    for index, (key, call) in enumerate(steps):
        chosen = next((stops[key] for _, _, stops in baselines if key in stops), None)
        assert chosen, f"no trace filter names step {index + 1} ({key}) alone"
        paths, n = chosen
        folder, board, trace_file = scenario.run(paths, f"{call.name}:signal=KILL:when={n}")
        assert board.process.wait(timeout=60) == -signal.SIGKILL, board.log.read_text()
        killed = [c for c in trace.calls(trace_file.read_text()) if not c.returned]
        assert [step_key(c, folder) for c in killed if step_key(c, folder) == key], (key, [c.text for c in killed])
        outcome = check_restart(folder, old_files, new_files, list(new_files))
        # Up to the rename (not made yet when it is hit) the file is the old one; after, the new.
        expected = "old" if index <= SAVE_STEPS.index("rename") else "new"
        assert outcome[file] == expected, (index, key, outcome)
        results.append({"step": index + 1, "call": key, "when": f"{call.name} {n} of {' '.join(p or '.' for p in paths)}", **outcome})
        shutil.rmtree(folder)
    return results


def report(name, value):
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(value, indent=2) + "\n")
    print(f"\n{name}: " + json.dumps(value))


def test_a_crash_at_every_step_of_a_save_leaves_the_old_game_or_the_new_one(tmp_path):
    """X in the centre, O in a corner; X's next press is saved, and the board is killed at each
    call of that save in turn, then started again."""
    old = made(tmp_path, "old", 5, 7)
    results = crash_at_every_step(
        tmp_path, old, 1, "state.json", [(*temporaries("state.json"), ""), tuple(temporaries("state.json"))])
    assert len(results) == len(SAVE_STEPS)
    report("crash-steps-state", results)


def journal_games(contents):
    """The game numbers in a history journal's bytes (the whole lines after the header)."""
    if contents is None:
        return []
    lines = contents.split(b"\n")[1:-1]
    return [json.loads(line)["game"] for line in lines]


def game_end_save(found, folder):
    """The calls of the save that ends a game: from the journal's opening for the append, by the
    thread that made it, its four steps, then the state's save on the same thread."""
    journal = str(folder / "state" / "history.jsonl")
    opening = [c for c in found if c.name == "openat" and journal in c.paths and "O_APPEND" in c.text]
    assert len(opening) == 1, [c.text for c in found]
    # Not the fstat that checks it is a regular file: it changes nothing (and its name differs
    # from one architecture to another).
    own = [c for c in found if c.thread == opening[0].thread and "stat" not in c.name]
    start = own.index(opening[0])
    appended = [(step_key(c, folder), c) for c in own[start:start + len(APPEND_STEPS)]]
    return appended + save_of(own[start + len(APPEND_STEPS):], folder / "state" / "state.json", folder)


def test_a_crash_at_every_step_of_the_save_that_ends_a_game_leaves_it_in_both_files_or_in_neither(tmp_path):
    """A game won and recorded, a second one a move from its end; the winning press appends the
    game to the history's journal, then saves the state naming it, on one thread. The board is
    killed at each of those calls in turn, then started again: the history and the state agree,
    the finished game in both or in neither (a line the state does not name is dropped, said).
    strace is attached once the board has started: its start reads the journal on another
    thread, which would make the save's opening and closing of it no thread's alone to count."""
    old = made(tmp_path, "old", 7, 1, 8, 2, 9, then_new_game_and=(7, 1, 8, 2))
    assert journal_games((old / "history.jsonl").read_bytes()) == [1]
    assert json.loads((old / "state.json").read_text())["lastGame"] == 1
    scenario = Scenario(tmp_path, old, 9, "history.jsonl")
    state_temporaries = tuple(temporaries("state.json"))
    filters = [("history.jsonl", *state_temporaries, ""), ("history.jsonl", *state_temporaries)]
    baselines = []
    for paths in filters:
        folder, board, trace_file, tracer = scenario.run_attached(paths)
        board.stop()
        tracer.wait(timeout=30)
        found = trace.calls(trace_file.read_text())
        stops = {key: (paths, trace.ordinal(found, call)) for key, call in game_end_save(found, folder)
                 if trace.unambiguous(found, call)}
        baselines.append((folder, found, stops))
    widest = baselines[0]
    steps = game_end_save(widest[1], widest[0])
    assert [call.name for _, call in steps] == GAME_END_STEPS, [call.text for _, call in steps]
    assert all(call.returned for _, call in steps), [call.text for _, call in steps]
    new_state = json.loads((widest[0] / "state" / "state.json").read_text())
    assert new_state["lastGame"] == 2 and journal_games((widest[0] / "state" / "history.jsonl").read_bytes()) == [1, 2]
    results = []
    for index, (key, call) in enumerate(steps):
        chosen = next((stops[key] for _, _, stops in baselines if key in stops), None)
        assert chosen, f"no trace filter names step {index + 1} ({key}) alone"
        paths, n = chosen
        folder, board, trace_file, tracer = scenario.run_attached(paths, f"{call.name}:signal=KILL:when={n}")
        assert board.process.wait(timeout=60) == -signal.SIGKILL, board.log.read_text()
        tracer.wait(timeout=30)
        killed = [c for c in trace.calls(trace_file.read_text()) if not c.returned]
        assert [c for c in killed if step_key(c, folder) == key], (key, [c.text for c in killed])
        state = folder / "state"
        on_disk = journal_games((state / "history.jsonl").read_bytes())
        saved = json.loads((state / "state.json").read_text())
        before = len(log_lines_of(folder))
        restarted = Board(folder)
        try:
            shown = restarted.status()
            kept = json.loads(command(restarted, "history", "--json").stdout)["games"]
            lines = log_lines_of(folder)[before:]
        finally:
            restarted.stop()
        finished = shown["outcome"] != "playing"
        # The game in both or in neither: the board shows it finished exactly when the history
        # holds it, and the state on disk names the games the history keeps.
        assert finished == (len(kept) == 2), (index, key, shown, kept)
        assert saved["lastGame"] == len(kept), (index, key, saved, kept)
        assert not [line for line in lines if line.startswith(("error", "warning"))], lines
        if on_disk == [1, 2] and saved["lastGame"] == 1:
            assert any("dropped game 2" in line for line in lines), lines
        after = journal_games((state / "history.jsonl").read_bytes())
        assert after == list(range(1, len(kept) + 1)), (index, key, after)
        assert not [n for n in files(state) if is_temporary(n) or ".corrupt" in n], files(state)
        results.append({"step": index + 1, "call": key, "when": f"{call.name} {n} of {' '.join(p or '.' for p in paths)}",
                        "journal after the kill": on_disk, "state names": saved["lastGame"],
                        "after restart": "both" if finished else "neither"})
        shutil.rmtree(folder)
    # Up to the state's rename (not made when it is hit) the game is in neither; after, in both.
    assert [r["after restart"] for r in results] == ["neither"] * (len(APPEND_STEPS) + SAVE_STEPS.index("rename") + 1) + ["both"] * 3, results
    report("crash-steps-game-end", results)


@pytest.mark.parametrize("call, error", [("write", "ENOSPC"), ("openat", "EROFS"), ("fsync", "EIO")])
def test_a_full_read_only_or_failing_card_costs_one_line_and_the_last_good_file(tmp_path, call, error):
    """Every save made to fail as a full card (a write: ENOSPC), a read-only one (the temporary
    file's creation: EROFS) or a dying one (fsync: EIO) fails it: the board plays on, says so
    once, keeps the last good file whole, and saves again once the card works (strace detached)."""
    old = made(tmp_path, "old", 5)
    folder = copy_of(old, tmp_path / "failing")
    board = Board(folder, wrapper=trace.strace(folder / "trace", [folder / "state" / p for p in temporaries("state.json")],
                                               f"{call}:error={error}"))
    before = len(log_lines_of(folder))
    play(board, 7, 1, 3)
    assert board.status()["cells"] == ["O", "", "", "", "X", "", "X", "", "O"], "the board stopped playing"
    found = trace.calls((folder / "trace").read_text())
    failed = [c for c in found if c.name == call and c.result == "-1"]
    assert failed and all(error in c.text for c in failed), [c.text for c in found]
    assert (folder / "state" / "state.json").read_bytes() == (old / "state.json").read_bytes()
    assert not [n for n in files(folder / "state") if is_temporary(n)], files(folder / "state")
    # The card works again: strace lets go of the board, which goes on running.
    pid = board.pid
    board.process.send_signal(signal.SIGTERM)
    board.process.wait(timeout=30)
    os.kill(pid, 0)
    play(board, 9)
    wait(lambda: json.loads((folder / "state" / "state.json").read_text())["cells"][2] == "X", "the save after the card came back")

    def saving_lines():
        # Not the start's "restored the saved game", which may come after the socket is up.
        return [line for line in log_lines_of(folder)[before:] if "saving the game" in line]
    # The notice follows the save that worked (it is logged once the rename is durable).
    wait(lambda: any(line.startswith("notice: ") for line in saving_lines()), "the notice that saving works again")
    lines = saving_lines()
    strerror = {"ENOSPC": "no space left on device", "EROFS": "read-only file system", "EIO": "input/output error"}[error]
    assert len(lines) == 2, lines
    assert lines[0].startswith("error: saving the game failed: ") and strerror in lines[0], lines
    assert re.fullmatch(r"notice: saving the game works again, after \d+ failed saves?", lines[1]), lines
    os.kill(pid, signal.SIGTERM)
    wait(lambda: not pathlib.Path(f"/proc/{pid}").exists() or "zombie" in pathlib.Path(f"/proc/{pid}/status").read_text().lower(),
         "the board to stop")
    report(f"failing-card-{error}", {"call": call, "error": error, "saves failed": len(failed), "log lines": lines})


# A draw: X O X / X O O / O X X, played so that nobody wins on the way (keypad numbers).
A_DRAW = (7, 8, 9, 5, 4, 6, 2, 1, 3)


@pytest.mark.parametrize("kept", [100, 200])
def test_what_a_card_pays_for_a_move_and_for_a_game(tmp_path, kept):
    """Bytes written and fsyncs per move and per game, with the history's journal holding 100
    games (a game appends its line) or 200 (the game's write compacts it: the newest 100 rewritten
    whole, once every 100 games), and the log lines a game costs at the default level."""
    old = made(tmp_path, "old", 7, 1, 8, 2, 9)
    header, line = (old / "history.jsonl").read_bytes().split(b"\n")[:2]
    record = json.loads(line)
    lines = [json.dumps({**record, "game": n}, sort_keys=True, separators=(",", ":")).encode() for n in range(1, kept + 1)]
    (old / "history.jsonl").write_bytes(b"\n".join([header, *lines]) + b"\n")
    saved = json.loads((old / "state.json").read_text())
    saved["lastGame"] = kept
    (old / "state.json").write_text(json.dumps(saved))
    folder = copy_of(old, tmp_path / "counted")
    state = folder / "state"
    paths = [state / p for p in temporaries("state.json", 40) + temporaries("history.jsonl", 40) + ["history.jsonl"]] + [state]
    board = Board(folder, wrapper=trace.strace(folder / "trace", paths))
    wait(lambda: any(line.startswith("info: ready on ") for line in log_lines_of(folder)), "the board's start")
    before = len(log_lines_of(folder))
    command(board, "new-game")
    saves = []
    for cell in A_DRAW:
        play(board, cell)
        # Each move's save is on disk before the next move: so each is counted as its own.
        wait(lambda: json.loads((state / "state.json").read_text())["cells"].count("") == 9 - len(saves) - 1,
             f"the save of move {len(saves) + 1}")
        saves.append(cell)
    wait(lambda: json.loads((state / "state.json").read_text()).get("lastGame") == kept + 1, "the game's record")
    lines = log_lines_of(folder)[before:]
    board.stop()
    found = trace.calls((folder / "trace").read_text())
    game = found[[i for i, c in enumerate(found) if c.name == "openat" and "O_CREAT" in c.text][0]:]
    journal = str(state / "history.jsonl")

    def written(calls, test):
        return sum(int(c.result) for c in calls if c.name == "write" and c.returned and c.paths and test(c.paths[0]))

    state_bytes = written(game, lambda p: ".json.tmp" in p and "/state.json" in p)
    state_saves = len([c for c in game if c.name == "rename" and any(p.endswith("/state.json") for p in c.paths)])
    appended = written(game, lambda p: p == journal)
    rewritten = written(game, lambda p: p.startswith(journal + ".tmp"))
    history_writes = len([c for c in game if c.name == "write" and c.returned and c.paths and c.paths[0].startswith(journal)])
    fsyncs = sum(1 for c in game if c.name == "fsync")
    per_move = state_bytes / state_saves
    history_bytes = appended + rewritten
    figures = {"games in the journal": kept, "moves": len(A_DRAW), "state saves": state_saves,
               "state bytes per save": round(per_move), "history bytes appended": appended,
               "history bytes rewritten": rewritten, "history bytes per game": history_bytes,
               "fsyncs per game": fsyncs, "bytes per game": state_bytes + history_bytes,
               "log lines per game": len(lines)}
    report(f"card-cost-{kept}", figures)
    # One save for the new game and one a move, none at stop (nothing changed since).
    assert state_saves == len(A_DRAW) + 1, figures
    assert per_move <= 1024, figures
    if kept == 100:
        # The finished game: one line appended and flushed, not the history rewritten.
        assert history_writes == 1 and rewritten == 0, figures
        assert fsyncs == 2 * state_saves + 1, figures
        assert appended <= 1024, figures
    else:
        # Past 200 games: one rewrite of the newest 100 instead of the append.
        assert appended == 0 and 0 < rewritten <= 128 * 1024, figures
        assert journal_games((state / "history.jsonl").read_bytes()) == list(range(kept - 98, kept + 2)), figures
        assert fsyncs == 2 * state_saves + 2, figures
    # A line for the new game, one a move and one for the outcome; nothing per scan or save.
    assert len(lines) <= len(A_DRAW) + 2, lines


@pytest.fixture
def vfat_state(tmp_path):
    """A state directory on a small vfat file system (no hard links, so link() cannot set a file
    aside there), in an image mounted for the test: by the kernel, or, where the kernel has no
    vfat, by fusefat in user space (which has no RENAME_NOREPLACE either, so the plain rename
    the board falls back to is tested too). Skipped, with the reason, only where this process can
    do neither: never passed without having run."""
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
    unmount = ["umount", str(mountpoint)]
    if mounted.returncode != 0:
        if not shutil.which("fusefat"):
            pytest.skip(f"cannot mount a loop image here ({mounted.stderr.strip()}) and fusefat is missing (apt-get install fusefat)")
        fused = subprocess.run(["fusefat", "-o", "rw+", str(image), str(mountpoint)], capture_output=True, text=True)
        if fused.returncode != 0:
            pytest.skip(f"cannot mount a vfat image here: {mounted.stderr.strip()}; fusefat: {fused.stderr.strip()}")
        unmount = ["fusermount", "-u", str(mountpoint)]
    try:
        yield mountpoint
    finally:
        subprocess.run(unmount, check=False)


@pytest.fixture
def state_of_another_user(tmp_path):
    """A state directory of the user `nobody`'s, holding a state file that another user (root)
    owns and only reads: with fs.protected_hardlinks (Debian's default), nobody may not link
    it, and the old set-aside by link() failed, so the first save overwrote it."""
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


NOBODY = 65534


def test_a_damaged_state_file_another_user_owns_is_set_aside_not_overwritten(state_of_another_user):
    damaged = b'{"version": 2, "cells": ["O", "'
    (state_of_another_user / "state.json").write_bytes(damaged)
    os.chmod(state_of_another_user / "state.json", 0o644)
    board = Board(state_of_another_user.parent, wrapper=("setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"))
    try:
        play(board, 5)
        saved = state_of_another_user / "state.json"
        wait(lambda: saved.exists() and saved.stat().st_uid == NOBODY, "the press's save")
    finally:
        board.stop()
    asides = [n for n in files(state_of_another_user) if n.startswith("state.json.corrupt-")]
    assert len(asides) == 1, (files(state_of_another_user), board.log.read_text())
    assert (state_of_another_user / asides[0]).read_bytes() == damaged
    assert (state_of_another_user / asides[0]).stat().st_uid == 0
    report("protected-hardlinks-set-aside", {"files": files(state_of_another_user)})


def test_a_damaged_state_file_on_vfat_is_set_aside_not_overwritten(vfat_state):
    """vfat has no hard links: a set-aside by link() failed there, the file "stayed where it was"
    and the first save overwrote it. It is moved aside by a rename that replaces nothing."""
    damaged = b'{"version": 2, "cells": ["X", "'
    (vfat_state / "state.json").write_bytes(damaged)
    board = Board(vfat_state.parent)
    try:
        play(board, 5)
        wait(lambda: (vfat_state / "state.json").exists() and json.loads((vfat_state / "state.json").read_text())["cells"][4] == "X",
             "the press's save")
    finally:
        board.stop()
    asides = [n for n in files(vfat_state) if n.startswith("state.json.corrupt-")]
    assert len(asides) == 1, (files(vfat_state), board.log.read_text())
    assert (vfat_state / asides[0]).read_bytes() == damaged
    assert "moved it to" in board.log.read_text(), board.log.read_text()
    report("vfat-set-aside", {"files": files(vfat_state)})
