"""A table found on the LAN in the player's language: the host's table named in it, its seats."""
from game import i18n
from game.client.lan_words import found_label
from game.netcode.discovery import FoundGame, TableInfo


def found(**info) -> FoundGame:
    return FoundGame("svc", "192.168.1.5", 51015, TableInfo(**info), 0.0)


def test_a_hosts_table_and_its_seats_are_said_in_the_players_language():
    ada = found(name="Ada's table", host="Ada", taken=1, free=3)
    named = found(name="Circolo", host="Bea", taken=0, free=2)
    playing = found(name="Circolo", host="Bea", taken=4, started=True)
    assert [found_label(g) for g in (ada, named, playing)] == [
        "Ada's table \u2014 1 seated, 3 free", "Circolo \u2014 2 seats free", "Circolo \u2014 playing, 4 at the table"]
    try:
        i18n.use("it")
        assert [found_label(g) for g in (ada, named, playing)] == [
            "Il tavolo di Ada \u2014 1 seduto, 3 liberi", "Circolo \u2014 2 posti liberi",
            "Circolo \u2014 in gioco, 4 al tavolo"]
    finally:
        i18n.use("en")
