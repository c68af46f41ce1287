#!/usr/bin/env bash
# Benchmarks Sumi side by side with ImageMagick, libvips and the codec floor (djpeg | cjpeg).
# Prints medians and ratios; commits no numbers (the machines are noisy: read the ratios).
# Usage: bench/run.sh [path/to/sumi]
set -euo pipefail
cd "$(dirname "$0")/.."
SUMI=${1:-.build/release/sumi}
SUMI=$(realpath "$SUMI")
WORK=${BENCH_DIR:-/tmp/sumi-bench}
RUNS=${BENCH_RUNS:-10}
mkdir -p "$WORK/out" "$WORK/results"
PHOTO=$(realpath pipelines/samples/photo.jpg)
CONVERT=/usr/bin/convert
export MAGICK_THREAD_LIMIT=${MAGICK_THREAD_LIMIT:-2}

# Inputs: the sample photo (3000x2002 JPEG), a screenshot-like PNG, eight phone captures.
[ -f "$WORK/shot.png" ] || $CONVERT -size 3000x2002 tile:pipelines/samples/page-1.png "$WORK/shot.png"
[ -f "$WORK/captures/capture-7.png" ] || python3 tools/make-samples.py bench-captures "$WORK/captures"
FONT=$(fc-match -f '%{file}' 'IPAGothic')

# hyperfine NAME CMD... → median seconds in $WORK/NAME.json
bench() {
  local name=$1 runs=$RUNS; shift
  if [ "$1" = "--runs" ]; then runs=$2; shift 2; fi
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$WORK/results/$name.json" "$@" >/dev/null
}
median() { python3 -c "import json,sys; r=json.load(open('$WORK/results/$1.json'))['results']; print(r[$2]['median'])"; }
peak() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n1; }

row() { # label sumi-index name [peer-index peer-label]...
  local name=$1 label=$2; shift 2
  local s; s=$(median "$name" 0)
  printf '%-44s sumi %8.1f ms' "$label" "$(python3 -c "print($s*1000)")"
  local i=1
  for peer in "$@"; do
    local p; p=$(median "$name" $i)
    printf ' | %s %8.1f ms (sumi/peer %.2f)' "$peer" "$(python3 -c "print($p*1000)")" "$(python3 -c "print($s/$p)")"
    i=$((i+1))
  done
  echo
}

cat > "$WORK/recode.json" <<JSON
{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
 "stages": [{"stage": "decode", "with": {"path": "\${input}"}}, {"stage": "encode", "with": {"path": "\${output}", "quality": 90}}]}
JSON
cat > "$WORK/topng.json" <<JSON
{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
 "stages": [{"stage": "decode", "with": {"path": "\${input}"}}, {"stage": "encode", "with": {"path": "\${output}"}}]}
JSON

echo "== Start-up: --version (every run pays it; libheif and gdk-pixbuf are opened only when needed)"
bench startup --runs 100 "$SUMI --version" "vips --version" "$CONVERT -version"
row startup "sumi --version" "vips --version" "convert -version"

echo "== JPEG decode+encode, 3000x2002, q90"
bench recode \
  "$SUMI run $WORK/recode.json -i $PHOTO -o $WORK/out/s.jpg --quiet" \
  "djpeg $PHOTO | cjpeg -quality 90 > $WORK/out/p.jpg" \
  "vips copy $PHOTO $WORK/out/v.jpg[Q=90]" \
  "$CONVERT $PHOTO -quality 90 $WORK/out/m.jpg"
row recode "decode+encode" "djpeg|cjpeg" "vips" "convert"

echo "== Thumbnail to 512 px"
bench thumb \
  "$SUMI run pipelines/thumbnail.json -i $PHOTO -o $WORK/out/t.jpg --quiet" \
  "vipsthumbnail $PHOTO -s 512x -o $WORK/out/vt.jpg[Q=85]" \
  "$CONVERT $PHOTO -resize 512x -quality 85 $WORK/out/mt.jpg"
row thumb "thumbnail 512" "vipsthumbnail" "convert"

echo "== PNG encode, 3000x2002 screenshot-like"
bench png \
  "$SUMI run $WORK/topng.json -i $WORK/shot.png -o $WORK/out/s.png --quiet" \
  "$CONVERT $WORK/shot.png $WORK/out/m.png"
