# Sumi — build, demo, test and benchmark. `make demo` and `make test` install what they need.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= release
BIN := .build/$(CONFIG)/sumi

# Debian packages: C libraries, fonts, and the tools tests and benchmarks use.
BUILD_PKGS := pkg-config libgdk-pixbuf-2.0-dev libharfbuzz-dev libfreetype-dev libfontconfig-dev \
  libfribidi-dev libicu-dev libjpeg62-turbo-dev libpng-dev zlib1g-dev libwebp-dev webp-pixbuf-loader \
  fonts-dejavu-core fonts-ipafont-gothic fonts-noto-color-emoji fonts-noto-core fonts-nanum
# Colour management and HEIF/AVIF (Debian 12's libheif1 carries the libde265, dav1d, aom and x265 codecs).
BUILD_PKGS += liblcms2-dev libheif-dev
# `sumi serve`: the HTTP daemon.
BUILD_PKGS += libmicrohttpd-dev
TEST_PKGS := libharfbuzz-bin unicode-data pango1.0-tools fonts-inter-variable qpdf poppler-utils imagemagick libjpeg-turbo-progs
TEST_PKGS += liblcms2-utils libheif-examples icc-profiles-free colord-data libimage-exiftool-perl
# Shells whose generated completions the tests run.
TEST_PKGS += zsh fish
# The HTTP client of the `sumi serve` tests.
TEST_PKGS += curl
# Parses deploy/kubernetes/*.yaml in a test.
TEST_PKGS += python3-yaml
# The Rust example plugin needs rustc: Debian's, unless one is already on PATH (rustup).
TEST_PKGS += $(if $(shell command -v rustc),,rustc)
BENCH_PKGS := hyperfine libvips-tools time img2pdf
# A one-node Slurm cluster for `make test-cluster`.
CLUSTER_PKGS := slurm-wlm munge

.PHONY: all deps test-deps bench-deps build demo test bench examples samples clean test-cluster install fuzz test-asan test-parity test-serve

all: build

define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PKGS))

test-deps: deps
	$(call apt_install,$(TEST_PKGS))
	@python3 -c "import jsonschema" 2>/dev/null || python3 -m pip install -q jsonschema >/dev/null
	@# The full-page memory test makes its 50 captures with numpy.
	@python3 -c "import numpy" 2>/dev/null || python3 -m pip install -q numpy >/dev/null

bench-deps: test-deps
	$(call apt_install,$(BENCH_PKGS))
	@command -v img2pdf >/dev/null || python3 -m pip install -q img2pdf >/dev/null 2>&1 || echo "img2pdf not installed: that peer is skipped"


build: deps
	$(SWIFT) build -c $(CONFIG) --product sumi 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}

-include Makefile.plugins

# `sumi serve` under load and faults on loopback: 10,000 mixed requests at concurrency 64, 500
# connections that never finish their head, vanishing clients; answers, /metrics, memory, leftovers
# and SIGTERM checked (tools/serve-load.py, docs/service.md).
test-serve: build
	python3 tools/serve-load.py --sumi $(BIN)

demo: build
	@mkdir -p out
	$(BIN) run pipelines/thumbnail.json --json
	$(BIN) run pipelines/caption.json --json
	$(BIN) run pipelines/fullpage.json --json
	@echo "Wrote out/thumbnail.jpg, out/caption.jpg and out/fullpage.pdf"

# Unit, stage and end-to-end tests, in one release build (image code is too slow unoptimised).
test: test-deps
	@# SwiftPM can keep a stale build plan when source files were added or removed: replan.
	rm -f .build/release.yaml
	$(SWIFT) build -c release -Xswiftc -enable-testing --build-tests 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	@if grep -q '^examples:' Makefile.plugins 2>/dev/null; then $(MAKE) --no-print-directory examples; fi
	SUMI_BINARY=$(CURDIR)/.build/release/sumi $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	@if grep -q '^compose-plugin:' Makefile.plugins 2>/dev/null; then $(MAKE) --no-print-directory test-parity; fi

