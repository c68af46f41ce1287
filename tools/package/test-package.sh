#!/usr/bin/env bash
# `make test-package`: the Debian package on a clean Debian 12 root, as a new user gets it.
#
#   tools/package/test-package.sh DEB
#
# mmdebstrap makes a clean bookworm root (with the tools the checks use: man-db, bash-completion, a C
# compiler and pkg-config, installed before the file list is taken), `apt-get install ./sumi_*.deb`
# runs inside it, and then, inside the root and so without the Swift toolchain: `sumi --version`,
# `ldd` (Debian's libraries and the package's own only), the six shipped pipelines by name on their
# samples, the libraries opened when first needed (installed; a TIFF read), a caption on a HEIC photo, `man sumi`, a bash completion, a C plugin built with
# `cc $(pkg-config --cflags sumi-plugin)` (from --plugin-path and from the system plugin folder) and
# a Swift SDK plugin built on this machine as docs/plugins.md says, against the packaged SDK. Last,
# `apt-get purge --autoremove sumi` must leave the root's file list as it was before the install.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEB=$(realpath "${1:?usage: test-package.sh DEB}")
VERSION=$(tr -d '[:space:]' < "$ROOT/VERSION")
MIRROR=${SUMI_DEBIAN_MIRROR:-http://deb.debian.org/debian}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sumi-package.XXXXXX")
CHROOT="$WORK/root"
mounted=()
cleanup() {
  for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
step() { echo "test-package: $*"; }
inroot() { chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

start=$(date +%s)
# The clean root is made once a week and kept as a tarball in the cache (outside the clone); each run
# unpacks a fresh copy.
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/sumi-package
TARBALL="$CACHE/bookworm-$(date -u +%G-%V).tar"
if [ ! -s "$TARBALL" ]; then
  step "a clean Debian 12 root (mmdebstrap)"
  mkdir -p "$CACHE"
  rm -f "$CACHE"/bookworm-*.tar
  mmdebstrap --quiet --variant=apt --format=tar --include=man-db,bash-completion,gcc,libc6-dev,pkg-config \
    bookworm "$TARBALL.part" "$MIRROR" >/dev/null
  mv "$TARBALL.part" "$TARBALL"
fi
step "unpacking the clean root ($(basename "$TARBALL"))"
mkdir -p "$CHROOT"
tar -xf "$TARBALL" -C "$CHROOT"
for fs in proc sys dev; do mount --bind "/$fs" "$CHROOT/$fs"; mounted=("$CHROOT/$fs" "${mounted[@]}"); done
# ca-certificates (with openssl) comes with the package's Recommends (libcurl, under libtesseract5,
# recommends it) and apt keeps it after the purge, as a package already in the root recommends it:
# installed first, as part of the root, so that the file lists compare Sumi's own files.
inroot apt-get update -qq >/dev/null
inroot env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ca-certificates >/dev/null 2>&1 || fail "apt-get install ca-certificates"
# The file list before the install (apt's and dpkg's state, caches, logs and temporary files aside).
listing() {
  (cd "$CHROOT" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp -o -path ./run \
     -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/cache -o -path ./var/log -o -path ./root \
     -o -path ./var/lib/ucf -o -path ./etc/ld.so.cache \) -prune -o -print | sort)
}
listing > "$WORK/before.txt"

step "apt-get install ./$(basename "$DEB")"
cp "$DEB" "$CHROOT/tmp/"
inroot apt-get update -qq >/dev/null
# What the install adds to the root, with the Recommends apt installs by default (the README says it).
# (apt's downloaded archives cleaned first; du stays on the root's own file system, not the mounts).
used() { inroot apt-get clean; du -sxk "$CHROOT" | cut -f1; }
before_kb=$(used)
inroot env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$DEB")" >"$WORK/apt.log" 2>&1 \
  || { tail -20 "$WORK/apt.log" >&2; fail "apt-get install"; }
added_kb=$(( $(used) - before_kb ))
step "installed with its Recommends: $((added_kb / 1024)) MB added to a clean Debian 12 root (sumi itself: $(inroot dpkg-query -W -f='${Installed-Size}' sumi) KB)"
[ -e "$CHROOT/opt/swift" ] && fail "the root has /opt/swift"

step "sumi --version and ldd"
out=$(inroot sumi --version) || fail "sumi --version: $out"
[[ "$out" == "sumi $VERSION "* ]] || fail "sumi --version printed: $out"
inroot ldd /usr/bin/sumi > "$WORK/ldd.txt"
grep -q "not found" "$WORK/ldd.txt" && fail "unresolved libraries: $(grep 'not found' "$WORK/ldd.txt")"
awk '$3 ~ /^\// {print $3}' "$WORK/ldd.txt" | while read -r lib; do
  lib=$(realpath -s -m "$lib")   # ".." resolved, links kept (dpkg knows /lib/… in Debian 12)
  case "$lib" in
    /usr/lib/x86_64-linux-gnu/sumi/*) ;;
    /lib/*|/usr/lib/*) inroot dpkg -S "$lib" >/dev/null 2>&1 || inroot dpkg -S "${lib#/usr}" >/dev/null 2>&1 \
                         || inroot dpkg -S "/usr$lib" >/dev/null 2>&1 || fail "$lib is from no Debian package" ;;
    *) fail "the binary loads $lib" ;;
  esac
done

step "the shipped pipelines by name"
inroot mkdir -p /tmp/out
for p in thumbnail caption fullpage caption-label preview page-preview; do
  ext=jpg; [ $p = fullpage ] && ext=pdf; [ $p = caption-label ] && ext=png
  inroot sh -c "cd /tmp && sumi run $p -o /tmp/out/$p.$ext --json" > "$WORK/$p.json" 2>"$WORK/$p.err" \
    || fail "sumi run $p: $(cat "$WORK/$p.err")"
  grep -q '"ok": *true' "$WORK/$p.json" || fail "sumi run $p: $(cat "$WORK/$p.json")"
  [ -s "$CHROOT/tmp/out/$p.$ext" ] || fail "sumi run $p wrote nothing"
done
head -c 5 "$CHROOT/tmp/out/fullpage.pdf" | grep -q '%PDF-' || fail "fullpage.pdf is not a PDF"
# The web editor sumi serve offers at /.
for f in index.html app.js service.js caption.js page.js style.css; do
  [ -s "$CHROOT/usr/share/sumi/web/$f" ] || fail "the package lacks /usr/share/sumi/web/$f"
done

step "the libraries sumi opens when first needed are installed, and a TIFF is read"
for soname in libmicrohttpd.so.12 libtiff.so.6 libharfbuzz.so.0 libfontconfig.so.1 libfribidi.so.0 libicuuc.so.72 libheif.so.1; do
  [ -e "$CHROOT/usr/lib/x86_64-linux-gnu/$soname" ] || [ -e "$CHROOT/lib/x86_64-linux-gnu/$soname" ] \
    || fail "$soname, which sumi opens when needed, is not installed with the package"
done
/usr/bin/convert "$ROOT/pipelines/samples/photo.jpg" -resize 300x "$CHROOT/tmp/photo.tif"
inroot sumi run thumbnail -i /tmp/photo.tif -o /tmp/out/tif.jpg --set width=64 --json > "$WORK/tif.json" 2>&1 \
  || fail "thumbnail of a TIFF: $(cat "$WORK/tif.json")"
grep -q '"width": *64' "$WORK/tif.json" || fail "thumbnail of a TIFF: $(cat "$WORK/tif.json")"

step "a caption on a HEIC photo"
command -v heif-enc >/dev/null || fail "heif-enc (libheif-examples) is needed on the build machine"
heif-enc -q 80 -p preset=ultrafast -o "$WORK/photo.heic" "$ROOT/pipelines/samples/photo.jpg" >/dev/null
cp "$WORK/photo.heic" "$CHROOT/tmp/photo.heic"
inroot sumi run caption -i /tmp/photo.heic -o /tmp/out/heic-caption.jpg --set "text=HEIC ✓" --json > "$WORK/heic.json" 2>&1 \
  || fail "caption on HEIC: $(cat "$WORK/heic.json")"
grep -q '"width": *3000' "$WORK/heic.json" || fail "caption on HEIC: $(cat "$WORK/heic.json")"

step "man sumi and a bash completion"
inroot env MANPAGER=cat MANWIDTH=80 man sumi 2>/dev/null | grep -q "sumi $VERSION" || fail "man sumi does not show version $VERSION"
words=$(inroot bash -c 'source /usr/share/bash-completion/bash_completion; source /usr/share/bash-completion/completions/sumi
  COMP_WORDS=(sumi ru); COMP_CWORD=1; COMP_LINE="sumi ru"; COMP_POINT=7; _sumi sumi ru sumi; echo "${COMPREPLY[*]}"')
[[ " $words " == *" run "* ]] || fail "bash completion of 'sumi ru' gave: $words"

step "a C plugin built with pkg-config --cflags sumi-plugin"
mkdir -p "$CHROOT/tmp/plugins"
cp "$ROOT/Examples/ppm-c/ppm.c" "$CHROOT/tmp/ppm.c"
inroot sh -c 'cc -shared -fPIC -O2 -fvisibility=hidden $(pkg-config --cflags sumi-plugin) -o /tmp/plugins/libppm.so /tmp/ppm.c' \
  || fail "the C plugin does not compile against the installed header"
inroot sumi stages --plugin-path /tmp/plugins | grep -q "write-ppm" || fail "sumi stages does not list write-ppm"
inroot sumi run 'decode path=/usr/share/sumi/pipelines/samples/photo.jpg ! scale width=32 ! write-ppm path=/tmp/out/t.ppm' \
  --plugin-path /tmp/plugins >/dev/null || fail "a pipeline with the C plugin"
head -c 9 "$CHROOT/tmp/out/t.ppm" | grep -q "P6" || fail "the C plugin wrote no PPM"
sysdir=$(inroot pkg-config --variable=pluginsdir sumi-plugin)
[ -d "$CHROOT$sysdir" ] || fail "the system plugin folder $sysdir does not exist"
cp "$CHROOT/tmp/plugins/libppm.so" "$CHROOT$sysdir/"
inroot sumi stages | grep -q "write-ppm" || fail "a plugin in the system folder is not listed by sumi stages"
rm "$CHROOT$sysdir/libppm.so"

step "a Swift SDK plugin built as docs/plugins.md says, against the packaged SDK"
dpkg-deb -x "$DEB" "$WORK/unpacked"
mkdir -p "$WORK/sepia"
cp -R "$ROOT/Examples/SepiaPlugin/Sources" "$WORK/sepia/"
sed -e "s|path: \"../..\"|path: \"$WORK/unpacked/usr/share/sumi/sdk\"|" "$ROOT/Examples/SepiaPlugin/Package.swift" \
  | grep -v testTarget > "$WORK/sepia/Package.swift"
swift build --package-path "$WORK/sepia" --scratch-path "$WORK/sepia/.build" -c release --product SepiaPlugin \
  > "$WORK/sepia.log" 2>&1 || { tail -20 "$WORK/sepia.log" >&2; fail "the Swift plugin does not build against the packaged SDK"; }
cp "$(swift build --package-path "$WORK/sepia" --scratch-path "$WORK/sepia/.build" -c release --show-bin-path)/libSepiaPlugin.so" \
  "$CHROOT/tmp/plugins/"
inroot sumi stages --plugin-path /tmp/plugins | grep -q "sepia" || fail "sumi stages does not list sepia"
inroot sumi run 'decode path=/usr/share/sumi/pipelines/samples/photo.jpg ! scale width=32 ! sepia ! encode path=/tmp/out/s.png' \
  --plugin-path /tmp/plugins >/dev/null || fail "a pipeline with the Swift plugin"
[ -s "$CHROOT/tmp/out/s.png" ] || fail "the Swift plugin's pipeline wrote nothing"

step "apt-get purge --autoremove sumi leaves the file list as before"
rm -rf "$CHROOT/tmp/"*
inroot env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq --autoremove sumi >"$WORK/purge.log" 2>&1 \
  || { tail -20 "$WORK/purge.log" >&2; fail "apt-get purge"; }
listing > "$WORK/after.txt"
if ! diff "$WORK/before.txt" "$WORK/after.txt" > "$WORK/diff.txt"; then
  head -40 "$WORK/diff.txt" >&2
  fail "the purge left the root different from before the install"
fi
echo "test-package: passed in $(( $(date +%s) - start )) s"
