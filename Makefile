# tictactoe-gpio: the two commands a newcomer needs are `make play` and `make test`.
# Both install what they need first (scripts/setup-host.sh).

SWIFT ?= swift
ARGS ?=

.PHONY: setup setup-tests play build build-release install uninstall test unit-test kernel-test service-test bench hardware-docs clean

## Install system packages and check the Swift toolchain.
setup:
	@bash scripts/setup-host.sh

## Build and play in the terminal on the simulated chip. Extra options: make play ARGS="--x-name Alice --o-name Bob"
play: setup
	$(SWIFT) build --product tictactoe
	.build/debug/tictactoe simulate $(ARGS)

build: setup
	$(SWIFT) build

build-release: setup
	$(SWIFT) build -c release --product tictactoe

## On a Raspberry Pi, as root: install the binary, the unit, the udev rule and the default
## configuration (an edited one is kept), then enable and start the service.
install: build-release
	bash scripts/install.sh

uninstall:
	bash scripts/uninstall.sh

setup-tests:
	@bash scripts/setup-host.sh --tests

## Build everything and run every test: the unit and simulation tests, the real-kernel suite
## (libgpiod v1 and v2 against gpio-sim in QEMU) and the service under real systemd in QEMU.
## Kernels and the Debian root filesystem are built once and cached in ~/.cache/tictactoe-gpio.
test: setup-tests unit-test kernel-test service-test

unit-test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test

kernel-test: setup-tests
	python3 -m pytest -v -s vm/test_gpio_sim.py

service-test: setup-tests
	python3 -m pytest -v -s systemd/test_unit.py vm/test_systemd_service.py

## Regenerate Hardware/wiring.svg, wiring.png and header.md from Hardware/tictactoe.toml.
hardware-docs: setup
	$(SWIFT) build --product tictactoe
	.build/debug/tictactoe hardware-docs
	command -v rsvg-convert >/dev/null || apt-get install -y -qq librsvg2-bin
	rsvg-convert -w 1100 Hardware/wiring.svg -o Hardware/wiring.png

## Run the benchmarks (package-benchmark, release build) and print the tables.
bench: setup
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark --no-progress

clean:
	rm -rf .build .build-vm-v1 .build-vm-v2 Benchmarks/.build
