"""``allin render`` (write the static site from the data files) and ``allin serve`` (local preview)."""

from __future__ import annotations

import errno
import functools
import http.server
import sys
from pathlib import Path

import click

from generator.core.config import DEFAULT_CONFIG_PATH, load_config
from generator.core.errors import InputError
from generator.core.storage import writable_folder

HOST = "127.0.0.1"


@click.command("render")
@click.option("--config", "config_path", default=str(DEFAULT_CONFIG_PATH), show_default=True, help="Site configuration file.")
@click.option("--site-dir", default="site", show_default=True, type=click.Path(file_okay=False), help="Output folder.",
              callback=lambda ctx, param, value: writable_folder(value, "--site-dir"))
def render_command(config_path: str, site_dir: Path) -> None:
    """Render the static site from whatever data exists in SITE_DIR/data."""
    from generator.compute.published import check_published
    from generator.site.render import render_site

    config = load_config(config_path)
    check_published(site_dir)
    render_site(config, site_dir, warn=lambda line: click.echo(line, err=True))
    click.echo(f"site written to {site_dir}/ (open {site_dir}/index.html or run: allin serve)")


class PreviewHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, revalidated on every use (``Cache-Control: no-cache``, so live checkpoints show)
    with an ETag of the file's mtime in nanoseconds and size (an unchanged file costs a 304; the
    one-second Last-Modified alone would miss a file rewritten within the second), 404.html for
    missing paths, quiet log. HTTP/1.1, since browsers ignore ETags in HTTP/1.0 answers.

    Only regular files inside the site folder are served, after symlinks are resolved (a link out of ``site/`` is a
    404), and no folder is listed; a path the system cannot open (a name over 255 bytes, a NUL) is a 404 too."""

    protocol_version = "HTTP/1.1"

    def served_file(self) -> Path | None:
        """The request's file: a regular file inside the site folder once links are resolved, or None."""
        try:
            path = Path(self.translate_path(self.path)).resolve()
            root = Path(self.directory).resolve()
            if path.is_dir():
                path = path / "index.html"
            return path if path.is_file() and root in path.parents else None
        except (OSError, ValueError):  # ENAMETOOLONG, an embedded NUL
            return None

    def etag(self) -> str | None:
        path = self.served_file() if hasattr(self, "path") else None  # a request line too long has no path
        if path is None:
            return None
        stat = path.stat()
        return f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'

    def send_head(self):
        if self.served_file() is None:
            self.send_error(404)
            return None
        etag = self.etag()
        if etag is not None and self.headers.get("If-None-Match") == etag:  # (If-Modified-Since is then ignored)
            self.send_response(304)
            self.end_headers()
            return None
        return super().send_head()

    def list_directory(self, path):  # never: a folder without index.html is not found
        self.send_error(404)
        return None

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        etag = self.etag()
        if etag is not None:
            self.send_header("ETag", etag)
        super().end_headers()

    def not_found_page(self) -> Path:
        """The page sent with every 404 (a host serving the site under a sub-path would use its own)."""
        return Path(self.directory) / "404.html"

    def send_error(self, code, message=None, explain=None) -> None:
        page = self.not_found_page()
        if code != 404 or not page.exists():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format, *args) -> None:  # (signature from the base class)
        pass


class PreviewServer(http.server.ThreadingHTTPServer):
    """A listen backlog of 128 (the standard library's 5 made a page's 20 parallel requests wait), and a client that
    hangs up early (a broken pipe, a reset) is no traceback."""

    request_queue_size = 128
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(site_dir: Path, port: int) -> http.server.ThreadingHTTPServer:
    """An HTTP server for ``site_dir`` on 127.0.0.1:port (port 0 = any free port)."""
    if not (site_dir / "index.html").exists():
        raise InputError(f"{site_dir}/index.html not found: build the site first (allin render)")
    handler = functools.partial(PreviewHandler, directory=str(site_dir))
    try:
        return PreviewServer((HOST, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} is already in use on {HOST}: stop the other server or pass --port") from None
        raise InputError(f"cannot serve on {HOST}:{port}: {exc.strerror}") from None


@click.command("serve")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port on 127.0.0.1.")
@click.option("--site-dir", default="site", show_default=True, type=click.Path(file_okay=False), help="Folder to serve.")
def serve_command(port: int, site_dir: str) -> None:
    """Serve the built site at http://127.0.0.1:PORT (charts refresh while a simulation runs)."""
    server = make_server(Path(site_dir), port)
    click.echo(f"serving {site_dir}/ at http://{HOST}:{server.server_address[1]}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
