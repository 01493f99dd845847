"""`dusk serve`: a game (new, or resumed) served to the GM's and the players' screens.

The session is opened as `dusk play` and `dusk resume` open it (repl.app.open_session: the same
file, lock and fingerprint), the socket is bound before anything is printed (a port in use is said
in words, and `--port 0` knows its port), then the links are printed at once, flushed, the GM's
first, each with its QR code, and uvicorn serves until Ctrl-C. The session is closed (its lock let
go) when the server stops; every command was saved as it was done.
"""

from __future__ import annotations

import socket
import sys

from ruleset_engine import i18n
from ruleset_engine.i18n import _
from ruleset_engine.repl.app import open_session
from ruleset_engine.repl.commands import PERSON_ERRORS, person_message

from .app import make_app
from .table import Table

EVERY_NETWORK = ("0.0.0.0", "::")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (OSError in words when the address cannot be had)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def link_host(host: str) -> str:
    """The host a link names: this computer's address on its network when serving every network
    (the address a phone on the same Wi-Fi reaches), else the host as given."""
    if host not in EVERY_NETWORK:
        return f"[{host}]" if ":" in host else host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))     # no packet is sent: it only picks the outgoing address
        return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def qr(text: str, out) -> None:
    """A QR code of `text` in the terminal (segno), for a phone's camera."""
    import segno

    segno.make(text, error="l").terminal(out=out, compact=True)


def announce(table: Table, host: str, port: int, out=None, codes: bool = True) -> tuple[str, str]:
    """Print the two links (the GM's first), each with its QR code, flushed; (gm link, join link)."""
    out = out or sys.stdout
    base = f"http://{link_host(host)}:{port}"
    gm = f"{base}/?seat={table.gm_token}"
    join = f"{base}/join?key={table.join_key}"
    session = table.session
    print(_("dusk serve: {ruleset}, saved in {path}").format(ruleset=session.game.ruleset.id,
                                                            path=session.journal.path), file=out)
    print(_("The GM's screen (keep this link to yourself): {link}").format(link=gm), file=out)
    if codes:
        qr(gm, out)
    print(_("The players' link (each takes a free seat): {link}").format(link=join), file=out)
    if codes:
        qr(join, out)
    if host in EVERY_NETWORK:
        print(_("Listening on every network this computer is on: phones on the same network can open the links, "
                "and so can anyone else there who has one (the links are the only lock)."), file=out)
    else:
        print(_("Only this computer can open the links (--host 0.0.0.0 lets phones on the same network in)."),
              file=out)
    print(_("Ctrl-C stops the server; every answer shown as accepted is saved."), file=out)
    out.flush()
    return gm, join


def run(args) -> int:
    """`dusk serve`; the exit status."""
    import uvicorn

    resuming = args.resume is not None
    opened = _Args(command="resume" if resuming else "play", path=args.resume or None, force=args.force,
                   dice=args.dice, save=args.save, ruleset=args.ruleset, set=args.set, seed=args.seed,
                   lang=args.lang, sheets=args.sheets)
    try:
        session, reply = open_session(opened, interactive=True)
    except PERSON_ERRORS as err:
        print(person_message(err), file=sys.stderr)
        return 2
    lang = args.lang or session.lang or (i18n.choose(None) if i18n.choose(None) != i18n.ENGLISH else None)
    i18n.set_language(lang)
    try:
        try:
            sock = bind(args.host, args.port)
        except OSError as err:
            print(_("cannot listen on {host}:{port}: {why}").format(host=args.host, port=args.port,
                                                                     why=err.strerror or err), file=sys.stderr)
            return 2
        table = Table(session, reply, lang)
        announce(table, args.host, sock.getsockname()[1])
        config = uvicorn.Config(make_app(table), log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=2)
        uvicorn.Server(config).run(sockets=[sock])
        return 0
    finally:
        session.close()


class _Args:
    """The arguments open_session reads, as `dusk play` and `dusk resume` give them."""

    def __init__(self, **values):
        self.__dict__.update(values)
