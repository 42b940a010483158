"""The build: corpus → text layer → annotations → RDF → reasoning → dataset, into ``build/``.

Each stage writes its output to ``build/stages/<stage>.nt`` with a key made of its inputs
(checksums of the corpus files and ontology modules it reads, and the loaders' code). A stage
whose key has not changed is not run again; a build with nothing changed only checks keys.

Writes are atomic (write to a temporary file, fsync, rename), and the dataset's sha256 is
kept in ``build/manifest.json``: a damaged dataset is detected and rebuilt, and the service
refuses one whose checksum does not match.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import platform
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata, resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rdflib import Graph

from yili_kg.loaders.annotation.annotations import read_layer
from yili_kg.loaders.built import (  # noqa: F401 (re-exported: the build's public names)
    DATASET_NAME,
    MANIFEST_NAME,
    atomic_write,
    check_dataset,
    check_store,
    default_build_dir,
    read_manifest,
    sha256_of,
    store_files,
)
from yili_kg.loaders.corpus import (  # noqa: F401 (ontology_dir re-exported)
    corpus_dir,
    ontology_dir,
    ontology_files,
    verify,
)
from yili_kg.loaders.errors import ChecksumError, InconsistencyError, YiliError
from yili_kg.loaders.publish import dataset
from yili_kg.loaders.publish.docs import write_documentation
from yili_kg.loaders.publish.searchindex import write_index

if TYPE_CHECKING:
    from rdflib import Graph


class BuildBusy(YiliError):
    """Another process holds the build folder's lock."""


def code_version() -> str:
    """A digest of the loaders' source: any change to the pipeline's code rebuilds."""
    digest = hashlib.sha256()
    package = Path(str(resources.files("yili_kg.loaders")))
    for path in sorted(package.rglob("*.py")):  # the stage folders (witnesses/, text/ …) too
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def files_digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode())
        digest.update(sha256_of(path).encode())
    return digest.hexdigest()[:16]


def corpus_files() -> list[Path]:
    root = corpus_dir()
    return sorted(
        p for p in root.rglob("*") if p.is_file() and p.suffix in {".txt", ".tsv", ".md", ".xml"}
    )


def package_versions() -> dict[str, str]:
    # imported here: opening a built dataset (the service's cold start) needs neither

    names = [
        "yili-kg",
        "rdflib",
        "owlrl",
        "pyoxigraph",
        "pyshacl",
        "OpenCC",
        "pypinyin",
        "rapidfuzz",
    ]
    out = {"python": platform.python_version()}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


@dataclass
class BuildReport:
    """What a build did: per stage, whether it ran, its seconds and counts."""

    stages: dict[str, dict] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    up_to_date: bool = False

    def summary(self) -> str:
        ran = [name for name, s in self.stages.items() if s.get("ran")]
        counts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        state = "up to date" if self.up_to_date else f"ran {', '.join(ran) or 'nothing'}"
        return f"built {counts} in {self.seconds:.1f} s ({state})"


@dataclass(frozen=True)
class Stage:
    """A stage of the pipeline: its name, the stages it reads, its own inputs, its function.

    ``run(inputs)`` gets the graphs of the stages it depends on and returns its graph.
    """

    name: str
    graph: str  # the named graph it goes to: ontology | asserted | inferred
    needs: tuple[str, ...]
    own_inputs: Callable[[], str]
    run: Callable[[dict], Graph]


def _stages() -> list[Stage]:
    from yili_kg.loaders import stages  # here, not at the top: stages imports build (Stage)

    return stages.STAGES


def _stage_key(stage: Stage, keys: dict[str, str], code: str) -> str:
    parts = [stage.name, stage.own_inputs(), code, *(keys[n] for n in stage.needs)]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


LOCK_NAME = ".build.lock"

#: Files besides the dataset that a complete build holds (the store, the ontology page, the
#: search index). The canned questions' precomputed answers are not among them: they are the
#: service's, written by ``yili-kg answers`` (service/precomputed.py), keyed by the dataset.
BUILD_OUTPUTS = ("oxigraph/BUILD", "ontology.html", "search.sqlite")


@contextlib.contextmanager
def build_lock(build_dir: Path):
    """Hold the build folder's lock: one writer at a time in a folder (``yili-kg build``,
    ``serve`` bringing it up to date, ``yili-kg answers``); a second is refused, naming the
    first, instead of writing the same files beside it."""

    build_dir.mkdir(parents=True, exist_ok=True)
    with open(build_dir / LOCK_NAME, "a+", encoding="ascii") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "another process"
            raise BuildBusy(
                f"{build_dir}/ is being built by {holder}: wait for it to finish "
                "(or serve the build as it is with --no-build)"
            ) from None
        lock.truncate(0)
        lock.write(f"process {os.getpid()}")
        lock.flush()
        try:
            yield
        finally:
            lock.truncate(0)


