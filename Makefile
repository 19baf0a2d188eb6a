# Two commands do all the setup on a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp


.PHONY: run test test-costs check lint types bench screens sounds soak clean install rollback system-test board-test board-soak padboard-files

# Python's compiled modules are kept between runs even where the environment turns them
# off: pytest otherwise rewrites the asserts of every test module on every run (10 s).
unexport PYTHONDONTWRITEBYTECODE

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/ringside run

# The whole suite in two parts side by side (tests/suite.py): every test on every core
# (pytest-xdist, workers stealing work from each other), and beside them the tests marked
# realtime one at a time in their own process, at a higher priority where the system
# allows it, so no parallel worker starves the wall clock they are judged by.
HEADLESS := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
test: lint types $(STAMP)
	$(HEADLESS) $(BIN)/python -m tests.suite

# What each test module costs in CPU (tests/costs.json), so make test starts the dearest
# first and its workers finish together: refresh after adding or reshaping heavy tests.
test-costs: $(STAMP)
	rm -rf out/test-costs
	RINGSIDE_RECORD_COSTS=out/test-costs $(HEADLESS) $(BIN)/python -m pytest -q -n auto --dist worksteal -m "not realtime"
	$(BIN)/python -m tests.costs out/test-costs

# The edit loop (under a minute): lint, types and every test not marked slow, the same two parts.
check: lint types $(STAMP)
	$(HEADLESS) $(BIN)/python -m tests.suite -m "not slow" -x

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy as pyproject.toml configures it: strict on every layer (games/, hal/, display/, calibration/, firmware_py/)
types: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m tests.bench

# Contact sheets of every screen (menus, each game along random playouts and the HIL
# scenarios) at 1280×720 and 1920×1080, for review: out/screens/<size>/sheets/*.png, one per group.
screens: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m tests.display.contact_sheet

# Every sound cue rendered to WAV (out/sounds/<name>.wav: the names a recorded
# replacement takes), listed in cues.txt, and drawn on a review sheet: out/sounds/sheet.png.
sounds: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m display.audio.sheet out/sounds

soak: $(STAMP)
	RINGSIDE_SOAK=1 SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -q -m soak

# On a Raspberry Pi: install or update the cabinet service (docs/operator.md).  Run with
# sudo; an update is `git pull && sudo make install`.
install:
	deploy/install.sh

# On a Raspberry Pi, after an update that misbehaves: back to the version before (sudo).
rollback:
	deploy/rollback.sh

# The operator's whole path in a booted Debian (systemd-nspawn, as root; needs the
# debootstrap and systemd-container packages): install, first boot, watchdog, update,
# rollback, each game (tests/system/, docs/operator.md).  Its root is cached in
# /var/cache/ringside-system-test.  ARCH=arm64: the same on the Raspberry Pi's
# architecture, emulated (qemu-user-static and binfmt-support; .ci/run sets them up).
ARCH ?=
system-test: $(STAMP)
	RINGSIDE_SYSTEM_ARCH=$(ARCH) $(BIN)/python -m pytest -q -m system tests/system

# The padboard's own firmware on an emulated RP2040 (tests/board/, docs/board-testing.md):
# rp2040js from npm into .venv/rp2040js (the test installs it), MicroPython's image from
# ../shared/tools/rp2040 (SHA-256 checked).  Emulated time runs at 0.05-0.4x wall time, so
# board-test runs a bounded share (minutes: the board's own tests, HIL scenarios on the
# padboard-emulated backend, ringside calibrate, 6 s of link soak) and board-soak the
# 60 s slapping run with an unplug.
board-test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy nice -n 10 $(BIN)/python -m pytest -q -m "board and not soak" tests/board

board-soak: $(STAMP)
	RINGSIDE_SOAK=1 SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy nice -n 10 $(BIN)/python -m pytest -q -m "board and soak" tests/board

# What flash.md copies to the padboard: main.py, and the rest precompiled by mpy-cross for
# the board's MicroPython (an .mpy loads without the parse that nearly filled its heap).
padboard-files: $(STAMP)
	$(BIN)/python -m firmware_py.hil.board.image build/padboard

clean:
	rm -rf $(VENV) build *.egg-info
