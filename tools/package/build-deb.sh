#!/usr/bin/env bash
# `make deb`: sumi_<version>_amd64.deb from the built binary, with dpkg-deb.
#
#   tools/package/build-deb.sh BIN OUTDIR
#
# The package root is `make install PREFIX=/usr` into a staging folder; Depends are computed by
# dpkg-shlibdeps from the binary (the Swift runtime beside it is private to the package); libheif,
# libopenjp2, libwebpdemux, gdk-pixbuf and Tesseract with its English data, opened at run time, are
# Recommends (`sumi formats` says when one is missing, a run that needs one names it);
# the other libraries opened at run time are Depends added by name (below).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(realpath "${1:?usage: build-deb.sh BIN OUTDIR}")
OUT=$(mkdir -p "${2:?OUTDIR}" && cd "$2" && pwd)
VERSION=$(tr -d '[:space:]' < "$ROOT/VERSION")
# Who builds the package; the default is an address in the reserved .invalid domain.
MAINTAINER=${SUMI_MAINTAINER:-Sumi maintainers <maintainers@sumi.invalid>}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sumi-deb.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
STAGE="$WORK/debian/sumi"

"$ROOT/tools/package/install.sh" install "$BIN" /usr "$STAGE" >/dev/null

# Debian's documentation files: copyright, and the changelog of a native package.
install -m644 "$ROOT/debian/copyright" "$STAGE/usr/share/doc/sumi/copyright"
{
  echo "sumi ($VERSION) unstable; urgency=medium"
  echo
  echo "  * Release $VERSION: see /usr/share/doc/sumi/CHANGELOG.md.gz."
  echo
  # A fixed date per release keeps the package reproducible.
  echo " -- $MAINTAINER  $(date -u -d "@${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)}" -R)"
} | gzip -9n > "$STAGE/usr/share/doc/sumi/changelog.gz"
for f in "$STAGE"/usr/share/doc/sumi/*.md; do gzip -9n "$f"; done
chmod 644 "$STAGE"/usr/share/doc/sumi/*

# Depends: the shared libraries the binary links, as dpkg-shlibdeps finds their packages. The
# private Swift runtime is searched in the staging root and is not a dependency.
# (dpkg-shlibdeps expects debian/control and the package root at debian/PACKAGE, with its DEBIAN folder.)
mkdir -p "$STAGE/DEBIAN"
printf 'Source: sumi\n\nPackage: sumi\nArchitecture: amd64\n' > "$WORK/debian/control"
depends=$(cd "$WORK" && dpkg-shlibdeps -O -l"$STAGE/usr/lib/x86_64-linux-gnu/sumi" \
            -e "$STAGE/usr/bin/sumi" $(find "$STAGE/usr/lib/x86_64-linux-gnu/sumi" -maxdepth 1 -name '*.so*' -printf '-e %p ') 2>"$WORK/shlibdeps.log" \
          | sed -n 's/^shlibs:Depends=//p') || { cat "$WORK/shlibdeps.log" >&2; exit 1; }
[ -n "$depends" ] || { cat "$WORK/shlibdeps.log" >&2; echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Libraries the binary opens when first needed (dlopen) rather than links, which dpkg-shlibdeps
# cannot see: the service's, TIFF's, text's (with FreeType), JPEG's, GIF's, WebP's, colour
# management's and the digests'. They are Depends all the same (the commands that need them are the
# package's), at least the version built against.
for package in libmicrohttpd12 libtiff6 libharfbuzz0b libfontconfig1 libfribidi0 libicu72 libfreetype6 libjpeg62-turbo \
               libgif7 libwebp7 liblcms2-2 libnettle8; do
  version=$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null) || { echo "build-deb: $package is not installed" >&2; exit 1; }
  depends+=", $package (>= ${version%%-*})"
done

size=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
sed -e "s|@VERSION@|$VERSION|" -e "s|@SIZE@|$size|" -e "s|@DEPENDS@|$depends|" -e "s|@MAINTAINER@|$MAINTAINER|" \
    "$ROOT/debian/control.in" > "$STAGE/DEBIAN/control"
(cd "$STAGE" && find usr -type f -printf '%P\n' | sort | sed 's|^|usr/|' | xargs -d '\n' md5sum) > "$STAGE/DEBIAN/md5sums"
chmod 644 "$STAGE/DEBIAN/control" "$STAGE/DEBIAN/md5sums"
find "$STAGE" -type d -exec chmod 755 {} +

deb="$OUT/sumi_${VERSION}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$deb" >/dev/null
echo "$deb"
