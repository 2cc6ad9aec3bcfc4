"""The end of a game and a lost connection, headless: the scores add up and the winner leads,
the overlay over a board whose connection was lost, and the router's scene for every stage."""
from __future__ import annotations

import pygame
import pytest

from game.rules.actions import ReqChooseLeaders, ReqChooseResources
from game.rules.engine import Game, Termination
from game.rules.views import player_view
from game.client.session import GameSession

from walk import click, frames
from support.sessions import LAN_HOST, ended_session, table_session, waiting_session
from support.table import Feed

pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)


# ---------------------------------------------------------------------------- game over
class TestGameOver:
    def test_scores_add_up_and_the_winner_leads(self, app):
        from game.client.outcome import final_scores
        from game.scenes.game_over import GameOverScene
        s = ended_session(app.config, ["Ada", "Bea", "Cy"])
        rows = final_scores(s)
        for _nick, sc in rows:
            assert sc["total"] == sc["cards"] + sc["faith_track"] + sc["favors"] + sc["leaders"] + sc["resource_vp"]
        scene = GameOverScene(app, s)
        assert scene.headline.endswith("win" if s.vm.game["winnerPlayer"] == s.nickname else "wins")
        assert rows[0][0] == s.vm.game["winnerPlayer"]

    def test_the_ratings_change_is_said_under_the_scores(self, app):
        from game.scenes.game_over import GameOverScene
        s = ended_session(app.config, ["Ada", "Bea"])
        scene = GameOverScene(app, s)
        app.stack.reset(scene)
        scene.update = lambda dt: None
        app.draw()
        below = scene.sheet.bottom + round(30 * scene.unit)
        strip = pygame.Rect(scene.sheet.x, below, scene.sheet.w, round(30 * scene.unit))
        before = pygame.image.tobytes(app.window.subsurface(strip), "RGB")
        s._take({"type": "UpdateRatingChange", "ratings": [
            {"player": "Ada", "before": 0, "after": 4}, {"player": "Bea", "before": 0, "after": -2}]})
        assert s.rating_change == "Ratings: you 0 \u2192 4, Bea 0 \u2192 \u22122."
        app.draw()
        assert pygame.image.tobytes(app.window.subsurface(strip), "RGB") != before

    def test_a_shared_win_is_told_as_one(self, app):
        from game.scenes.game_over import GameOverScene
        g = Game.new(app.config, ["Ada", "Bea", "Cy"], 11)
        for p in g.players:
            g.apply(p.nickname, ReqChooseLeaders(tuple(p.hand[:2])))
        for p in g.players:
            if not p.chose_resources:
                g.apply(p.nickname, ReqChooseResources({p.shelves[2].id: {"Coin": p.bonus}}))
        cards = app.config.dev_cards
        a_card = next(i for i, c in enumerate(cards) if c.level == 1)
        b_card = next(i for i, c in enumerate(cards) if i != a_card and c.level == 1
                      and c.victory_points == cards[a_card].victory_points)
        for p in g.players:   # Ada and Bea level on points and on resources left; Cy behind
            p.faith = 9 if p.nickname != "Cy" else 2
            p.slots = [[a_card if p.nickname == "Ada" else b_card], [], []] if p.nickname != "Cy" else [[], [], []]
            p.strongbox.content = {"Coin": 3}
            for shelf in p.shelves:
                shelf.content = {}
        g._end(Termination.ROUND_COMPLETED)
        assert g.outcome().winners == ("Ada", "Bea")
        for me, headline in (("Bea", "You share the win"), ("Cy", "A shared win")):
            s = GameSession(Feed(me, [player_view(g, me)], host=LAN_HOST), app.config, me)
            s.pump()
            scene = GameOverScene(app, s)
            assert scene.headline == headline
            assert "Ada and Bea tied on points and resources left" in scene.why

    def test_lorenzo_wins_solo(self, app):
        from game.scenes.game_over import GameOverScene
        s = ended_session(app.config, ["Ada"], lorenzo=True)
        scene = GameOverScene(app, s)
        assert scene.headline == "Lorenzo il Magnifico wins"
        assert "faith track" in scene.why

    def test_back_to_the_title(self, app):
        from game.scenes.game_over import GameOverScene
        from game.scenes.title import TitleScene
        s = ended_session(app.config, ["Ada"])
        app.stack.push(GameOverScene(app, s))
        frames(app, 2)
        click(app, "title")
        assert isinstance(app.stack.top, TitleScene)


