"""Productions: those a player may run now, and a request that runs several at once.
"""
from __future__ import annotations

from . import errors as E
from .actions import ReqActivateProductions
from .components import Production
from .state import PlayerState
from .warehouse import clean_res_map, new_contents_after_take


class Productions:
    """The production part of :class:`~game.rules.engine.Game` (a mixin: the engine's state is the game's)."""

    def available_productions(self, p: PlayerState) -> dict[int, Production]:
        """Productions ``p`` may run now: the base one, top cards, active production leaders."""
        cfg = self.config
        out = {cfg.base_production.id: cfg.base_production}
        for cid in p.top_cards():
            prod = cfg.dev_cards[cid].production
            out[prod.id] = prod
        for ld in self.active_leaders_of(p, "production"):
            if ld.production is not None:
                out[ld.production.id] = ld.production
        return out

    def _activate_productions(self, p: PlayerState, a: ReqActivateProductions) -> str:
        self._check_main(p)
        cfg = self.config
        if not a.prod_requests:
            raise E.ErrReplacedTransRecipe(True, "", 1, 0)
        available = self.available_productions(p)
        seen: set[int] = set()
        payment: dict[int, dict[str, int]] = {}
        out_res: dict[str, int] = {}
        faith = 0
        for req in a.prod_requests:
            pid = req.production
            if pid not in available or pid in seen:  # unknown ids too, as the reference answers
                raise E.ErrObjectNotOwned(pid, "ReducedProductionRequest")
            seen.add(pid)
            prod = available[pid]
            nonstore = clean_res_map(req.input_non_storable_rep, cfg.resources, is_input=True, is_replacement=True)
            if nonstore:
                raise E.ErrInvalidResourceTransaction(True, True, E.ILLEGAL_STORABLE)
            reps = clean_res_map(req.output_rep, cfg.resources, is_input=False, is_replacement=True)
            n_reps = sum(reps.values())
            if n_reps != prod.output_choice:
                raise E.ErrReplacedTransRecipe(False, "", prod.output_choice, n_reps)
            paid: dict[str, int] = {}
            for cid, m in req.input_containers.items():
                for r, n in clean_res_map(m, cfg.resources, is_input=True, is_replacement=False).items():
                    paid[r] = paid.get(r, 0) + n
                    into = payment.setdefault(cid, {})
                    into[r] = into.get(r, 0) + n
            for r, n in prod.input.items():
                if paid.get(r, 0) < n:
                    raise E.ErrReplacedTransRecipe(True, r, n, paid.get(r, 0))
            need = sum(prod.input.values()) + prod.input_choice
            if sum(paid.values()) != need:
                raise E.ErrReplacedTransRecipe(True, "", need, sum(paid.values()))
            for r, n in prod.output.items():
                if r == "Faith":
                    faith += n
                else:
                    out_res[r] = out_res.get(r, 0) + n
            for r, n in reps.items():
                out_res[r] = out_res.get(r, 0) + n
        new = new_contents_after_take(self._payment(p, payment))
        # committed from here on
        self.main_done = True
        if out_res:
            box = new.get(p.strongbox, dict(p.strongbox.content))
            for r, n in out_res.items():
                box[r] = box.get(r, 0) + n
            new[p.strongbox] = box
        self._commit(new)
        if faith:
            self._faith_step({p.seat: faith})
        return a.ACTION
