"""A table under load: `dusk serve` with a GM and 8 players, each posting a command every 200 ms and
holding the live stream, for 60 s against a local server.

The whole `dusk serve` process is started as a table starts it (`--port 0`, its links read from
what it prints), the 8 players take their seats through the join link, and the GM answers the
setup. Then each of the 9 screens posts `roll 1d6` (a public roll: every screen's stream carries
it) every 200 ms, from a client of its own, while all 9 hold `/api/events` open. Measured:

- latency: from the moment a command is posted to the moment each screen's stream delivers the
  entry it made (so 9 figures per command), p50, p95 and the worst;
- the commands answered, and any refused or failed (a 429 is counted, not retried);
- the server process's resident memory (VmRSS) when the load starts and when it ends.

Clients and server share the machine: the figures include the clients' own time, and the load
average is printed with them.

    .venv/bin/python benchmarks/serve_load.py [--seconds 60] [--players 8] [--every 0.2]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx

DUSK = str(Path(sys.executable).parent / "dusk")
LINK = re.compile(r"https?://\S+")
NAMES = ["Ana", "Beto", "Carla", "Dani", "Elena", "Fede", "Gabi", "Hugo"]


def start_server(folder: Path, players: int) -> tuple[subprocess.Popen, str, str]:
    """`dusk serve noche-de-los-vampiros` on a free port: the process, the GM's link, the join link."""
    env = dict(os.environ, DUSK_DATA_DIR=str(folder / "data"), PYTHONUNBUFFERED="1", NO_COLOR="1")
    process = subprocess.Popen([DUSK, "serve", "noche-de-los-vampiros", "--seed", "1", "--port", "0",
                                "--set", f"players={players}", "--save", str(folder / "load.dusk")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    links: list[str] = []
    printed = []
    deadline = time.monotonic() + 60
    while len(links) < 2 and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        printed.append(line)
        links += LINK.findall(line)
    if len(links) < 2:
        process.kill()
        raise SystemExit("dusk serve printed no two links:\n" + "".join(printed))
    # The rest of what it prints is drained, so that a full pipe never stops it.
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, links[0], links[1]


def token_of(link: str, key: str) -> str:
    return parse_qs(urlparse(link).query)[key][0]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def command(client: httpx.AsyncClient, token: str, line: str) -> dict:
    reply = await client.post("/api/command", json={"line": line}, headers={"Authorization": f"Bearer {token}"})
    reply.raise_for_status()
    return reply.json()


async def setup(client: httpx.AsyncClient, gm: str, players: int) -> None:
    """The GM answers the setup: how many characters, their names, and every other question with the
    ruleset's own answer (auto)."""
    state = (await client.get("/api/state", headers={"Authorization": f"Bearer {gm}"})).json()
    named = 0
    for _ in range(500):
        question = state.get("question")
        if question is None:
            return
        if question["kind"] == "number":
            line = str(players)
        elif question["kind"] == "text" and named < players and "name" in question.get("prompt", ""):
            line = NAMES[named]
            named += 1
        else:
            line = "auto"
        reply = await command(client, gm, line)
        state = {"question": reply.get("question")}
    raise SystemExit("the setup did not end after 500 answers")


async def take_seats(client: httpx.AsyncClient, join_key: str, players: int) -> list[tuple[str, str]]:
    """Each player takes a seat through the join link: (name, the seat's token)."""
    seats = []
    for name in NAMES[:players]:
        reply = await client.post("/api/join", json={"seat": name}, headers={"Authorization": f"Bearer {join_key}"})
        reply.raise_for_status()
        data = reply.json()
        token = data.get("token") or token_of(data["link"], "seat")
        seats.append((name, token))
    return seats


class Screen:
    """One screen's live stream: when each log entry (by seq) arrived."""

    def __init__(self, name: str, token: str):
        self.name = name
        self.token = token
        self.arrived: dict[int, float] = {}
        self.ready = asyncio.Event()

    async def follow(self, client: httpx.AsyncClient, stop: asyncio.Event) -> None:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
        async with client.stream("GET", "/api/events", headers=headers, timeout=None) as response:
            response.raise_for_status()
            self.ready.set()
            data: list[str] = []
            async for line in response.aiter_lines():
                if stop.is_set():
                    break
                if line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
                elif line == "" and data:
                    now = time.perf_counter()
                    update = json.loads("\n".join(data))
                    data = []
                    for entry in update.get("entries", []):
                        self.arrived.setdefault(entry["seq"], now)


async def poster(client: httpx.AsyncClient, token: str, every: float, until: float, sent: dict, tally: dict) -> None:
    """`roll 1d6` every `every` seconds until `until`: the seq of each entry made, with when it was posted."""
    next_at = time.perf_counter()
    while next_at < until:
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        next_at += every
        posted = time.perf_counter()
        try:
            reply = await client.post("/api/command", json={"line": "roll 1d6"},
                                      headers={"Authorization": f"Bearer {token}"})
        except httpx.HTTPError:
            tally["failed"] += 1
            continue
        if reply.status_code != 200:
            tally[f"http {reply.status_code}"] = tally.get(f"http {reply.status_code}", 0) + 1
            continue
        body = reply.json()
        if not body.get("ok"):
            tally["refused"] += 1
            continue
        tally["answered"] += 1
        for entry in body.get("entries", []):
            sent[entry["seq"]] = posted


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def main_async(args) -> None:
    with tempfile.TemporaryDirectory(prefix="dusk-load-") as folder:
        process, gm_link, join_link = start_server(Path(folder), args.players)
        base = re.match(r"https?://[^/]+", gm_link).group(0)
        gm = token_of(gm_link, "seat")
        join_key = token_of(join_link, "key")
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=100)
        try:
            async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
                await setup(client, gm, args.players)
                seats = await take_seats(client, join_key, args.players)
            screens = [Screen("GM", gm)] + [Screen(name, token) for name, token in seats]
            stop = asyncio.Event()
            # One client per screen, as each phone is one: its stream and its posts share it.
            clients = [httpx.AsyncClient(base_url=base, timeout=30, limits=limits) for _ in screens]
            streams = [asyncio.create_task(s.follow(c, stop)) for s, c in zip(screens, clients)]
            await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in screens)), 30)
            rss_start = rss_kib(process.pid)
            sent: dict[int, float] = {}
            tally = {"answered": 0, "refused": 0, "failed": 0}
            began = time.perf_counter()
            until = began + args.seconds
            await asyncio.gather(*(poster(c, s.token, args.every, until, sent, tally)
                                   for s, c in zip(screens, clients)))
            await asyncio.sleep(2.0)        # the last updates on their way
            rss_end = rss_kib(process.pid)
            stop.set()
            for task in streams:
                task.cancel()
            await asyncio.gather(*streams, return_exceptions=True)
            for c in clients:
                await c.aclose()
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
    latencies = []
    missing = 0
    for seq, posted in sent.items():
        for screen in screens:
            if seq in screen.arrived:
                latencies.append(screen.arrived[seq] - posted)
            else:
                missing += 1
    load1, load5, _ = os.getloadavg()
    print(f"serve_load: {datetime.date.today().isoformat()}, a GM and {args.players} players, "
          f"a command every {args.every * 1000:.0f} ms each, {args.seconds:g} s; load average {load1:.2f} (1 min), "
          f"{load5:.2f} (5 min), {os.cpu_count()} cores")
    print(f"  commands answered {tally['answered']} ({tally['answered'] / args.seconds:.1f}/s), refused "
          f"{tally['refused']}, failed {tally['failed']}"
          + "".join(f", {k} {v}" for k, v in tally.items() if k.startswith("http")))
    if latencies:
        print(f"  post to every screen's update: {len(latencies)} updates, p50 {percentile(latencies, 50) * 1000:.1f} ms, "
              f"p95 {percentile(latencies, 95) * 1000:.1f} ms, worst {max(latencies) * 1000:.1f} ms, "
              f"mean {statistics.fmean(latencies) * 1000:.1f} ms; never arrived {missing}")
    print(f"  server memory (RSS): {rss_start / 1024:.1f} MiB at the start, {rss_end / 1024:.1f} MiB at the end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--every", type=float, default=0.2)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
