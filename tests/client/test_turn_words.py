"""The words of turn-based tables in the player's language (issue 31): the time left with its
plural forms, a game of My games, and the server's notices of the computer's turns for a player
out of time, which the server sends in English with what our client needs to say them itself."""
from __future__ import annotations

from support.table import Feed

from game import i18n
from game.client.game_log import ChatLine
from game.client.games import default_config
from game.client.my_games import MyGame
from game.client.my_games_words import move_time_words, time_left_words
from game.client.session import GameSession
from game.client.tables import OpenTable, PlayingTable
from game.rules.engine import Game
from game.rules.views import player_view

CFG = default_config()


def test_time_left_and_the_pace_of_a_table_with_their_plural_forms():
    assert [time_left_words(s) for s in (3 * 3600, 3600 + 60, 2 * 86400, 86400 + 7200, 30)] == [
        "3 hours left", "1 hour 1 minute left", "2 days left", "1 day 2 hours left", "less than a minute left"]
    i18n.use("it")
    assert [time_left_words(s) for s in (3 * 3600, 3600 + 60, 2 * 86400, 86400 + 7200, 30)] == [
        "ancora 3 ore", "ancora 1 ora 1 minuto", "ancora 2 giorni", "ancora 1 giorno 2 ore", "meno di un minuto"]
    assert (move_time_words(3600), move_time_words(3 * 86400)) == ("1 ora a mossa", "3 giorni a mossa")
    game = MyGame(4, "Salon", "Ann", ("Ann", "Bob"), 86400, True, 7200.0)
    assert game.line == "Salon, con Bob: tocca a te, ancora 2 ore (1 giorno a mossa)."
    assert OpenTable("Salon", "Ann", 4, 2, 2, ("easy",), False, (), 86400).seats_words == "2 posti occupati su 4, 1 bot"
    assert PlayingTable("Salon", ("Ann", "Bob"), 3).players_words == "Ann e Bob giocano, 3 guardano"
    assert PlayingTable("Salon", ("Ann",), 1).players_words == "Ann gioca, 1 guarda"


def heard(notice: dict) -> str:
    """What a player's log says of the server's notice ``notice`` (an UpdateChat from Server)."""
    game = Game.new(CFG, ["Ada", "Bruno"], seed=1)
    view = {**player_view(game, "Ada"), "type": "UpdateGame"}
    feed = Feed("Ada", [view, notice])
    session = GameSession(feed, CFG, "Ada")
    session.pump()
    (line,) = [x for x in session.log if isinstance(x, ChatLine)]
    return str(line)


def test_the_computers_turns_for_a_player_out_of_time_are_said_in_the_players_language():
    stood = {"type": "UpdateChat", "player": "Server", "text": "While you were away the computer played 2 of your "
             "turns (medium level), as your time ran out: welcome back, the game is yours again.",
             "notice": {"id": "STOOD_IN", "n": 2, "level": "medium"}}
    assert heard(stood) == "Server: " + stood["text"]          # in English, the server's own words
    i18n.use("it")
    assert heard(stood) == ("Server: Mentre eri via il computer (livello medio) ha giocato 2 dei tuoi turni, perché "
                            "il tuo tempo era scaduto: bentornato, la partita è di nuovo tua.")
    given = {"type": "UpdateChat", "player": "Server", "text": "Bob let 3 turns run out in a row: …",
             "notice": {"id": "GIVEN_TO_BOT", "n": 3, "nick": "Bob", "level": "easy"}}
    assert "Bob ha lasciato scadere 3 turni di fila" in heard(given)
    odd = {"type": "UpdateChat", "player": "Server", "text": "Something new.", "notice": {"id": "NEWER"}}
    assert heard(odd) == "Server: Something new."                # a notice we do not know: its text