row png "png decode+encode" "convert"
# Screenshot-like input: pipelines/samples/page-1.png (a 390x844 phone capture) tiled to 3000x2002.
S_PNG=$(stat -c %s "$WORK/out/s.png"); M_PNG=$(stat -c %s "$WORK/out/m.png")
printf '%-44s sumi %8d B | convert %8d B (sumi/peer %.2f)\n' "png size" "$S_PNG" "$M_PNG" \
  "$(python3 -c "print($S_PNG/$M_PNG)")"

if "$SUMI" inspect text >/dev/null 2>&1 && [ -f pipelines/caption.json ]; then
  echo "== Caption, 3000x2002 JPEG, 120 px text (17 px in a 425x284 preview), q90"
  bench caption \
    "$SUMI run pipelines/caption.json -i $PHOTO -o $WORK/out/c.jpg --set 'text=東京タワー Tokyo Tower' --set frame=425x284 --quiet" \
    "djpeg $PHOTO | cjpeg -quality 90 > $WORK/out/p.jpg" \
    "$CONVERT $PHOTO -font $FONT -pointsize 120 -fill red -stroke black -gravity center -annotate +0+0 '東京タワー Tokyo Tower' -quality 90 $WORK/out/mc.jpg"
  row caption "caption" "djpeg|cjpeg" "convert"

  echo "== Caption turned 30° (outlines drawn turned at 7.7x), against the upright caption and ImageMagick's -annotate 30x30"
  bench caption-turned \
    "$SUMI run pipelines/caption.json -i $PHOTO -o $WORK/out/ct.jpg --set 'text=東京タワー Tokyo Tower' --set frame=425x284 --set placed.rotation=30 --quiet" \
    "$SUMI run pipelines/caption.json -i $PHOTO -o $WORK/out/c.jpg --set 'text=東京タワー Tokyo Tower' --set frame=425x284 --quiet" \
    "$CONVERT $PHOTO -font $FONT -pointsize 120 -fill red -stroke black -gravity center -annotate 30x30+0+0 '東京タワー Tokyo Tower' -quality 90 $WORK/out/mct.jpg"
  row caption-turned "caption turned 30°" "upright caption" "convert"

  echo "== Batch of 20 captions"
  mkdir -p "$WORK/batch" "$WORK/batch-in"
  for i in $(seq 1 20); do [ -f "$WORK/batch-in/photo-$i.jpg" ] || cp "$PHOTO" "$WORK/batch-in/photo-$i.jpg"; done
  INPUTS=$(for i in $(seq 1 20); do echo -n " -i $WORK/batch-in/photo-$i.jpg"; done)
  bench batch --runs 3 \
    "$SUMI run pipelines/caption.json $INPUTS -o '$WORK/batch/{stem}.jpg' --jobs 2 --quiet" \
    "$SUMI run pipelines/caption.json $INPUTS -o '$WORK/batch/{stem}.jpg' --jobs 1 --quiet"
  python3 -c "import json; r=json.load(open('$WORK/results/batch.json'))['results']; print('   images/s jobs 2 vs jobs 1: %.2fx' % (r[1]['median']/r[0]['median']))"
fi

if "$SUMI" inspect text >/dev/null 2>&1 && command -v pango-view >/dev/null; then
  echo "== Text: a 2000-character mixed-script paragraph wrapped at 600 px, 17 px, to PNG"
  python3 - "$WORK/paragraph.txt" <<'PY'
import sys
words = ["Sumi", "lays", "out", "text", "東京タワーは", "夕焼けに", "赤く光る。", "ภาษาไทย", "เป็นภาษา",
         "مرحبا", "بالعالم", "नमस्ते", "дом", "straße", "colour", "https://example.org/a/b", "😀"]
out, i = "", 0
while len(out) < 2000:
    out += words[(i * 7) % len(words)] + " "
    i += 1
open(sys.argv[1], "w").write(out[:2000])
PY
  cat > "$WORK/paragraph.json" <<JSON
{"sumi": 1, "params": {"text": {"type": "string"}, "output": {"type": "path"}},
 "stages": [{"id": "t", "stage": "text", "with": {"text": "\${text}", "size": 17, "width": 600, "background": "white"}},
            {"stage": "encode", "from": "t", "with": {"path": "\${output}"}}]}
