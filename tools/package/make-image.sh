#!/usr/bin/env bash
# `make image`: an OCI image archive for the cluster recipes (docs/scale-out.md, docs/service.md).
#
#   tools/package/make-image.sh DEB OUTDIR
#
# A clean Debian 12 root (mmdebstrap, no compilers) with the package installed and apt's lists
# removed, a user `sumi` (uid 10001) the image runs as, `sumi` as the entry point. buildah with chroot
# isolation and vfs storage needs no daemon and no registry. The script then checks the image's config
# (user not 0, no `cc`) and runs `sumi --version` inside it: with podman when it runs here, else by
# chroot into `buildah mount`.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEB=$(realpath "${1:?usage: make-image.sh DEB OUTDIR}")
OUT=$(mkdir -p "${2:?OUTDIR}" && cd "$2" && pwd)
VERSION=$(tr -d '[:space:]' < "$ROOT/VERSION")
MIRROR=${SUMI_DEBIAN_MIRROR:-http://deb.debian.org/debian}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sumi-image.XXXXXX")
export STORAGE_DRIVER=vfs BUILDAH_ISOLATION=chroot
container=""
cleanup() {
  [ -n "$container" ] && buildah rm "$container" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "make-image: FAIL: $*" >&2; exit 1; }

cp "$DEB" "$WORK/sumi.deb"
mmdebstrap --quiet --variant=apt --format=tar \
  --customize-hook="copy-in $WORK/sumi.deb /tmp" \
  --customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/sumi.deb' \
  --customize-hook='chroot "$1" useradd --uid 10001 --create-home --shell /usr/sbin/nologin sumi' \
  --customize-hook='rm -f "$1"/tmp/sumi.deb; rm -rf "$1"/var/lib/apt/lists/*' \
  bookworm "$WORK/root.tar" "$MIRROR" >/dev/null

container=$(buildah from scratch)
buildah add "$container" "$WORK/root.tar" / >/dev/null
buildah config --user sumi --workingdir /home/sumi --entrypoint '["/usr/bin/sumi"]' --cmd '["--help"]' \
  --label "org.opencontainers.image.title=sumi" --label "org.opencontainers.image.version=$VERSION" \
  --label "org.opencontainers.image.licenses=Apache-2.0" "$container"

# The checks: an unprivileged user, no compiler, and sumi runs inside.
user=$(buildah inspect --format '{{.OCIv1.Config.User}}' "$container")
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] || fail "the image runs as '$user'"
mnt=$(buildah mount "$container")
for tool in cc gcc swift; do
  if [ -e "$mnt/usr/bin/$tool" ]; then fail "the image has $tool"; fi
done
image="localhost/sumi:$VERSION"
buildah commit --quiet "$container" "$image" >/dev/null
if command -v podman >/dev/null && podman --storage-driver vfs run --rm "$image" --version >/dev/null 2>&1; then
  version=$(podman --storage-driver vfs run --rm "$image" --version)
  how="podman run"
else
  # As a container runtime would: /proc mounted (Swift reads a program's arguments there).
  mount -t proc proc "$mnt/proc"
  version=$(chroot --userspec=10001:10001 "$mnt" /usr/bin/sumi --version) || true
  umount "$mnt/proc"
  how="chroot as uid 10001 (podman cannot run containers here)"
fi
buildah umount "$container" >/dev/null
[[ "$version" == "sumi $VERSION "* ]] || fail "sumi --version in the image printed: $version"

archive="$OUT/sumi-$VERSION.oci.tar"
rm -f "$archive"
buildah push --quiet "$image" "oci-archive:$archive:sumi:$VERSION" >/dev/null
buildah rmi "$image" >/dev/null 2>&1 || true
echo "$archive: $version (by $how), user $user, $(du -h "$archive" | cut -f1)"
