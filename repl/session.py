"""A session at the table: one game, its session file, and the free rolls beside it.

This is the REPL's link to the engine, with no prompt in it: the interactive loop and the
non-interactive mode both drive a Session, and each command gives back a Reply (what it did).
Every completed command is journaled before its result is shown, so what a person sees as done
is on disk. The engine is reached through its public face only (`import ruleset_engine as dusk`).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from pathlib import Path

import ruleset_engine as dusk

from .journal import Journal, new_session_path, remember_last


@dataclass
class Reply:
    """What one command did: the events to show, and the decision that waits, if one does."""

    events: list = field(default_factory=list)
    decision: object = None


class Session:
    """One game at the table and its session file."""

    def __init__(self, game: "dusk.Game", journal: Journal, source: str, free_rng: random.Random,
                 interactive: bool = False):
        self.game = game
        self.interactive = interactive     # played at the prompt: `dusk resume` without a path continues it
        self.journal = journal
        self.source = source
        self.free_rng = free_rng
        self.lang: str | None = journal.meta.get("lang")    # the language asked for at `dusk play`, if any
        self._log_mark = len(game.log)

    # ---- starting and resuming
    @classmethod
    def new(cls, source: str, params: dict | None = None, seed: int | None = None, save: Path | None = None,
            lang: str | None = None, interactive: bool = False) -> tuple["Session", Reply]:
        """A new game and its session file. Only an interactive session (a person at the prompt)
        becomes the one `dusk resume` continues; a script's, a pipe's or a test's does not."""
        ruleset = dusk.load(source)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        game = dusk.Game.start(ruleset, params, seed)
        path = save or new_session_path(ruleset.id)
        journal = Journal.create(Path(path), {"source": _stable_source(source), "ruleset": ruleset.id,
                                              "params": game.params, "seed": seed, "lang": lang,
                                              "interactive": interactive})
        free_rng = random.Random(f"{seed}/free")
        session = cls(game, journal, source, free_rng, interactive)
        session._log_mark = 0          # the first entry holds the setup's events too
        outcome = game.last_outcome
        if outcome.decision is None:
            session._commit("start", "start")
        if interactive:
            remember_last(journal.path)
        return session, Reply(list(outcome.events), outcome.decision)

    @classmethod
    def resume(cls, path: Path, interactive: bool = False) -> "Session":
        journal = Journal.open(path)
        meta = journal.meta
        ruleset = dusk.load(meta["source"])
        entries = journal.entries()
        log: list = []
        history: list = []
        previous = None
        for entry in entries:
            if entry.kind == "roll":      # a free roll: saved, but not part of the game
                continue
            if entry.kind == "action" and previous is not None:
                history.append((previous, len(log)))
            if entry.kind == "undo" and history:
                _, at = history.pop()
                for event in log[at:]:
                    event["undone"] = True
            log.extend(entry.events)
            previous = entry.game
        last = entries[-1]
        game = dusk.Game.resume(ruleset, params=meta["params"], seed=meta["seed"], core=last.game, log=log,
                                history=history)
        free_rng = random.Random()
        dusk.restore_dice_source(free_rng, last.free_rng)
        if interactive:
            remember_last(path)
        return cls(game, journal, meta["source"], free_rng, interactive)

    # ---- playing
    def _commit(self, kind: str, command: str) -> None:
        events = self.game.log[self._log_mark:]
        self.journal.append(kind, command, events, self.game.core(), dusk.dice_source_state(self.free_rng))
        self._log_mark = len(self.game.log)

    def perform(self, action: str, args: dict, command: str) -> Reply:
        outcome = self.game.perform(action, **args)
        if outcome.decision is None:
            self._commit("action", command)
        return Reply(list(outcome.events), outcome.decision)

    def answer(self, decision, value, command: str) -> Reply:
        return self._answered(lambda: self.game.answer(decision, value), command)

    def auto_answer(self, decision, command: str) -> Reply:
        return self._answered(lambda: self.game.auto_answer(decision), command)

    def _answered(self, answer, command: str) -> Reply:
        # The setup of a game may ask too; its entry is the session's start.
        kind = "start" if self.game.starting else "action"
        outcome = answer()
        if outcome.decision is None:
            self._commit(kind, command)
        return Reply(list(outcome.events), outcome.decision)

    def undo(self, command: str = "undo") -> None:
        if self.game.pending is not None:
            self.game.undo()     # drops the waiting decision; nothing was journaled for it
            return
        self.game.undo()         # GameError when there is nothing to undo
        self._log_mark = len(self.game.log) - 1
        self._commit("undo", command)

    def free_roll(self, text: str) -> "dusk.Result":
        """A roll beside the game, saved: it reads the game's names (state, entities, `params`, `loop`)
        from a copy of its values, and draws from its own dice source, so neither the game's dice nor
        its state change."""
        result = dusk.roll(text, rng=self.free_rng, env=copy.deepcopy(self.game.values))
        event = {"seq": None, "turn": self.game.turn, "kind": "free-roll", **result.to_json()}
        self.journal.append("roll", f"roll {text}", [event], self.game.core(), dusk.dice_source_state(self.free_rng))
        return result

    def loop_action(self) -> str | None:
        for name, action in self.game.ruleset.actions.items():
            if action.plays_level:
                return name
        return None

    def close(self) -> None:
        self.journal.close()


def _stable_source(source: str) -> str:
    """A ruleset source that still names the same file from another folder."""
    path = Path(source)
    if source.endswith((".yaml", ".yml")) or "/" in source:
        return str(path.resolve())
    return source