# The compositing end-to-end tests again, with the built-in Compose family left out and the same
# sources built as a plugin (Examples/ComposePlugin) in its place: the ABI carries a built-in family.
PARITY_TESTS := CaptionPipelineTests|ComposeParityTests
test-parity:
	SUMI_SKIP_BUILTIN=compose SUMI_TEST_PLUGIN_PATH=$(CURDIR)/.build/plugins-compose SUMI_BINARY=$(CURDIR)/.build/release/sumi \
	  $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build --filter '$(PARITY_TESTS)' 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}

# `make install PREFIX=/usr/local` (and DESTDIR for packaging): the binary, the shipped pipelines, the
# plugin header and SDK, the man page and bash/zsh/fish completions generated from the stage descriptors.
PREFIX ?= /usr/local
install: build
	install -Dm755 $(BIN) $(DESTDIR)$(PREFIX)/bin/sumi
	mkdir -p $(DESTDIR)$(PREFIX)/share/sumi
	rm -rf $(DESTDIR)$(PREFIX)/share/sumi/pipelines $(DESTDIR)$(PREFIX)/share/sumi/sdk
	cp -R pipelines $(DESTDIR)$(PREFIX)/share/sumi/pipelines
	install -Dm644 Sources/CSumiPlugin/include/sumi_plugin.h $(DESTDIR)$(PREFIX)/include/sumi/sumi_plugin.h
	mkdir -p $(DESTDIR)$(PREFIX)/share/sumi/sdk/Sources
	cp -R Sources/CSumiPlugin Sources/SumiKit Sources/SumiPluginSDK $(DESTDIR)$(PREFIX)/share/sumi/sdk/Sources/
	install -m644 tools/sdk/Package.swift $(DESTDIR)$(PREFIX)/share/sumi/sdk/Package.swift
	install -Dm644 docs/sumi.1 $(DESTDIR)$(PREFIX)/share/man/man1/sumi.1
	mkdir -p $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(BIN) completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sumi
	$(BIN) completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_sumi
	$(BIN) completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/sumi.fish
	@echo "Installed sumi in $(DESTDIR)$(PREFIX)"

# Scale-out on a real Slurm: a one-node cluster here, a 4-task array over 40 images (tools/test-cluster.sh).
# Built with `make test`'s flags, so after `make test` (as in .ci/run) nothing is rebuilt.
test-cluster: deps
	$(call apt_install,$(CLUSTER_PKGS))
	$(SWIFT) build -c release -Xswiftc -enable-testing --product sumi 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	tools/test-cluster.sh .build/release/sumi

# libFuzzer targets (fuzz/targets: manifest, each decoder, stitch, pdf-page checked by qpdf, text),
# FUZZ_SECONDS each, from the seed corpora in fuzz/corpus. A finding fails the target.
FUZZ_SECONDS ?= 30
# Empty: a new random seed each run (campaigns); CI fixes it (see fuzz/run.sh).
FUZZ_SEED ?=
fuzz: test-deps
	fuzz/build.sh
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) fuzz/run.sh

# The whole test suite with AddressSanitizer (C shims and Swift code) and UndefinedBehaviorSanitizer
# (C shims; trapping, so no runtime is needed). Swift itself checks overflow and bounds.
# Measured on 2 busy cores: 18 min (a full instrumented build ~15 min, the suite 2.6 min): not in CI.
ASAN_FLAGS := --build-path .build/asan --sanitize=address -Xcc -fsanitize=undefined -Xcc -fsanitize-trap=undefined
test-asan: test-deps
	rm -f .build/asan/release.yaml
	$(SWIFT) build -c release -Xswiftc -enable-testing --build-tests $(ASAN_FLAGS) 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	@if grep -q '^examples:' Makefile.plugins 2>/dev/null; then $(MAKE) --no-print-directory examples; fi
	SUMI_SANITIZED=1 ASAN_OPTIONS=detect_leaks=0 SUMI_BINARY=$(CURDIR)/.build/asan/release/sumi \
	  $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build $(ASAN_FLAGS) 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}

bench: bench-deps build
	bench/run.sh $(BIN)

samples:
	python3 tools/make-samples.py

clean:
	rm -rf .build out
