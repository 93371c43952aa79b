"""`nomic-archive serve`: build, serve on 127.0.0.1, rebuild what each save affects, reload open pages."""
from __future__ import annotations

import errno
import os
import shutil
import signal
import sys
import tempfile
import webbrowser
from pathlib import Path

from ..errors import ArchiveError, SourceError
from ..files import check_site_folder, mark_site
from ..parse.game import names_root
from ..serve import LiveSite, print_result
from ..terminal import counted
from . import content_folder


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt  # a service manager's SIGTERM stops serving as cleanly as Ctrl-C


def run(args) -> int:
    content = content_folder(args.content, "serve")
    if not os.path.isdir(content):
        raise ArchiveError([SourceError(str(content), 0, "is not a folder" if os.path.lexists(content)
                                        else "no such folder")])
    if args.output:
        check_site_folder(args.output, content)  # serve writes there as it goes: the same guard as build
        mark_site(args.output)
    temporary = None if args.output else Path(tempfile.mkdtemp(prefix="nomic-serve-"))
    out = args.output or temporary
    root = names_root(content)
    try:
        live = LiveSite(content, out, port=args.port, report=lambda result: print_result(result, root))
    except (OSError, OverflowError) as error:  # the port is taken, or is no port
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        taken = isinstance(error, OSError) and error.errno == errno.EADDRINUSE
        hint = "; --port 0 picks a free one" if taken else ""
        raise ArchiveError([SourceError(f"127.0.0.1:{args.port}", 0, f"cannot serve there: {reason}{hint}")]) \
            from None
    signal.signal(signal.SIGTERM, _stop)
    try:
        first = live.start()
        if first.ok:
            print(f"built {counted(len(first.written), 'page')} into {out} in {first.seconds:.2f}s", file=sys.stderr)
        else:
            print_result(first, root)
        url = live.server.url
        if args.port == 0:
            print(f"--port 0 picked port {live.server.server_port}, a free one", file=sys.stderr)
        # On stdout, alone on its line: scripts (and the tests) read the port from it when --port is 0.
        print(f"serving at {url}", flush=True)
        print("watching for changes; Ctrl-C stops", file=sys.stderr)
        if args.open:
            webbrowser.open(url)
        live.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        live.close()
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)
    return 0