JSON
  bench paragraph \
    "$SUMI run $WORK/paragraph.json --set \"text=\$(cat $WORK/paragraph.txt)\" -o $WORK/out/para.png --quiet" \
    "pango-view --no-display --dpi=72 --font='sans-serif 17px' --width=600 --background=white -q -o $WORK/out/para-pango.png $WORK/paragraph.txt"
  row paragraph "text paragraph 2000 chars @600px" "pango-view"
fi

if "$SUMI" inspect pdf-page >/dev/null 2>&1 && [ -f pipelines/fullpage.json ]; then
  # 8 and 50 phone captures (1170x2532, 1500 rows of scroll apart) -> one tall PDF page; the 50 make
  # a page of 1170x76032 (356 MB as RGBA). Time and peak RSS side by side; "whole" is the same
  # binary with SUMI_STREAMING=0 (every capture decoded at once, as before captures were taken
  # in turn). ImageMagick cannot be a peer: Debian's policy.xml forbids writing PDF and refuses
  # images this tall (the bench says so when it refuses).
  [ -f "$WORK/captures50/capture-49.png" ] || python3 tools/make-samples.py bench-captures "$WORK/captures50" 50
  for COUNT in 8 50; do
    DIR=$WORK/captures; [ "$COUNT" = 50 ] && DIR=$WORK/captures50
    FILES=$(ls "$DIR"/capture-*.png | sort -V | head -n "$COUNT" | tr '\n' ' ')
    INPUTS=$(for c in $FILES; do echo -n " -i $c"; done)
    echo "== $COUNT captures 1170x2532 -> one PDF page"
    PEERS=(); LABELS=()
    if $CONVERT $FILES -append "$WORK/out/m.pdf" 2>/dev/null; then
      PEERS+=("$CONVERT $FILES -append $WORK/out/m.pdf"); LABELS+=("convert")
    else
      echo "   (ImageMagick refuses this job under the system's policy.xml: peer left out)"
    fi
    if command -v img2pdf >/dev/null && command -v vips >/dev/null; then
      PEERS+=("vips arrayjoin '$FILES' $WORK/out/tall.png --across 1 && img2pdf $WORK/out/tall.png -o $WORK/out/i.pdf")
      LABELS+=("vips+img2pdf")
    fi
    SUMI_RUN="$SUMI run pipelines/fullpage.json $INPUTS -o $WORK/out/s.pdf --quiet"
    bench "fullpage$COUNT" --runs 5 "$SUMI_RUN" "SUMI_STREAMING=0 $SUMI_RUN" "${PEERS[@]}"
    row "fullpage$COUNT" "fullpage $COUNT captures pdf" "whole" "${LABELS[@]}"
    printf '   peak RSS: sumi %s KB | whole %s KB' "$(peak $SUMI_RUN)" "$(SUMI_STREAMING=0 peak $SUMI_RUN)"
    if command -v img2pdf >/dev/null && command -v vips >/dev/null; then
      printf ' | vips arrayjoin %s KB + img2pdf %s KB' "$(peak vips arrayjoin "$FILES" "$WORK/out/tall.png" --across 1)" \
        "$(peak img2pdf "$WORK/out/tall.png" -o "$WORK/out/i.pdf")"
    fi
    echo
    find "$WORK/out" -name "*.pdf" -size +0 -exec ls -l {} + | awk '{print "   ", $5, $9}'
  done
  # The ordering pass when the order is wrong: the 50 captures given last to first, against the same
  # captures in order (which keeps the given order after one comparison per pair). The difference is
  # the all-pairs comparison of row hashes and nothing else: both give the same bytes.
  FILES=$(ls "$WORK/captures50"/capture-*.png | sort -V)
  FORWARD=$(for c in $FILES; do echo -n " -i $c"; done)
  REVERSED=$(for c in $(echo "$FILES" | tac); do echo -n " -i $c"; done)
  echo "== stitch order: 50 captures given in reverse order vs in order"
  bench stitchorder --runs 5 "$SUMI run pipelines/fullpage.json $REVERSED -o $WORK/out/r.pdf --quiet" \
    "$SUMI run pipelines/fullpage.json $FORWARD -o $WORK/out/f.pdf --quiet"
  row stitchorder "fullpage 50 captures reversed (reordered)" "in order"
fi

