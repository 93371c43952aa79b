"""Writing without ever leaving a half-written file or site behind."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write to a temporary file beside `path`, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def new_staging_folder(target: Path) -> Path:
    """An empty folder beside `target` (same file system, so the final swap is a rename)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{target.name}.building.", dir=target.parent))


def swap_in(staging: Path, target: Path) -> None:
    """Replace `target` with the completed `staging` folder; the old one is removed only after the swap."""
    if not target.exists():
        os.replace(staging, target)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
    os.replace(target, retired / "site")
    os.replace(staging, target)
    shutil.rmtree(retired, ignore_errors=True)
