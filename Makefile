# tictactoe-gpio: the two commands a newcomer needs are `make play` and `make test`.
# Both install what they need first (scripts/setup-host.sh).

SWIFT ?= swift
ARGS ?=

.PHONY: fuzz sanitize setup setup-tests setup-bench setup-packaging play web build build-release install uninstall deb repo repo-key test unit-test quick spectral-test trixie-unit-test storage-test package-test kernel-test appliance-test power-cut-test power-cut-campaign browser-test hostile-test bench docs hardware-docs clean

## Install system packages and check the Swift toolchain.
setup:
	@bash scripts/setup-host.sh

## Build and play in the terminal on the simulated chip. Extra options: make play ARGS="--x-name Alice --o-name Bob"
play: setup
	$(SWIFT) build --product tictactoe
	.build/debug/tictactoe simulate $(ARGS)

## The board in a browser: the simulated board and the web view, at http://127.0.0.1:8080/.
## WEB_LISTEN='*:8080' lets a phone on the same network in; ARGS as for play.
web: setup
	SWIFT=$(SWIFT) bash scripts/web.sh

build: setup
	$(SWIFT) build

build-release: setup
	$(SWIFT) build -c release --product tictactoe
	$(SWIFT) build -c release --product tictactoe-web
	$(SWIFT) build -c release --product tictactoe-network

## On a Raspberry Pi, as root: install the binaries, the units, the page, the udev rule and the
## default configuration (an edited one is kept), then enable and start the services.
install: build-release
	bash scripts/install.sh

uninstall:
	bash scripts/uninstall.sh

setup-tests:
	@bash scripts/setup-host.sh --tests

setup-packaging:
	@bash scripts/setup-host.sh --packaging

## As root on any Debian-family x86_64 machine: dist/tictactoe-gpio_<version>_arm64.deb and
## dist/tictactoe-gpio-web_<version>_arm64.deb (the web view) for Raspberry Pi OS Trixie
## (64-bit), built by Debian 13's own Swift in a cached trixie root. No Swift needed here.
deb: setup-packaging
	bash packaging/make-deb.sh arm64

## The signing key for make repo, made once (as root or not) in REPO_KEY_HOME, a GnuPG home
## outside the project (~/.config/tictactoe-gpio/repo-key): back it up, never commit it.
repo-key: setup-packaging
	bash packaging/repo.sh key

## A signed apt repository in REPO (dist/repo) for Raspberry Pi OS Trixie (arm64): the packages
## make deb made, added beside the versions it has, indexed and signed with the key from
## make repo-key. Copy the folder to any static web host; docs/RELEASES.md says how a Pi adds it.
REPO ?= dist/repo
repo: setup-packaging
	bash -c 'mapfile -t packages < <(bash packaging/make-deb.sh arm64) && bash packaging/repo.sh build "$$1" "$${packages[@]}"' repo "$(REPO)"

## Build everything and run every test: the unit and simulation tests with this machine's Swift
## and with Debian 13's Swift 6.0.3, the arm64 packages built and inspected, the
## real-kernel suite (libgpiod v1 and v2 against gpio-sim in QEMU) and the arm64 appliance (the
## package installed with apt on Debian 13 arm64, run by systemd, played through gpio-sim in
## QEMU's arm64 virt machine). Kernels, root file systems and the arm64 sysroot are made once and
## cached in ~/.cache/tictactoe-gpio.
## Stage by stage (scripts/test.sh), each timed, with the caches made beside them; at the end a
## table of the stages' minutes.
test:
	SWIFT=$(SWIFT) bash scripts/test.sh

unit-test: setup
	$(SWIFT) build --build-tests
	env -u TEST_LAYERS $(SWIFT) test

## The inner loop: the unit and simulation tests' pure layer alone (in process, none of the
## soaks), in well under a minute; make unit-test runs them all (docs/TESTING.md, "The inner loop").
quick: setup
	$(SWIFT) build --build-tests
	TEST_LAYERS=pure $(SWIFT) test --skip-build

## Every parser of untrusted bytes fuzzed by libFuzzer under AddressSanitizer, SECONDS each (8:
## about a minute of fuzzing for the eight), from fuzz/corpus/ and fuzz/dictionaries/; the TOML
## documents its runs keep held to Python's tomllib. A long run by hand: make fuzz SECONDS=3600
## JOBS=2 (two targets at a time; TARGETS=request-head … for some). A finding fails it, kept in
## test-results/fuzz/findings/ (docs/TESTING.md, "Fuzzing").
SECONDS ?= 8
TARGETS ?=
JOBS ?= 1
fuzz: setup-tests
	SWIFT=$(SWIFT) JOBS=$(JOBS) bash scripts/fuzz.sh $(SECONDS) $(TARGETS)

## The unit, simulation and process tests under ThreadSanitizer, then AddressSanitizer
## (SANITIZERS=thread or address for one), each in its own build folder; clean means every test
## passes and no process writes a report. Suppressions, with their reasons, in sanitize/.
SANITIZERS ?=
sanitize: setup-tests
	SWIFT=$(SWIFT) bash scripts/sanitize.sh $(SANITIZERS)

## The spectral tables the LEDs' light is weighed with (Sources/Game/Lights/SpectralTables.swift)
## against colour-science's copy of CVRL's CIE 2006 tables.
spectral-test: setup-tests
	python3 -m pytest -v -s spectral/test_spectral_tables.py

