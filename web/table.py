"""The served table: one Session, the REPL's command runner over it, the seats and their tokens,
and the feed of log entries every screen is shown.

A line from any screen runs as a line typed at the REPL's prompt (repl.commands.Repl), one at a
time (a lock), after rights.judge said this seat may run it. The session journals every command
before `run` returns, and so before the server answers or any stream is told: an answer a screen
shows as accepted is on disk. The feed is the game's log with the rolls beside it in their place
(repl.commands.with_rolls), then what the action that waits has shown so far; a player's view of it
leaves out the secret rolls.
"""

from __future__ import annotations

import io
import secrets
import threading
from dataclasses import dataclass, field

from rich.console import Console

import ruleset_engine as dusk
from ruleset_engine.i18n import _
from ruleset_engine.repl import render
from ruleset_engine.repl.commands import BUILTINS, Quit, Repl, chronicle_markdown, with_rolls
from ruleset_engine.repl.journal import SaveError

from . import views
from .rights import NOT_SERVED, PLAYER_COMMANDS, Forbidden, Refused, judge

GM = None        # the seat of the GM's token


def _same(given: str | None, token: str) -> bool:
    """A token given (any text a header or a cookie held) is this one, compared in constant time."""
    if not given or len(given) > 200:
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode("ascii"))


class TableRepl(Repl):
    """The REPL's runner, its refusals kept for the reply rather than only printed."""

    def error(self, message: str) -> None:
        super().error(message)
        self.refusals.append(message)


@dataclass
class Player:
    token: str
    seat: str


@dataclass
class Reply:
    """What one line did, for its screen (docs/serve.md: the command's reply)."""

    ok: bool
    refused: str | None
    output: str
    entries: list = field(default_factory=list)
    question: dict | None = None
    version: int = 0

    def to_json(self) -> dict:
        return {"ok": self.ok, "refused": self.refused, "output": self.output, "entries": self.entries,
                "question": self.question, "version": self.version}


