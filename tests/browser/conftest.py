"""Fixtures of the browser tests: a table of servers and screens, each closed after its test (a
skip, or a failure under DUSK_REQUIRE_BROWSER=1, when the system has no Chromium)."""

from __future__ import annotations

import pytest

from .harness import ARTIFACTS, Screen, browser_or_skip, serve


class Table:
    """The servers and screens one test opened."""

    def __init__(self, folder):
        self.folder = folder
        self.servers = []
        self.screens = []

    def serve(self, *args):
        server = serve(*args, data_dir=self.folder / "data")
        self.servers.append(server)
        return server

    def screen(self, name: str) -> Screen:
        screen = Screen(name, self.folder / f"profile-{len(self.screens)}")
        self.screens.append(screen)
        return screen

    def close(self, test: str):
        # What each screen showed last, beside the screenshots: what a failing test saw.
        for screen in self.screens:
            try:
                text = screen.text("body")
            except Exception:  # noqa: BLE001 - a browser gone: nothing to keep
                text = ""
            folder = ARTIFACTS / test
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{screen.name}.txt").write_text(text, "utf-8")
            screen.close()
        for server in self.servers:
            server.stop()


@pytest.fixture
def table(tmp_path, request):
    browser_or_skip()
    opened = Table(tmp_path)
    try:
        yield opened
    finally:
        opened.close(request.node.name)
