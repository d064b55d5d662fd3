"""Build a site with the sitegen binary and serve it from 127.0.0.1 with Python's http.server."""

import functools
import http.client
import subprocess
import threading
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, urlsplit


class _StaticHandler(SimpleHTTPRequestHandler):
    """Serves files only: a folder without index.html is a 404, not a listing; nothing is logged."""

    def list_directory(self, path):
        self.send_error(404, "No index.html in this folder")
        return None

    def log_message(self, format, *args):
        pass


class StaticServer:
    """http.server on 127.0.0.1 and a free port, serving one folder from a thread until closed."""

    def __init__(self, root: Path):
        self.root = root
        handler = functools.partial(_StaticHandler, directory=str(root))
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="static-server", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


@dataclass(frozen=True)
class Page:
    """One HTML file of a built site and the address it is served at (percent-encoded)."""

    url: str
    file: Path


@dataclass
class BuiltSite:
    """A site built into `output`, published at `base_url` by a StaticServer."""

    name: str
    source: Path
    output: Path
    base_url: str
    build_log: str
    pages: list[Page] = field(default_factory=list)

    def url(self, path: str) -> str:
        """The address of a path inside the site (`movies/` -> `http://127.0.0.1:port/reviews/movies/`)."""
        return self.base_url + path.lstrip("/")

    def page(self, path: str) -> Page:
        url = self.url(path)
        for page in self.pages:
            if page.url == url:
                return page
        raise LookupError(f"{self.name}: no page at {url} (the build made {len(self.pages)} pages)")


def build_site(sitegen: Path, source: Path, server: StaticServer, sub_path: str, name: str) -> BuiltSite:
    """Builds `source` into the server's folder under `sub_path` with links for that address."""
    output = server.root / sub_path
    base_url = f"{server.origin}/{sub_path}/"
    result = subprocess.run(
        [str(sitegen), "build", "--source", str(source), "--output", str(output), "--base-url", base_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    log = result.stdout + result.stderr
    if result.returncode != 0:
        raise RuntimeError(f"sitegen build of {source} failed with status {result.returncode}:\n{log}")
    site = BuiltSite(name, source, output, base_url, log)
    for file in sorted(output.rglob("*.html")):
        relative = file.relative_to(output).as_posix()
        if relative.endswith("index.html"):
            relative = relative[: -len("index.html")]
        site.pages.append(Page(base_url + quote(relative), file))
    return site


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    """GET without following redirects: the status, the headers (lower-cased names) and the body."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", target)
        response = connection.getresponse()
        headers = {name.lower(): value for name, value in response.getheaders()}
        return response.status, headers, response.read()
    finally:
        connection.close()
