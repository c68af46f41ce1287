# Sumi — build, demo, test and benchmark. `make demo` and `make test` install what they need.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= release
BIN := .build/$(CONFIG)/sumi
# The one version (VERSION is also read by Package.swift, the package and the man page).
VERSION := $(shell tr -d '[:space:]' < VERSION)
# `make build` (demo, bench, install, the package) is a plain release build; the tests need
# -enable-testing (measured: the 8-capture full page 8-14% slower with it), so they build with
# TEST_BUILD_FLAGS into the same folder. CI packages the test build (PREBUILT=1) rather than
# building twice: its package test checks the packaging, not speed.
BUILD_FLAGS := -c $(CONFIG)
TEST_BUILD_FLAGS := -c release -Xswiftc -enable-testing

# Debian packages: C libraries, fonts, and the tools tests and benchmarks use.
BUILD_PKGS := pkg-config libgdk-pixbuf-2.0-dev libharfbuzz-dev libfreetype-dev libfontconfig-dev \
  libfribidi-dev libicu-dev libjpeg62-turbo-dev libpng-dev zlib1g-dev libwebp-dev webp-pixbuf-loader \
  fonts-dejavu-core fonts-ipafont-gothic fonts-noto-color-emoji fonts-noto-core fonts-nanum
# Colour management and HEIF/AVIF (Debian 12's libheif1 carries the libde265, dav1d, aom and x265 codecs).
BUILD_PKGS += liblcms2-dev libheif-dev
# TIFF and GIF input (BMP is read by our own code; gdk-pixbuf remains for the other formats its loaders bring).
BUILD_PKGS += libtiff-dev libgif-dev
# JPEG 2000 input: libopenjp2, opened on the first JPEG 2000 file (its headers are needed to build).
BUILD_PKGS += libopenjp2-7-dev
# `sumi serve`: the HTTP daemon.
BUILD_PKGS += libmicrohttpd-dev
# libdeflate: the common PNG's image data inflated in one piece (about twice zlib's speed).
BUILD_PKGS += libdeflate-dev
# SHA-256, HMAC and MD5 (Nettle).
BUILD_PKGS += nettle-dev
# `recognize`: Tesseract's C API header (the library is opened when a run recognises).
BUILD_PKGS += libtesseract-dev
TEST_PKGS := libharfbuzz-bin unicode-data pango1.0-tools fonts-inter-variable qpdf poppler-utils imagemagick libjpeg-turbo-progs
TEST_PKGS += liblcms2-utils libheif-examples icc-profiles-free colord-data libimage-exiftool-perl
# tiffcp writes the TIFF compressions and layouts the TIFF reader is tested on.
TEST_PKGS += libtiff-tools
# The band-memory tests make their 50-100 MP photos with vips.
TEST_PKGS += libvips-tools
# The page tests and tools/check-photo-page.py render PDFs with mupdf and ghostscript beside poppler.
TEST_PKGS += mupdf-tools ghostscript
# Shells whose generated completions the tests run.
TEST_PKGS += zsh fish
# The HTTP client of the `sumi serve` tests.
TEST_PKGS += curl
# The English and Japanese data `recognize` reads in the text-layer tests.
TEST_PKGS += tesseract-ocr-eng tesseract-ocr-jpn
# Parses deploy/kubernetes/*.yaml in a test.
TEST_PKGS += python3-yaml
# The Rust example plugin needs rustc: Debian's, unless one is already on PATH (rustup).
TEST_PKGS += $(if $(shell command -v rustc),,rustc)
BENCH_PKGS := hyperfine libvips-tools time img2pdf
# The text layer's peers: OCRmyPDF and the tesseract command (same Tesseract, same languages).
BENCH_PKGS += ocrmypdf tesseract-ocr
# A one-node Slurm cluster for `make test-cluster`.
CLUSTER_PKGS := slurm-wlm munge
# `make conformance`: peak RSS, heif-convert (the HEIF/AVIF reference), the venv for Pillow.
CONFORMANCE_PKGS := time libheif-examples python3-venv
# The Debian package: installing (patchelf sets the binary's RUNPATH), checking it (lintian), and
# testing it on a clean Debian 12 root (mmdebstrap; heif-enc makes the HEIC photo).
PACKAGE_PKGS := patchelf dpkg-dev lintian mmdebstrap libheif-examples
IMAGE_PKGS := buildah

