"""The conformance cache: Pillow's sdist (its Tests/images is the corpus) and a venv holding the
Pillow wheel (the reference decoder), both fetched with pip and pinned by version and hash in
requirements.txt. Standard library only: this runs before the venv exists.

The cache lives outside the clone ($XDG_CACHE_HOME/sumi-conformance, else ~/.cache/sumi-conformance)
so a fresh clone reuses it; an empty one is filled in about two minutes."""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REQUIREMENTS = HERE / "requirements.txt"
VERSION = "13.0.0"
SDIST = f"pillow-{VERSION}.tar.gz"
IMAGES = f"pillow-{VERSION}/Tests/images"


def cache_folder():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sumi-conformance"


def pinned_hashes():
    """Every sha256 requirements.txt allows (the sdist's and the wheels')."""
    return set(re.findall(r"--hash=sha256:([0-9a-f]{64})", REQUIREMENTS.read_text()))


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pip(python, *arguments):
    command = [str(python), "-m", "pip", "--disable-pip-version-check", *arguments]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    if result.returncode != 0:
        sys.exit(f"conformance: {' '.join(command)} failed:\n{result.stdout}")


def fetch_sdist(cache):
    """The sdist, downloaded by pip with --require-hashes; a cached copy is checked again."""
    tarball = cache / "download" / SDIST
    if tarball.exists() and sha256(tarball) in pinned_hashes():
        return tarball
    tarball.unlink(missing_ok=True)
    tarball.parent.mkdir(parents=True, exist_ok=True)
    print(f"conformance: downloading {SDIST} into {tarball.parent}", file=sys.stderr)
    # --no-binary pillow: the sdist; its build requirements may come as wheels.
    pip(sys.executable, "download", "--no-deps", "--no-binary", "pillow", "--require-hashes",
        "-r", str(REQUIREMENTS), "-d", str(tarball.parent))
    if not tarball.exists() or sha256(tarball) not in pinned_hashes():
        sys.exit(f"conformance: {tarball} is missing or does not have a pinned hash")
    return tarball


def extract_images(cache, tarball):
    """Tests/images of the sdist, extracted once (a marker file says the extraction finished)."""
    root = cache / "corpus"
    marker = root / f".complete-{sha256(tarball)}"
    images = root / IMAGES
    if marker.exists() and images.is_dir():
        return images
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    prefix = IMAGES + "/"
    with tarfile.open(tarball) as archive:
        members = [m for m in archive.getmembers()
                   if m.name.startswith(prefix) and (m.isfile() or m.isdir()) and ".." not in m.name.split("/")]
        archive.extractall(root, members=members, filter="data")
    marker.touch()
    return images


def reference_python(cache):
    """A venv in the cache with the pinned Pillow wheel; its python runs the comparison."""
    venv = cache / f"venv-pillow-{VERSION}-py{sys.version_info.major}{sys.version_info.minor}"
    python = venv / "bin" / "python"
    marker = venv / ".complete"
    if marker.exists() and python.exists():
        return python
    shutil.rmtree(venv, ignore_errors=True)
    print(f"conformance: installing Pillow {VERSION} into {venv}", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip(python, "install", "-q", "--no-deps", "--only-binary", ":all:", "--require-hashes", "-r", str(REQUIREMENTS))
    marker.touch()
    return python


def prepare():
    """(the corpus folder, the venv's python), fetching whatever the cache lacks."""
    cache = cache_folder()
    cache.mkdir(parents=True, exist_ok=True)
    tarball = fetch_sdist(cache)
    return extract_images(cache, tarball), reference_python(cache)
