# tictactoe-gpio: the two commands a newcomer needs are `make play` and `make test`.
# Both install what they need first (scripts/setup-host.sh).

SWIFT ?= swift
ARGS ?=

.PHONY: setup play build test bench clean

## Install system packages and check the Swift toolchain.
setup:
	@bash scripts/setup-host.sh

## Build and play in the terminal on the simulated chip. Extra options: make play ARGS="--x-name Alice --o-name Bob"
play: setup
	$(SWIFT) build --product tictactoe
	.build/debug/tictactoe simulate $(ARGS)

build: setup
	$(SWIFT) build

## Build everything and run every test.
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test

## Run the benchmarks (package-benchmark, release build) and print the tables.
bench: setup
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark --no-progress

clean:
	rm -rf .build Benchmarks/.build
