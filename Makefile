# Masters of Renaissance — everyday commands.
# Every target that runs code first makes sure .venv exists and is up to date.

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv play test bench screenshots dist clean

venv: $(STAMP)

$(VPY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(VPY)
	$(VPY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: venv
	$(VPY) main.py

test: venv
	$(VPY) -m pytest

bench: venv
	@set -e; for script in bench/*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		$(VPY) "$$script"; \
	done

screenshots: venv
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(VPY) tools/screenshots.py docs/screenshots

# One-file executable of the game (PyInstaller: a build tool, installed here, not a dependency)
# and a Linux .desktop entry with the window icon, in dist/. tools/dist_smoke.sh checks it.
dist: venv
	$(VPY) -m pip install --quiet -e '.[dist]'
	$(VPY) tools/build_dist.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