echo "== Colour profile and metadata cost, sRGB photo with EXIF vs the same photo bare (target <= 1.05)"
if command -v exiftool >/dev/null; then
  [ -f "$WORK/tagged.jpg" ] || { cp "$PHOTO" "$WORK/tagged.jpg"; exiftool -q -overwrite_original \
      "-ICC_Profile<=/usr/share/color/icc/colord/sRGB.icc" -Make=Canon -Model=R5 -GPSLatitude=48.8 -GPSLatitudeRef=N \
      -XMP-dc:Creator=Bench "$WORK/tagged.jpg"; }
  [ -f "$WORK/bare.jpg" ] || { cp "$PHOTO" "$WORK/bare.jpg"; exiftool -q -overwrite_original -all= "$WORK/bare.jpg"; }
  bench meta-thumb \
    "$SUMI run pipelines/thumbnail.json -i $WORK/tagged.jpg -o $WORK/out/mt1.jpg --quiet" \
    "$SUMI run pipelines/thumbnail.json -i $WORK/bare.jpg -o $WORK/out/mt2.jpg --quiet"
  row meta-thumb "thumbnail, profile+EXIF kept" "bare photo"
  if [ -f pipelines/caption.json ]; then
    bench meta-caption \
      "$SUMI run pipelines/caption.json -i $WORK/tagged.jpg -o $WORK/out/mc1.jpg --quiet" \
      "$SUMI run pipelines/caption.json -i $WORK/bare.jpg -o $WORK/out/mc2.jpg --quiet"
    row meta-caption "caption, profile+EXIF kept" "bare photo"
  fi
fi

echo "== HEIC 12 MP (4000x3000) decode -> JPEG q90"
if command -v heif-enc >/dev/null; then
  [ -f "$WORK/photo12.heic" ] || { $CONVERT "$PHOTO" -resize '4000x3000!' -quality 95 "$WORK/photo12.jpg" \
      && heif-enc -q 80 "$WORK/photo12.jpg" -o "$WORK/photo12.heic" >/dev/null; }
  bench heic --runs 5 \
    "$SUMI run $WORK/recode.json -i $WORK/photo12.heic -o $WORK/out/h.jpg --quiet" \
    "heif-convert -q 90 $WORK/photo12.heic $WORK/out/hc.jpg" \
    "$CONVERT $WORK/photo12.heic -quality 90 $WORK/out/hm.jpg"
  row heic "heic 12 MP -> jpeg" "heif-convert" "convert"
fi

if [ -f pipelines/caption.json ] && "$SUMI" inspect text >/dev/null 2>&1; then
  echo "== Memory versus size: caption (120 px text in a bordered box, q90), median time and peak RSS"
  # pyvips is the libvips peer (its demand-driven regions keep memory flat); install it if missing.
  python3 -c "import pyvips" 2>/dev/null || pip install --user --quiet pyvips 2>/dev/null \
    || pip install --user --quiet --break-system-packages pyvips || true
  HAVE_PYVIPS=$(python3 -c "import pyvips" 2>/dev/null && echo 1 || echo 0)
  TEXT='東京タワー Tokyo Tower'
  for size in 3000x2002 6000x4004 12000x8008; do
    w=${size%x*}; factor=$((w / 3000)); frame="$((425 * factor))x$((284 * factor))"
    input="$WORK/photo-$size.jpg"
    if [ "$size" = 3000x2002 ]; then input=$PHOTO; fi
    [ -f "$input" ] || vips resize "$PHOTO" "$input[Q=90]" "$factor"
    CAP=("$SUMI run pipelines/caption.json -i $input -o $WORK/out/cap-$size.jpg --set 'text=$TEXT' --set frame=$frame --quiet")
    LABELS=()
    if [ "$HAVE_PYVIPS" = 1 ]; then
      CAP+=("python3 bench/caption_pyvips.py $input $WORK/out/capv-$size.jpg '$TEXT' 120 $FONT"); LABELS+=("pyvips")
    fi
    if [ "$size" = 3000x2002 ]; then
      CAP+=("djpeg $input | cjpeg -quality 90 > $WORK/out/capp.jpg"); LABELS+=("djpeg|cjpeg")
    fi
    if [ "$size" != 12000x8008 ]; then
      CAP+=("$CONVERT $input -font $FONT -pointsize 120 -fill red -stroke black -gravity center -annotate +0+0 '$TEXT' -quality 90 $WORK/out/capm-$size.jpg")
      LABELS+=("convert")
    fi
    runs=5; [ "$size" = 12000x8008 ] && runs=3
    bench "cap-$size" --runs $runs "${CAP[@]}"
    row "cap-$size" "caption $size" "${LABELS[@]}"
    printf '   peak RSS %s: sumi %s KB' "$size" "$(peak bash -c "${CAP[0]}")"
    i=1
    for label in "${LABELS[@]}"; do printf ' | %s %s KB' "$label" "$(peak bash -c "${CAP[$i]}")"; i=$((i+1)); done
    echo
  done
