"""Every command of the text client, on a solo game: a worded answer to bad arguments, to what
cannot be done now and to what cannot be paid for, and the game unchanged; and the actions, said
first, done on Enter, in the board's words."""
from __future__ import annotations

import pytest

from game.client.games import default_config
from game.client.session import GameSession
from game.match import LocalMatch
from game.text.play import GameShell
from support.wait import until


class Said(list):
    def __call__(self, line: str) -> None:
        assert isinstance(line, str) and line.strip(), repr(line)
        self.append(line)

    def since(self, n: int) -> str:
        return "\n".join(self[n:])


@pytest.fixture
def solo(tmp_path):
    config = default_config()
    session = GameSession(LocalMatch(config, "Ada", seed=11, save_path=tmp_path / "solo.json"), config, "Ada")
    said = Said()
    shell = GameShell(session, said)
    shell.follow()
    yield shell, said
    shell.close()
    session.close()


def start(shell: GameShell, said: Said) -> None:
    shell.command("keep 1 2")
    shell.command("")
    shell.follow()
    assert shell.session.stage() == "board", said[-5:]


def ask(shell: GameShell, said: Said, line: str) -> str:
    """Type ``line``; what was said back (the game must not have moved)."""
    before = shell.session.vm.snapshot()
    sent = len(shell.session.log)
    n = len(said)
    shell.command(line)
    shell.follow()
    assert shell.session.vm.snapshot() == before, line
    assert len(shell.session.log) == sent, line
    answer = said.since(n)
    assert answer, f"no answer to {line!r}"
    return answer


BAD = {
    "take": "Take which line?",
    "take row": "Which row?",
    "take row 9": "There is no row 9",
    "take column x": "'x' is not a number",
    "take diagonal 1": "Say take row",
    "buy": "Buy which card?",
    "buy red 1": "'red' is not a colour",
    "buy green 7": "There is no level 7",
    "buy green 1": "You cannot buy the level-1 green card: you need",
    "buy green 3": "You cannot buy the level-3 green card: no slot has a level-2 card on top to take a level-3 card.",
    "play": "Play which leader?",
    "play 5": "There is no leader 5",
    "discard two": "'two' is not a number",
    "swap 1": "Say two shelves",
    "swap 1 1": "Choose two different shelves",
    "swap 1 9": "There is no shelf 9",
    "swap d1 2": "You have no leader's depot",
    "move 1 2 gold": "'gold' is not a resource",
    "end": "Take your main action first",
    "undo": "Nothing to undo yet",
    "say hello": "Nobody else is at this table",
    "say": "Say what?",
    "put 1 2": "That is for a market take",
    "slot 2": "That is for a purchase",
    "pay 1 Coin": "That is for productions",
    "white 1 Coin": "That is for a market take",
    "keep 1 2": "Your leaders are already chosen",
    "resources Coin": "You have no starting resources to choose now",
    "players 2": "The game has already started",
    "board Nobody": "No player called 'Nobody'",
    "log many": "'many' is not a number",
    "help fly": "No command 'fly'",
    "fly": "No command 'fly'",
    "produce": "Nothing can be produced now",
    "cancel": "Nothing to cancel",
}


def test_bad_arguments_and_what_cannot_be_done_are_answered_in_words(solo):
    shell, said = solo
    assert "Choose the 2 leaders" in said.since(0)
    assert "Keep exactly" not in ask(shell, said, "take row 1")   # before the game starts
    assert "has not started yet" in said[-1]
    assert "Say 2 different numbers" in ask(shell, said, "keep 1 1")
    start(shell, said)
    for line, words in BAD.items():
        answer = ask(shell, said, line)
        assert words in answer, (line, answer)
    assert shell.pending is None and shell.input.plan is None


