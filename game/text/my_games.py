"""My games in the text client: ``games`` lists the player's games on a server (whose turn it is
first, with the time left), a number opens one (the seat is taken by the player's key), and a game
that becomes the player's turn while the client runs is announced with the terminal's bell and a
line (:class:`~game.client.my_games.TurnNews`). The words are :mod:`game.client.my_games_words`'."""
from __future__ import annotations

from typing import Any

from game.client.address import hostport
from game.client.my_games import MyGame, NoGames, TurnNews, my_games, news_interval, remember_server
from game.i18n import _

BELL = "\a"


class MyGamesText:
    """The text client's part for My games (a mixin of :class:`~game.text.client.TextClient`)."""

    say: Any
    data_dir: Any
    turn_news: TurnNews | None = None

    def start_turn_news(self) -> None:
        """Look now and then for games that become the player's turn (see the module docstring)."""
        self.turn_news = TurnNews(self.data_dir, news_interval(), wake=getattr(self, "wake", None))

    def follow_turn_news(self) -> None:
        """Say the games that became the player's turn: the bell, then a line each."""
        if self.turn_news is None:
            return
        for line in self.turn_news.take():
            self.say(BELL + line)

    def stop_turn_news(self) -> None:
        if self.turn_news is not None:
            self.turn_news.close()
            self.turn_news = None

    def show_my_games(self, host: str, port: int, tls_port: int | None = None) -> None:
        """The player's games at ``host:port``, numbered, your turn first; a number opens one."""
        from game.client.address import describe_connect_error
        from game.client.security import identity_warning
        where = hostport(host, port)
        try:
            listing = my_games(host, port, tls_port=tls_port, folder=self.data_dir)
        except NoGames as e:
            self.say(str(e))
            self.menu()   # type: ignore[attr-defined]
            return
        except OSError as e:
            warning = identity_warning(e)
            self.say(warning.line if warning else describe_connect_error(e, host, port))
            self.menu()   # type: ignore[attr-defined]
            return
        if not listing.games:
            self.say(listing.empty_words)
            self.show_tables(where)   # type: ignore[attr-defined]
            return
        self.say(_("Your games at {where}:").format(where=where))
        for i, g in enumerate(listing.games):
            self.say(f"{i + 1}. {g.line}")
        self.say(_("Say a number to open that game, tables for the server's tables, or menu."))
        games = list(listing.games)
        self.question = lambda answer: self._games_answer(host, port, listing.tls_port, games, answer)

    def _games_answer(self, host: str, port: int, tls_port: int | None, games: list[MyGame], text: str) -> None:
        word = text.strip().lower()
        if word.isdigit() and 1 <= int(word) <= len(games):
            self.open_my_game(host, port, games[int(word) - 1], tls_port)
        elif word in ("tables", "list"):
            self.show_tables(hostport(host, port))   # type: ignore[attr-defined]
        elif word == "games":
            self.show_my_games(host, port, tls_port)
        else:
            self.menu()   # type: ignore[attr-defined]

    def open_my_game(self, host: str, port: int, game: MyGame, tls_port: int | None = None) -> None:
        """Take the seat in ``game`` by key (the seat's nickname)."""
        if game.given:
            self.say(game.line)
            self.menu()   # type: ignore[attr-defined]
            return
        remember_server(self.data_dir, host, port)
        self._seat_again = lambda: self.show_my_games(host, port, tls_port)
        self._from_tables = (host, port)
        self._rejoin, self._asked = None, None
        self._knock(host, port, game.nickname, False,   # type: ignore[attr-defined]
                    {"game": game.game, "tls_port": tls_port, "table_name": game.table})
