"""Player names in every script the pictures must draw, by language code: two names each (one
per seat), as players of each language might call themselves, with a clock text in the same
language.  Shared by ``tests/render/test_scripts.py`` and ``docs/tools/names.py`` (which draws
``docs/img/names-<code>.png``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sample:
    """Two player names and a clock text in one script."""

    code: str
    script: str
    names: tuple[str, str]
    clock: str


SAMPLES: tuple[Sample, ...] = (
    Sample("ja", "Japanese", ("山田太郎", "さくら・ミク"), "残り2日4時間"),
    Sample("ko", "Korean", ("김민준", "이서연"), "2일 4시간 남음"),
    Sample("zh", "Chinese", ("王小明", "张伟"), "剩余2天4小时"),
    Sample("ar", "Arabic", ("محمد", "فاطمة"), "متبقي يومان"),
    Sample("he", "Hebrew", ("שרה", "יוסף כהן"), "נותרו יומיים"),
    Sample("ru", "Cyrillic", ("Дмитрий", "Анна"), "осталось 2 дня"),
    Sample("el", "Greek", ("Νίκος", "Ελένη"), "απομένουν 2 ημέρες"),
    Sample("emoji", "emoji", ("Ada 🎲🔥", "Grace ♟️🏆"), "⏰ 2 days 4 h left"),
)
