"""The ``yili-kg`` command line. Thin commands over library functions.

Exit codes: 0 ok; 1 a data or user error (the message says where to look); 2 usage.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from yili_kg.loaders.errors import YiliError

# Each command imports its machinery inside itself (the build, the store, rdflib, Flask): the
# commands share one process start, and `yili-kg serve`'s cold start (≤ 0.5 s) pays only for
# its own.

if TYPE_CHECKING:
    from yili_kg.service.remote import RemoteStore
    from yili_kg.service.store import OxigraphStore, RdflibStore


class _Group(click.Group):
    """Turn the project's own errors into one clear line and exit code 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except YiliError as exc:
            raise click.ClickException(str(exc)) from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="yili-kg")
def main() -> None:
    """yili-kg: a knowledge graph of the 儀禮 (Yili) and a SPARQL service over it."""


def _build_dir(value: str | None) -> Path:
    from yili_kg.loaders.built import default_build_dir

    return (Path(value) if value else default_build_dir()).resolve()  # once, absolutely


BUILD_DIR = click.option(
    "--build-dir", default=None, help="Build folder (default: build/ or $YILI_BUILD_DIR)."
)


@main.command()
@BUILD_DIR
@click.option("--force", is_flag=True, help="Run every stage even if its inputs did not change.")
def build(build_dir: str | None, force: bool) -> None:
    """Build the graph: text → annotations → RDF → reasoning → dataset, into build/."""
    from yili_kg.loaders.build import run_build

    tty = sys.stderr.isatty()
    started: dict[str, float] = {}

    def progress(stage: str, state: str) -> None:
        if state == "start":
            started[stage] = time.perf_counter()
            if tty:
                click.echo(f"  {stage} …", err=True, nl=False)
        elif state == "done" and tty:
            click.echo(f"\r  {stage}: {time.perf_counter() - started[stage]:.1f} s", err=True)
        elif state == "skip" and tty:
            click.echo(f"  {stage}: unchanged", err=True)

    report = run_build(_build_dir(build_dir), progress=progress, force=force)
    click.echo(report.summary())


@main.command()
@BUILD_DIR
def answers(build_dir: str | None) -> None:
    """Precompute the canned questions' first answers of the built dataset into build/answers/.

    Not part of the build (the service's work, downstream of the store): without it a first
    ask is run on the store and remembered by the server. Keyed by the dataset's sha256: a new
    build leaves these unused until they are computed again."""
    from yili_kg.service.precomputed import precompute

    figures = precompute(_build_dir(build_dir))
    click.echo(
        f"answered {figures['questions']} canned questions in {figures['seconds']:.1f} s "
        f"into {figures['folder']}"
    )


def _setting_options(command):
    """``yili-kg serve``'s options for the settings that have one (service/config.py's table).

    Their default is None: an option not given leaves the setting to ``YILI_<KEY>`` or the
    table's default, so ``YILI_QUERY_TIMEOUT=3 yili-kg serve`` serves with 3 s."""
    from yili_kg.service.config import SETTINGS

    for setting in reversed(SETTINGS):
        if not setting.option:
            continue
        kind = click.Choice(setting.choices) if setting.choices else setting.type
        command = click.option(
            setting.option,
            setting.key.lower(),
            type=kind,
            default=None,
            help=f"{setting.help[:1].upper()}{setting.help[1:]}."
            f" [default: {setting.default}; ${setting.env}]",
        )(command)
    return command


@main.command()
@BUILD_DIR
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int)
@_setting_options
@click.option("--no-build", is_flag=True, help="Serve the build as it is; do not rebuild.")
def serve(build_dir, host, port, no_build, **given):
    """Build the graph if its inputs changed, then serve it: SPARQL endpoint, pages, downloads."""
    import faulthandler
    import signal

    # kill -USR1 <pid>: every thread's stack to stderr, to see what a server that will not
    # stop (or answer) is waiting for, without stopping it
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    path = _build_dir(build_dir)
    from yili_kg.service.config import resolve_config, start_pool

    if not no_build:
        from yili_kg.loaders.build import run_build

        run_build(path)
    # the options given win over the environment; the others leave it alone
    overrides = {key.upper(): value for key, value in given.items() if value is not None}
    config = resolve_config({"BUILD_DIR": str(path), **overrides})
    # forked now, while this process has one thread: the workers open the store beside the
    # web application's import (cold start)
    pool = start_pool(config, background=True, fork=True)
    # and the build's checksums taken meanwhile, beside the imports (create_app waits for them)
    from yili_kg.loaders.built import check_in_background

    check_in_background(path)
    from yili_kg.service.app import create_app
    from yili_kg.service.front import make_server, serve_until_stopped

    app = create_app(config, pool=pool)
    # started with Ctrl-C ignored (in the background of a shell, under nohup): only SIGTERM stops
    stops = "SIGTERM" if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else "Ctrl-C"
    click.echo(
        f"yili-kg: serving {path} at http://{host}:{port}/ (SPARQL at /sparql; {stops} stops)",
        err=True,
    )
    try:
        threads = int(app.config["THREADS"])
        server = make_server(app, host, port, threads, app.config, ident="yili-kg")
        grace = app.config["SHUTDOWN_GRACE"]
        grace = float(grace) if grace is not None else float(app.config["QUERY_TIMEOUT"]) + 2.0
        if serve_until_stopped(server, grace):
            click.echo("yili-kg: stopped (SIGTERM)", err=True)
    finally:
        app.extensions["yili"].pool.close()


