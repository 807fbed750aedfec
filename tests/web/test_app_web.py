"""The web board as ``hexhall run`` starts it (:func:`bot.app.web_board`): on with
``HEXHALL_WEB_ADDR``, boards then carry their page; off without it; an address it cannot
listen on is a one-line error."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import aiohttp
import pytest

from bot.app import AppError, opened, web_board
from bot.config import settings
from tests.fakes.base import free_port
from tests.web.kit import ADA, BO, TG_GROUP, new_game


async def test_on_and_off(tmp_path: Path) -> None:
    db = str(tmp_path / "h.db")
    address = f"127.0.0.1:{free_port()}"
    config = settings(
        {"HEXHALL_DB": db, "HEXHALL_WEB_ADDR": address, "HEXHALL_PUBLIC_URL": "https://h.example"}
    )
    async with opened(db) as manager, web_board(config, manager) as endpoint:
        assert endpoint is not None and manager.web_pages is not None
        gid = await new_game(manager, "pathagon", ADA, BO, TG_GROUP)
        board = await manager.games.board(ADA, TG_GROUP, gid)
        assert board.page is not None and board.page.startswith("https://h.example/g/")
        local = board.page.replace("https://h.example", f"http://127.0.0.1:{endpoint.port}")
        async with aiohttp.ClientSession() as http, http.get(local) as page:
            assert page.status == 200 and "Pathagon" in await page.text()
    assert manager.web_pages is None
    async with opened(db) as manager, web_board(settings({"HEXHALL_DB": db}), manager) as none:
        assert none is None
        assert (await manager.games.board(ADA, TG_GROUP, gid)).page is None


async def test_an_address_in_use_is_one_line(tmp_path: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    config = settings(
        {"HEXHALL_WEB_ADDR": f"127.0.0.1:{port}", "HEXHALL_PUBLIC_URL": "https://h.example"}
    )
    try:
        async with opened(str(tmp_path / "h.db")) as manager:
            with pytest.raises(AppError, match=f"cannot listen on 127.0.0.1:{port}"):
                async with web_board(config, manager):
                    pass
    finally:
        taken.close()


async def test_port_0_lets_the_system_pick_and_the_real_port_is_known_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = str(tmp_path / "h.db")
    config = settings(
        {
            "HEXHALL_DB": db,
            "HEXHALL_WEB_ADDR": "127.0.0.1:0",
            "HEXHALL_PUBLIC_URL": "https://h.example",
        }
    )
    assert config.web_addr is not None and config.web_addr.port == 0
    with caplog.at_level(logging.INFO, logger="bot.webboard"):
        async with opened(db) as manager, web_board(config, manager) as endpoint:
            assert endpoint is not None and endpoint.port > 0
            local = f"http://127.0.0.1:{endpoint.port}/g/nothing-here"
            async with aiohttp.ClientSession() as http, http.get(local) as page:
                assert page.status == 404  # it answers there: the real port
            assert f"port {endpoint.port}" in caplog.text