.PHONY: all deps test-deps bench-deps package-deps build demo test check bench baseline examples samples clean test-cluster install uninstall \
        deb test-package image fuzz test-asan test-parity conformance test-serve man test-web docs-screenshots bench-serve \
        example-swift

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
	@# FiltersReferenceTests compare blur, sharpen and ImageEnhance with Pillow's; the text layer's
	@# test page (tools/make-ocr-page.py) is drawn with it.
	@python3 -c "import PIL" 2>/dev/null || python3 -m pip install -q pillow >/dev/null

bench-deps: test-deps
	$(call apt_install,$(BENCH_PKGS))
	@command -v img2pdf >/dev/null || python3 -m pip install -q img2pdf >/dev/null 2>&1 || echo "img2pdf not installed: that peer is skipped"


package-deps:
	$(call apt_install,$(PACKAGE_PKGS))

build: deps
	$(SWIFT) build $(BUILD_FLAGS) --product sumi 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}

-include Makefile.plugins

# docs/sumi.1 is generated from the option table (Sources/sumi/Options): after changing an option,
# a command or the man page's prose, `make man` writes it again (a test keeps the two equal).
man: build
	$(BIN) __man > docs/sumi.1

# The web editor (web/, served by `sumi serve` at /) in headless Chromium through Selenium, at
# 1280x900 and 390x844 (tools/web-test/test_web.py; Debian's python3 for Debian's selenium and Pillow).
# PREBUILT=1 (CI): the binary make test built, not rebuilt with make build's flags.
WEB_TEST_PKGS := chromium chromium-driver python3-selenium python3-pil python3-numpy fonts-dejavu-core fonts-ipafont-gothic libimage-exiftool-perl libheif-examples qpdf poppler-utils imagemagick
test-web: $(if $(PREBUILT),,build)
	$(call apt_install,$(WEB_TEST_PKGS))
	/usr/bin/python3 tools/web-test/test_web.py --sumi $(BIN)

# Refreshes the pictures of the editor that README.md and docs/service.md show (docs/images).
docs-screenshots: $(if $(PREBUILT),,build)
	$(call apt_install,$(WEB_TEST_PKGS))
	/usr/bin/python3 tools/web-test/test_web.py --sumi $(BIN) --screenshots docs/images

# `sumi serve` under load and faults on loopback: 10,000 mixed requests at concurrency 64, 500
# connections that never finish their head, vanishing clients, a plugin stage that crashes its
# worker (Examples/crash-c, through --plugin-path); answers, /metrics, memory, leftovers and SIGTERM
# checked (tools/serve-load.py, docs/service.md). Built with `make test`'s flags, so after `make test`
# (as in .ci/run) nothing is rebuilt.
test-serve: deps $(PLUGINS_OUT)/libcrash.so
	$(SWIFT) build $(TEST_BUILD_FLAGS) --product sumi 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	python3 tools/serve-load.py --sumi .build/release/sumi --crash-plugin $(PLUGINS_OUT)/libcrash.so
	python3 tools/serve-attacks.py --sumi .build/release/sumi

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
	$(SWIFT) build $(TEST_BUILD_FLAGS) --build-tests 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	@if grep -q '^examples:' Makefile.plugins 2>/dev/null; then $(MAKE) --no-print-directory examples; fi
	SUMI_BINARY=$(CURDIR)/.build/release/sumi $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	@if grep -q '^compose-plugin:' Makefile.plugins 2>/dev/null; then $(MAKE) --no-print-directory test-parity; fi

# A Swift program outside this package that runs Sumi in-process (Examples/EmbedSwift: Sumi by path,
# the SumiApp product): built from scratch in its own scratch folder (about 70 s on 2 cores), run
# into a fresh folder, its caption and page checked by ImageMagick's identify and poppler's pdfinfo
# (and the caption's label by the pixels it changes on the sample photo).
example-swift:
	rm -f $(CURDIR)/.build/examples/EmbedSwift/debug.yaml
	$(SWIFT) build --package-path Examples/EmbedSwift --scratch-path $(CURDIR)/.build/examples/EmbedSwift 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	@out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT && \
	  "$$($(SWIFT) build --package-path Examples/EmbedSwift --scratch-path $(CURDIR)/.build/examples/EmbedSwift --show-bin-path)/EmbedSwift" "$(CURDIR)" "$$out" && \
	  test "$$(identify -format '%m %wx%h' "$$out/caption.jpg")" = "JPEG 3000x2002" && \
	  test "$$(compare -fuzz 20% -metric AE "$$out/caption.jpg" pipelines/samples/photo.jpg null: 2>&1 | cut -d' ' -f1)" -gt 20000 && \
	  pdfinfo "$$out/page.pdf" | grep -q '^Pages: *1$$' && \
	  echo "example-swift: caption.jpg and page.pdf made in-process and checked"

