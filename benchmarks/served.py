"""A folder served on 127.0.0.1 and opened in headless Chromium, for the browser benchmarks."""

import functools
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # no request log in the benchmark's table
        pass


@contextmanager
def served_page(folder: Path, path: str):
    """Serve ``folder`` over http and yield a headless Chromium page opened at ``path`` in it."""
    from playwright.sync_api import sync_playwright

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_port}/{path}")
            yield page
            browser.close()
    finally:
        server.shutdown()