@main.command()
@BUILD_DIR
@click.option(
    "--format",
    "fmt",
    default="ttl",
    show_default=True,
    type=click.Choice(["ttl", "nt", "nq", "trig", "jsonld", "xml", "tei"]),
)
@click.option(
    "--graph",
    default="all",
    show_default=True,
    type=click.Choice(["asserted", "inferred", "ontology", "all"]),
)
@click.option("--rite", default="xiangshe", show_default=True, help="TEI: the rite to write.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write here instead of standard output.",
)
def export(build_dir: str | None, fmt: str, graph: str, rite: str, output: str | None) -> None:
    """Write the built RDF in a standard format (with its VoID/DCAT description), or one rite
    as a TEI P5 document (--format tei --rite SLUG)."""
    from yili_kg.loaders.build import atomic_write, check_dataset
    from yili_kg.service.export import export as export_dataset

    if fmt == "tei":
        from yili_kg.service.store import open_store
        from yili_kg.service.tei import tei_export

        check_dataset(_build_dir(build_dir))
        data = tei_export(open_store(_build_dir(build_dir), "oxigraph", verified=True), rite)
    else:
        data = export_dataset(check_dataset(_build_dir(build_dir)), fmt, graph)
    if output:
        atomic_write(Path(output), lambda h: h.write(data), binary=True)
    else:
        sys.stdout.buffer.write(data)


@main.command()
@click.argument("name")
@click.option(
    "-p",
    "--param",
    "params",
    multiple=True,
    metavar="KEY=VALUE",
    help="A parameter of the canned query (repeatable).",
)
@click.option(
    "--format",
    "fmt",
    default="table",
    show_default=True,
    type=click.Choice(["table", "csv", "tsv", "json", "xml"]),
)
@click.option(
    "--store", default="oxigraph", show_default=True, type=click.Choice(["oxigraph", "rdflib"])
)
@click.option("--endpoint", default=None, help="Run on a remote SPARQL endpoint instead.")
@BUILD_DIR
def query(
    name: str,
    params: tuple[str, ...],
    fmt: str,
    store: str,
    endpoint: str | None,
    build_dir: str | None,
) -> None:
    """Run a canned query (NAME) or a query file (NAME.rq) and print its answer."""
    from yili_kg.service.queries import bindings_for, get_query, parse_query_file

    values = {}
    for item in params:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--param")
        values[key] = value
    if name.endswith(".rq"):
        path = Path(name)
        canned = parse_query_file(
            path.stem, path.read_text(encoding="utf-8"), str(path), require_title=False
        )
    else:
        canned = get_query(name)
    if endpoint:
        from yili_kg.service.remote import RemoteStore

        backend: RemoteStore | OxigraphStore | RdflibStore = RemoteStore(endpoint)
    else:
        from yili_kg.service.store import open_store

        backend = open_store(_build_dir(build_dir), store)
    answer = backend.query(canned.sparql, bindings_for(canned, values, backend))
    if fmt == "table":
        click.echo(render_table(answer))
    else:
        sys.stdout.buffer.write(answer.serialise(fmt))