# The edit-test loop: every unit and stage test target, in the debug build (`swift build
# --build-tests`, as for `swift test --filter`), installing nothing. Not EndToEndTests (they run the
# CLI) nor VersionedDependencyTests (a plugin package built against a tagged clone: minutes). The
# plugin tests load the example plugins, kept built in .build/plugins (PluginFixtures would build
# SepiaPlugin from scratch on every run otherwise). Debug rather than release, measured on 2 shared
# cores: an edit to one stage or to SumiKit rebuilds in ~10 s (a release build recompiles every
# touched module whole, and all that import it); the suite runs in 3.5-4 min there against ~2 min
# for the release build (75 s of CPU against 54 s), since SumiPage is optimised in every build.
# Nor the suites named *ReferenceTests: they compare with an outside program (ImageMagick, exiftool,
# libheif's tools, poppler, qpdf, mutool, gs, hb-shape, pango-view, transicc, python3), which `make
# test` runs and `make check` does not: it runs no outside program, and SUMI_CHECK_NO_TOOLS=1 makes
# each test target's tool helper fail a test that starts one.
CHECK_SKIP := --skip EndToEndTests --skip VersionedDependencyTests --skip 'ReferenceTests'
check: $(PLUGINS_OUT)/libpixelate.so $(PLUGINS_OUT)/libSepiaPlugin.so
	@# A stale build plan after files were added or removed: replan (seconds).
	rm -f .build/debug.yaml
	$(SWIFT) build --build-tests 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
	SUMI_CHECK_NO_TOOLS=1 $(SWIFT) test --skip-build $(CHECK_SKIP) 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}

# The compositing end-to-end tests again, with the built-in Compose family left out and the same
# sources built as a plugin (Examples/ComposePlugin) in its place: the ABI carries a built-in family.
PARITY_TESTS := CaptionPipelineTests|ComposeParityTests
test-parity:
	SUMI_SKIP_BUILTIN=compose SUMI_TEST_PLUGIN_PATH=$(CURDIR)/.build/plugins-compose SUMI_BINARY=$(CURDIR)/.build/release/sumi \
	  $(SWIFT) test -c release -Xswiftc -enable-testing --skip-build --filter '$(PARITY_TESTS)' 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}

# `make install PREFIX=/usr/local` (DESTDIR=... for staging) installs what `make build` (or `make test`)
# built — nothing is built or installed from Debian here: the binary with the Swift runtime beside it,
# the shipped pipelines, the plugin header with its pkg-config file and the Swift SDK, the man page,
# the completions and the docs (tools/package/install.sh lists the layout). `make uninstall` removes it.
PREFIX ?= /usr/local
install:
	tools/package/install.sh install $(BIN) "$(PREFIX)" "$(DESTDIR)"

uninstall:
	tools/package/install.sh uninstall "$(PREFIX)" "$(DESTDIR)"

# sumi_$(VERSION)_amd64.deb in .build/deb from `make build`, or with PREBUILT=1 from whatever is
# built in .build/release (CI: the test build).
DEB := .build/deb/sumi_$(VERSION)_amd64.deb
deb: package-deps $(if $(PREBUILT),,build)
	tools/package/build-deb.sh $(BIN) .build/deb
	lintian --fail-on error --suppress-tags-from-file debian/lintian-overrides.txt $(DEB)

# The package on a clean Debian 12 root (tools/package/test-package.sh): needs Debian's mirror.
test-package: deb
	tools/package/test-package.sh $(DEB)

# An OCI image (.build/image/sumi-$(VERSION).oci.tar) from a clean root with the package installed,
# no compilers, running as an unprivileged user; buildah needs no daemon or registry.
image: deb
	$(call apt_install,$(IMAGE_PKGS))
	tools/package/make-image.sh $(DEB) .build/image

