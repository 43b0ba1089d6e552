# mcr: build, test and run on a fresh Debian machine.
#   make example   check a bundled C program (the main job)
#   make test      install what is missing, then run the whole test suite
#   make build     build bin/mcr
#   make fuzz      fuzz the C front end for a few minutes
#   make bench     run the Go benchmarks

GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FUZZTIME ?= 60s

.PHONY: all deps build test example fuzz bench clean

all: build

# System packages: libz3-dev for the SMT backend, gcc for cgo and for the C
# parser's configuration (it asks the system compiler for its predefined
# macros and include paths). Installed only when missing.
deps:
	@if [ ! -f /usr/include/z3.h ] || ! command -v gcc >/dev/null; then \
		echo "installing libz3-dev and gcc"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libz3-dev gcc >/dev/null; \
	fi
	$(GO) mod download

build: deps
	$(GO) build -o bin/mcr ./cmd/mcr

test: build
	$(GO) vet ./...
	$(GO) test -timeout 20m ./...

example: build
	./bin/mcr check testdata/c/lost_update.c --keep-going --schedule-out lost_update.schedule.json; \
	  code=$$?; [ $$code -eq 1 ] || { echo "expected exit 1 (finding), got $$code"; exit 1; }
	./bin/mcr replay testdata/c/lost_update.c --schedule lost_update.schedule.json; [ $$? -eq 1 ]

fuzz: build
	$(GO) test -run '^$$' -fuzz FuzzLoad -fuzztime $(FUZZTIME) ./program/cfront/

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 2x ./...

clean:
	rm -rf bin lost_update.schedule.json
