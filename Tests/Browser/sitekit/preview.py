"""`sitegen serve --port 0` on a site folder, as a context manager that stops it with SIGTERM."""

import queue
import re
import signal
import subprocess
import threading
import time
from pathlib import Path


class PreviewServer:
    """The preview server in a child process; `url` is the address it printed."""

    def __init__(self, sitegen: Path, source: Path):
        self._command = [str(sitegen), "serve", "--source", str(source), "--port", "0"]
        self._lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        self.url = ""
        self.exit_status: int | None = None

    def __enter__(self) -> "PreviewServer":
        self._process = subprocess.Popen(
            self._command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL
        )
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + 30
        while not self.url and time.monotonic() < deadline:
            try:
                line = self._lines.get(timeout=0.5)
            except queue.Empty:
                if self._process.poll() is not None:
                    break
                continue
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if found:
                self.url = found.group(0)
        if not self.url:
            self.__exit__(None, None, None)
            raise RuntimeError("sitegen serve printed no address within 30 s:\n" + "".join(self.output))
        return self

    def _read(self) -> None:
        for line in self._process.stdout:
            self.output.append(line)
            self._lines.put(line)

    def __exit__(self, *exc) -> None:
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self.exit_status = self._process.returncode
