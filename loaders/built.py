"""What a build folder holds, read without the build's machinery: the manifest and the
dataset file, checked against the manifest's sha256.

Kept apart from :mod:`yili_kg.loaders.build` (which runs the pipeline) so that opening a built
dataset — the service's cold start, each query worker — imports only the standard library.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

from yili_kg.loaders.errors import BuildMissing, ChecksumError

DATASET_NAME = "yili_kg.nq"
MANIFEST_NAME = "manifest.json"


def default_build_dir() -> Path:
    return Path(os.environ.get("YILI_BUILD_DIR", "build"))


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(build_dir: Path) -> dict | None:
    path = build_dir / MANIFEST_NAME
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return None


def check_dataset(build_dir: Path) -> Path:
    """The dataset file, after checking it against the build manifest.

    Raises:
        BuildMissing: no dataset or no manifest in ``build_dir``.
        ChecksumError: the dataset's sha256 differs from the manifest's.
    """
    manifest = read_manifest(build_dir)
    path = build_dir / DATASET_NAME
    if manifest is None or not path.exists():
        raise BuildMissing(f"no built dataset in {build_dir}/: run `yili-kg build` first")
    expected = manifest["dataset"]["sha256"]
    stat = path.stat()
    # hashed once per process and file state: the application, its stores and the build's own
    # checks each ask, and a thread asking while another hashes waits for that answer
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns, stat.st_ino, expected)
    with _CHECK_LOCK:
        if key not in _CHECKED:
            actual = sha256_of(path)
            if actual != expected:
                raise ChecksumError(
                    path,
                    f"sha256 {actual[:12]}… differs from {MANIFEST_NAME}; the file is damaged: "
                    "run `yili-kg build` to rebuild it",
                )
            _CHECKED.add(key)
    return path


_CHECK_LOCK = threading.Lock()
_CHECKED: set[tuple] = set()  # datasets whose sha256 this process has found right