# ---------------------------------------------------------------------------- router & overlay
class TestOverlay:
    def _game(self, app):
        from game.scenes.waiting import WaitingScene
        s, g = waiting_session(app.config, ["Ada", "Bea"])
        scene = WaitingScene(app, s)
        app.stack.push(scene)
        frames(app, 2)
        return scene, s

    def test_lost_connection_covers_the_game_and_goes_away_when_back(self, app):
        from game.scenes.overlay import ConnectionOverlay
        from game.scenes.waiting import WaitingScene
        from game.scenes.backdrop import dim
        scene, s = self._game(app)
        behind = app.window.copy()
        dim(behind)
        s.match._out.append({"type": "ConnectionLost"})
        frames(app, 2)
        overlay = app.stack.top
        assert isinstance(overlay, ConnectionOverlay)
        w, h = app.size                               # the game stays visible under the veil, dimmed
        around = [(x, y) for x in range(8, w, w // 16) for y in range(8, h, h // 12)
                  if not overlay.card.collidepoint(x, y)]
        same = sum(app.window.get_at(p) == behind.get_at(p) for p in around)
        assert same >= 0.9 * len(around), (same, len(around))
        s.match._out.append({"type": "Reconnected"})
        frames(app, 2)
        assert isinstance(app.stack.top, WaitingScene)

    def test_a_connection_lost_while_leaders_are_chosen_says_they_come_back_not_the_board(self, app, monkeypatch):
        """QA: the card said "the board will be back as it was" during the choice of leaders,
        where there is no board yet."""
        from game.scenes import overlay as O
        from game.scenes.router import scene_for
        drawn: list[str] = []
        tracked = O.tracked
        monkeypatch.setattr(O, "tracked", lambda text, *a, **k: (drawn.append(text), tracked(text, *a, **k))[1])
        s, _g = table_session(app.config, ["Ada", "Bea"], 0)
        app.stack.push(scene_for(app, s))
        frames(app, 2)
        s.match._out.append({"type": "ConnectionLost"})
        frames(app, 2)
        assert isinstance(app.stack.top, O.ConnectionOverlay)
        assert drawn and drawn[-1] == "your leaders will be back to choose from", drawn
        assert not any("board" in words for words in drawn)

    def test_a_failed_reconnection_says_so_and_leave_goes_to_the_title(self, app):
        from game.scenes.title import TitleScene
        from game.scenes.overlay import ConnectionOverlay
        _scene, s = self._game(app)
        s.match._out.extend([{"type": "ConnectionLost"}, {"type": "ReconnectFailed", "reason": "server unreachable"}])
        frames(app, 3)
        top = app.stack.top
        assert isinstance(top, ConnectionOverlay) and top.failed
        assert top.widgets["leave"].text == "Back to the title"
        click(app, "leave")
        assert isinstance(app.stack.top, TitleScene)

    def test_router_maps_every_stage(self, app, board_module):
        from game.scenes import game_over, leaders, lobby, router
        s = GameSession(Feed("Ada", host=LAN_HOST), app.config, "Ada")
        assert isinstance(router.scene_for(app, s), lobby.LobbyScene)
        s, _ = table_session(app.config, ["Ada"], 0)
        assert isinstance(router.scene_for(app, s), leaders.LeaderChoiceScene)
        s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
        s.pump()
        assert isinstance(router.scene_for(app, s), board_module.BoardScene)
        assert isinstance(router.scene_for(app, ended_session(app.config, ["Ada"])), game_over.GameOverScene)