# Scale-out on a real Slurm: a one-node cluster here, a 4-task array over 40 images (tools/test-cluster.sh).
# Built with `make test`'s flags, so after `make test` (as in .ci/run) nothing is rebuilt.
test-cluster: deps
	$(call apt_install,$(CLUSTER_PKGS))
	$(SWIFT) build $(TEST_BUILD_FLAGS) --product sumi 2>&1 | grep -v 'prohibited flag(s): -pthread' ; exit $${PIPESTATUS[0]}
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

# Sumi against outside references (tools/conformance): every image of Pillow 13.0.0's Tests/images
# in a format Sumi reads, decoded by Sumi and by Pillow (heif-convert for HEIF/AVIF), compared as
# 8-bit RGBA; fails on a difference or refusal not in tools/conformance/expected.tsv, a crash, a
# hang (30 s) or a run over 500 MB. Pillow's sdist and a venv with its wheel (pinned by hash) are
# cached in $$XDG_CACHE_HOME/sumi-conformance. SUMI=path tests another binary (a debug build);
# without one, the release build (as make test left it) is used, or made.
SUMI ?= .build/release/sumi
CONFORMANCE_REPORT ?= .build/conformance/report.json
conformance:
	$(call apt_install,$(CONFORMANCE_PKGS))
	@if [ ! -x "$(SUMI)" ] && [ "$(SUMI)" = .build/release/sumi ]; then $(MAKE) --no-print-directory build; fi
	python3 tools/conformance/conformance.py --self-test
	python3 tools/conformance/conformance.py --sumi $(SUMI) --jobs 2 --json $(CONFORMANCE_REPORT) $(CONFORMANCE_FLAGS)
	@# The second corpus: image-rs/image's test images, kept in the repository with their licences
	@# and compared with that project's own reference renderings (Pillow where it has none).
	python3 tools/conformance/conformance.py --corpus image-rs --sumi $(SUMI) --jobs 2 \
	  --json $(dir $(CONFORMANCE_REPORT))report-image-rs.json $(CONFORMANCE_FLAGS)

# `make bench`: Sumi beside its peers (bench/run.sh). BASELINE=path/to/an/older/sumi runs that
# binary on every row too and marks the rows where the new one is over 1.05x its time or memory;
# ROWS=caption,thumbnail runs only those rows (names as the bench prints them in brackets).
bench: bench-deps build
	BASELINE="$(BASELINE)" ROWS="$(ROWS)" bench/run.sh $(BIN)

# `make baseline REF=<commit>` builds that commit's sumi (a plain release build) from an export of
# its tree (git archive: no worktree to register or prune) in .build/baseline/<commit>, and prints
# the binary's path (alone on standard output, so `make bench BASELINE=$(make -s baseline REF=…)`
# works; a second call rebuilds nothing). The libraries are `make deps`'s, as for `make build`.
REF ?= main
baseline:
	@commit=$$(git rev-parse --verify --quiet --short "$(REF)^{commit}") || { echo "REF=$(REF) is no commit" >&2; exit 2; }; \
	dir=$(CURDIR)/.build/baseline/$$commit; \
	if [ ! -f "$$dir/Package.swift" ]; then \
	  rm -rf "$$dir.tmp" && mkdir -p "$$dir.tmp" && git archive "$$commit" | tar -x -C "$$dir.tmp" && mv "$$dir.tmp" "$$dir" || exit 1; \
	fi; \
	( cd "$$dir" && $(SWIFT) build $(BUILD_FLAGS) --product sumi 2>&1 | grep -v 'prohibited flag(s): -pthread' >&2; exit $${PIPESTATUS[0]} ) || exit 1; \
	echo "$$dir/.build/$(CONFIG)/sumi"

# `sumi serve` against thumbor 7.8.0 (PyPI, in a venv under ~/.cache) and `sumi run` per request:
# the same 512-pixel thumbnail of the sample photo, wrk at concurrency 1, 4 and 16 (bench/serve.py;
# about 2 minutes, not in CI).
bench-serve: build
	$(call apt_install,wrk python3-venv)
	python3 bench/serve.py --sumi $(BIN)

samples:
	python3 tools/make-samples.py

clean:
	rm -rf .build out
