"""What a build folder holds, read without the build's machinery: the manifest and the
dataset file, checked against the manifest's sha256.

Kept apart from :mod:`yili_kg.loaders.build` (which runs the pipeline) so that opening a built
dataset — the service's cold start, each query worker — imports only the standard library.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from yili_kg.loaders.errors import BuildMissing, ChecksumError, YiliError

DATASET_NAME = "yili_kg.nq"
MANIFEST_NAME = "manifest.json"
VERIFIED_NAME = ".verified.json"  # the verification stamp (:func:`verified_sha256`)
INDEX_NAME = "search.sqlite"  # the search index (loaders/publish/searchindex.py writes it)


def default_build_dir() -> Path:
    return Path(os.environ.get("YILI_BUILD_DIR", "build"))


def sha256_of(path: Path) -> str:
    # read into one buffer, hashed without the GIL (another thread runs meanwhile): 0.44 s
    # for the whole book's 370 MB where 64 KiB reads in a Python loop took 0.51 s
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def read_manifest(build_dir: Path) -> dict | None:
    """The build's manifest, or None when there is none or it is not a JSON object."""
    path = build_dir / MANIFEST_NAME
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return manifest if isinstance(manifest, dict) else None


def dataset_sha256(manifest: dict | None) -> str | None:
    """The dataset's checksum the manifest records (None if it records none: damaged)."""
    value = ((manifest or {}).get("dataset") or {}).get("sha256")
    return value if isinstance(value, str) else None


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
    expected = dataset_sha256(manifest)
    if expected is None:
        raise ChecksumError(
            build_dir / MANIFEST_NAME,
            "damaged: it records no checksum of the dataset; run `yili-kg build` to rebuild",
        )
    stat = path.stat()
    # hashed once per process and file state: the application, its stores and the build's own
    # checks each ask, and a thread asking while another hashes waits for that answer

    def check() -> None:
        actual = verified_sha256({path: expected}, build_dir)[path]
        if actual != expected:
            raise ChecksumError(
                path,
                f"sha256 {actual[:12]}… differs from {MANIFEST_NAME}; the file is damaged: "
                "run `yili-kg build` to rebuild it",
            )

    _once((str(path.resolve()), stat.st_size, stat.st_mtime_ns, stat.st_ino, expected), check)
    return path


_CHECK_LOCK = threading.Lock()
_CHECKED: set[tuple] = set()  # files whose sha256 this process has found right
_CHECKING: dict[tuple, threading.Lock] = {}  # a lock per file being checked


def _once(key: tuple, check: Callable[[], None]) -> None:
    """``check()`` once per process for ``key`` (raising: not remembered, asked again next
    time). A thread asking while another checks the same key waits for it; two keys (the
    dataset and the store) are checked at once."""
    with _CHECK_LOCK:
        if key in _CHECKED:
            return
        lock = _CHECKING.setdefault(key, threading.Lock())
    with lock:
        with _CHECK_LOCK:
            if key in _CHECKED:
                return
        check()
        with _CHECK_LOCK:
            _CHECKED.add(key)


def check_in_background(build_dir: Path) -> list[threading.Thread]:
    """Start checking the dataset file and the store's files, each in a thread of its own:
    hashing (0.3 s for each half of the whole book's 370 MB) then runs beside what the
    caller does next (``yili-kg serve``: importing the web application), on the other core.
    The caller's own :func:`check_dataset` and :func:`check_store` wait for these and raise
    what they found (a damaged file is hashed again, then refused)."""

    def quietly(check: Callable[[Path], object]) -> None:
        try:
            check(build_dir)
        except (YiliError, OSError):
            pass  # the caller's own check raises it

    threads = [
        threading.Thread(target=quietly, args=(check,), daemon=True, name=f"yili-{check.__name__}")
        for check in (check_dataset, check_store)
    ]
    for thread in threads:
        thread.start()
    return threads


STORE_NAME = "oxigraph"
#: files of the persisted store that RocksDB rewrites as it pleases (its log, its lock)
_VOLATILE = ("LOG", "LOCK")


def store_files(build_dir: Path, expected: dict | None = None) -> dict[str, str]:
    """sha256 of each file of the persisted Oxigraph store (what the manifest records).

    ``expected`` (the manifest's): a file the verification stamp vouches for is not hashed
    again (:func:`verified_sha256`)."""
    folder = build_dir / STORE_NAME
    paths = [
        p for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(_VOLATILE)
    ]
    if expected is None:
        return {p.name: sha256_of(p) for p in paths}
    found = verified_sha256({p: expected.get(p.name) for p in paths}, build_dir)
    return {p.name: found[p] for p in paths}


