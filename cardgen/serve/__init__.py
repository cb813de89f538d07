"""`cardgen serve DIR`: `cardgen watch` with a page in the browser that follows the builds.

The builds are watch's (cardgen.watch: the same polling, the same stages for each saved file);
after each stage the page's sections are rendered (cardgen.serve.page) and sent to the server
process (cardgen.serve.server), which pushes them to the open pages.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from cardgen.serve.page import Preview
from cardgen.serve.server import PreviewServer
from cardgen.watch import watch


def serve(folder: Path, out_root: Path, *, port: int, interval: float = 0.5,
          stop: threading.Event | None = None, say: Callable[[str], None] = print) -> None:
    server = PreviewServer(port)
    try:
        server.start()
        preview = Preview(out_root, server.publish)
        preview.show()          # (every section, empty, before the first build)
        say(f"preview: {server.url} (open it in a browser; Ctrl-C to stop)")
        watch(folder, out_root, interval=interval, stop=stop, say=say, watcher=preview)
    finally:
        server.stop()
