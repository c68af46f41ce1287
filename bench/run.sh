#!/usr/bin/env bash
# Benchmarks Sumi side by side with ImageMagick, libvips and the codec floor (djpeg | cjpeg), and,
# given BASELINE=path/to/an/older/sumi, with that binary on the same rows in the same hyperfine
# runs: each row then shows the baseline's median time and peak RSS and the ratios new/baseline,
# and a summary at the end marks every row over LIMIT (1.05) in time or memory. A row the baseline
# could run two ways (streamed and whole, SUMI_STREAMING=0 in binaries that still read it) compares
# with the faster of the two, time and memory of that same way.
# Prints medians and ratios; commits no numbers (the machines are noisy: read the ratios).
#
# Usage: [BASELINE=path] [ROWS=name,name] [BENCH_RUNS=n] bench/run.sh [path/to/sumi]
#   ROWS   only these rows (names as printed in brackets, e.g. ROWS=caption,thumbnail); default all
set -euo pipefail
cd "$(dirname "$0")/.."
SUMI=${1:-.build/release/sumi}
SUMI=$(realpath "$SUMI")
BASELINE=${BASELINE:+$(realpath "$BASELINE")}
WORK=${BENCH_DIR:-/tmp/sumi-bench}
RUNS=${BENCH_RUNS:-10}
RSS_RUNS=${BENCH_RSS_RUNS:-3}
LIMIT=${BENCH_LIMIT:-1.05}
ROWS=${ROWS:-}
mkdir -p "$WORK/out" "$WORK/results"
SUMMARY=$WORK/results/summary.tsv
: > "$SUMMARY"
PHOTO=$(realpath pipelines/samples/photo.jpg)
CONVERT=/usr/bin/convert
export MAGICK_THREAD_LIMIT=${MAGICK_THREAD_LIMIT:-2}
# The baseline runs the shipped pipelines of its own release (their parameters change between
# releases): those beside it (the source tree of SOURCE/.build/<triple>/<config>/sumi, or an
# installed BIN/../share/sumi), else ours.
BASE_PIPELINES=""
if [ -n "$BASELINE" ]; then
  [ -x "$BASELINE" ] || { echo "BASELINE=$BASELINE is not an executable" >&2; exit 2; }
  for dir in "$(dirname "$BASELINE")/../../../pipelines" "$(dirname "$BASELINE")/../share/sumi/pipelines"; do
    if [ -f "$dir/thumbnail.json" ]; then BASE_PIPELINES=$(realpath "$dir"); break; fi
  done
  echo "baseline pipelines: ${BASE_PIPELINES:-$(realpath pipelines) (none beside the baseline)}"
  echo "new: $SUMI ($("$SUMI" --version))"
  echo "baseline: $BASELINE ($("$BASELINE" --version))"
fi

# Whether row NAME was asked for (every row when ROWS is empty).
wanted() { [ -z "$ROWS" ] || [[ ",$ROWS," == *",$1,"* ]]; }

# Inputs: the sample photo (3000x2002 JPEG), a screenshot-like PNG, eight phone captures.
prepare_shot() { [ -f "$WORK/shot.png" ] || $CONVERT -size 3000x2002 tile:pipelines/samples/page-1.png "$WORK/shot.png"; }
prepare_captures() { [ -f "$WORK/captures/capture-7.png" ] || python3 tools/make-samples.py bench-captures "$WORK/captures"; }
FONT=$(fc-match -f '%{file}' 'IPAGothic')