def check_store(build_dir: Path) -> None:
    """Check the persisted Oxigraph store against the manifest's checksums of its files.

    A flipped byte in an SST file opens and serves, silently short of facts: this is the only
    place it shows. A build from before the manifest recorded them is not checked.

    Raises:
        ChecksumError: a file missing, added or changed.
    """
    manifest = read_manifest(build_dir) or {}
    expected = manifest.get("store")
    if expected is None:
        return
    folder = build_dir / STORE_NAME
    if not isinstance(expected, dict) or not folder.is_dir():
        raise ChecksumError(folder, "missing or not recorded: run `yili-kg build` to rebuild it")

    def check() -> None:
        actual = store_files(build_dir, expected)
        if actual != expected:
            wrong = sorted(set(actual) ^ set(expected)) or sorted(
                name for name in actual if actual[name] != expected[name]
            )
            raise ChecksumError(
                folder / wrong[0],
                f"differs from {MANIFEST_NAME} ({len(wrong)} file(s)): the store is damaged; "
                "run `yili-kg build` to rebuild it",
            )

    _once((str(folder.resolve()), json.dumps(expected, sort_keys=True)), check)


# ------------------------------------------------------------------ the verification stamp
#
# Hashing the whole book's 370 MB at every start costs more than the rest of the start. So a
# file found right is stamped (``build/.verified.json``: its sha256 with its size, inode,
# device, mtime and ctime), and a later check trusts the stamp while all five are unchanged.
# Any write to a file changes its ctime, and no call sets a ctime back (utime sets mtime and
# makes ctime now), so a file changed through the file system since it was hashed is hashed
# again; what the stamp does not see is damage that bypasses the file system (the disk's own
# bit rot under an unchanged inode), which RocksDB's block checksums are left to find.
# Timestamps are coarse (a clock tick, or seconds on some file systems): a file changed
# within RACY_NS of its hashing could change again and keep its times, so such a file is not
# stamped (git's "racily clean" index entries, the same answer to the same problem).

RACY_NS = 2_000_000_000
_STAMP_LOCK = threading.Lock()


def _now_ns() -> int:
    return time.time_ns()


def _state(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_ino, stat.st_dev, stat.st_mtime_ns, stat.st_ctime_ns]


def _read_stamp(build_dir: Path) -> dict:
    try:
        stamp = json.loads((build_dir / VERIFIED_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # none, unreadable or damaged: every file is hashed
    return stamp if isinstance(stamp, dict) else {}


def verified_sha256(files: dict[Path, str | None], build_dir: Path) -> dict[Path, str]:
    """Each file's sha256: the expected one without reading the file if ``build_dir``'s stamp
    records it for the file in its present state, else hashed (and stamped if it is the one
    expected and the file was not changed within :data:`RACY_NS` before)."""
    stamp = _read_stamp(build_dir)
    found: dict[Path, str] = {}
    fresh: dict[str, list] = {}
    for path, expected in files.items():
        key = str(path.resolve())
        before = _state(path.stat())
        if expected is not None and stamp.get(key) == [expected, *before]:
            found[path] = expected
            continue
        began = _now_ns()
        found[path] = sha256_of(path)
        after = _state(path.stat())
        if found[path] == expected and after == before and max(after[3:]) < began - RACY_NS:
            fresh[key] = [expected, *after]
    if fresh:
        _stamp(build_dir, fresh)
    return found


def _stamp(build_dir: Path, fresh: dict[str, list]) -> None:
    # one writer at a time in this process (the dataset's and the store's checks run in two
    # threads); two processes racing lose an entry at worst, which costs a hash, not trust
    with _STAMP_LOCK:
        stamp = {k: v for k, v in _read_stamp(build_dir).items() if os.path.exists(k)}
        stamp.update(fresh)  # (the files of an older build are gone: their entries too)
        try:
            atomic_write(build_dir / VERIFIED_NAME, lambda h: h.write(json.dumps(stamp, indent=0)))
        except OSError:
            pass  # a build folder the server may not write: it hashes at every start


def atomic_write(path: Path, write: Callable[[Any], None], binary: bool = False) -> None:
    """Write ``path`` through a temporary file in the same folder, then rename it into place."""

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        handle: IO[Any]
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp makes 0600; a dataset is for everyone to read
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
