# Builds every command under cmd/ as bin/cliff-<tool>.
#   make            build all tools into bin/
#   make install    copy them to $(PREFIX)/bin (default /usr/local)
#   make test       vet and run every test (what CI runs, via scripts/test.sh)
#   make generate   regenerate generated Go (the opcode table)

PREFIX ?= /usr/local
GO     ?= go
TOOLS  := $(notdir $(wildcard cmd/*))
BINS   := $(addprefix bin/cliff-,$(TOOLS))

.PHONY: all build install test generate clean $(BINS)

all: build
build: $(BINS)

$(BINS): bin/cliff-%:
	$(GO) build -o $@ ./cmd/$*

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BINS) $(DESTDIR)$(PREFIX)/bin/

test:
	./scripts/test.sh

generate:
	$(GO) generate ./...

clean:
	rm -rf bin out