class Table:
    """One game served to a GM and the players of its seats."""

    def __init__(self, session, reply=None, lang: str | None = None):
        self.out = io.StringIO()
        console = Console(file=self.out, highlight=False, no_color=True, force_terminal=False, width=100,
                          emoji=False, soft_wrap=True)
        self.repl = TableRepl(session, console, render.Style(lang=lang or "en"))
        self.repl.refusals = []
        if reply is not None:
            self.repl._after(reply)
        self.gm_token = secrets.token_urlsafe(32)
        self.join_key = secrets.token_urlsafe(32)
        self.players: dict[str, Player] = {}
        self.lock = threading.RLock()
        self.version = 0
        self.reset_version = 0           # the last version at which entries already shown changed
        self.texts: dict[int, tuple] = {}   # id(event) -> (event, undone, text): each entry rendered once
        self.notify = None               # called (from any thread) after every change: the server wakes its streams
        self.feed: list[dict] = self._events()   # the feed's events as they stood at the last version
        self._question_changed()
        self.out.truncate(0)
        self.out.seek(0)

    @property
    def session(self):
        return self.repl.session

    @property
    def lang(self) -> str:
        return self.repl.style.lang

    # ---- who
    def seat_of_token(self, token: str | None):
        """(True, seat) for a known token (seat None: the GM), (False, None) for any other."""
        if _same(token, self.gm_token):
            return True, GM
        for known, player in list(self.players.items()):
            if _same(token, known):
                return True, player.seat
        return False, None

    def is_join_key(self, token: str | None) -> bool:
        return _same(token, self.join_key)

    def seats(self) -> list[str]:
        game = self.session.game
        return dusk.seat_names(game.ruleset, game.values)

    def free_seats(self) -> list[str]:
        taken = {p.seat for p in self.players.values()}
        return [s for s in self.seats() if s not in taken]

    def take_seat(self, seat: str, by_gm: bool) -> Player | None:
        """A token for `seat` (a free one; the GM may give a taken one again: its old token stops), or
        None when no such seat is free."""
        with self.lock:
            found = next((s for s in self.seats() if s.casefold() == str(seat).casefold()), None)
            if found is None or (found not in self.free_seats() and not by_gm):
                return None
            for token, player in list(self.players.items()):
                if player.seat == found:
                    del self.players[token]
            player = Player(secrets.token_urlsafe(32), found)
            self.players[player.token] = player
            self._changed(reset=True)
            return player

    # ---- a line
    def run(self, seat: str | None, line: str) -> Reply:
        """Run one line as `seat` (None: the GM). Forbidden (403) when the seat may not; otherwise a
        Reply, refused or not. Every command the game took is journaled before this returns."""
        with self.lock:
            repl = self.repl
            try:
                line = judge(repl, seat, line)
            except Refused as why:
                return Reply(False, str(why), str(why), [], views.question(repl, seat), self.version)
            repl.refusals = []
            repl.seat = seat
            self.out.truncate(0)
            self.out.seek(0)
            try:
                repl.run_line(line)
            except Quit:          # judged out before it runs; kept as a refusal should it come
                repl.refusals.append(_("quit is not done at a served table"))
            except KeyboardInterrupt:
                repl.refusals.append(_("Interrupted: {command} stopped; the game is as after the last command "
                                       "saved.").format(command=line.strip()))
            finally:
                repl.seat = None
            try:
                # The answers of an action under way are saved too, before the screen is told they were taken.
                self.session.save_waiting()
            except SaveError as err:
                repl.error(str(err))
            output = self.out.getvalue().rstrip("\n")
            entries = [e for e in self._changed() if self._visible(e, seat)]
            refused = repl.refusals[-1] if repl.refusals else None
            return Reply(refused is None, refused, output, entries, views.question(repl, seat), self.version)

    # ---- the feed
    def _events(self) -> list[dict]:
        game = self.session.game
        return list(with_rolls(game.log + game.waiting_events, self.session.rolls))

    def _changed(self, reset: bool = False) -> list:
        """After a command: the new version, the entries that are new (all shown entries as they were
        and more: else a reset, which the streams say as reload); the streams are woken."""
        events = self._events()
        old = self.feed
        prefix = len(old) <= len(events) and all(
            a is b or (a.get("kind") == b.get("kind") and a.get("undone") == b.get("undone")
                       and self._text(a) == self._text(b)) for a, b in zip(old, events))
        changed = reset or not prefix or len(events) != len(old) or self._question_changed()
        self.feed = events
        new = [] if not prefix else [self._entry(i) for i in range(len(old), len(events))]
        if changed:
            self.version += 1
            if reset or not prefix:
                self.reset_version = self.version
            if self.notify is not None:
                self.notify()
        return [e for e in new if e is not None]

    def _question_changed(self) -> bool:
        key = (id(self.repl.decision), len(self.session.pending_requests()), self.repl.status())
        same = key == getattr(self, "_last_key", None)
        self._last_key = key
        return not same

    def _text(self, event: dict) -> str:
        held = self.texts.get(id(event))
        if held is not None and held[0] is event and held[1] == bool(event.get("undone")):
            return held[2]
        repl = self.repl
        shown = render.event(event, repl.style, repl.innermost, repl.level_labels)
        text = views.plain(shown) if shown is not None else None
        self.texts[id(event)] = (event, bool(event.get("undone")), text)
        return text

    def _entry(self, i: int) -> dict | None:
        event = self.feed[i]
        text = self._text(event)
        return None if text is None else views.entry(i, event, text)

    @staticmethod
    def _visible(entry: dict, seat: str | None) -> bool:
        return seat is GM or not entry["secret"]

    def entries_since(self, seat: str | None, seq: int = -1) -> list:
        """The entries after `seq` this seat may see."""
        with self.lock:
            out = []
            for i in range(max(seq + 1, 0), len(self.feed)):
                item = self._entry(i)
                if item is not None and self._visible(item, seat):
                    out.append(item)
            return out

    # ---- what a seat sees
    def update(self, seat: str | None, seq: int, version: int) -> dict:
        """A stream's update for this seat: the entries after `seq`, the question, requests and status."""
        with self.lock:
            reload = version < self.reset_version
            return {"version": self.version, "entries": [] if reload else self.entries_since(seat, seq),
                    "question": views.question(self.repl, seat), "requests": self._requests(seat),
                    "status": self.repl.status(), "over": self.session.game.over, "reload": reload,
                    "last": len(self.feed) - 1}

    def _requests(self, seat: str | None) -> list:
        return [views.request(r, seat) for r in self.session.pending_requests(seat)]

    def state(self, seat: str | None) -> dict:
        with self.lock:
            game = self.session.game
            ruleset = game.ruleset
            group = ruleset.seats
            label = ruleset.entities[group].label if group else None
            taken = {p.seat for p in self.players.values()}
            return {
                "version": self.version,
                "ruleset": {"id": ruleset.id, "title": dusk.as_text(ruleset.title, self.lang)},
                "lang": self.lang,
                "me": {"role": "gm" if seat is GM else "player", "seat": seat},
                "status": self.repl.status(),
                "over": game.over,
                "result": game.result,
                "dice": "manual" if game.manual_dice else "auto",
                "seats": {"group": group, "label": dusk.as_text(label, self.lang) if label else group,
                          "list": [{"name": s, "taken": s in taken} for s in self.seats()]},
                "log": self.entries_since(seat),
                "last": len(self.feed) - 1,
                "question": views.question(self.repl, seat),
                "requests": self._requests(seat),
                "sheet": views.sheet(game, seat, self.lang) if seat is not GM else None,
                "sheets": [views.sheet(game, s, self.lang) for s in self.seats()] if seat is GM else None,
                "actions": views.actions(self.repl, seat),
                "tables": views.tables(self.repl) if seat is GM else None,      # the GM's picker
                "commands": sorted(PLAYER_COMMANDS) if seat is not GM else sorted(set(BUILTINS) - NOT_SERVED),
            }

    def export(self) -> str:
        """The chronicle as Markdown (the REPL's export), secret rolls marked."""
        with self.lock:
            return chronicle_markdown(self.repl)

