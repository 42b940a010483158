"""One error hierarchy for the whole project.

Library code raises these; the boundaries (CLI, HTTP) translate them. Every message says
where to look: a file and a line, a record id, or a query name.
"""

from __future__ import annotations


class YiliError(Exception):
    """Base of every error the project raises on purpose. ``status`` is the HTTP status."""

    status = 500


class SourceError(YiliError):
    """Bad loader input: a corpus file, an annotation record, an ontology file.

    Args:
        path: the file at fault.
        message: what is wrong.
        line: 1-based line number, when one can be named.
    """

    status = 500

    def __init__(self, path: object, message: str, line: int | None = None):
        self.path = str(path)
        self.line = line
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


class ChecksumError(SourceError):
    """A corpus or dataset file whose sha256 does not match its manifest."""


class InconsistencyError(YiliError):
    """The reasoner or the shapes found a contradiction; ``resources`` names the culprits."""

    def __init__(self, message: str, resources: list[str] | None = None):
        self.resources = resources or []
        super().__init__(message)


class BuildMissing(YiliError):
    """No usable build: the service or a query was asked for before ``yili-kg build``."""

    status = 503


class QueryFileError(YiliError):
    """A canned query file with bad metadata or bad SPARQL (``name.rq:LINE …``)."""


class QueryNotFound(YiliError):
    status = 404


class BadQueryParameter(YiliError):
    status = 400


class EntityNotFound(YiliError):
    status = 404
