#!/usr/bin/env bash
# Builds every libFuzzer target in fuzz/targets into .build/fuzz/bin.
#
# SwiftPM builds the Sumi modules once with AddressSanitizer and libFuzzer's coverage
# instrumentation (swiftc has no -sanitize=fuzzer-no-link: -sanitize-coverage gives the same
# counters); each target is then compiled with swiftc -sanitize=fuzzer,address and linked with the
# modules' objects, libFuzzer supplying main. fuzz/generators holds the structure generators the
# targets share with the unit tests (linked into Tests/CodecsTests), compiled into every target.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=.build/fuzz
REL=$BUILD/release
COVERAGE=edge,trace-cmp,inline-8bit-counters,pc-table
# (libpng, zlib and libdeflate are opened at run time, as in sumi: their headers are in /usr/include.)
PKGS="gdk-pixbuf-2.0 harfbuzz freetype2 fontconfig fribidi libwebp lcms2 libheif icu-uc libtiff-4 nettle"

swift build -c release --product sumi --build-path "$BUILD" --sanitize=address \
  -Xswiftc -sanitize-coverage=$COVERAGE -Xcc -fsanitize=fuzzer-no-link 2>&1 | grep -v 'prohibited flag' || true
[ -x "$REL/sumi" ] || { echo "fuzz: the instrumented build failed" >&2; exit 1; }

objects=()
for module in SumiKit SumiEngine SumiCrypto SumiCodecs SumiTransform SumiText SumiCompose SumiPage CSumiCodecs CSumiPixels CSumiICU CSumiVersion CSumiRuntime; do
  # An object whose source file is gone (renamed, moved to another module or deleted since an
  # earlier build in this folder) would be linked too: left out. A C module's sources are in
  # Sources/<module>; a Swift module's anywhere below Sources or Plugins.
  where=(Sources Plugins)
  [[ "$module" == C* ]] && where=("Sources/$module")
  while IFS= read -r o; do
    source=$(basename "$o" .o)
    if [ -n "$(find "${where[@]}" -name "$source" -print -quit)" ]; then objects+=("$o"); fi
  done < <(find "$REL/$module.build" -name '*.o' | sort)
done
flags=(-I "$REL/Modules")
# The system libraries' module maps, those a C module declares itself, and those SwiftPM wrote for
# the others (not one left from before a module had its own: two maps of one module clash).
for map in Sources/C*/module.modulemap Sources/C*/include/module.modulemap "$REL"/CSumi*.build/module.modulemap; do
  [ -f "$map" ] || continue
  case "$map" in
    "$REL"/*) module=$(basename "$(dirname "$map")" .build)
              [ -f "Sources/$module/include/module.modulemap" ] && continue ;;
  esac
  flags+=(-Xcc "-fmodule-map-file=$map")
done
flags+=(-Xcc -I -Xcc Sources/CSumiCodecs/include -Xcc -I -Xcc Sources/CSumiPlugin/include -Xcc -I -Xcc Sources/CSumiICU/include
       -Xcc -I -Xcc Sources/CSumiRuntime/include -Xcc -I -Xcc Sources/CSumiPixels/include)
for f in $(pkg-config --cflags $PKGS); do flags+=(-Xcc "$f"); done
# giflib has no pkg-config file on Debian 12.
libs=(-ljpeg -lgif)
for f in $(pkg-config --libs $PKGS); do libs+=("$f"); done

mkdir -p "$BUILD/bin"
for source in fuzz/targets/*.swift; do
  name=$(basename "$source" .swift)
  [ "$name" = FuzzSupport ] && continue
  if [ -n "${FUZZ_TARGETS:-}" ] && ! [[ " $FUZZ_TARGETS " == *" $name "* ]]; then continue; fi
  echo "fuzz: building $name"
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name FuzzTarget "${flags[@]}" \
    fuzz/targets/FuzzSupport.swift fuzz/generators/*.swift "$source" "${objects[@]}" "${libs[@]}" -o "$BUILD/bin/$name" 2>&1 \
    | { grep -v "Cannot export local symbol" || true; }
done
