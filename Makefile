# mcr: build, test and run on a fresh Debian machine.
#   make example   check a bundled C program (the main job)
#   make test      install what is missing, then run the whole test suite
#   make build     build bin/mcr
#   make fuzz      run every fuzz target FUZZTIME each (FUZZ=FuzzLoad for one)
#   make bench     run the Go benchmarks

GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FUZZTIME ?= 60s
# Every fuzz target as package:name. FUZZ narrows the run to one name.
FUZZ_TARGETS := program/cfront:FuzzLoad explicit:FuzzDeciders program:FuzzDecodeInstance \
	program/tracefile:FuzzReadSTD program/tracefile:FuzzReadVals program/tracefile:FuzzReadJSON \
	program/tracefile:FuzzDetect mcr/predict:FuzzPredictSTD mcr/predict:FuzzPredictVals mcr/predict:FuzzPredictJSON
FUZZ ?=

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

# -fuzzminimizetime 20x: the fuzzer minimises every new interesting input,
# for 60 s by default; the C front end finds new coverage so often that a
# 10-minute FuzzLoad run spent all of it minimising (85 executions). Twenty
# minimisation attempts per input keep it fuzzing (about 300 inputs/s).
fuzz: build
	@for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; name=$${t##*:}; \
	  if [ -n "$(FUZZ)" ] && [ "$(FUZZ)" != "$$name" ]; then continue; fi; \
	  echo "== $$name ($$pkg, $(FUZZTIME))"; \
	  $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 20x ./$$pkg/ || exit 1; \
	done

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 2x ./...

clean:
	rm -rf bin lost_update.schedule.json