## The unit tests again with Swift 6.0.3, the toolchain Raspberry Pi OS Trixie ships.
trixie-unit-test: setup-tests
	bash packaging/in-trixie.sh swift build --build-tests --scratch-path .build-trixie
	bash packaging/in-trixie.sh swift test --skip-build --scratch-path .build-trixie

## The saved game and history against a crash at each system call of a save, a full, read-only
## or failing card, and what a card pays a move and a game: the real binary under strace.
storage-test: setup-tests
	$(SWIFT) build --product tictactoe
	python3 -m pytest -v -s storage/test_storage.py

## The page in Debian's headless Chromium, driven over the DevTools protocol, against the
## simulated board and the web view; a screenshot of a finished game in test-results/browser/;
## the page read without colour or motion (every state, a soak of 1,000 games) and its live region;
## axe-core and WCAG 2.2 AA contrast in every state and both colour schemes, the keyboard, 320 px,
## and the manifest and icons Chromium's installability check reads.
browser-test: setup-tests
	$(SWIFT) build --product tictactoe
	$(SWIFT) build --product tictactoe-web
	cd browser && SWIFT=$(SWIFT) python3 -m pytest -v -s test_page.py test_monochrome.py test_access.py test_words.py test_share.py test_learner.py

## Hostile and careless clients against the real programs, built as the packages ship them (the
## simulated board's socket and the web view): floods for a minute each, with the processes'
## memory and another client's press-to-state time held to the bounds docs/TESTING.md states.
hostile-test: setup-tests
	$(SWIFT) build $(STATIC_RELEASE) --product tictactoe
	$(SWIFT) build $(STATIC_RELEASE) --product tictactoe-web
	cd hostile && SWIFT=$(SWIFT) PROGRAMS=../.build-static/release python3 -m pytest -v -s test_hostile.py

package-test: setup-tests
	python3 -m pytest -v packaging/test_deb.py packaging/test_repo.py

kernel-test: setup-tests
	python3 -m pytest -v -s vm/test_gpio_sim.py

## The units, and the arm64 appliance: the packages installed with apt and run by systemd.
appliance-test: setup-tests
	python3 -m pytest -v -s systemd/test_unit.py vm/test_appliance.py

## Eight power cuts at random instants in the arm64 appliance (make test runs them beside the
## appliance suite: two emulated machines at once).
power-cut-test: setup-tests
	python3 -m pytest -v -s vm/test_power_cuts.py

## As many power cuts as asked: make power-cut-campaign CUTS=100 [SEED=n]. The summary goes to
## test-results/power-cuts/.
CUTS ?= 100
power-cut-campaign: setup-tests
	POWER_CUTS=$(CUTS) $(if $(SEED),POWER_CUT_SEED=$(SEED)) python3 -m pytest -v -s vm/test_power_cuts.py

## Regenerate Hardware/wiring.svg, wiring.png and header.md from Hardware/tictactoe.toml.
hardware-docs: setup
	$(SWIFT) build --product tictactoe
	.build/debug/tictactoe hardware-docs
	command -v rsvg-convert >/dev/null || apt-get install -y -qq librsvg2-bin
	rsvg-convert -w 1100 Hardware/wiring.svg -o Hardware/wiring.png

## Run the benchmarks (package-benchmark, release build), count a press's instructions, the
## learner's curves, and time the web view in Chromium (page load, a press with 32 pages open,
## memory). Each part writes its figures to Benchmarks/results/ (committed); then make docs
## renders docs/BENCHMARKS.md's tables from them.
bench: setup-bench
	SWIFT=$(SWIFT) bash scripts/bench-game-loop.sh
	SWIFT=$(SWIFT) bash scripts/bench-instructions.sh
	cd Benchmarks && BENCH_CONTEXT="$$(SWIFT=$(SWIFT) bash ../scripts/bench-context.sh)" \
		$(SWIFT) run -c release LearnerCurves ../docs/images/learning results/learner.json
	$(SWIFT) build $(STATIC_RELEASE) --product tictactoe
	$(SWIFT) build $(STATIC_RELEASE) --product tictactoe-web
	cd browser && SWIFT=$(SWIFT) PROGRAMS=../.build-static/release python3 bench_page.py --results ../Benchmarks/results/web-page.json
	$(SWIFT) build $(STATIC_RELEASE) --product tictactoe-network
	cd browser && SWIFT=$(SWIFT) PROGRAMS=../.build-static/release python3 bench_network.py --results ../Benchmarks/results/network.json
	$(MAKE) --no-print-directory docs

## Rewrite every generated block of the documents (between `<!-- begin generated: … -->` and
## `<!-- end generated -->` in docs/*.md and README.md) from what it documents: the API's limits,
## the table of states, the configuration and dim-cue tables, the wiring table and the measured
## figures (Benchmarks/results/). A test fails while any block differs (Harness/reference-docs).
docs: setup
	$(SWIFT) build --product reference-docs
	.build/debug/reference-docs

## Release builds with a static Swift standard library, as the packages ship them: the web
## benchmark's, and the real-kernel suite's (vm/run-suite.sh), which reuses what this built.
STATIC_RELEASE = -c release --static-swift-stdlib --scratch-path .build-static

setup-bench:
	@bash scripts/setup-host.sh --bench

clean:
	rm -rf .build .build-static .build-trixie .build-arm64 .build-fuzz .build-thread .build-address dist Benchmarks/.build
