"""Games played flat out through the board's socket for SECONDS (X wins along the top row, a new
game, again, each command waiting for its answer), against `tictactoe simulate --serve` from
BIN_DIR with its state in STATE_DIR/state; prints the games played and the board's resident
memory (VmRSS at the start and the end, VmHWM its peak). What waits for the card must not grow
with the games played (docs/BENCHMARKS.md, "The saved game").

Usage: python3 storage/flood.py .build/debug /tmp/flood 30"""
import json, os, socket, subprocess, sys, time
bin_dir, state, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
os.makedirs(state, exist_ok=True)
sock = state + "/board.sock"
board = subprocess.Popen([bin_dir + "/tictactoe", "simulate", "--serve", sock, "--state-dir", state + "/state"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while not os.path.exists(sock):
    time.sleep(0.05)
time.sleep(0.5)
def rss():
    fields = dict(line.split(":", 1) for line in open(f"/proc/{board.pid}/status"))
    return fields["VmRSS"].strip(), fields["VmHWM"].strip()
start_rss = rss()
c = socket.socket(socket.AF_UNIX)
c.connect(sock)
f = c.makefile("rwb")
games, end = 0, time.time() + seconds
def ask(command):
    f.write((json.dumps(command) + "\n").encode()); f.flush()
    while True:
        m = json.loads(f.readline())
        if m.get("type") in ("ok", "error", "bye"):
            return m
while time.time() < end:
    for cell in (7, 1, 8, 2, 9):
        ask({"command": "press", "cell": cell})
    ask({"command": "new-game"})
    games += 1
print(json.dumps({"games": games, "seconds": seconds, "rss_start": start_rss[0], "rss_end": rss()[0], "peak": rss()[1]}))
board.terminate(); board.wait(timeout=120)