def test_the_main_action_once_a_turn_and_the_turn_after(solo):
    shell, said = solo
    start(shell, said)
    n = len(said)
    shell.command("take row 2")
    assert "Taking row 2 gives" in said.since(n) and "Press Enter to take it" in said[-1]
    shell.command("market")                    # a question keeps the plan
    shell.command("")
    shell.follow()
    assert "You took row 2" in said.since(n)
    for line in ("take row 1", "buy green 1", "produce"):
        assert "You have taken your main action this turn" in ask(shell, said, line), line
    n = len(said)
    shell.command("undo")
    assert "Take back your last move" in said[-1]
    shell.command("")
    shell.follow()
    assert "You took back your market action." in said.since(n)
    column = next(c for c in range(4) if shell.session.market_line(False, c).resources)
    shell.command(f"take column {column + 1}")
    shell.command("discard 1")
    assert "discarded" in said.since(n)
    shell.command("suggest")
    shell.command("")
    shell.command("end")
    shell.command("")
    shell.follow()
    text = said.since(n)
    assert "You ended the turn. Lorenzo" in text and said[-1].startswith("Your turn."), text


def test_what_the_commands_say_about_the_table(solo):
    shell, said = solo
    start(shell, said)
    g = shell.session.vm.game
    n = len(said)
    shell.command("market")
    rows = [line for line in said[n:] if line.startswith("Row ")]
    marble = {"Zero": "white", "Faith": "red (Faith)"}
    assert rows[0].startswith("Row 1: " + ", ".join(marble.get(m, m) for m in g["market"]["grid"][0]) + ". Gives ")
    assert said[-1] == f"The spare marble: {marble.get(g['market']['slide'], g['market']['slide'])}."
    for query, first in (("grid", "The development cards on sale"), ("board", "Your board: 0 VP so far, faith 0."),
                         ("leaders", "1. "), ("track", "The faith track runs from 0 to 24."),
                         ("lorenzo", "Lorenzo il Magnifico: his black cross is on space 0"),
                         ("score", "Victory points so far"), ("help", "Questions, at any time"),
                         ("help take", "take row N | take column N:"), ("turn", "It is your turn")):
        n = len(said)
        shell.command(query)
        assert said[n].startswith(first), (query, said[n:])
        assert "\x1b" not in said.since(n)


def test_a_rearrangement_that_cannot_be_done_is_said_before_enter(tmp_path):
    """swap and move are tried first: what cannot be done is refused at once, in the board's
    words, and nothing waits for Enter; what can is said, then done on Enter."""
    config = default_config()
    session = GameSession(LocalMatch(config, "Ada", seed=5, save_path=tmp_path / "s.json"), config, "Ada")
    said = Said()
    shell = GameShell(session, said)
    shell.follow()
    start(shell, said)
    for _ in range(6):              # six turns of the first column that gives something
        column = next(c for c in range(4) if session.market_line(False, c).resources)
        for line in (f"take column {column + 1}", "", "end", ""):
            shell.command(line)
    shelves = [session.vm.container(cid)["content"] for cid in session.vm.me["warehouseShelves"]]
    assert shelves == [{}, {"Shield": 2}, {"Stone": 3}], shelves
    assert ask(shell, said, "swap 1 3") == "3 Stones do not fit on shelf 1: it holds 1."
    assert ask(shell, said, "move 2 1 Shield") == ("Moving 1 of the 2 Shields would put Shields on two shelves "
                                                   "(one kind per shelf): move them all, or swap the shelves.")
    assert shell.pending is None
    n = len(said)
    shell.command("swap 2 3")
    assert said[n:] == ["3 Stones do not fit on shelf 2: it holds 2."]
    shell.command("produce 1")
    shell.command("get 1 Coin")
    shell.command("")
    assert "You ran production (net +1 Coin" in said[-1], said[-3:]
    shell.command("end")
    shell.command("")
    # the next turn: what is paid from where, changed with use
    shell.command("produce 1")
    shell.command("pay 1 Coin Stone")
    assert said[-2] == "Paid with 1 Stone from shelf 3; 1 Coin from the strongbox.", said[-4:]
    assert ask(shell, said, "use Coin 3") == "There is no more Coin to pay from shelf 3: it holds 0."
    assert ask(shell, said, "use Stone strongbox") == "There is no more Stone to pay from the strongbox: it holds 0."
    assert ask(shell, said, "use Gold 1") == "'Gold' is not a resource: say Coin, Servant, Shield or Stone."
    shell.command("cancel")
    assert "That is for a purchase or productions" in ask(shell, said, "use Coin 1")
    # a Coin on a shelf as well as in the strongbox: either may pay
    line = next((r, i) for r in (True, False) for i in range(4 if not r else 3)
                if session.market_line(r, i).resources.get("Coin"))
    for typed_line in (f"take {'row' if line[0] else 'column'} {line[1] + 1}", "", "end", "", "produce 1",
                       "pay 1 Coin Stone"):
        shell.command(typed_line)
    paid = said[-2]
    assert "1 Coin from the strongbox" not in paid and "1 Coin from shelf" in paid, paid
    shell.command("use Coin strongbox")
    assert "1 Coin from the strongbox" in said[-2], said[-4:]
    shell.command("")
    assert "You ran production" in said[-1]
    assert session.vm.container(session.vm.me["strongbox"])["content"].get("Coin", 0) == 0
    shell.close()
    session.close()


