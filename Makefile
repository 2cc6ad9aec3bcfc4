# Masters of Renaissance — everyday commands.
# Every target that runs code first makes sure .venv exists and is up to date.

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv catalogues play test bench bench-bots bench-bots-quick screenshots dist clean

venv: $(STAMP)

$(VPY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when pyproject.toml is newer than the stamp. The installing is done by uv (in
# the venv, itself installed by pip): the same versions as pip's, in a quarter of the time (measured
# here on a fresh clone: pip 33-44 s, uv 10-16 s with its own install). Where uv cannot be had or
# fails, pip does it as before.
$(STAMP): pyproject.toml | $(VPY)
	$(VPY) -m pip install --quiet uv && $(VPY) -m uv pip install --quiet --python $(VPY) -e '.[test]' \
		|| $(VPY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# ---- the message catalogues (docs/translating.md): each language's .po compiled to its .mo
LOCALE  := game/locale
PYBABEL := $(VENV)/bin/pybabel
POS     := $(wildcard $(LOCALE)/*/LC_MESSAGES/mor.po)
MOS     := $(POS:.po=.mo)

$(LOCALE)/%/LC_MESSAGES/mor.mo: $(LOCALE)/%/LC_MESSAGES/mor.po | $(STAMP)
	$(PYBABEL) compile --statistics -D mor -i $< -o $@

# every marked word of game/ into the template, the template into each language's catalogue
# (new words untranslated, changed ones fuzzy: both fail tests/i18n until translated), then compiled.
# A template whose words did not change is left as it was, byte for byte: Babel dates every
# extraction (POT-Creation-Date), so the new one replaces it only when another line differs.
catalogues: venv
	$(PYBABEL) extract -F babel.cfg -k NP_:1c,2 -k NN_:1,2 --no-location --sort-output \
		--add-comments=TRANSLATORS: --project="Masters of Renaissance" -o $(LOCALE)/mor.pot.new game
	@if [ -f $(LOCALE)/mor.pot ] && diff -q -I '^"POT-Creation-Date: ' $(LOCALE)/mor.pot $(LOCALE)/mor.pot.new >/dev/null; \
	then rm $(LOCALE)/mor.pot.new; echo "$(LOCALE)/mor.pot: no word changed, kept as it was"; \
	else mv $(LOCALE)/mor.pot.new $(LOCALE)/mor.pot; fi
	$(PYBABEL) update -D mor -i $(LOCALE)/mor.pot -d $(LOCALE) --ignore-obsolete --ignore-pot-creation-date
	$(MAKE) --no-print-directory $(MOS)

# Python keeps what it compiles, under .venv/pycache, out of the source tree, even where the
# environment says not to (PYTHONDONTWRITEBYTECODE): else every process compiles every module again.
# The suite starts hundreds (servers, text clients, bot and hint workers, benches) and pytest rewrites
# every test module in each of its workers: measured here, a server's start 0.46 -> 0.25 CPU-s,
# collecting the tests 18.7 -> 3.0 CPU-s.
KEPT := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX="$(CURDIR)/$(VENV)/pycache"

play: venv $(MOS)
	$(KEPT) $(VPY) main.py

# the suite on both cores, in three pytest-xdist workers (TEST_JOBS=0 runs it in this one process):
# about a seventh of its time is spent waiting (on the servers, apps and clocks its tests start),
# which a third worker fills: measured here on a clean clone, 448-488 s where two workers took
# 503-533 s. The tests that depended on timing or order under that load were mended (issue 27).
TEST_JOBS ?= 3

# pytest rewrites each test module once, kept under .venv/pycache (see KEPT): here in two processes,
# one per core, each collecting half the tests, before the workers start. Else the workers, starting
# together, each rewrote all of them: the same work three times (40 -> 26 CPU-s measured, cold).
TESTS_HALF := tests/netcode tests/rules tests/bots tests/portmap

test: venv $(MOS)
	$(KEPT) $(VPY) -m compileall -q -j 0 game tools bench
	@$(KEPT) $(VPY) -m pytest --collect-only -q -p no:cacheprovider $(TESTS_HALF) >/dev/null & \
	$(KEPT) $(VPY) -m pytest --collect-only -q -p no:cacheprovider $(TESTS_HALF:%=--ignore=%) >/dev/null; \
	wait
	$(KEPT) $(VPY) -m pytest -n $(TEST_JOBS)

# bench/bots.py plays hundreds of seeded games: on both cores (same figures as on one, see
# bench/README.md: about 40 minutes); bench-bots-quick plays 20 games per level (about 8)
BOTS_JOBS ?= 2

bench: venv $(MOS)
	@set -e; for script in bench/*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		if [ "$$script" = bench/bots.py ]; then $(KEPT) $(VPY) "$$script" --jobs $(BOTS_JOBS); \
		else $(KEPT) $(VPY) "$$script"; fi; \
	done

bench-bots: venv
	$(VPY) bench/bots.py --jobs $(BOTS_JOBS)

bench-bots-quick: venv
	$(VPY) bench/bots.py --games 20 --jobs $(BOTS_JOBS)

screenshots: venv $(MOS)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(VPY) tools/screenshots.py docs/screenshots

# One-file executable of the game (PyInstaller: a build tool, installed here, not a dependency)
# and a Linux .desktop entry with the window icon, in dist/. tools/dist_smoke.sh checks it.
dist: venv $(MOS)
	$(VPY) -m pip install --quiet -e '.[dist]'
	$(VPY) tools/build_dist.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
