"""A headless Chromium driven over the DevTools protocol: enough of it for the page's tests
(open a page, evaluate, click, type, screenshot). Debian's `chromium`, nothing downloaded; no
WebDriver: the protocol is JSON over one WebSocket (python3-websocket)."""

import base64
import json
import os
import pathlib
import queue
import shutil
import subprocess
import tempfile
import threading
import time

import websocket


class BrowserError(Exception):
    pass


class Chromium:
    """One headless browser process with a private profile, closed by `close()`."""

    def __init__(self, width=390, height=844):
        binary = shutil.which("chromium")
        if not binary:
            raise BrowserError("no chromium on PATH: make setup-tests installs Debian's")
        self.profile = tempfile.mkdtemp(prefix="tictactoe-chromium.")
        arguments = [
            binary, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--metrics-recording-only", "--mute-audio",
            f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
            f"--window-size={width},{height}", "about:blank",
        ]
        # Chromium's own sandbox needs user namespaces, which root in a container may not have.
        if os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")
        self.log = open(pathlib.Path(self.profile) / "chromium.log", "wb")
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT)
        port_file = pathlib.Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not port_file.exists() or len(port_file.read_text().split()) < 2:
            if self.process.poll() is not None:
                raise BrowserError(f"chromium ended with {self.process.returncode}: {self.log_text()}")
            if time.monotonic() > deadline:
                raise BrowserError(f"chromium gave no DevTools port in 60 s: {self.log_text()}")
            time.sleep(0.05)
        port, path = port_file.read_text().split()[:2]
        self.connection = Connection(f"ws://127.0.0.1:{port}{path}")

    def log_text(self):
        return (pathlib.Path(self.profile) / "chromium.log").read_text(errors="replace")[-2000:]

    def open(self, url, scripts=()):
        """A new tab at `url`, as a `Page`; `scripts` run in it before the page's own."""
        target = self.connection.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.connection.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self.connection, session, target)
        page.call("Page.enable")
        page.call("Runtime.enable")
        for script in scripts:
            page.call("Page.addScriptToEvaluateOnNewDocument", {"source": script})
        page.navigate(url)
        return page

    def close(self):
        try:
            self.connection.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.connection.close()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


class Connection:
    """The browser's DevTools WebSocket: commands by id, events to whoever waits for them."""

    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self.next_id = 0
        self.lock = threading.Lock()
        self.replies = {}
        self.arrived = threading.Condition()
        self.events = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                message = json.loads(self.socket.recv())
            except Exception:
                with self.arrived:
                    self.replies[None] = "closed"
                    self.arrived.notify_all()
                return
            if "id" in message:
                with self.arrived:
                    self.replies[message["id"]] = message
                    self.arrived.notify_all()
            else:
                self.events.put(message)

    def call(self, method, params=None, session=None, timeout=30):
        with self.lock:
            self.next_id += 1
            number = self.next_id
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        with self.arrived:
            while number not in self.replies:
                if None in self.replies:
                    raise BrowserError(f"the browser closed its DevTools socket during {method}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BrowserError(f"no answer to {method} in {timeout} s")
                self.arrived.wait(left)
            reply = self.replies.pop(number)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def close(self):
        try:
            self.socket.close()
        except Exception:
            pass


class Page:
    """One tab."""

    def __init__(self, connection, session, target):
        self.connection = connection
        self.session = session
        self.target = target

    def call(self, method, params=None, timeout=30):
        return self.connection.call(method, params, session=self.session, timeout=timeout)

    def navigate(self, url):
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete' && location.href !== 'about:blank'", timeout=30)

    def evaluate(self, expression):
        """The value of a JavaScript expression (JSON-serialisable), awaiting a promise."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=15):
        """Waits until `expression` is truthy in the page; its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"waited {timeout} s for {expression}")
            time.sleep(0.02)

    def click(self, selector):
        """A real mouse click at the centre of the element `selector` names."""
        box = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def key(self, key, code=None, text=None):
        """A key pressed and released, as a keyboard sends it (`text` for one that types)."""
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code or key}
        if text:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", down)
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code or key})

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        pathlib.Path(path).write_bytes(base64.b64decode(data))
