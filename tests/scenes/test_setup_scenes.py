"""The set-up's scenes, headless: the leaders' choice, the starting resources, and the wait for
the others' choices."""
from __future__ import annotations

import pytest

from game.rules.actions import ReqChooseLeaders

from walk import click, click_at, frames, not_flat
from support.sessions import table_session, waiting_session

pytestmark = [pytest.mark.timeout(120), pytest.mark.seed(1)]   # (seed: the deal of every game started here)


# ---------------------------------------------------------------------------- leaders
class TestLeaderChoice:
    def test_a_third_pick_replaces_the_oldest_and_clicking_again_unselects(self, app):
        from game.scenes.leaders import LeaderChoiceScene
        s, _ = table_session(app.config, ["Ada"], 0)
        scene = LeaderChoiceScene(app, s)
        app.stack.push(scene)
        frames(app, 2)
        a, b, c, _d = scene.hand
        for i in (0, 1, 2):
            click_at(app, scene.card_rects[i].center)
        assert scene.selected == [b, c]
        click_at(app, scene.card_rects[1].center)
        assert scene.selected == [c]
        assert not scene.widgets["confirm"].is_enabled

    def test_words_for_every_leader(self, app):
        from game.scenes.leaders import leader_words
        s, _ = table_session(app.config, ["Ada"], 0)
        prods = {p["id"]: p for p in s.vm.game["productions"]}
        for ld in s.vm.game["leaderCards"]:
            name, ability, need, vp = leader_words(ld, prods)
            assert name and ability.endswith(".") and need.startswith("To play it you need") and vp > 0


# ---------------------------------------------------------------------------- resources
class TestResourceChoice:
    def _scene(self, app, seat):
        from game.scenes.resources import ResourceChoiceScene
        s, g = table_session(app.config, ["Ada", "Bea", "Cy", "Dan"], seat)
        s.send(ReqChooseLeaders(tuple(s.vm.me["leadersHand"][:2])))
        s.pump()
        assert s.stage() == "resources"
        scene = ResourceChoiceScene(app, s)
        app.stack.push(scene)
        frames(app, 2)
        return scene, s

    def test_two_of_a_kind_need_a_shelf_of_two(self, app):
        scene, s = self._scene(app, 3)
        assert scene.count == 2
        click_at(app, scene.token_rects["Shield"].center)
        click_at(app, scene.token_rects["Shield"].center)
        assert scene.picks == ["Shield", "Shield"]
        assert scene.valid_shelves("Shield") == [1, 2]
        assert not scene.widgets["shelf_Shield_0"].is_enabled
        click(app, "shelf_Shield_2")
        assert scene.shelf_of == {"Shield": 2}
        click(app, "confirm")
        assert s.stage() == "waiting"
        bottom = s.vm.me["warehouseShelves"][2]
        assert s.vm.container(bottom)["content"] == {"Shield": 2}

    def test_two_kinds_go_on_two_shelves_and_swap(self, app):
        scene, _s = self._scene(app, 3)
        scene.pick("Coin")
        scene.pick("Stone")
        assert len(set(scene.shelf_of.values())) == 2
        coin = scene.shelf_of["Coin"]
        scene.put("Stone", coin)
        assert scene.shelf_of["Stone"] == coin and scene.shelf_of["Coin"] != coin
        assert scene.ready

    def test_one_resource_then_unpick(self, app):
        scene, _s = self._scene(app, 1)
        assert scene.count == 1
        scene.pick("Coin")
        scene.pick("Servant")           # replaces the only pick
        assert scene.picks == ["Servant"]
        click_at(app, scene.pick_rects[0].center)
        assert scene.picks == [] and not scene.widgets["confirm"].is_enabled


def test_waiting_lists_who_has_chosen(app):
    from game.scenes.waiting import WaitingScene
    s, g = waiting_session(app.config, ["Ada", "Bea"])
    assert s.stage() == "waiting"
    scene = WaitingScene(app, s)
    app.stack.push(scene)
    frames(app, 2)
    assert isinstance(app.stack.top, WaitingScene)
    assert not_flat(app.window)