def render_table(answer) -> str:
    """A plain-text table of an answer, for the terminal."""
    if answer.kind == "ask":
        return "yes" if answer.boolean else "no"
    if answer.kind == "graph":
        return "\n".join(" ".join(t.n3() for t in triple) + " ." for triple in answer.triples)
    header = answer.variables
    rows = [[row[v].value if v in row else "" for v in header] for row in answer.rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.append(f"({len(rows)} rows)")
    return "\n".join(lines)


@main.command()
@click.option("--endpoint", required=True, help="The store's SPARQL endpoint (…/sparql).")
@click.option("--user", default=None, help="User for HTTP digest auth (Virtuoso: dba).")
@click.option("--password", default=None, help="Password for HTTP digest auth.")
@click.option(
    "--graph",
    default="all",
    show_default=True,
    type=click.Choice(["all", "asserted", "inferred", "ontology", "meta"]),
)
@click.option("--replace", is_flag=True, help="Replace each graph in the store, not add to it.")
@click.option("--gsp", default=None, help="Graph Store endpoint (default: Virtuoso's).")
@click.option(
    "--via",
    default="auto",
    show_default=True,
    type=click.Choice(["auto", "gsp", "update"]),
    help="Graph Store protocol, SPARQL Update INSERT DATA, or the first that works.",
)
@BUILD_DIR
def push(endpoint, user, password, graph, replace, gsp, via, build_dir) -> None:
    """Push the built graphs into a triple store (each into the graph of the same name).

    Then count each graph in the store: exits with status 1 if a count differs from the file.
    """
    from yili_kg.loaders.build import check_dataset
    from yili_kg.service.remote import GRAPH_NAMES
    from yili_kg.service.remote import push as push_dataset

    if user is not None and password is None:
        password = click.prompt(f"password for {user}", hide_input=True, err=True)
    report = push_dataset(
        check_dataset(_build_dir(build_dir)),
        endpoint,
        user=user,
        password=password,
        graphs=GRAPH_NAMES if graph == "all" else (graph,),
        replace=replace,
        gsp=gsp,
        via=via,
        progress=lambda message: click.echo(message, err=True),
    )
    click.echo(report.render())
    if not report.ok:
        sys.exit(1)


@main.command()
@BUILD_DIR
def check(build_dir: str | None) -> None:
    """Check the built dataset: SHACL shapes, QC queries, review coverage, collation.

    Exits with status 1 if there is any violation, listing each.
    """
    from yili_kg.service.check import run_check

    report = run_check(_build_dir(build_dir))
    click.echo(report.render())
    if not report.ok:
        sys.exit(1)


@main.command()
@click.option("--summary", is_flag=True, help="Print only the counts.")
@click.option(
    "--punctuated", is_flag=True, help="Kanripo 經 against the punctuated edition, every rite."
)
@click.option("--rite", "rites", multiple=True, help="With --punctuated: only this rite (slug).")
def collate(summary: bool, punctuated: bool, rites: tuple[str, ...]) -> None:
    """Print the collation report: every real variant between the witnesses of 鄉射禮.

    With --punctuated: every stretch where a rite's Kanripo 經 and the punctuated edition do
    not align (all seventeen rites, or those named by --rite).
    """
    from yili_kg.loaders.text.collate import collate_all, collate_punctuated

    if punctuated or rites:
        from yili_kg.loaders.text.ritetable import rite_info

        for slug in rites:
            rite_info(slug)  # an unknown slug is a clear error
        report = collate_punctuated(list(rites) or None).render()
    else:
        report = collate_all().render()
    click.echo(report.splitlines()[-1] if summary else report)


@main.command()
@click.option("--update", is_flag=True, help="Rewrite the checksums from the files (after review).")
def manifest(update: bool) -> None:
    """Check every corpus file against corpus/MANIFEST.tsv (or update the checksums)."""
    from yili_kg.loaders.corpus import update_manifest, verify

    if update:
        changed = update_manifest()
        click.echo(f"updated {len(changed)} checksums: {', '.join(changed) or 'none'}")
        return
    entries = verify()
    click.echo(f"{len(entries)} corpus files match the manifest")


@main.command()
@click.option(
    "--write",
    is_flag=True,
    help="Write the automatic reading of every clause that has no record yet.",
)
@click.option(
    "--rite",
    "rites",
    multiple=True,
    metavar="SLUG",
    help="The rite (slug of corpus/rites.tsv; repeatable). Default: every rite under review.",
)
def annotate(write: bool, rites: tuple[str, ...]) -> None:
    """Annotate every clause; report review coverage (or --write the missing records)."""
    from yili_kg.loaders.annotation.review import (
        compose,
        review_layer,
        reviewed_rites,
        write_missing,
    )
    from yili_kg.loaders.text.ritetable import read_rites

    known = read_rites()
    for slug in rites:
        if slug not in known:
            raise click.BadParameter(f"{slug}: not a rite of corpus/rites.tsv", param_hint="--rite")
    for slug in rites or reviewed_rites():
        layer, lexicon = review_layer(slug)
        if write:
            count = write_missing(layer, lexicon, slug)
            click.echo(f"{slug}: wrote {count} automatic records under corpus/annotations/{slug}/")
            continue
        _, report = compose(layer, lexicon, slug)
        click.echo(f"{slug}: {report.render()}")


@main.command()
@click.option(
    "--gold",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Gold set (default: tests/gold/xiangshe.tsv of the checkout).",
)
@click.option(
    "--review",
    "rite",
    default=None,
    help="Score against this rite's reviewed layer instead, leaving out its gold clauses.",
)
@click.option(
    "--of",
    type=click.Choice(["annotator", "review"]),
    default="annotator",
    help="Score the automatic annotator (default) or the rite's reviewed layer against --gold "
    "(a blind reading of docs/checks/ checks the review).",
)
def evaluate(gold: str | None, rite: str | None, of: str) -> None:
    """Precision, recall and F1 per field of the automatic annotator against the gold set."""
    from yili_kg.loaders.annotation.evaluate import gold_path, measure, measure_review, render

    if rite:
        result = measure_review(rite)
        click.echo(render(result.scores, result.clauses).replace("gold clauses", "reviewed"))
        return
    path = Path(gold) if gold else gold_path()
    if not path.exists():
        raise click.ClickException(f"{path}: no gold set (run from the repository root)")
    result = measure(path, of=of)
    click.echo(render(result.scores, result.clauses, result.unmatched))


if __name__ == "__main__":  # pragma: no cover
    main()
