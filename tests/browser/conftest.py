"""Fixtures of the browser tests: a table of servers and screens, each closed after its test (a
skip, or a failure under DUSK_REQUIRE_BROWSER=1, when the system has no Chromium)."""

from __future__ import annotations

import pytest

from .harness import Screen, browser_or_skip, serve


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

    def close(self):
        for screen in self.screens:
            screen.close()
        for server in self.servers:
            server.stop()


@pytest.fixture
def table(tmp_path):
    browser_or_skip()
    opened = Table(tmp_path)
    try:
        yield opened
    finally:
        opened.close()
