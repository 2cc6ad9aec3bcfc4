"""The finished games' logs a server keeps (``DIR/games/finished/``), for replays and ratings.

Every game played leaves its log there, and nothing took them away: a server that runs for
months fills its disk with games nobody will ask for again (issue 28, finding 12). The shelf
keeps the newest ``keep_finished`` of them (by game number, which grows with time; 0 keeps
all): the oldest go as new ones come, and at start those past the count.
"""
from __future__ import annotations

import logging
import os
from collections import deque
from pathlib import Path

log = logging.getLogger("mor.server")

SUFFIX = ".jsonl"


class FinishedShelf:
    """The numbers of the finished games kept, oldest first (used from the server's loop)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.folder: Path | None = None
        self._ids: deque[int] = deque()

    def __len__(self) -> int:
        return len(self._ids)

    def open(self, folder: Path | None) -> None:
        """Read which games ``folder`` holds, and let go of those past the count."""
        self.folder = folder
        ids = []
        if folder is not None:
            try:
                with os.scandir(folder) as entries:
                    for e in entries:
                        stem = e.name[:-len(SUFFIX)] if e.name.endswith(SUFFIX) else ""
                        if stem.isdigit():
                            ids.append(int(stem))
            except FileNotFoundError:
                pass
            except OSError as e:
                log.warning("cannot read the finished games in %s: %s", folder, e)
        self._ids = deque(sorted(ids))
        self._prune()

    def added(self, gid: int) -> None:
        """Game ``gid`` has just been put on the shelf."""
        self._ids.append(gid)
        self._prune()

    def _prune(self) -> None:
        gone = 0
        while self.keep and len(self._ids) > self.keep:
            gid = self._ids.popleft()
            if self.folder is not None:
                try:
                    (self.folder / f"{gid}{SUFFIX}").unlink(missing_ok=True)
                    gone += 1
                except OSError as e:
                    log.warning("cannot remove the finished game %d: %s", gid, e)
        if gone > 1:
            log.info("%d finished games removed: the newest %d are kept (--keep-finished)", gone, self.keep)