# hyperfine NAME [--runs N] CMD... → $WORK/results/NAME.json
bench() {
  local name=$1 runs=$RUNS; shift
  if [ "$1" = "--runs" ]; then runs=$2; shift 2; fi
  hyperfine --style none --warmup 1 --runs "$runs" --export-json "$WORK/results/$name.json" "$@" >/dev/null
}
median() { python3 -c "import json; r=json.load(open('$WORK/results/$1.json'))['results']; print(r[$2]['median'])"; }
ms() { python3 -c "print('%.1f' % ($1 * 1000))"; }
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
peak() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n1; }
# The median peak RSS in KB of RSS_RUNS runs of a shell command.
peak_median() {
  local values=() i
  for i in $(seq 1 "$RSS_RUNS"); do values+=("$(peak bash -c "$1")"); done
  printf '%s\n' "${values[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# row NAME LABEL [--runs N] [--both] CMD [PEER_LABEL PEER_CMD]...
# CMD is a shell command with @SUMI@ where the binary goes; it runs with the new binary and, given
# BASELINE, with the baseline (--both: also with SUMI_STREAMING=0, the faster way kept). Peers run
# in the same hyperfine invocation. Prints one line of times and ratios and one of peak RSS.
row() {
  local name=$1 label=$2 runs=$RUNS both=0; shift 2
  if [ "$1" = "--runs" ]; then runs=$2; shift 2; fi
  if [ "$1" = "--both" ]; then both=1; shift; fi
  local template=$1; shift
  local new=${template//@SUMI@/$SUMI}
  local commands=("$new") base_ways=()
  if [ -n "$BASELINE" ]; then
    local base=${template//@SUMI@/$BASELINE}
    [ -n "$BASE_PIPELINES" ] && base=${base// pipelines\// $BASE_PIPELINES/}
    base_ways=("$base")
    [ "$both" = 1 ] && base_ways+=("SUMI_STREAMING=0 $base")
    commands+=("${base_ways[@]}")
  fi
  local labels=() peers=()
  while [ $# -gt 0 ]; do labels+=("$1"); peers+=("$2"); shift 2; done
  bench "$name" --runs "$runs" "${commands[@]}" ${peers[@]+"${peers[@]}"}
  local t; t=$(median "$name" 0)
  local rss; rss=$(peak_median "$new")
  printf '%-44s sumi %8s ms %9s KB' "[$name] $label" "$(ms "$t")" "$rss"
  if [ -n "$BASELINE" ]; then
    # The baseline's faster way: its time, and its peak RSS.
    local best=1 bt; bt=$(median "$name" 1)
    if [ "$both" = 1 ]; then
      local wt; wt=$(median "$name" 2)
      if python3 -c "import sys; sys.exit(0 if $wt < $bt else 1)"; then best=2; bt=$wt; fi
    fi
    local brss; brss=$(peak_median "${base_ways[$((best - 1))]}")
    local way=""
    if [ "$both" = 1 ]; then
      way=$([ "$best" = 2 ] && echo " whole" || echo " streamed")
      way+=" (the other way $(ms "$(median "$name" $((3 - best)))") ms)"
    fi
    local rt rm; rt=$(ratio "$t" "$bt"); rm=$(ratio "$rss" "$brss")
    printf ' | baseline%s %8s ms %9s KB | new/baseline time %s memory %s' "$way" "$(ms "$bt")" "$brss" "$rt" "$rm"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$label" "$(ms "$t")" "$(ms "$bt")" "$rt" "$rss" "$brss" "$rm" >> "$SUMMARY"
  fi
  local i=$((${#base_ways[@]} + 1)) k
  for k in "${!labels[@]}"; do
    local p; p=$(median "$name" $i)
    printf ' | %s %8s ms (sumi/peer %s)' "${labels[$k]}" "$(ms "$p")" "$(ratio "$t" "$p")"
    i=$((i + 1))
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

if wanted startup; then
  echo "== Start-up: --version (every run pays it; libheif, gdk-pixbuf and libmicrohttpd are opened only when needed)"
  # The floor: a hello-world Swift program built the same way (swiftc -O, the Swift runtime shared).
  if [ ! -x "$WORK/hello" ]; then
    echo 'print("hello")' > "$WORK/hello.swift"
    "$(dirname "$(command -v swift)")/swiftc" -O "$WORK/hello.swift" -o "$WORK/hello"
  fi
  row startup "sumi --version" --runs 100 "@SUMI@ --version" "hello-world Swift" "$WORK/hello" \
    "vips --version" "vips --version" "convert -version" "$CONVERT -version"
fi

if wanted recode; then
  echo "== JPEG decode+encode, 3000x2002, q90"
  row recode "decode+encode" "@SUMI@ run $WORK/recode.json -i $PHOTO -o $WORK/out/s.jpg --quiet" \
    "djpeg|cjpeg" "djpeg $PHOTO | cjpeg -quality 90 > $WORK/out/p.jpg" \
    "vips" "vips copy $PHOTO $WORK/out/v.jpg[Q=90]" \
    "convert" "$CONVERT $PHOTO -quality 90 $WORK/out/m.jpg"
fi

if wanted thumbnail; then
  echo "== Thumbnail to 512 px"
  row thumbnail "thumbnail 512" "@SUMI@ run pipelines/thumbnail.json -i $PHOTO -o $WORK/out/t.jpg --quiet" \
    "vipsthumbnail" "vipsthumbnail $PHOTO -s 512x -o $WORK/out/vt.jpg[Q=85]" \
    "convert" "$CONVERT $PHOTO -resize 512x -quality 85 $WORK/out/mt.jpg"
fi

if wanted png; then
  echo "== PNG encode, 3000x2002 screenshot-like"
  prepare_shot
  row png "png decode+encode" "@SUMI@ run $WORK/topng.json -i $WORK/shot.png -o $WORK/out/s.png --quiet" \
    "convert" "$CONVERT $WORK/shot.png $WORK/out/m.png"
  # The row ran the baseline after sumi into the same file: sumi's output is written again to be measured.
  "$SUMI" run "$WORK/topng.json" -i "$WORK/shot.png" -o "$WORK/out/s.png" --quiet
  # Screenshot-like input: pipelines/samples/page-1.png (a 390x844 phone capture) tiled to 3000x2002.
  S_PNG=$(stat -c %s "$WORK/out/s.png"); M_PNG=$(stat -c %s "$WORK/out/m.png")
  printf '%-44s sumi %8d B | convert %8d B (sumi/peer %.2f)' "png size" "$S_PNG" "$M_PNG" "$(python3 -c "print($S_PNG/$M_PNG)")"
  if [ -n "$BASELINE" ]; then
    "$BASELINE" run "$WORK/topng.json" -i "$WORK/shot.png" -o "$WORK/out/b.png" --quiet
    B_PNG=$(stat -c %s "$WORK/out/b.png")
    printf ' | baseline %8d B (new/baseline %.2f)' "$B_PNG" "$(python3 -c "print($S_PNG/$B_PNG)")"
  fi
  echo
fi

HAVE_TEXT=0
if wanted png-captures; then
  echo "== PNG encode of phone captures (> 256 colours): antialiased text, and text with photo blocks"
  [ -f "$WORK/text-capture.png" ] || python3 tools/make-text-capture.py "$WORK/text-capture.png"
  [ -f "$WORK/photo-page/capture-2.png" ] || python3 tools/make-photo-page.py "$WORK/photo-page" 3 --camera-photos
  for kind in text photo; do
    IN=$([ "$kind" = text ] && echo "$WORK/text-capture.png" || echo "$WORK/photo-page/capture-2.png")
    row "png-captures-$kind" "png decode+encode, $kind capture" "@SUMI@ run $WORK/topng.json -i $IN -o $WORK/out/cs.png --quiet" \
      "convert" "$CONVERT $IN $WORK/out/cm.png"
    "$SUMI" run "$WORK/topng.json" -i "$IN" -o "$WORK/out/cs.png" --quiet
    S_PNG=$(stat -c %s "$WORK/out/cs.png"); M_PNG=$(stat -c %s "$WORK/out/cm.png")
    printf '%-44s sumi %8d B | convert %8d B (sumi/peer %.3f)\n' "$kind capture png size" "$S_PNG" "$M_PNG" \
      "$(python3 -c "print($S_PNG/$M_PNG)")"
  done
fi

"$SUMI" inspect text >/dev/null 2>&1 && [ -f pipelines/caption.json ] && HAVE_TEXT=1
CAPTION="@SUMI@ run pipelines/caption.json -i $PHOTO -o $WORK/out/c.jpg --set 'text=東京タワー Tokyo Tower' --set frame=425x284 --quiet"
if [ "$HAVE_TEXT" = 1 ] && wanted caption; then
  echo "== Caption, 3000x2002 JPEG, 120 px text (17 px in a 425x284 preview), q90"
  row caption "caption" "$CAPTION" \
    "djpeg|cjpeg" "djpeg $PHOTO | cjpeg -quality 90 > $WORK/out/p.jpg" \
    "convert" "$CONVERT $PHOTO -font $FONT -pointsize 120 -fill red -stroke black -gravity center -annotate +0+0 '東京タワー Tokyo Tower' -quality 90 $WORK/out/mc.jpg"
fi

if [ "$HAVE_TEXT" = 1 ] && wanted manifest-hindi; then
  echo "== Reading a manifest whose text is 0.5 MB of Hindi, 192,000 characters (sumi validate), against Python's json module"
  [ -f "$WORK/hindi.json" ] || python3 -c "
import json, sys
words = ' '.join(['नमस्ते', 'दुनिया', 'हिंदी', 'पाठ'] * 8000)
json.dump({'sumi': 1, 'stages': [{'id': 't', 'stage': 'text', 'with': {'text': words}}, {'stage': 'encode', 'with': {'path': 'x.png'}}]},
          open(sys.argv[1], 'w'), ensure_ascii=False)" "$WORK/hindi.json"
  row manifest-hindi "manifest with 0.5 MB of Hindi text" --runs 3 "@SUMI@ validate $WORK/hindi.json -q" \
    "python json" "python3 -c 'import json, sys; json.load(open(sys.argv[1]))' $WORK/hindi.json"
fi

if [ "$HAVE_TEXT" = 1 ] && wanted caption-turned; then
  echo "== Caption turned 30° (outlines drawn turned at 7.7x), against the upright caption and ImageMagick's -annotate 30x30"
  row caption-turned "caption turned 30°" \
    "@SUMI@ run pipelines/caption.json -i $PHOTO -o $WORK/out/ct.jpg --set 'text=東京タワー Tokyo Tower' --set frame=425x284 --set placed.rotation=30 --quiet" \
    "upright caption" "${CAPTION//@SUMI@/$SUMI}" \
    "convert" "$CONVERT $PHOTO -font $FONT -pointsize 120 -fill red -stroke black -gravity center -annotate 30x30+0+0 '東京タワー Tokyo Tower' -quality 90 $WORK/out/mct.jpg"
fi

if [ "$HAVE_TEXT" = 1 ] && wanted batch; then
  echo "== Batch of 20 captions, --jobs 2 (against --jobs 1)"
  mkdir -p "$WORK/batch" "$WORK/batch-in"
  for i in $(seq 1 20); do [ -f "$WORK/batch-in/photo-$i.jpg" ] || cp "$PHOTO" "$WORK/batch-in/photo-$i.jpg"; done
  INPUTS=$(for i in $(seq 1 20); do echo -n " -i $WORK/batch-in/photo-$i.jpg"; done)
  row batch "batch of 20 captions, jobs 2" --runs 3 "@SUMI@ run pipelines/caption.json $INPUTS -o '$WORK/batch/{stem}.jpg' --jobs 2 --quiet" \
    "jobs 1" "$SUMI run pipelines/caption.json $INPUTS -o '$WORK/batch/{stem}.jpg' --jobs 1 --quiet"
fi

if [ "$HAVE_TEXT" = 1 ] && command -v pango-view >/dev/null && wanted paragraph; then
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
  row paragraph "text paragraph 2000 chars @600px" "@SUMI@ run $WORK/paragraph.json --set \"text=\$(cat $WORK/paragraph.txt)\" -o $WORK/out/para.png --quiet" \
    "pango-view" "pango-view --no-display --dpi=72 --font='sans-serif 17px' --width=600 --background=white -q -o $WORK/out/para-pango.png $WORK/paragraph.txt"
fi

if "$SUMI" inspect pdf-page >/dev/null 2>&1 && [ -f pipelines/fullpage.json ]; then
  # 8 and 50 phone captures (1170x2532, 1500 rows of scroll apart) -> one tall PDF page; the 50 make
  # a page of 1170x76032 (356 MB as RGBA). ImageMagick cannot be a peer: Debian's policy.xml forbids
  # writing PDF and refuses images this tall (the bench says so when it refuses).
  for COUNT in 8 50; do
    wanted "fullpage$COUNT" || continue
    prepare_captures
    [ "$COUNT" = 8 ] || [ -f "$WORK/captures50/capture-49.png" ] || python3 tools/make-samples.py bench-captures "$WORK/captures50" 50
    DIR=$WORK/captures; [ "$COUNT" = 50 ] && DIR=$WORK/captures50
    FILES=$(ls "$DIR"/capture-*.png | sort -V | head -n "$COUNT" | tr '\n' ' ')
    INPUTS=$(for c in $FILES; do echo -n " -i $c"; done)
    echo "== $COUNT captures 1170x2532 -> one PDF page"
    PEERS=()
    if $CONVERT $FILES -append "$WORK/out/m.pdf" 2>/dev/null; then
      PEERS+=("convert" "$CONVERT $FILES -append $WORK/out/m.pdf")
    else
      echo "   (ImageMagick refuses this job under the system's policy.xml: peer left out)"
    fi
    if command -v img2pdf >/dev/null && command -v vips >/dev/null; then
      PEERS+=("vips+img2pdf" "vips arrayjoin '$FILES' $WORK/out/tall.png --across 1 && img2pdf $WORK/out/tall.png -o $WORK/out/i.pdf")
    fi
    row "fullpage$COUNT" "fullpage $COUNT captures pdf" --runs 5 --both "@SUMI@ run pipelines/fullpage.json $INPUTS -o $WORK/out/s.pdf --quiet" \
      ${PEERS[@]+"${PEERS[@]}"}
    if command -v img2pdf >/dev/null && command -v vips >/dev/null; then
      printf '   peak RSS: vips arrayjoin %s KB + img2pdf %s KB\n' "$(peak vips arrayjoin "$FILES" "$WORK/out/tall.png" --across 1)" \
        "$(peak img2pdf "$WORK/out/tall.png" -o "$WORK/out/i.pdf")"
    fi
    find "$WORK/out" -name "*.pdf" -size +0 -exec ls -l {} + | awk '{print "   ", $5, $9}'
  done
  # The ordering pass when the order is wrong: the 50 captures given last to first, against the same
  # captures in order (which keeps the given order after one comparison per pair). The difference is
  # the all-pairs comparison of row hashes and nothing else: both give the same bytes.
  if wanted stitchorder; then
    [ -f "$WORK/captures50/capture-49.png" ] || python3 tools/make-samples.py bench-captures "$WORK/captures50" 50
    FILES=$(ls "$WORK/captures50"/capture-*.png | sort -V)
    FORWARD=$(for c in $FILES; do echo -n " -i $c"; done)
    REVERSED=$(for c in $(echo "$FILES" | tac); do echo -n " -i $c"; done)
    echo "== stitch order: 50 captures given in reverse order vs in order"
    row stitchorder "fullpage 50 captures reversed (reordered)" --runs 5 "@SUMI@ run pipelines/fullpage.json $REVERSED -o $WORK/out/r.pdf --quiet" \
      "in order" "$SUMI run pipelines/fullpage.json $FORWARD -o $WORK/out/f.pdf --quiet"
  fi
fi

# The searchable page (tools/make-ocr-page.py: a 1170x4200 phone page of known text — Latin
# paragraphs at three sizes, a Japanese paragraph, UI rows, photos — as three captures): fullpage
# with text: ocr against OCRmyPDF (img2pdf, then ocrmypdf) and the tesseract command's PDF, both on
# the page as sumi stitches it, English, default threads. Then each PDF's word recall and box IoU
# (tools/check-ocr-page.py, poppler's pdftotext -bbox) and the size of sumi's against its page
# without text. (An older sumi has no text parameter: the row runs without the baseline; fullpage's
# rows above compare text: none, the default, with it.)
if wanted searchable && command -v ocrmypdf >/dev/null && command -v tesseract >/dev/null && command -v img2pdf >/dev/null; then
  OP=$WORK/ocrpage
  [ -f "$OP/truth.json" ] || python3 tools/make-ocr-page.py "$OP"
  OP_INPUTS=$(for c in $(ls "$OP"/capture-*.png | sort -V); do echo -n " -i $c"; done)
  cat > "$WORK/stitch.json" <<JSON
{"sumi": 1, "params": {"input": {"type": "paths"}, "output": {"type": "path"}},
 "stages": [{"stage": "decode", "with": {"path": "\${input}"}}, {"stage": "stitch"}, {"stage": "encode", "with": {"path": "\${output}"}}]}
JSON
  "$SUMI" run "$WORK/stitch.json" $OP_INPUTS -o "$OP/stitched.png" --quiet
  echo "== Searchable page: 3 captures -> one PDF page with its text (English), against OCRmyPDF and tesseract on the stitched 1170x4200 page"
  BASELINE= row searchable "fullpage text ocr, 1170x4200" --runs 3 \
    "@SUMI@ run pipelines/fullpage.json $OP_INPUTS -o $WORK/out/ocr.pdf --set text=ocr --quiet" \
    "ocrmypdf" "img2pdf $OP/stitched.png -o $WORK/out/img.pdf && ocrmypdf -q -l eng --output-type pdf $WORK/out/img.pdf $WORK/out/omp.pdf" \
    "tesseract" "tesseract $OP/stitched.png $WORK/out/tess -l eng pdf 2>/dev/null"
  "$SUMI" run pipelines/fullpage.json $OP_INPUTS -o "$WORK/out/ocr-none.pdf" --quiet
  for pdf in ocr omp tess; do
    printf '   %-9s %s\n' "$pdf" "$(python3 tools/check-ocr-page.py "$WORK/out/$pdf.pdf" "$OP" --kinds body,ui | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
  done
  printf '   sumi PDF %s bytes, without text %s bytes (%s)\n' "$(stat -c %s "$WORK/out/ocr.pdf")" "$(stat -c %s "$WORK/out/ocr-none.pdf")" \
    "$(python3 -c "print('%.3f' % ($(stat -c %s "$WORK/out/ocr.pdf") / $(stat -c %s "$WORK/out/ocr-none.pdf")))")"
fi

# The photo-rich page (tools/make-photo-page.py: 50 captures of a news/shop-like page, text beside
# photos over about a fifth of its height; cached in $WORK/photopage): the default compression (auto:
# photo strips JPEG, the rest lossless), flate and jpeg, each against the baseline; then the PDF's
# size, text-row identity and photo PSNR (mupdf at one pixel per pixel) and the seams (every reader at
# 72, 150 and 300 dpi against a one-image PDF of the same pixels) by tools/check-photo-page.py.
if [ -f tools/make-photo-page.py ] && { wanted photopage || wanted photopage-flate || wanted photopage-jpeg || wanted photojpeg8; }; then
  PP=$WORK/photopage
  # (page.json of an older generator lacks the text boxes the checker needs: drawn again.)
  grep -q text_boxes "$PP/page.json" 2>/dev/null || python3 tools/make-photo-page.py "$PP" 50
  PP_FILES=$(ls "$PP"/capture-*.png | sort -V)
  PP_INPUTS=$(for c in $PP_FILES; do echo -n " -i $c"; done)
  for MODE in auto flate jpeg; do
    NAME=photopage; [ "$MODE" = auto ] || NAME=photopage-$MODE
    wanted "$NAME" || continue
    echo "== Photo-rich page, 50 captures -> one PDF page, compression $MODE"
    row "$NAME" "photo page 50 captures $MODE" --runs 3 \
      "@SUMI@ run pipelines/fullpage.json $PP_INPUTS -o $WORK/out/pp-$MODE.pdf --set page.compression=$MODE --quiet"
    # The row ran the baseline last into the same file: sumi's PDF is written again to be measured.
    "$SUMI" run pipelines/fullpage.json $PP_INPUTS -o "$WORK/out/pp-$MODE.pdf" --set page.compression=$MODE --quiet
    printf '   PDF: %s bytes' "$(stat -c %s "$WORK/out/pp-$MODE.pdf")"
    if [ -n "$BASELINE" ]; then
      "$BASELINE" run "${BASE_PIPELINES:-pipelines}/fullpage.json" $PP_INPUTS -o "$WORK/out/pp-$MODE-base.pdf" --set page.compression=$MODE --quiet
      printf ' | baseline %s bytes (new/baseline %s)' "$(stat -c %s "$WORK/out/pp-$MODE-base.pdf")" \
        "$(ratio "$(stat -c %s "$WORK/out/pp-$MODE.pdf")" "$(stat -c %s "$WORK/out/pp-$MODE-base.pdf")")"
    fi
    echo
    if [ "$MODE" != jpeg ]; then
      # BENCH_SEAMS= (empty) leaves the seam check out: it renders every boundary in three readers.
      SEAMS=; [ "$MODE" = auto ] && [ -n "${BENCH_SEAMS-72,150,300}" ] && SEAMS="--seams ${BENCH_SEAMS-72,150,300}"
      python3 tools/check-photo-page.py "$WORK/out/pp-$MODE.pdf" "$PP" --readers mutool,gs,pdftoppm $SEAMS | sed 's/^/   /' || true
    fi
  done
  # 8 photo-rich captures -> a JPEG page, against pyvips joining them into a JPEG that img2pdf embeds.
  if wanted photojpeg8 && command -v img2pdf >/dev/null && command -v vips >/dev/null; then
    EIGHT=$(echo "$PP_FILES" | head -n 8 | tr '\n' ' ')
    EIGHT_INPUTS=$(for c in $EIGHT; do echo -n " -i $c"; done)
    echo "== 8 photo-rich captures -> one PDF page, compression jpeg q90"
    row photojpeg8 "8 captures jpeg pdf" --runs 5 \
      "@SUMI@ run pipelines/fullpage.json $EIGHT_INPUTS -o $WORK/out/pj8.pdf --set page.compression=jpeg --quiet" \
      "vips+img2pdf" "vips arrayjoin '$EIGHT' $WORK/out/pj8.jpg[Q=90] --across 1 && img2pdf $WORK/out/pj8.jpg -o $WORK/out/pj8i.pdf"
  fi
fi

# The second photo-rich layout (tools/make-photo-page.py --layout bands: photos at random heights, most
# of the page, with narrow text bands between them, half right against the photos; 50 captures,
# cached in $WORK/photobands): auto against lossless (flate) in one run — time, peak memory and the
# PDF's size as ratios auto/lossless (targets: size <= 0.3, time <= 0.6) — then text-row identity,
# photo PSNR and the seams of every strip boundary in mutool, ghostscript and pdftoppm.
if [ -f tools/make-photo-page.py ] && wanted photobands; then
  PB=$WORK/photobands
  grep -q '"layout": "bands"' "$PB/page.json" 2>/dev/null || python3 tools/make-photo-page.py "$PB" 50 --layout bands
  PB_INPUTS=$(for c in $(ls "$PB"/capture-*.png | sort -V); do echo -n " -i $c"; done)
  echo "== Photo bands page, 50 captures -> one PDF page, compression auto against lossless (flate)"
  PB_LOSSLESS="$SUMI run pipelines/fullpage.json $PB_INPUTS -o $WORK/out/pb-flate.pdf --set page.compression=flate --quiet"
  row photobands "photo bands 50 captures auto" --runs 3 \
    "@SUMI@ run pipelines/fullpage.json $PB_INPUTS -o $WORK/out/pb-auto.pdf --set page.compression=auto --quiet" \
    "lossless" "$PB_LOSSLESS"
  "$SUMI" run pipelines/fullpage.json $PB_INPUTS -o "$WORK/out/pb-auto.pdf" --set page.compression=auto --quiet
  bash -c "$PB_LOSSLESS"
  PB_AUTO=$(stat -c %s "$WORK/out/pb-auto.pdf"); PB_FLATE=$(stat -c %s "$WORK/out/pb-flate.pdf")
  printf '   PDF: auto %s bytes | lossless %s bytes (auto/lossless %s) | lossless peak %s KB\n' "$PB_AUTO" "$PB_FLATE" \
    "$(ratio "$PB_AUTO" "$PB_FLATE")" "$(peak_median "$PB_LOSSLESS")"
  SEAMS=; [ -n "${BENCH_SEAMS-72,150,300}" ] && SEAMS="--seams ${BENCH_SEAMS-72,150,300}"
  python3 tools/check-photo-page.py "$WORK/out/pb-auto.pdf" "$PB" --readers mutool,gs,pdftoppm $SEAMS | sed 's/^/   /' || true
fi

if command -v exiftool >/dev/null && { wanted meta-thumb || wanted meta-caption; }; then
  echo "== Colour profile and metadata cost, sRGB photo with EXIF vs the same photo bare (target <= 1.05)"
  [ -f "$WORK/tagged.jpg" ] || { cp "$PHOTO" "$WORK/tagged.jpg"; exiftool -q -overwrite_original \
      "-ICC_Profile<=/usr/share/color/icc/colord/sRGB.icc" -Make=Canon -Model=R5 -GPSLatitude=48.8 -GPSLatitudeRef=N \
      -XMP-dc:Creator=Bench "$WORK/tagged.jpg"; }
  [ -f "$WORK/bare.jpg" ] || { cp "$PHOTO" "$WORK/bare.jpg"; exiftool -q -overwrite_original -all= "$WORK/bare.jpg"; }
  if wanted meta-thumb; then
    row meta-thumb "thumbnail, profile+EXIF kept" "@SUMI@ run pipelines/thumbnail.json -i $WORK/tagged.jpg -o $WORK/out/mt1.jpg --quiet" \
      "bare photo" "$SUMI run pipelines/thumbnail.json -i $WORK/bare.jpg -o $WORK/out/mt2.jpg --quiet"
  fi
  if [ -f pipelines/caption.json ] && wanted meta-caption; then
    row meta-caption "caption, profile+EXIF kept" "@SUMI@ run pipelines/caption.json -i $WORK/tagged.jpg -o $WORK/out/mc1.jpg --quiet" \
      "bare photo" "$SUMI run pipelines/caption.json -i $WORK/bare.jpg -o $WORK/out/mc2.jpg --quiet"
  fi
fi

if command -v heif-enc >/dev/null && wanted heic; then
  echo "== HEIC 12 MP (4000x3000) decode -> JPEG q90"
  [ -f "$WORK/photo12.heic" ] || { $CONVERT "$PHOTO" -resize '4000x3000!' -quality 95 "$WORK/photo12.jpg" \
      && heif-enc -q 80 "$WORK/photo12.jpg" -o "$WORK/photo12.heic" >/dev/null; }
  row heic "heic 12 MP -> jpeg" --runs 5 "@SUMI@ run $WORK/recode.json -i $WORK/photo12.heic -o $WORK/out/h.jpg --quiet" \
    "heif-convert" "heif-convert -q 90 $WORK/photo12.heic $WORK/out/hc.jpg" \
    "convert" "$CONVERT $WORK/photo12.heic -quality 90 $WORK/out/hm.jpg"
fi

if [ "$HAVE_TEXT" = 1 ]; then
  # Memory versus size: caption (120 px text in a bordered box, q90). pyvips is the libvips peer (its
  # demand-driven regions keep memory flat); install it if missing.
  HAVE_PYVIPS=
  TEXT='東京タワー Tokyo Tower'
  for size in 3000x2002 6000x4004 12000x8008; do
    wanted "cap-$size" || continue
    if [ -z "$HAVE_PYVIPS" ]; then
      python3 -c "import pyvips" 2>/dev/null || pip install --user --quiet pyvips 2>/dev/null \
        || pip install --user --quiet --break-system-packages pyvips || true
      HAVE_PYVIPS=$(python3 -c "import pyvips" 2>/dev/null && echo 1 || echo 0)
    fi
    echo "== Memory versus size: caption $size"
    w=${size%x*}; factor=$((w / 3000)); frame="$((425 * factor))x$((284 * factor))"
    input="$WORK/photo-$size.jpg"
    if [ "$size" = 3000x2002 ]; then input=$PHOTO; fi
    [ -f "$input" ] || vips resize "$PHOTO" "$input[Q=90]" "$factor"
    PEERS=()
    if [ "$HAVE_PYVIPS" = 1 ]; then
      PEERS+=("pyvips" "python3 bench/caption_pyvips.py $input $WORK/out/capv-$size.jpg '$TEXT' 120 $FONT")
    fi
    if [ "$size" = 3000x2002 ]; then PEERS+=("djpeg|cjpeg" "djpeg $input | cjpeg -quality 90 > $WORK/out/capp.jpg"); fi
    if [ "$size" != 12000x8008 ]; then
      PEERS+=("convert" "$CONVERT $input -font $FONT -pointsize 120 -fill red -stroke black -gravity center -annotate +0+0 '$TEXT' -quality 90 $WORK/out/capm-$size.jpg")
    fi
    runs=5; [ "$size" = 12000x8008 ] && runs=3
    row "cap-$size" "caption $size" --runs $runs \
      "@SUMI@ run pipelines/caption.json -i $input -o $WORK/out/cap-$size.jpg --set 'text=$TEXT' --set frame=$frame --quiet" \
      ${PEERS[@]+"${PEERS[@]}"}
    printf '   peak RSS of the peers:'
    for ((k = 0; k < ${#PEERS[@]}; k += 2)); do printf ' %s %s KB |' "${PEERS[$k]}" "$(peak bash -c "${PEERS[$((k + 1))]}")"; done
    echo
  done
fi

big6="$WORK/photo-6000x4004.jpg"
if wanted topng6; then
  echo "== Photo 6000x4004 JPEG -> PNG (zlib level 1): streamed once its layout is known"
  [ -f "$big6" ] || vips resize "$PHOTO" "$big6[Q=90]" 2
  cat > "$WORK/topng1.json" <<JSON
{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
 "stages": [{"stage": "decode", "with": {"path": "\${input}"}}, {"stage": "encode", "with": {"path": "\${output}", "compression": 1}}]}
JSON
  row topng6 "jpeg -> png 6000x4004" --runs 3 --both "@SUMI@ run $WORK/topng1.json -i $big6 -o $WORK/out/big6.png --quiet" \
    "vips" "vips copy $big6 $WORK/out/big6v.png[compression=1]" \
    "convert" "$CONVERT $big6 -define png:compression-level=1 $WORK/out/big6m.png"
  printf '   peak RSS: vips %s KB | convert %s KB\n' "$(peak vips copy "$big6" "$WORK/out/big6v.png[compression=1]")" \
    "$(peak $CONVERT "$big6" -define png:compression-level=1 "$WORK/out/big6m.png")"
fi

if wanted smartcrop6; then
  echo "== Thumbnail 512x512 of a 6000x4004 JPEG, cropped by attention (JPEG q85, 4:2:0 on both sides)"
  [ -f "$big6" ] || vips resize "$PHOTO" "$big6[Q=90]" 2
  # libvips' thumbnail shrinks on load and smartcrops the shrunk image, as thumbnail.json's
  # scale fit=cover gravity=attention does; ImageMagick has no attention crop: its row is the
  # same resize with a centre crop, for scale.
  row smartcrop6 "thumbnail 512x512 attention 6000x4004" --runs 5 \
    "@SUMI@ run pipelines/thumbnail.json -i $big6 -o $WORK/out/sc6.jpg --set width=512 --set height=512 --set fit=cover --set crop=attention --quiet" \
    "vips" "vips thumbnail $big6 $WORK/out/sc6v.jpg[Q=85] 512 --height 512 --crop attention" \
    "convert (centre crop)" "$CONVERT $big6 -resize 512x512^ -gravity center -extent 512x512 -quality 85 $WORK/out/sc6m.jpg"
  printf '   peak RSS: vips %s KB | convert %s KB\n' "$(peak vips thumbnail "$big6" "$WORK/out/sc6v.jpg[Q=85]" 512 --height 512 --crop attention)" \
    "$(peak $CONVERT "$big6" -resize '512x512^' -gravity center -extent 512x512 -quality 85 "$WORK/out/sc6m.jpg")"
fi

if [ -f .build/plugins/libinvert-rust.so ] && wanted invert; then
  echo "== Plugin band callbacks: decode -> invert-rust -> encode, 12000x8008 JPEG q90"
  # The Rust example plugin streams through its band callbacks; convert -negate is the peer.
  cat > "$WORK/invert.json" <<JSON
{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
 "stages": [{"stage": "decode", "with": {"path": "\${input}"}}, {"stage": "invert-rust"},
            {"stage": "encode", "with": {"path": "\${output}", "quality": 90}}]}
JSON
  big="$WORK/photo-12000x8008.jpg"
  [ -f "$big" ] || vips resize "$PHOTO" "$big[Q=90]" 4
  row invert "invert-rust 12000x8008" --runs 3 --both \
    "SUMI_PLUGIN_PATH=$(realpath .build/plugins) @SUMI@ run $WORK/invert.json -i $big -o $WORK/out/inv.jpg --quiet" \
    "convert" "$CONVERT $big -negate -quality 90 $WORK/out/invm.jpg"
  printf '   peak RSS: convert %s KB\n' "$(peak "$CONVERT" "$big" -negate -quality 90 "$WORK/out/invm.jpg")"
fi

# The filters on a 6000x4004 JPEG -> JPEG q85 (4:2:0 on every side: libvips and ImageMagick subsample
# below q90 as Sumi does), each beside the nearest libvips and ImageMagick operation. libvips'
# gaussblur defaults to a 7-tap integer kernel at sigma 2 (cut at 20 % of the peak); Sumi's reaches
# 3 sigma (13 taps). vips sharpen works on L* (LAB), the nearest it has to an RGB unsharp mask.
for filter in blur sharpen adjust; do
  wanted "$filter" || continue
  [ -f "$big6" ] || vips resize "$PHOTO" "$big6[Q=90]" 2
  case $filter in
    blur) echo "== Filters: 6000x4004 JPEG -> JPEG q85"
          op="blur sigma=2"; vop="vips gaussblur $big6 $WORK/out/fv.jpg[Q=85] 2"
          mop="$CONVERT $big6 -blur 0x2 -quality 85 $WORK/out/fm.jpg" ;;
    sharpen) op="sharpen sigma=2 amount=1.5 threshold=3"; vop="vips sharpen $big6 $WORK/out/fv.jpg[Q=85] --sigma 2"
          mop="$CONVERT $big6 -unsharp 0x2+1.5+0.0235 -quality 85 $WORK/out/fm.jpg" ;;
    # vips reads "-12.8" as an option: the space keeps it a number.
    adjust) op="adjust brightness=1.2 contrast=1.1"; vop="vips linear $big6 $WORK/out/fv.jpg[Q=85] 1.32 ' -12.8' --uchar"
          mop="$CONVERT $big6 -function polynomial 1.32,-0.0502 -quality 85 $WORK/out/fm.jpg" ;;
  esac
  row "$filter" "$op 6000x4004" --runs 5 "@SUMI@ run 'decode path=$big6 ! $op ! encode path=$WORK/out/f.jpg quality=85' --quiet" \
    "vips" "$vop" "convert" "$mop"
  printf '   peak RSS: vips %s KB | convert %s KB\n' "$(peak_median "$vop")" "$(peak_median "$mop")"
done

if wanted memory; then
  echo "== Peak memory (max RSS) of the peers of decode+encode"
  printf '   djpeg: %s KB | vips copy: %s KB | convert: %s KB\n' \
    "$(peak djpeg -outfile "$WORK/out/p.ppm" "$PHOTO")" "$(peak vips copy "$PHOTO" "$WORK/out/v.jpg")" \
    "$(peak "$CONVERT" "$PHOTO" "$WORK/out/m.jpg")"
fi

if [ -n "$BASELINE" ] && [ -s "$SUMMARY" ]; then
  echo
  echo "== New against baseline (median time, median peak RSS; over $LIMIT marked)"
  python3 - "$SUMMARY" "$LIMIT" <<'PY'
import sys
limit = float(sys.argv[2])
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
print("%-16s %-40s %10s %10s %6s %11s %11s %6s" % ("row", "", "new ms", "base ms", "time", "new KB", "base KB", "memory"))
over = 0
for name, label, t, bt, rt, m, bm, rm in rows:
    flags = [what for what, r in (("TIME", rt), ("MEMORY", rm)) if float(r) > limit]
    over += bool(flags)
    print("%-16s %-40s %10s %10s %6s %11s %11s %6s  %s" % (name, label[:40], t, bt, rt, m, bm, rm, " ".join("OVER " + f for f in flags)))
print("%d of %d rows over %.2fx in time or memory" % (over, len(rows), limit))
PY
fi
