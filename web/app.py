"""The server's routes (docs/serve.md, API): the pages, the JSON face, the live stream, and their bounds.

Every route but the pages' files asks for a token (a Bearer header, or the cookie a page opened
with `?seat=` set) and says 401 the same way for every wrong or missing one, whether or not a game
is served: every API route asks `Server.admitted` first, which says who asks and spends their rate.
Bounds known in advance are refused before any work: a body past MAX_BODY (413, read no further), a
seat past its rate (429), streams past MAX_STREAMS (503). Nothing here touches the
file system but reading the pages' own files: the chronicle is made in memory (`/api/export`), the
session file is the Session's.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from importlib import resources

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from ruleset_engine.i18n import _

from . import words
from .rights import Forbidden
from .table import GM, Table

MAX_BODY = 16 * 1024            # bytes of a request's body
MAX_LINE = 10_000               # characters of a command line (the REPL's own LONGEST_COMMAND)
RATE = 20.0                     # requests a second a token may make, on average
BURST = 40                      # and at once
MAX_STREAMS = 64                # live streams at once
STREAMS_PER_TOKEN = 8
PING = 15.0                     # seconds between the keep-alive comments of a stream
SEAT_COOKIE = "dusk_seat"
JOIN_COOKIE = "dusk_join"

UNAUTHORIZED = {"error": "unauthorized"}
JOINING = object()          # who asks with the players' join key (no seat yet)


def _folder(name: str) -> str:
    return str(resources.files("ruleset_engine.web") / name)


@dataclass
class Bucket:
    """A token bucket: `rate` a second, `burst` at most."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Server:
    """The routes over one Table."""

    def __init__(self, table: Table, rate: float = RATE, burst: int = BURST, max_streams: int = MAX_STREAMS):
        self.table = table
        self.rate, self.burst, self.max_streams = rate, burst, max_streams
        self.buckets: dict[str, Bucket] = {}
        self.streams: dict[str, int] = {}
        self.wakers: set = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pages = Environment(loader=FileSystemLoader(_folder("templates")),
                                 autoescape=select_autoescape(default=True, default_for_string=True))
        table.notify = self._wake

    # ---- auth and bounds
    @staticmethod
    def token_of(request: Request, cookie: str = SEAT_COOKIE) -> str | None:
        header = request.headers.get("authorization", "")
        if header[:7].lower() == "bearer ":
            return header[7:].strip()
        return request.cookies.get(cookie)

    def limited(self, token: str) -> Response | None:
        bucket = self.buckets.get(token) or self.buckets.setdefault(token, Bucket(self.rate, self.burst, self.burst))
        if len(self.buckets) > 10_000:        # tokens never issued fill no memory: only known ones reach here
            self.buckets.clear()
        if not bucket.take():
            return JSONResponse({"error": "too many requests", "retry_after": 1}, 429, {"Retry-After": "1"})
        return None

    def admitted(self, request: Request, joining: bool = False):
        """Who asks: their seat (GM: the GM's), or JOINING (the players' join key, when `joining`), once
        their token is known and within its rate; else the Response refusing them (401, 429).

        A seat's token comes as a Bearer header or the page's seat cookie; a join, also as the join
        page's cookie (the GM's own page gives seats with its seat cookie)."""
        header = bool(request.headers.get("authorization"))
        tokens = [self.token_of(request)]
        if joining and not header:
            tokens.insert(0, request.cookies.get(JOIN_COOKIE))
        for token in tokens:
            if joining and self.table.is_join_key(token):
                who = JOINING
            else:
                known, who = self.table.seat_of_token(token)
                if not known:
                    continue
            refused = self.limited(token)
            return refused if refused is not None else who
        return JSONResponse(UNAUTHORIZED, 401)

    async def body(self, request: Request):
        """The JSON body, or a Response refusing it (415, 413, 400)."""
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return JSONResponse({"error": "the body must be application/json"}, 415)
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return JSONResponse({"error": "too large", "limit": MAX_BODY}, 413)
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                return JSONResponse({"error": "too large", "limit": MAX_BODY}, 413)
        try:
            parsed = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return JSONResponse({"error": "the body is not JSON"}, 400)
        if not isinstance(parsed, dict):
            return JSONResponse({"error": "the body is not a JSON object"}, 400)
        return parsed

    # ---- pages
    async def index(self, request: Request) -> Response:
        token = request.query_params.get("seat")
        if token is not None:
            known, _seat = self.table.seat_of_token(token)
            if not known:
                return self.page_401()
            response = RedirectResponse("/", 303)
            response.set_cookie(SEAT_COOKIE, token, httponly=True, samesite="strict", path="/")
            return response
        known, seat = self.table.seat_of_token(self.token_of(request))
        if not known:
            return self.page_401()
        return self.render("table.html", seat, "table")

    async def join(self, request: Request) -> Response:
        key = request.query_params.get("key")
        if key is not None:
            if not self.table.is_join_key(key):
                return self.page_401()
            response = RedirectResponse("/join", 303)
            response.set_cookie(JOIN_COOKIE, key, httponly=True, samesite="strict", path="/")
            return response
        if not self.table.is_join_key(request.cookies.get(JOIN_COOKIE)):
            return self.page_401()
        return self.render("join.html", None, "join")

    def render(self, name: str, seat, page: str) -> HTMLResponse:
        state = self.table.state(seat) if page == "table" else None
        html = self.pages.get_template(name).render(
            page=page, lang=self.table.lang, title=state["ruleset"]["title"] if state else self.table_title(),
            me=seat or (_("the GM") if page == "table" else ""), state=state, log=state["log"] if state else [],
            free=self.table.free_seats() if page == "join" else [],
            words=words.table_words() if page == "table" else words.join_words())    # the page's own words
        return HTMLResponse(html, headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                                           "Referrer-Policy": "no-referrer"})

    def table_title(self) -> str:
        from ruleset_engine import as_text

        return as_text(self.table.session.game.ruleset.title, self.table.lang)

    @staticmethod
    def page_401() -> Response:
        return PlainTextResponse("401: this link is not (or no longer) a seat at this table", 401)

    # ---- the JSON face
    async def api_state(self, request: Request) -> Response:
        seat = self.admitted(request)
        if isinstance(seat, Response):
            return seat
        return JSONResponse(await run_in_threadpool(self.table.state, seat))

    async def api_command(self, request: Request) -> Response:
        seat = self.admitted(request)
        if isinstance(seat, Response):
            return seat
        body = await self.body(request)
        if isinstance(body, Response):
            return body
        line = body.get("line")
        if not isinstance(line, str):
            return JSONResponse({"error": "the body is {\"line\": \"...\"}"}, 400)
        if len(line) > MAX_LINE or "\x00" in line:
            return JSONResponse({"error": "the line is too long, or holds a NUL", "limit": MAX_LINE}, 400)
        try:
            # The session's lock and journal are sync: the line runs in a worker thread, one at a time.
            reply = await run_in_threadpool(self.table.run, seat, line)
        except Forbidden as why:
            return JSONResponse({"error": "forbidden", "message": str(why)}, 403)
        return JSONResponse(reply.to_json())

    async def api_join(self, request: Request) -> Response:
        who = self.admitted(request, joining=True)
        if isinstance(who, Response):
            return who
        by_gm = who is GM
        if not by_gm and who is not JOINING:        # a player's token takes no other seat
            return JSONResponse(UNAUTHORIZED, 401)
        body = await self.body(request)
        if isinstance(body, Response):
            return body
        wanted = body.get("seat")
        if wanted is None:
            return JSONResponse({"free": self.table.free_seats(), "seats": self.table.seats()})
        if not isinstance(wanted, str) or len(wanted) > 200:
            return JSONResponse({"error": "seat is a name"}, 400)
        player = self.table.take_seat(wanted, by_gm)
        if player is None:
            return JSONResponse({"error": "taken", "message": _("{seat} is not a free seat").format(seat=wanted[:40]),
                                 "free": self.table.free_seats()}, 409)
        response = JSONResponse({"token": player.token, "seat": player.seat, "link": f"/?seat={player.token}"})
        if not by_gm:        # the joining page goes on as this seat
            response.set_cookie(SEAT_COOKIE, player.token, httponly=True, samesite="strict", path="/")
        return response

    async def api_export(self, request: Request) -> Response:
        seat = self.admitted(request)
        if isinstance(seat, Response):
            return seat
        if seat is not GM:
            return JSONResponse({"error": "forbidden", "message": _("only the GM downloads the chronicle")}, 403)
        text = await run_in_threadpool(self.table.export)
        name = f"{self.table.session.game.ruleset.id}-chronicle.md"
        return Response(text, media_type="text/markdown; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # ---- the live stream
    def _wake(self) -> None:
        loop = self.loop
        if loop is None:
            return
        for event in list(self.wakers):
            loop.call_soon_threadsafe(event.set)

    async def api_events(self, request: Request) -> Response:
        seat = self.admitted(request)
        if isinstance(seat, Response):
            return seat
        token = self.token_of(request)
        if sum(self.streams.values()) >= self.max_streams or self.streams.get(token, 0) >= STREAMS_PER_TOKEN:
            return JSONResponse({"error": "too many streams"}, 503, {"Retry-After": "5"})
        self.loop = asyncio.get_running_loop()
        # From the entry after `since` (the state's `last`), or after the stream's last id (a reconnect),
        # else from now on.
        given = request.query_params.get("since") or request.headers.get("last-event-id", "")
        since = int(given) if given.lstrip("-").isdigit() and len(given) < 12 else len(self.table.feed) - 1
        version = self.table.version
        wake = asyncio.Event()
        self.wakers.add(wake)
        self.streams[token] = self.streams.get(token, 0) + 1

        async def stream():
            nonlocal since, version
            try:
                first = True
                while True:
                    if first or wake.is_set():
                        wake.clear()
                        update = await run_in_threadpool(self.table.update, seat, since, version)
                        since, version = update.pop("last"), update["version"]
                        first = False
                        yield f"id: {since}\nevent: update\ndata: {json.dumps(update, ensure_ascii=False)}\n\n"
                    try:
                        await asyncio.wait_for(wake.wait(), PING)
                    except asyncio.TimeoutError:
                        yield ": ping\n\n"
                    if await request.is_disconnected():
                        break
            finally:
                self.wakers.discard(wake)
                self.streams[token] -= 1
                if not self.streams[token]:
                    del self.streams[token]

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def app(self) -> Starlette:
        routes = [
            Route("/", self.index),
            Route("/join", self.join),
            Route("/api/state", self.api_state),
            Route("/api/command", self.api_command, methods=["POST"]),
            Route("/api/join", self.api_join, methods=["POST"]),
            Route("/api/export", self.api_export),
            Route("/api/events", self.api_events),
            Mount("/static", StaticFiles(directory=_folder("static"), check_dir=False), name="static"),
        ]
        return Starlette(routes=routes)


def make_app(table: Table, **limits) -> Starlette:
    """The Starlette app serving `table` (`limits`: rate, burst, max_streams, for tests)."""
    return Server(table, **limits).app()