def test_the_leaders_are_kept_by_their_numbers_alone_and_an_empty_line_says_what_is_asked(solo):
    """The leaders come as a numbered list, so "1 3" keeps the first and third, as "keep 1 3"
    does; Enter with nothing waiting says what the setup asks for, not only that it goes on."""
    shell, said = solo
    hand = list(shell.session.vm.me["leadersHand"])
    answer = ask(shell, said, "")
    assert "Choose the leaders you keep: say keep and their numbers" in answer
    n = len(said)
    shell.command("1 3")
    assert said.since(n).startswith("Keep your ") and "Press Enter" in said.since(n)
    shell.command("")
    shell.follow()
    assert shell.session.stage() == "board"
    assert shell.session.vm.game["players"][0]["nickname"] == "Ada"
    kept = [lid for lid in shell.session.vm.me.get("leadersHand", [])]
    assert kept == [hand[0], hand[2]]


def test_the_productions_of_a_plan_are_said_in_their_numbers_order(tmp_path):
    """produce 2 1 (or a hint's plan) lists the productions 1 then 2, as produce numbered them."""
    config = default_config()
    session = GameSession(LocalMatch(config, "Ada", seed=5, save_path=tmp_path / "s.json"), config, "Ada")
    said = Said()
    shell = GameShell(session, said)
    shell.follow()
    start(shell, said)
    while not any(slot for slot in session.vm.me["devSlots"]):     # a card bought as soon as one can be
        for colour in ("green", "blue", "yellow", "purple"):
            n = len(said)
            shell.command(f"buy {colour} 1")
            if said.since(n).startswith("Buying"):
                break
        else:
            column = next(c for c in range(4) if session.market_line(False, c).resources)
            shell.command(f"take column {column + 1}")
        for line in ("", "end", ""):
            shell.command(line)
    column = next(c for c in range(4) if session.market_line(False, c).resources)
    for line in (f"take column {column + 1}", "", "end", ""):       # something to produce with
        shell.command(line)
    n = len(said)
    shell.command("produce 2 1")
    assert said[n].startswith("1. The base production: "), said[n:]
    assert said[n + 1].startswith("2. The "), said[n:]
    shell.close()
    session.close()


def test_end_on_the_last_turn_of_the_game_says_the_game_ends(tmp_path):
    """In the last round, End from the last seat says the game ends there, not that the first
    player plays next."""
    from game.match import BotMatch
    config = default_config()
    session = GameSession(BotMatch(config, "Ada", ["easy"], seed=4, save_path=tmp_path / "b.json", pace=0),
                          config, "Ada")
    said = Said()
    shell = GameShell(session, said)
    try:
        shell.follow()
        assert [p["nickname"] for p in session.vm.game["players"]][-1] == "Ada"     # the last seat
        shell.command("keep 1 2")
        shell.command("")
        shell.command("resources Coin")
        shell.command("")
        until(lambda: session.stage() == "board" and session.vm.my_turn, shell.follow, what="Ada's turn")
        shell.command("take row 1")
        shell.command("")
        n = len(said)
        shell.command("end")
        assert said[n].startswith("End your turn. Beatrice (easy) plays next."), said[n:]
        shell.command("cancel")
        session.vm.game["lastRound"] = True        # as the view model marks it when the last round begins
        n = len(said)
        shell.command("end")
        assert said[n] == ("End your turn. It is the last turn of the last round: the game ends, and the final "
                           "scores follow. Press Enter to do it, or type another command."), said[n:]
    finally:
        shell.close()
        session.close()