fi

echo "== Photo 6000x4004 JPEG -> PNG (zlib level 1): streamed once its layout is known, against the whole image"
big6="$WORK/photo-6000x4004.jpg"
[ -f "$big6" ] || vips resize "$PHOTO" "$big6[Q=90]" 2
cat > "$WORK/topng1.json" <<JSON
{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
 "stages": [{"stage": "decode", "with": {"path": "\${input}"}}, {"stage": "encode", "with": {"path": "\${output}", "compression": 1}}]}
JSON
TOPNG="$SUMI run $WORK/topng1.json -i $big6 -o $WORK/out/big6.png --quiet"
bench topng6 --runs 3 "$TOPNG" "SUMI_STREAMING=0 $TOPNG" "vips copy $big6 $WORK/out/big6v.png[compression=1]" \
  "$CONVERT $big6 -define png:compression-level=1 $WORK/out/big6m.png"
row topng6 "jpeg -> png 6000x4004" "whole image" "vips" "convert"
printf '   peak RSS: sumi %s KB | whole %s KB | vips %s KB | convert %s KB\n' "$(peak bash -c "$TOPNG")" \
  "$(peak bash -c "SUMI_STREAMING=0 $TOPNG")" "$(peak vips copy "$big6" "$WORK/out/big6v.png[compression=1]")" \
  "$(peak $CONVERT "$big6" -define png:compression-level=1 "$WORK/out/big6m.png")"

if [ -f .build/plugins/libinvert-rust.so ]; then
  echo "== Plugin band callbacks: decode -> invert-rust -> encode, 12000x8008 JPEG q90"
  # The Rust example plugin streams through its band callbacks; SUMI_STREAMING=0 gives it the
  # whole image (its process callback), as a plugin without them; convert -negate is the peer.
  cat > "$WORK/invert.json" <<JSON
{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
 "stages": [{"stage": "decode", "with": {"path": "\${input}"}}, {"stage": "invert-rust"},
            {"stage": "encode", "with": {"path": "\${output}", "quality": 90}}]}
JSON
  big="$WORK/photo-12000x8008.jpg"
  [ -f "$big" ] || vips resize "$PHOTO" "$big[Q=90]" 4
  INV="SUMI_PLUGIN_PATH=$(realpath .build/plugins) $SUMI run $WORK/invert.json -i $big -o $WORK/out/inv.jpg --quiet"
  bench invert --runs 3 "$INV" "SUMI_STREAMING=0 $INV" "$CONVERT $big -negate -quality 90 $WORK/out/invm.jpg"
  row invert "invert-rust 12000x8008" "whole image" "convert"
  printf '   peak RSS: bands %s KB | whole image %s KB | convert %s KB\n' "$(peak bash -c "$INV")" \
    "$(peak bash -c "SUMI_STREAMING=0 $INV")" "$(peak "$CONVERT" "$big" -negate -quality 90 "$WORK/out/invm.jpg")"
fi

echo "== Peak memory (max RSS)"
printf '   sumi decode+encode: %s KB | djpeg: %s KB | vips copy: %s KB | convert: %s KB\n' \
  "$(peak "$SUMI" run "$WORK/recode.json" -i "$PHOTO" -o "$WORK/out/s.jpg" --quiet)" \
  "$(peak djpeg -outfile "$WORK/out/p.ppm" "$PHOTO")" \
  "$(peak vips copy "$PHOTO" "$WORK/out/v.jpg")" \
  "$(peak "$CONVERT" "$PHOTO" "$WORK/out/m.jpg")"
if [ -f pipelines/caption.json ] && "$SUMI" inspect text >/dev/null 2>&1; then
  printf '   sumi caption: %s KB\n' "$(peak "$SUMI" run pipelines/caption.json -i "$PHOTO" -o "$WORK/out/c.jpg" --quiet)"
fi
