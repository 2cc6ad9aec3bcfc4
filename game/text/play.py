"""A game in typed commands: the actions and what others do, over one
:class:`~game.client.session.GameSession`.

:class:`GameShell` takes a line (:meth:`GameShell.command`) and says what it does through
``say``; :meth:`GameShell.follow` takes what arrived from the match (others' moves, refusals,
the player's turn, the end) and says it (:class:`~game.text.news.News`). An action is said
before it is sent and waits for Enter (an empty line): the plan it builds is the board's own
(:class:`~game.client.board_input.BoardInput` with the same targets a click gives), so every
refusal is in the board's words. The rules are never asked here but through the session and the
plans. The questions (:mod:`.queries`) and the plan edits (:mod:`.edits`) are commands of their
own modules; the words of every command are :mod:`.vocabulary`'s.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from game.client import board_input as BI
from game.client.board_input import BoardInput
from game.client.greyed import greyed_words
from game.client.hint import Hinter
from game.client.plans import MarketPlan
from game.client.session import GameSession
from game.client.watch_words import HIDE_OFF, HIDE_ON, watchers_words
from game.client.words import CLICK_TO_BUY, colour_name, leader_words
from game.i18n import _, ngettext

from . import describe as D
from .edits import PlanEdits
from .news import News
from .plan_words import box, place, production_names
from .queries import Queries
from .vocabulary import ALIASES, COLOURS, HELP, Refused, number, resource

log = logging.getLogger("mor.text")

Say = Callable[[str], None]


class GameShell(Queries, PlanEdits):
    """Typed commands over one game (see the module docstring)."""

    def __init__(self, session: GameSession, say: Say, wake: Callable[[], None] | None = None) -> None:
        self.session = session
        self.say = say
        self.wake = wake
        self.input = BoardInput(session)
        self.pending: tuple[str, Callable[[], None]] | None = None   # a one-step action waiting for Enter
        self.hinter: Hinter | None = None
        self.left = False                # the player left the game (back to the menu)
        self.news = News(session, say)   # what arrives, said

    @property
    def vm(self) -> Any:
        return self.session.vm

    # ------------------------------------------------------------------ what arrives
    def follow(self) -> None:
        """Take what the match sent and say what is new: lines of the log, a refusal, the stage
        of the game, the player's turn, a lost connection, the end."""
        s = self.session
        msgs = s.pump()
        mine = any(m.get("type") == "UpdateCurrentPlayer" and m.get("player") == s.nickname for m in msgs)
        if self.hinter is not None:
            self._take_hint()
        self.news.tell()
        stage = s.stage()
        entered = self.news.enter(stage)
        if entered and stage == "ended":
            self.input.cancel()
            self.pending = None
        if (self.news.turn_started() or mine) and stage == "board" and self.vm.my_turn:
            self.pending = None
            if not entered:
                said = D.turn(s).split(": ", 1)[-1]
                self.say(_("Your turn. {what_to_do}").format(what_to_do=said[:1].upper() + said[1:]))
        if not self.input.can_act() and (self.input.plan is not None or self.pending is not None) \
                and stage in ("board", "ended"):
            self.input.turn_over()
            self.pending = None

    # ------------------------------------------------------------------ commands
    def command(self, line: str) -> None:
        """One typed line: a query, an action (said, then Enter sends it), a plan edit, Enter."""
        self._command(line)
        self.follow()            # what the match answered (at once for a game on this machine)

    def ask(self, line: str) -> None:
        """A question alone (``market``, ``board``…: no action, nothing followed), for a replay."""
        self._command(line)

    def _command(self, line: str) -> None:
        text = line.strip()
        if not text:
            self.confirm()
            return
        words = text.split()
        if words[0].isdigit() and self.session.vm.game is not None and self.session.stage() == "leaders":
            words = ["keep", *words]       # the leaders were said as a numbered list: "1 3" keeps them
        name = words[0].lower()
        name = ALIASES.get(" ".join(w.lower() for w in words[:2]), ALIASES.get(name, name))
        args = words[1:] if name != "end" else []
        handler = getattr(self, "do_" + name, None)
        if handler is None:
            self.say(_("No command {word!r}. Say help for the commands.").format(word=words[0]))
            return
        try:
            if name in ("say",):
                handler(text.split(None, 1)[1] if len(words) > 1 else "")
            else:
                handler(args)
        except Refused as e:
            self.say(str(e))

    def confirm(self) -> None:
        """Enter: the plan or the action said last is sent; with nothing waiting, whose turn it is."""
        plan = self.input.plan
        if plan is not None:
            if not self.input.can_act():
                self.input.turn_over()
                self.say(greyed_words("confirm", self.session, None) or _("You cannot act now."))
                return
            problem = plan.problem() if hasattr(plan, "problem") else None
            if not getattr(plan, "ready", True):
                self.say(problem or _("It is not ready yet."))
                return
            self.input.send_plan()
            return
        if self.pending is not None:
            _what, do = self.pending
            self.pending = None
            do()
            return
        self.say(self._turn_words())

    def _ask(self, what: str, do: Callable[[], None]) -> None:
        """Say what an action would do; Enter does it."""
        self.input.cancel()
        self.pending = (what, do)
        self.say(_("{what} Press Enter to do it, or type another command.").format(what=what))

    def _need_turn(self, key: str = "") -> None:
        """Refuse an action when it is not this player's to do now (the board's words)."""
        g = self.vm.game
        if g is None or not g.get("isSetupDone"):
            raise Refused(_("The game has not started yet: first the leaders and starting resources are chosen."))
        if not self.input.can_act():
            raise Refused(greyed_words(key or "act", self.session, None) or _("You cannot act now."))

    def _need_main(self) -> None:
        self._need_turn()
        if self.vm.game["isMandatoryActionDone"]:
            raise Refused(greyed_words("produce", self.session, None) or _("Your main action is done."))

    # actions --------------------------------------------------------------
    def do_players(self, args: list[str]) -> None:
        s = self.session
        if s.vm.game is not None:
            # (a player who says players in a game wants to hear who plays: said where that is)
            raise Refused(_("The game has already started: players chooses how many play, in a server's waiting "
                            "room. Say score for everyone's points, or board and a name for a player's board."))
        if not s.remote:
            raise Refused(_("That is for a table on a server."))
        if s.lobby.players_count is not None:
            raise Refused(_("The number of players is already chosen: a game of {players_count}.").format(players_count=s.lobby.players_count))
        if s.lobby.head != s.nickname:
            if s.lobby.head:
                raise Refused(_("Only the first player in the waiting room chooses the number of players "
                                "({name}).").format(name=s.lobby.head))
            raise Refused(_("Only the first player in the waiting room chooses the number of players."))
        if not args:
            raise Refused(_("Say players and a number from 1 to 4."))
        n = number(args[0], 4, "number of players") + 1
        levels = []
        for w in args[1:]:
            level = next((lv for lv in ("easy", "medium", "hard") if lv.startswith(w.lower())), None)
            if level is None:
                raise Refused(_("{word!r} is not a level: say easy, medium or hard.").format(word=w))
            levels.append(level)
        if len(levels) > n - 1:
            raise Refused(ngettext("A game of {n} has room for {bots} computer player besides you.",
                                   "A game of {n} has room for {bots} computer players besides you.", n - 1).format(
                n=n, bots=n - 1))
        s.match.new_game(n, levels or None)
        if levels:
            self.say(ngettext("Asked for a game of {n} with {bots} computer player.",
                              "Asked for a game of {n} with {bots} computer players.", len(levels)).format(
                n=n, bots=len(levels)))
        else:
            self.say(_("Asked for a game of {n}.").format(n=n))

    def do_take(self, args: list[str]) -> None:
        self._need_main()
        if not args:
            raise Refused(_("Take which line? Say take row 1 to 3, or take column 1 to 4."))
        kind = args[0].lower()
        rest = args[1:]
        if kind[:1] in ("r", "c") and kind[1:].isdigit():    # take r2, take c3
            kind, rest = kind[:1], [kind[1:]]
        grid = self.vm.game["market"]["grid"]
        if kind in ("row", "r"):
            is_row, most = True, len(grid)
        elif kind in ("column", "col", "c"):
            is_row, most = False, len(grid[0])
        else:
            raise Refused(_("Say take row and a number from 1 to 3, or take column and a number from 1 to 4."))
        if not rest:
            raise Refused((_("Which row? Say a number from 1 to {most}.") if is_row else
                           _("Which column? Say a number from 1 to {most}.")).format(most=most))
        index = number(rest[0], most, "row" if is_row else "column")
        self.pending = None
        self.input.cancel()
        self.input.click(BI.Line(is_row, index))
        self._say_plan()

    def do_buy(self, args: list[str]) -> None:
        self._need_main()
        if len(args) < 2:
            raise Refused(_("Buy which card? Say buy, its colour and its level, for example buy green 1."))
        colour = next((c for c in COLOURS if c.lower().startswith(args[0].lower())), None)
        if colour is None:
            raise Refused(_("{word!r} is not a colour of the cards: say green, blue, yellow or purple.").format(word=args[0]))
        level = number(args[1], 3, "level") + 1
        why = self.session.purchase_words(colour, level)
        if why is None:
            raise Refused(_("No level-{level} {colour} card is left on the grid.").format(colour=colour_name(colour),
                                                                                         level=level))
        if why != _(CLICK_TO_BUY):
            raise Refused(_("You cannot buy the level-{level} {colour} card: {why}").format(
                level=level, colour=colour_name(colour), why=why[:1].lower() + why[1:]))
        self.pending = None
        self.input.cancel()
        self.input.click(BI.Card(colour, level))
        if len(args) >= 4 and args[2].lower() == "slot":
            self.do_slot(args[3:])
            return
        self._say_plan()

    def do_produce(self, args: list[str]) -> None:
        self._need_main()
        if not self.session.can_produce():
            raise Refused(greyed_words("produce", self.session, None) or _("Nothing can be produced now."))
        names = production_names(self.vm)
        if not args:
            self.say(_("The productions you have (say produce and their numbers, for example produce 1 2):"))
            for i, (pid, name) in enumerate(names):
                prod = self._production(pid)
                self.say(f"{i + 1}. {name}: {D.production_words(prod)}.")
            return
        chosen = []
        for a in args:
            if a.lower() == "base":
                chosen.append(names[0][0])
            else:
                chosen.append(names[number(a, len(names), "production")][0])
        self.pending = None
        self.input.cancel()
        self.input.start_production()
        for pid in dict.fromkeys(chosen):
            self.input.click(BI.Production(pid))
        self._say_plan()

    def _production(self, pid: int) -> dict:
        return next(p for p in self.vm.game["productions"] if p["id"] == pid)

    def _leader_index(self, args: list[str], verb: str) -> int:
        hand = list(self.vm.me["leadersHand"])
        if not args:
            if verb == "play":
                raise Refused(_("Play which leader? Say play and its number (leaders lists them)."))
            raise Refused(_("Discard which leader? Say discard and its number (leaders lists them)."))
        return hand[number(args[0], len(hand), "leader")] if hand else -1

    def do_play(self, args: list[str]) -> None:
        self._need_turn()
        if not self.vm.me["leadersHand"]:
            raise Refused(_("You have no leaders."))
        lid = self._leader_index(args, "play")
        ld = self.vm.leader(lid)
        name, ability, _need, vp = leader_words(ld, {p["id"]: p for p in self.vm.game["productions"]})
        if ld["active"]:
            raise Refused(_("Your {name} is already in play.").format(name=name))
        why = self.session.leader_refusal(lid)
        if why is not None:
            raise Refused(_("You cannot play your {name} yet: it needs {missing}.").format(name=name, missing=D.missing(why)))
        self._ask(_("Play your {leader} ({vp} VP): {ability}").format(leader=name, vp=vp, ability=ability),
                  lambda: self.input.leader_action(lid, True))

    def do_discard(self, args: list[str]) -> None:
        if isinstance(self.input.plan, MarketPlan):
            self._plan_discard(args)
            return
        self._need_turn()
        if not self.vm.me["leadersHand"]:
            raise Refused(_("You have no leaders."))
        lid = self._leader_index(args, "discard")
        ld = self.vm.leader(lid)
        name = leader_words(ld, {})[0]
        if ld["active"]:
            raise Refused(_("A leader in play stays in play: only a leader still in your hand can be discarded."))
        self._ask(_("Discard your {leader} for 1 Faith.").format(leader=name), lambda: self.input.leader_action(lid, False))

    def do_swap(self, args: list[str]) -> None:
        self._move(args, swap_first=True)

    def do_move(self, args: list[str]) -> None:
        self._move(args, swap_first=False)

    def _move(self, args: list[str], swap_first: bool) -> None:
        self._need_turn()
        if len(args) < 2:
            raise Refused(_("Say two shelves: swap 1 2 (depots are d1 and d2)."))
        a, b = place(self.vm, args[0]), place(self.vm, args[1])
        if a == b:
            raise Refused(_("Choose two different shelves."))
        unit = resource(args[2]) if len(args) > 2 else None
        plan = self.input.plan
        if isinstance(plan, MarketPlan):    # before the take, in the plan: sent with it
            self.input.selected_item = self.input.selected_shelf = None
            if unit is not None:
                self.input.selected_shelf = a
                self.input.drop(a, BI.Shelf(b), unit)
            else:
                self.input.click(BI.Shelf(a))
                self.input.click(BI.Shelf(b))
            self._say_plan()
            return
        if plan is not None:
            raise Refused(_("Finish or cancel what you are arranging first."))
        request, why = self.input.rearrangement(a, b, unit, swap_first)
        if request is None:            # said now, in the board's words: nothing to confirm
            raise Refused(why or _("Nothing there to move."))
        self._ask(self.input.request_words(request) + ".", lambda: self.input.rearrange(a, b, unit, swap_first))

    def do_end(self, args: list[str]) -> None:
        self._need_turn("end")
        if not self.vm.game["isMandatoryActionDone"]:
            raise Refused(greyed_words("end", self.session, None) or _("Take your main action first."))
        players = self.vm.game["players"]
        me = next(i for i, p in enumerate(players) if p["nickname"] == self.session.nickname)
        later = [p["nickname"] for p in players[me + 1:] if p.get("active", True)]   # this round's
        after = next(iter(later + [p["nickname"] for p in players[:me] if p.get("active", True)]), None)
        if len(players) == 1:
            who = _("Lorenzo takes his turn: one token from his pile.")
        elif self.vm.game.get("lastRound") and not later:
            who = _("It is the last turn of the last round: the game ends, and the final scores follow.")
        else:
            who = (_("{name} plays next.").format(name=self.session.shown_name(after)) if after
                   else _("You play again: nobody else is at the table."))
        self._ask(_("End your turn. {who}").format(who=who), self.session.end_turn)

    def do_undo(self, args: list[str]) -> None:
        self._need_turn("undo")
        why = self.session.undo_words()
        if why is not None:
            raise Refused(why)
        self._ask(_("Take back your last move of this turn."), self.session.undo)

    def do_hint(self, args: list[str]) -> None:
        self._need_turn()
        if self.hinter is None:
            self.hinter = Hinter(self.session.config, on_ready=self.wake)
        self.input.cancel()
        self.pending = None
        if self.hinter.ask(self.vm.game, self.vm.nickname, self.session.version):
            self.say(_("Thinking about a hint."))
        else:
            self.say(_("Still thinking about the last hint."))

    def _take_hint(self) -> None:
        got = self.hinter.take() if self.hinter is not None else None
        if got is None:
            return
        version, answer = got
        if answer is None:
            self.say(_("No hint could be found this time."))
            return
        if not self.input.can_act():
            return                   # the turn is over: the hint is for a turn gone
        if version != self.session.version or self.input.plan is not None or self.pending is not None:
            self.say(_("The hint came after you had moved on, so it is dropped: say hint again for one now."))
            return
        self.input.take_hint(answer.action, answer.why, answer.then)
        self._say_plan()

    def do_say(self, text: str) -> None:
        if not text.strip():
            raise Refused(_("Say what? Type say and your words."))
        if not self.session.can_chat:
            raise Refused(_("Talking to the table opens when the game starts.") if self.session.remote
                          and self.vm.game is None else _("Nobody else is at this table to talk to."))
        self.session.chat(text)

    def do_watchers(self, args: list[str]) -> None:
        """How many watch; ``hide`` or ``show`` the watchers' chat (the server confirms it)."""
        w = self.session.watchers
        if not args:
            self.say(watchers_words(w.count) + (" " + _(HIDE_ON) if w.hidden else ""))
            return
        if args[0].lower() not in ("hide", "show") or not self.session.remote:
            raise Refused(_("Say watchers hide, or watchers show (at a server's table)."))
        hide = args[0].lower() == "hide"
        self.session.hide_watchers(hide)
        self.say(_(HIDE_ON if hide else HIDE_OFF))

    def do_keep(self, args: list[str]) -> None:
        self._game()
        if self.session.stage() != "leaders":
            raise Refused(_("Your leaders are already chosen."))
        hand = list(self.vm.me["leadersHand"])
        keep = int(self.vm.me["setup"].get("chosenLeadersCount", 2))
        picked = list(dict.fromkeys(hand[number(a, len(hand), "leader")] for a in args))
        if len(picked) != keep:
            raise Refused(_("Say {keep} different numbers from 1 to {n}, for example keep 1 3.").format(keep=keep, n=len(hand)))
        prods = {p["id"]: p for p in self.vm.game["productions"]}
        names = D.joined([leader_words(self.vm.leader(lid), prods)[0] for lid in picked])
        self._ask(_("Keep your {leaders}.").format(leaders=names), lambda: self.session.choose_leaders(picked))

    def do_resources(self, args: list[str]) -> None:
        self._game()
        if self.session.stage() != "resources":
            raise Refused(_("You have no starting resources to choose now."))
        from game.client.plans import starting_placement
        n = int(self.vm.me["setup"].get("initialResources", 0))
        picked = [resource(a) for a in args]
        if len(picked) != n:
            raise Refused(ngettext("Say {n} resource: Coin, Servant, Shield or Stone.",
                                   "Say {n} resources: Coin, Servant, Shield or Stone.", n).format(n=n))
        shelves = [self.vm.container(cid) for cid in self.vm.me["warehouseShelves"]]
        placed = starting_placement(picked, [(c["id"], c["size"]) for c in shelves])
        where = "; ".join(_("{what} on {box}").format(what=D.counted(m), box=box(self.vm, cid)) for cid, m in placed.items())
        self._ask(_("Start with {where}.").format(where=where), lambda: self.session.choose_resources(placed))

    def do_cancel(self, args: list[str]) -> None:
        if self.input.plan is None and self.pending is None:
            self.say(_("Nothing to cancel."))
            return
        self.input.cancel()
        self.pending = None
        self.say(_("Dropped: nothing was sent."))

    def do_leave(self, args: list[str]) -> None:
        self.left = True


    # ------------------------------------------------------------------ completion
    def words(self) -> list[str]:
        """Every command word (for completion)."""
        return sorted({*HELP, *ALIASES} - {"end turn"})

    def close(self) -> None:
        if self.hinter is not None:
            self.hinter.close()
            self.hinter = None