def test_a_third_seat_hears_it_starts_with_faith(tmp_path):
    """The third seat receives a resource and starts on the faith track: both are said."""
    from game.match import BotMatch
    config = default_config()
    session = GameSession(BotMatch(config, "Ada", ["easy", "easy"], seed=1, save_path=tmp_path / "b.json", pace=0),
                          config, "Ada")
    said = Said()
    shell = GameShell(session, said)
    try:
        shell.follow()
        assert [p["nickname"] for p in session.vm.game["players"]][2] == "Ada"     # the third seat
        shell.command("keep 1 2")
        shell.command("")
        assert said[-1] == ("Your seat starts with 1 Faith on the track and 1 resource of your choice: say "
                            "resources and one (for example resources Coin)."), said[-3:]
    finally:
        shell.close()
        session.close()


def test_a_hint_that_comes_after_the_player_moved_on_is_said_dropped(solo):
    """The hint is thought about in the background; when it comes after the player started
    something else, it is not silently lost: the player is told, and can ask again."""
    shell, said = solo
    start(shell, said)

    class SlowHinter:         # the hard bot's answer, arriving when the test says
        answer = None

        def ask(self, view, nickname, version):
            self.version = version
            return True

        def take(self):
            got, self.answer = self.answer, None
            return got

        def close(self):
            pass

    shell.hinter = hinter = SlowHinter()
    shell.command("hint")
    assert said[-1] == "Thinking about a hint."
    shell.command("take row 1")                  # meanwhile the player arranges a take
    hinter.answer = (hinter.version, object())
    n = len(said)
    shell.follow()
    assert said[n:] == ["The hint came after you had moved on, so it is dropped: say hint again for one now."]
    assert shell.input.plan is not None          # what the player arranges stays


def test_a_plan_and_its_refusals_are_said_in_italian(solo):
    """The market take, the purchase and their refusals in the player's language: nothing of
    plan_words or the edits left in English."""
    from game import i18n
    shell, said = solo
    start(shell, said)
    try:
        i18n.use("it")
        n = len(said)
        shell.command("take row 2")
        assert "Prendere la riga 2 dà" in said.since(n) and said[-1].startswith("Premi Invio per prenderla"), said[n:]
        assert ask(shell, said, "put 1").startswith("Scrivi put, il numero della risorsa"), said[-1]
        assert ask(shell, said, "slot 1").startswith("Serve per un acquisto"), said[-1]
        assert ask(shell, said, "white 1 Coin").startswith("Le tue biglie bianche"), said[-1]
    finally:
        i18n.use("en")


def test_the_grid_says_which_level_no_slot_takes_not_this_card(solo):
    """At the start no slot takes a level-2 or level-3 card: the grid says it once a level, and
    names the level, not "this card" (no one card is meant there); in Italian too."""
    from game import i18n
    shell, said = solo
    start(shell, said)
    n = len(said)
    shell.command("grid")
    levels = [line for line in said[n:] if line.startswith("Level ")]
    assert levels[1] == ("Level 2: none can be bought now. No slot has a level-1 card on top to take a level-2 "
                         "card.")
    assert levels[2] == ("Level 3: none can be bought now. No slot has a level-2 card on top to take a level-3 "
                         "card.")
    assert "this card" not in said.since(n)
    try:
        i18n.use("it")
        n = len(said)
        shell.command("grid")
        levels = [line for line in said[n:] if line.startswith("Livello ")]
        assert levels[1] == ("Livello 2: ora non se ne può comprare nessuna. Nessuno spazio ha in cima una carta di "
                             "livello 1 su cui mettere una carta di livello 2."), levels
    finally:
        i18n.use("en")
