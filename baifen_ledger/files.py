"""The installation's own files are private to the user that runs it (mode 0600), like `data/secret_key`.

The SQLite database and its `-wal` / `-shm` files hold password hashes and session keys. SQLite creates the
database with the process's umask (0644 as a rule) and gives its journal files the database file's mode, so
the database is narrowed as soon as a connection opens it, together with any journal file made already:
a fresh database is empty at that point, and an older one is narrowed on its next use.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

PRIVATE = 0o600


def private_make(path: Path) -> None:
    """Narrow `path` to mode 0600 when it exists and is wider."""
    with contextlib.suppress(FileNotFoundError):
        if path.stat().st_mode & 0o777 != PRIVATE:
            os.chmod(path, PRIVATE)


def sqlite_private(*, sender: Any, connection: Any, **kwargs: Any) -> None:
    """`connection_created` receiver: a file-backed SQLite database and its journal files become 0600."""
    if connection.vendor != "sqlite":
        return
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:") or not os.path.isfile(name):
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        private_make(Path(name + suffix))
