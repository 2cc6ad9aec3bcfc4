"""The text client in this process (no terminal): what it says is kept in a :class:`Said`, and a
line typed is :meth:`TextClient.line`; its clock ticks when a test waits (``until(..., client.tick)``)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from game.text.client import Options, TextClient

from .wait import until


class Said(list):
    """Every line the client said, in order."""

    def __call__(self, line: str) -> None:
        self.append(line)

    def has(self, words: str, since: int = 0) -> bool:
        """Whether a line said (from line ``since`` on) holds ``words``."""
        return any(words in line for line in self[since:])


def text_client(nickname: str | None, data_dir: Path, **options: Any) -> tuple[TextClient, Said]:
    """A started text client playing as ``nickname``, its saves in ``data_dir``, and what it says."""
    said = Said()
    client = TextClient(said, Options(nickname=nickname, data_dir=data_dir, **options))
    client.start()
    return client, said


def at_server(server: Any, nickname: str, data_dir: Path) -> tuple[TextClient, Said]:
    """:func:`text_client` joined to ``server``'s waiting room, where it chooses how many play."""
    client, said = text_client(nickname, data_dir)
    host, port = server.address
    client.join_address(f"{host}:{port}")
    until(lambda: said.has("You choose how many play"), client.tick, what="the waiting room")
    return client, said
