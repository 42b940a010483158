"""The connection front (門): waitress, set so that idle and slow clients cannot stop the site.

waitress reads every connection in one asyncore loop and hands a request to a thread only once
it has arrived whole, so an idle or trickling socket costs a file descriptor, not a thread.
What stopped the site was its bookkeeping: at ``connection_limit`` (100) open sockets it stops
accepting, and an idle one is closed only after ``channel_timeout`` (120 s) — 100 idle sockets
kept every other client out for two minutes. Here:

- ``CONNECTION_LIMIT`` (1000) open connections before waitress stops accepting, with the
  process's open-file limit raised to fit (``poll``, not ``select``: no 1024-descriptor cap);
- ``CHANNEL_TIMEOUT`` (15 s): a connection with nothing in flight and no byte received for that
  long is closed (an idle keep-alive or a silent socket);
- ``RECEIVE_TIMEOUT`` (10 s): a request must arrive whole within that time of its first byte,
  however slowly it trickles (slowloris sends a byte a second and is never idle);
- ``CLEANUP_INTERVAL`` (1 s): how often those two are checked;
- ``channel_request_lookahead`` 1: waitress keeps reading a connection while its request runs,
  so it sees the client hang up, and :mod:`sparql` stops that client's query
  (``waitress.client_disconnected``).

waitress was kept rather than replaced by gunicorn's gthread workers: gthread holds a thread
per connection during the keep-alive wait and forks its own worker processes, beside ours;
waitress's loop already separates reading a request from running it, and lacked only limits.
"""

from __future__ import annotations

import resource
import signal
import time

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher


class _Channel(HTTPChannel):
    """A connection that remembers when the request it is reading began."""

    request_began: float | None = None

    def received(self, data):
        if self.request is None and data:
            self.request_began = time.time()
        accepted = super().received(data)
        if self.request is None:  # nothing partial left: the next request starts afresh
            self.request_began = None
        return accepted


class Terminated(Exception):
    """SIGTERM came: leave waitress's loop at a point of its own choosing, then drain."""


class _Server(TcpWSGIServer):
    channel_class = _Channel
    receive_timeout = 10.0
    stopping = False  # set by SIGTERM's handler; seen by readable() at the loop's next turn

    def readable(self):
        if self.stopping:
            raise Terminated  # out of the loop between two polls, never inside a read
        return super().readable()

    def maintenance(self, now):
        super().maintenance(now)  # idle connections: channel_timeout
        cutoff = now - self.receive_timeout
        for channel in list(self.active_channels.values()):
            began = getattr(channel, "request_began", None)
            if began is not None and began < cutoff and channel.request is not None:
                channel.will_close = True  # a request still not whole: slowloris


def raise_open_files(wanted: int) -> int:
    """Raise the soft limit of open files towards ``wanted`` (up to the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        soft = new
    return soft


def make_server(app, host: str, port: int, threads: int, config: dict, **options):
    """The waitress server for ``app`` with the front's limits from ``config`` (as waitress's
    ``create_server`` makes it, with our server class; several sockets for a name with
    several addresses)."""

    limit = int(config["CONNECTION_LIMIT"])
    # each connection is a descriptor; the workers' pipes, the store's files and logs need some
    raise_open_files(limit + 256)
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        connection_limit=limit,
        channel_timeout=int(config["CHANNEL_TIMEOUT"]),
        cleanup_interval=int(config["CLEANUP_INTERVAL"]),
        channel_request_lookahead=1,
        asyncore_use_poll=True,
        max_request_body_size=int(config["MAX_CONTENT_LENGTH"]),
        **options,
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    socket_map: dict = {}
    servers = []
    for sockinfo in adj.listen:
        server = _Server(app, socket_map, dispatcher=dispatcher, adj=adj, sockinfo=sockinfo)
        server.receive_timeout = float(config["RECEIVE_TIMEOUT"])
        servers.append(server)
    if len(servers) == 1:
        return servers[0]
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return MultiSocketServer(socket_map, adj, listening, dispatcher, servers[-1].log_info)


def serve_until_stopped(server, grace: float) -> bool:
    """Run ``server`` until Ctrl-C or SIGTERM. On SIGTERM stop accepting, let the requests in
    flight finish (their answers written out) for up to ``grace`` seconds, then return;
    whether it ended by SIGTERM. The caller then ends the query workers."""
    servers = _servers(server)

    def terminate(_signum, _frame):
        for each in servers:
            each.stopping = True
        servers[0].pull_trigger()  # wake the loop now rather than at its next timeout

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        server.run()  # returns on Ctrl-C (waitress catches KeyboardInterrupt)
        return False
    except Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM: the drain goes on
        _drain(server, servers, grace)
        return True
    finally:
        if signal.getsignal(signal.SIGTERM) is terminate:
            signal.signal(signal.SIGTERM, previous)


def _in_flight(channel) -> bool:
    """A request being answered, or an answer not yet sent (a request still arriving is not
    waited for: a slow client must not hold the stop)."""
    return isinstance(channel, HTTPChannel) and bool(channel.requests or channel.total_outbufs_len)


def _drain(server, servers, grace: float) -> None:

    socket_map = servers[0]._map
    for each in servers:
        # no new connection: the port refuses at once. Only the listening socket: waitress's
        # own close() also closes the trigger, which a request still running pulls when it
        # is done (an OSError traceback in the log, CI 2026-12-02)
        wasyncore.dispatcher.close(each)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(_in_flight(c) for c in list(socket_map.values())):
        wasyncore.loop(timeout=0.05, map=socket_map, use_poll=True, count=1)
    server.task_dispatcher.shutdown(timeout=1)
    for trigger in {id(each.trigger): each.trigger for each in servers}.values():
        trigger.close()  # every task has ended: none pulls it any more


def _servers(server) -> list:
    """The TCP servers behind what make_server returned (one, or several for many hosts)."""
    if isinstance(server, _Server):
        return [server]
    return [s for s in server.map.values() if isinstance(s, _Server)]
