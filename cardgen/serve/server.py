"""The HTTP side of `cardgen serve`: a process of its own that serves the preview page, its
events and the files of out/<game>, on 127.0.0.1 only.

Why a process and not a thread: cardgen forks its build workers only while the building process
has a single thread (cardgen.parallel.can_fork); a server thread beside the builds would make
every rebuild run its stages one after another, the rulebook before the cards. So the builds stay
in the main process, as in `cardgen watch`, and this process is forked from it before any thread
starts. The main process sends it each new state of the page through a pipe; a thread here
receives them and wakes the page's event streams (Server-Sent Events: the browser reconnects by
itself, and the standard library's server is enough).

What it answers, and nothing else (no listings, GET only):
  /                 the page, with the latest state
  /events           the states, as they come (text/event-stream)
  /preview.js, /preview.css
  /out/<path>       a regular file inside out/<game> (links followed only when they stay inside;
                    no hidden files: caches, records and files being written)
A request whose Host is not this server's own address is refused (a web page elsewhere cannot
reach it through a name that it resolves to 127.0.0.1).
"""

from __future__ import annotations

import errno
import functools
import json
import mimetypes
import multiprocessing
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from cardgen.errors import ContentError, Issue
from cardgen.fsutil import UnsafeFile, read_confined
from cardgen.paths import templates_dir

HOST = "127.0.0.1"
KEEP_ALIVE_SECONDS = 15     # a comment on an idle event stream: a closed page is noticed
FILE_LIMIT = 1 << 30        # (a proxy PDF of a large game is tens of MB)
STOP_SECONDS = 2.0
ASSETS = {"/preview.js": "text/javascript; charset=utf-8", "/preview.css": "text/css; charset=utf-8"}
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
               "frame-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'")


class PreviewServer:
    """The server process: bound at once (so the address is known, and a port in use is said
    before anything is built), started by start(), sent states by publish()."""

    def __init__(self, port: int):
        try:
            self.httpd = _Server((HOST, port), _Handler)
        except OSError as exc:
            taken = exc.errno in (errno.EADDRINUSE, errno.EACCES)
            raise ContentError([Issue(None, None, "--port", f"{port}: {exc.strerror}" + (
                "; choose another port, or --port 0 for any free one" if taken else ""))]) from None
        self.url = f"http://{HOST}:{self.httpd.server_port}/"
        self.process: multiprocessing.Process | None = None
        self.sender = None

    def start(self) -> None:
        receiver, self.sender = multiprocessing.Pipe(duplex=False)
        self.process = multiprocessing.get_context("fork").Process(
            target=_run, args=(self.httpd, receiver, self.sender), name="cardgen serve", daemon=True)
        self.process.start()
        receiver.close()
        self.httpd.socket.close()       # (the process serves on its copy)

    def publish(self, state: dict) -> None:
        self.sender.send(state)

    def stop(self) -> None:
        """End the process (it stops serving at once: open event streams end with it)."""
        if self.sender is not None:
            self.sender.close()
        if self.process is not None and self.process.pid is not None:
            self.process.terminate()
            self.process.join(STOP_SECONDS)
            if self.process.exitcode is None:
                self.process.kill()
                self.process.join()
        self.httpd.socket.close()


def _run(httpd: _Server, receiver, sender) -> None:
    """The server process: serve until the main process is gone (its end of the pipe closed)."""
    sender.close()
    threading.Thread(target=httpd.receive, args=(receiver,), name="states", daemon=True).start()
    httpd.serve_forever(poll_interval=0.2)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, handler):
        super().__init__(address, handler)
        self.changed = threading.Condition()
        self.state = {"version": 0, "title": "cardgen: preview", "out": None,
                      "sections": {"status": "<p class='note'>starting&hellip;</p>"}}
        self.hosts = {f"{HOST}:{self.server_port}", f"localhost:{self.server_port}"}

    def receive(self, receiver) -> None:
        while True:
            try:
                state = receiver.recv()
            except (EOFError, OSError):
                self.shutdown()
                return
            with self.changed:
                self.state = state
                self.changed.notify_all()

    def next_state(self, version: int, timeout: float) -> dict:
        """The state after `version`, when one comes within `timeout` (else the same)."""
        with self.changed:
            self.changed.wait_for(lambda: self.state["version"] != version, timeout)
            return self.state


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        if self.headers.get("Host") not in self.server.hosts:
            self._send(HTTPStatus.FORBIDDEN, b"not this server's address\n", "text/plain")
            return
        path = urlsplit(self.path).path
        if path == "/":
            self._send(HTTPStatus.OK, _page(self.server.state), "text/html; charset=utf-8",
                       {"Content-Security-Policy": PAGE_POLICY})
        elif path == "/events":
            self._events()
        elif path in ASSETS:
            self._send(HTTPStatus.OK, (templates_dir() / "serve" / path[1:]).read_bytes(), ASSETS[path])
        elif path.startswith("/out/"):
            self._file(unquote(path[len("/out/"):]), "v=" in urlsplit(self.path).query)
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    def _file(self, rel: str, versioned: bool) -> None:
        data = out_file(self.server.state.get("out"), rel)
        if data is None:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
            return
        kind = mimetypes.guess_type(rel)[0] or "application/octet-stream"
        # (an address with its version never changes: the page asks for a new one)
        self._send(HTTPStatus.OK, data, kind, {"Cache-Control": "max-age=86400" if versioned else "no-cache"})

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        version = None
        try:
            self.wfile.write(b"retry: 1000\n\n")
            while True:
                state = self.server.next_state(version, KEEP_ALIVE_SECONDS)
                if state["version"] == version:
                    self.wfile.write(b": still here\n\n")
                else:
                    version = state["version"]
                    shown = {k: state[k] for k in ("version", "title", "sections")}
                    self.wfile.write(f"data: {json.dumps(shown)}\n\n".encode())
                self.wfile.flush()
        except OSError:         # the page was closed or reloaded
            return

    def _send(self, status: HTTPStatus, body: bytes, kind: str, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args) -> None:     # (the terminal is the builds')
        pass


def out_file(out: str | None, rel: str) -> bytes | None:
    """The bytes of out/<game>/<rel>, or None: no game yet, a path that is not a plain relative
    one (.., a hidden part, a backslash, a NUL), or not a regular file inside out/<game>."""
    if out is None or not rel or "\\" in rel or "\0" in rel:
        return None
    parts = PurePosixPath(rel).parts
    if rel.startswith("/") or any(part.startswith(".") for part in parts):
        return None
    try:
        return read_confined(Path(out).joinpath(*parts), Path(out), FILE_LIMIT)
    except (UnsafeFile, OSError):
        return None


def _page(state: dict) -> bytes:
    from markupsafe import Markup

    sections = {name: Markup(html) for name, html in state["sections"].items()}     # (escaped when made)
    return _page_template().render(title=state["title"], version=state["version"],
                                   sections=sections).encode()


@functools.cache
def _page_template():
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    return Environment(loader=FileSystemLoader(str(templates_dir() / "serve")),
                       autoescape=select_autoescape(["html"])).get_template("page.html")