def run_build(build_dir: Path | None = None, progress=None, force: bool = False) -> BuildReport:
    """:func:`_run_build` holding the build folder's lock (:func:`build_lock`)."""
    build_dir = build_dir or default_build_dir()
    with build_lock(build_dir):
        return _run_build(build_dir, progress, force)


def _run_build(build_dir: Path | None = None, progress=None, force: bool = False) -> BuildReport:
    """Run every stage whose inputs changed and write the dataset.

    Args:
        build_dir: where to write (default ``build/`` or ``$YILI_BUILD_DIR``).
        progress: ``progress(stage_name, state)`` callback for a display ("start"/"done"/"skip").
        force: run every stage.
    """
    started = time.perf_counter()
    build_dir = build_dir or default_build_dir()
    stage_dir = build_dir / "stages"
    report = BuildReport()
    verify()  # refuses a witness whose checksum does not match, naming the file
    code = code_version()
    stages = _stages()
    keys: dict[str, str] = {}
    for stage in stages:
        keys[stage.name] = _stage_key(stage, keys, code)
    manifest = read_manifest(build_dir)
    if not force and manifest and manifest.get("keys") == keys and _outputs_intact(build_dir):
        report.up_to_date = True
        report.counts = manifest.get("counts", {})
        report.stages = {n: {"ran": False} for n in keys}
        report.seconds = time.perf_counter() - started
        return report
    # else (or damaged): rebuild the dataset from the stage outputs, running what changed
    graphs = _run_stages(stages, keys, manifest, stage_dir, report, progress, force)
    for name, info in report.stages.items():
        if not info["ran"] and manifest:
            info.update({k: v for k, v in manifest["stages"].get(name, {}).items() if k != "ran"})
            info["ran"] = False
    counts = _write_outputs(build_dir, stage_dir, stages, graphs, report)
    report.counts = counts
    # the canned questions' first answers are the service's (``yili-kg answers``), not a
    # stage: the build reaches nothing downstream of the store (pipeline's direction)
    report.seconds = time.perf_counter() - started
    _write_manifest(build_dir, keys, counts, report, code)
    return report


def _outputs_intact(build_dir: Path) -> bool:
    """The dataset and store match their checksums and every other output is there."""
    try:
        check_dataset(build_dir)
        check_store(build_dir)
        for needed in BUILD_OUTPUTS:
            if not (build_dir / needed).exists():
                raise ChecksumError(build_dir / needed, "missing: the build is incomplete")
    except ChecksumError:
        return False
    return True


def _run_stages(
    stages: list[Stage],
    keys: dict[str, str],
    manifest: dict | None,
    stage_dir: Path,
    report: BuildReport,
    progress,
    force: bool,
) -> dict[str, Graph | _lazy_graph]:
    """Each stage run, or its output kept when its key is the manifest's and the file its
    checksum; the stages' graphs (a kept one loaded only if a later stage reads it)."""
    graphs: dict[str, Graph | _lazy_graph] = {}
    values: dict = {}  # what stages share besides graphs (the text layer), for this build only
    old_keys = (manifest or {}).get("keys", {})
    for stage in stages:
        path = stage_dir / f"{stage.name}.nt"
        t0 = time.perf_counter()
        cached = not force and old_keys.get(stage.name) == keys[stage.name] and path.exists()
        if cached and _stage_file_ok(path, manifest, stage.name):
            if progress:
                progress(stage.name, "skip")
            graphs[stage.name] = _lazy_graph(path)
            report.stages[stage.name] = {"ran": False}
            continue
        if progress:
            progress(stage.name, "start")
        graph = _run_stage(stage, graphs, values)
        atomic_write(path, _nt_writer(graph), binary=True)
        graphs[stage.name] = graph
        report.stages[stage.name] = {
            "ran": True,
            "seconds": round(time.perf_counter() - t0, 3),
            "triples": len(graph),
            "sha256": sha256_of(path),
        }
        if progress:
            progress(stage.name, "done")
    return graphs


def _run_stage(stage: Stage, graphs: dict, values: dict) -> Graph:
    """One stage's graph from the graphs it needs; an inconsistency is :func:`located`."""
    inputs = {name: _load(graphs, name) for name in stage.needs}
    inputs["values"] = values
    try:
        return stage.run(inputs)
    except InconsistencyError as exc:
        raise located(exc) from exc


