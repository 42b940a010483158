"""The dataset's description as served: VoID and DCAT 3, built from the dataset and the server.

The build writes what the data says of itself (graph ``…/graph/meta``: counts, classes,
sources, licence; :func:`yili_kg.loaders.publish.dataset.describe`). What depends on how
and where it is served is added here, per request: the endpoint's real URL (from the
request's host), a ``dcat:DataService`` for it, a ``dcat:Distribution`` for every download with its
``dcat:downloadURL``, IANA media type, size and SHA-256 (once the file is written: a file not
yet asked for is described without them), and the dates of the build.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from rdflib import RDF, RDFS, XSD, BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCAT, DCTERMS, VOID

from yili_kg.loaders.iris import DATASET
from yili_kg.service.formats import EXPORTS

SPDX = Namespace("http://spdx.org/rdf/terms#")
LICENCE = URIRef("https://creativecommons.org/licenses/by-sa/4.0/")

#: the files under /downloads: (graph, format) in the order the page lists them
DOWNLOADS = [
    ("all", "nq"),
    ("all", "trig"),
    ("all", "ttl"),
    ("all", "nt"),
    ("all", "jsonld"),
    ("all", "xml"),
    ("asserted", "ttl"),
    ("inferred", "ttl"),
    ("ontology", "ttl"),
    ("ontology", "jsonld"),
    ("ontology", "xml"),
]


def download_path(build_dir: Path, version: str, graph: str, fmt: str) -> Path:
    """Where a download is kept: one folder per dataset version."""
    return build_dir / "downloads" / version[:16] / f"yili-kg-{graph}.{fmt}"


def checksum_of(path: Path) -> str:
    """The file's SHA-256, from the note written beside it (computed once if missing)."""
    note = path.with_name(path.name + ".sha256")
    if note.exists():
        return note.read_text().strip()
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    note.write_text(digest.hexdigest())
    return digest.hexdigest()


def catalogue(meta_ntriples: bytes, base_url: str, build_dir: Path, version: str, built: str):
    """The served description: the built one plus the endpoint, distributions and dates.

    ``base_url`` ends with ``/`` (Flask's ``request.host_url``).
    """

    g = Graph()
    g.parse(data=meta_ntriples, format="nt")
    for prefix, namespace in (("void", VOID), ("dcat", DCAT), ("dcterms", DCTERMS)):
        g.bind(prefix, namespace)
    g.bind("spdx", SPDX)
    d = DATASET
    endpoint = URIRef(base_url + "sparql")
    g.add((d, VOID.sparqlEndpoint, endpoint))
    g.add((d, VOID.dataDump, URIRef(base_url + "downloads/all.nq")))
    g.add((d, RDFS.seeAlso, URIRef(base_url + "void")))
    if built:
        g.add((d, DCTERMS.issued, Literal(built, datatype=XSD.dateTime)))
        g.add((d, DCTERMS.modified, Literal(built, datatype=XSD.dateTime)))

    g.add((endpoint, RDF.type, DCAT.DataService))
    g.add((endpoint, DCTERMS.title, Literal("yili-kg SPARQL endpoint", lang="en")))
    g.add((endpoint, DCAT.endpointURL, endpoint))
    g.add((endpoint, DCAT.endpointDescription, endpoint))  # its Service Description
    g.add((endpoint, DCAT.servesDataset, d))
    g.add((endpoint, DCTERMS.conformsTo, URIRef("https://www.w3.org/TR/sparql11-protocol/")))
    g.add((endpoint, DCTERMS.license, LICENCE))

    via_endpoint = URIRef(f"{DATASET}/distribution/sparql")
    g.add((d, DCAT.distribution, via_endpoint))
    g.add((via_endpoint, RDF.type, DCAT.Distribution))
    g.add((via_endpoint, DCTERMS.title, Literal("the dataset through SPARQL", lang="en")))
    g.add((via_endpoint, DCAT.accessURL, endpoint))
    g.add((via_endpoint, DCAT.accessService, endpoint))
    g.add((via_endpoint, DCTERMS.license, LICENCE))

    for graph, fmt in DOWNLOADS:
        spec = EXPORTS[fmt]
        url = URIRef(f"{base_url}downloads/{graph}.{fmt}")
        node = URIRef(f"{DATASET}/distribution/{graph}.{fmt}")
        g.add((d, DCAT.distribution, node))
        g.add((node, RDF.type, DCAT.Distribution))
        g.add((node, DCTERMS.title, Literal(f"{graph} graphs in {spec.label}", lang="en")))
        g.add((node, DCAT.downloadURL, url))
        g.add((node, DCAT.accessURL, url))
        g.add((node, DCAT.mediaType, URIRef(spec.iana)))
        g.add((node, DCTERMS.license, LICENCE))
        path = download_path(build_dir, version, graph, fmt)
        if path.exists():
            g.add(
                (node, DCAT.byteSize, Literal(path.stat().st_size, datatype=XSD.nonNegativeInteger))
            )
            checksum = BNode()
            g.add((node, SPDX.checksum, checksum))
            g.add((checksum, RDF.type, SPDX.Checksum))
            g.add((checksum, SPDX.algorithm, SPDX.checksumAlgorithm_sha256))
            g.add(
                (checksum, SPDX.checksumValue, Literal(checksum_of(path), datatype=XSD.hexBinary))
            )
    return g
