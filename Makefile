# Builds every command under cmd/ as bin/cliff-<tool>, and the Rust driver
# (driver/) as bin/cliff-driver.
#   make            build all tools and the driver into bin/
#   make driver     build only the driver, for the Cranelift driver/Cargo.toml
#                   pins, with the toolchain its rust-version needs
#                   (cliff-cranelift build; cargo's build directory is
#                   ~/.cache/cliff/cargo-target, the build ~/.cache/cliff/drivers)
#   make install    copy them to $(PREFIX)/bin (default /usr/local), the
#                   campaign scripts to $(PREFIX)/share/cliff
#   make test       vet and run every test (what CI runs, via scripts/test.sh)
#   make generate   regenerate generated Go (the opcode table)

PREFIX ?= /usr/local
GO     ?= go
TOOLS  := $(notdir $(wildcard cmd/*))
BINS   := $(addprefix bin/cliff-,$(TOOLS))
# cliff's version in every tool's --version and output record: the commit,
# -dirty with uncommitted changes.
VERSION ?= $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo devel)
DRIVER_SRC := driver/Cargo.toml driver/Cargo.lock driver/build.rs $(shell find driver/src -name '*.rs' 2>/dev/null)

.PHONY: all build driver install test generate clean $(BINS)

all: build
build: $(BINS) bin/cliff-driver
driver: bin/cliff-driver

# cliff-cranelift embeds the driver's source and builds it the way every
# other Cranelift is built (lib/cranelift), so make needs no toolchain logic.
# Cargo's output goes to bin/cliff-driver.log, shown only when the build
# fails: set-up's errors stay one line.
bin/cliff-driver: bin/cliff-cranelift $(DRIVER_SRC)
	@bin/cliff-cranelift build --install $@ >/dev/null 2>bin/cliff-driver.log || { cat bin/cliff-driver.log >&2; exit 1; }

$(BINS): bin/cliff-%:
	$(GO) build -ldflags "-X cliff/lib/cliapp.stamp=$(VERSION)" -o $@ ./cmd/$*

# The campaign scripts go to $(PREFIX)/share/cliff laid out as in the
# checkout (scripts/, the known mask, bin/ a link to $(PREFIX)/bin), so
# that $(PREFIX)/share/cliff/scripts/campaign.sh runs from an install on
# shared storage, on every host of HOSTS= (scripts/hosts.sh). cliff-pulley
# runs Pulley's code beside the driver.
SHARE_SCRIPTS := campaign.sh campaign_loop.sh paths.sh hosts.sh
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/cliff/scripts $(DESTDIR)$(PREFIX)/share/cliff/lib/profile/data
	install -m 0755 $(BINS) bin/cliff-driver bin/cliff-pulley $(DESTDIR)$(PREFIX)/bin/
	install -m 0755 $(addprefix scripts/,$(SHARE_SCRIPTS)) $(DESTDIR)$(PREFIX)/share/cliff/scripts/
	install -m 0644 lib/profile/data/known.mask $(DESTDIR)$(PREFIX)/share/cliff/lib/profile/data/
	ln -sfn ../../bin $(DESTDIR)$(PREFIX)/share/cliff/bin

test:
	./scripts/test.sh

generate:
	$(GO) generate ./...

clean:
	rm -rf bin out