def _write_outputs(
    build_dir: Path, stage_dir: Path, stages: list[Stage], graphs: dict, report: BuildReport
) -> dict[str, int]:
    """The outputs made of the stages' graphs, each timed apart (the report lists them):
    the dataset, the store, the ontology page, the search index; the dataset's counts."""
    t0 = time.perf_counter()
    dataset_file = build_dir / DATASET_NAME
    counts = dataset.write_dataset(dataset_file, stage_dir, stages)
    report.stages["dataset"] = {"ran": True, "seconds": round(time.perf_counter() - t0, 3)}
    t0 = time.perf_counter()
    dataset.persist_oxigraph(build_dir, dataset_file, sha256_of(dataset_file))
    report.stages["store"] = {"ran": True, "seconds": round(time.perf_counter() - t0, 3)}
    t0 = time.perf_counter()
    write_documentation(_load(graphs, "ontology"), build_dir / "ontology.html")
    report.stages["ontology page"] = {"ran": True, "seconds": round(time.perf_counter() - t0, 3)}
    t0 = time.perf_counter()
    write_index(build_dir)  # the search index, from the store just persisted
    report.stages["search index"] = {"ran": True, "seconds": round(time.perf_counter() - t0, 3)}
    return counts


def _write_manifest(
    build_dir: Path, keys: dict[str, str], counts: dict, report: BuildReport, code: str
) -> None:
    """``manifest.json``: the stages' keys, the dataset's and store's checksums, the report,
    the inputs' checksums and the packages' versions."""
    new_manifest = {
        "keys": keys,
        "dataset": {"path": DATASET_NAME, "sha256": sha256_of(build_dir / DATASET_NAME)},
        "store": store_files(build_dir),  # checked at every start (check_store)
        "counts": counts,
        "stages": report.stages,
        "inputs": {
            "corpus": {str(p.relative_to(corpus_dir())): sha256_of(p) for p in corpus_files()},
            "ontology": {p.name: sha256_of(p) for p in ontology_files()},
            "code": code,
        },
        "versions": package_versions(),
        "seconds": round(report.seconds, 3),
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    atomic_write(
        build_dir / MANIFEST_NAME,
        lambda h: h.write(json.dumps(new_manifest, ensure_ascii=False, indent=1)),
    )


def _nt_writer(graph: Graph) -> Callable[[Any], None]:
    """What writes ``graph`` as N-Triples to an open binary file."""
    return lambda handle: handle.write(graph.serialize(format="nt", encoding="utf-8"))


def _stage_file_ok(path: Path, manifest: dict | None, name: str) -> bool:
    expected = ((manifest or {}).get("stages", {}).get(name) or {}).get("sha256")
    return expected is not None and sha256_of(path) == expected


class _lazy_graph:  # noqa: N801 (a stand-in that loads the cached stage output on first use)
    def __init__(self, path: Path):
        self.path = path


def _load(graphs: dict, name: str):

    value = graphs[name]
    if isinstance(value, _lazy_graph):
        graph = Graph()
        with open(value.path, "rb") as handle:
            graph.parse(file=handle, format="nt")
        graphs[name] = graph
        return graph
    return value


def locate(resource: str) -> str | None:
    """Where a resource is stated, as ``file:line``: the ontology module that says it (as a
    subject first, else anywhere), or, for an event, its clause's annotation record."""
    mentions: list[str] = []
    for path in ontology_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        spellings = [f"<{resource}>"]
        for line in lines:
            match = re.match(r"\s*@prefix\s+([\w-]*):\s*<([^>]*)>", line)
            if match and resource.startswith(match.group(2)):
                local = resource[len(match.group(2)) :]
                if re.fullmatch(r"[\w.-]+", local):
                    spellings.append(f"{match.group(1)}:{local}")
        pattern = re.compile(
            "(?<![\\w:<-])(?:" + "|".join(re.escape(s) for s in spellings) + ")(?![\\w:-])"
        )
        for number, line in enumerate(lines, start=1):
            code = line.split(" #", 1)[0]
            if line.lstrip().startswith("#") or not pattern.search(code):
                continue
            if pattern.match(code):  # the statement's subject: where it is declared
                return f"{path}:{number}"
            mentions.append(f"{path}:{number}")
    if mentions:
        return mentions[0]
    event = re.search(r"/event/(jing|ji)-([\d.]+)-\d+$", resource)
    if event:
        record = read_layer().get(f"{event.group(1)}/{event.group(2)}")
        if record is not None and record.path:
            return f"{record.path}:{record.line}"
    return None


def located(error: InconsistencyError) -> InconsistencyError:
    """The reasoner's error with the place of its first culprit put first, as a file error's."""
    for resource in error.resources:
        place = locate(resource)
        if place:
            return InconsistencyError(f"{place}: {error}", error.resources)
    return error
