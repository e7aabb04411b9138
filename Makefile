# Builds every command under cmd/ as bin/cliff-<tool>, and the Rust driver
# (driver/) as bin/cliff-driver.
#   make            build all tools and the driver into bin/
#   make driver     build only the driver (cargo; build directory outside the
#                   clone, in $(CARGO_TARGET_DIR))
#   make install    copy them to $(PREFIX)/bin (default /usr/local)
#   make test       vet and run every test (what CI runs, via scripts/test.sh)
#   make generate   regenerate generated Go (the opcode table)

PREFIX ?= /usr/local
GO     ?= go
TOOLS  := $(notdir $(wildcard cmd/*))
BINS   := $(addprefix bin/cliff-,$(TOOLS))
CARGO  ?= cargo
# Cargo's build directory lives outside the clone so that a fresh clone
# rebuilds fast on a machine that built before; nothing depends on it being
# there.
CARGO_TARGET_DIR ?= $(HOME)/.cache/cliff/cargo-target
# cliff's version in every tool's --version and output record: the commit,
# -dirty with uncommitted changes.
VERSION ?= $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo devel)
DRIVER_SRC := driver/Cargo.toml driver/Cargo.lock $(shell find driver/src -name '*.rs' 2>/dev/null)

.PHONY: all build driver install test generate clean $(BINS)

all: build
build: $(BINS) bin/cliff-driver
driver: bin/cliff-driver

bin/cliff-driver: $(DRIVER_SRC)
	cd driver && CARGO_TARGET_DIR=$(CARGO_TARGET_DIR) $(CARGO) build --release --locked --quiet
	install -d bin
	install -m 0755 $(CARGO_TARGET_DIR)/release/cliff-driver $@

$(BINS): bin/cliff-%:
	$(GO) build -ldflags "-X cliff/lib/cliapp.stamp=$(VERSION)" -o $@ ./cmd/$*

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BINS) bin/cliff-driver $(DESTDIR)$(PREFIX)/bin/

test:
	./scripts/test.sh

generate:
	$(GO) generate ./...

clean:
	rm -rf bin out
