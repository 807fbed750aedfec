"""Settings: ``.env`` read with python-dotenv, errors naming the line, tokens never shown."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import ConfigError, Secret, load_env, parse_env, settings


def test_tokens_never_show_in_repr_or_str(caplog: pytest.LogCaptureFixture) -> None:
    config = settings({"DISCORD_TOKEN": "d-s3cret-token", "TELEGRAM_TOKEN": "t-s3cret-token"})
    logging.getLogger("test").warning("settings %s %r", config, config)
    shown = [repr(config), str(config), repr(config.discord_token), f"{config.telegram_token}"]
    shown.append(caplog.text)
    for text in shown:
        assert "s3cret" not in text
    assert "'***'" in repr(config)
    assert config.discord_token.reveal() == "d-s3cret-token"
    assert config.telegram_token.reveal() == "t-s3cret-token"


def test_an_unset_token_is_false_and_a_set_one_true() -> None:
    config = settings({"DISCORD_TOKEN": "  ", "TELEGRAM_TOKEN": "abc"})
    assert not config.discord_token and config.telegram_token
    assert config.db_path == "hexhall.db"
    assert repr(Secret("")) == "Secret('')"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A=1\nTOKEN='abc\n", "line 2 has an unterminated quote"),
        ('# comment\n\nTOKEN="abc\nB=2\n', "line 3 has an unterminated quote"),
        ("A=1\nthis is not a setting\n", "line 2 is not KEY=VALUE"),
        ("A=1\n\nJUSTAKEY\n", "line 3 is not KEY=VALUE"),
    ],
)
def test_a_bad_line_is_an_error_naming_it(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_env(text)
    assert str(caught.value) == message


def test_an_unterminated_quote_never_becomes_part_of_a_token(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("HEXHALL_DB=x.db\nDISCORD_TOKEN='abc\nTELEGRAM_TOKEN=t\n", "utf-8")
    environ: dict[str, str] = {}
    with pytest.raises(ConfigError, match=r"\.env: line 2 has an unterminated quote"):
        load_env(env_file, environ)
    assert environ == {}


def test_values_keep_what_quotes_hold_and_do_not_override_the_environment(
    tmp_path: Path,
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "export A = 'x # y'\nB=plain # comment\nC=\"two\nlines\"\nD=from-file\nE=$HOME\n", "utf-8"
    )
    environ = {"D": "from-env"}
    assert load_env(env_file, environ) == ["A", "B", "C", "E"]
    assert environ == {"A": "x # y", "B": "plain", "C": "two\nlines", "D": "from-env", "E": "$HOME"}


def test_the_telegram_pace_is_telegrams_unless_a_test_scales_it() -> None:
    """``HEXHALL_TELEGRAM_PACE`` (tests only) scales the pacer's windows by a factor in (0, 1]."""
    assert settings({}).telegram_pace == 1.0
    assert settings({"HEXHALL_TELEGRAM_PACE": "0.25"}).telegram_pace == 0.25
    for bad in ("0", "-1", "2", "fast", "nan"):
        with pytest.raises(ConfigError, match="HEXHALL_TELEGRAM_PACE must be a number in"):
            settings({"HEXHALL_TELEGRAM_PACE": bad})
