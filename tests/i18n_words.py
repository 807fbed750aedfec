"""What the adapter tests look for in each language that ships (issue 43): a few words of each
sentence of the main flows, as its catalog says them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Words:
    """Fragments of the main flows' sentences in one language."""

    #: Telegram's ``/help`` (and the bot's description)
    help: str
    #: the challenge card ("... challenges ... to ...")
    challenge: str
    #: the buttons Accept and Move
    accept: str
    move: str
    #: the board after a move ("... played e5"), and whose turn it is ("... to move.")
    played: str
    to_move: str
    #: an illegal move's refusal, and a refusal in someone else's game
    illegal: str
    #: the list of one's games
    games: str
    #: the answer to ``settings chat-language`` by someone who may not
    not_admin: str


WORDS: dict[str, Words] = {
    "es": Words(
        help="Juega a juegos de hexágonos por correspondencia",
        challenge="desafía a",
        accept="Aceptar",
        move="Mover",
        played="jugó",
        to_move="Mueve",
        illegal="Jugada ilegal en la partida",
        games="contra",
        not_admin="Solo los gestores del servidor",
    ),
    "ja": Words(
        help="友だちとヘックス系のゲームを通信対局で",
        challenge="を申し込みました",
        accept="受ける",
        move="指す",
        played="を指しました",
        to_move="の番です",
        illegal="で反則の手です",
        games="対",
        not_admin="チャットの言語を変更できるのは",
    ),
    "de": Words(
        help="Spiele Hex-Spiele im Fernschach-Stil",
        challenge="fordert",
        accept="Annehmen",
        move="Ziehen",
        played="hat",
        to_move="ist am Zug",
        illegal="Illegaler Zug in",
        games="gegen",
        not_admin="Nur die Verwalter des Servers",
    ),
    "fr": Words(
        help="Jouez à des jeux hexagonaux par correspondance",
        challenge="défie",
        accept="Accepter",
        move="Jouer",
        played="a joué",
        to_move="Au tour de",
        illegal="Coup illégal dans la partie",
        games="contre",
        not_admin="Seuls les gestionnaires du serveur",
    ),
    "pt_BR": Words(
        help="Jogue jogos hexagonais por correspondência",
        challenge="desafia",
        accept="Aceitar",
        move="Jogar",
        played="jogou",
        to_move="Vez de",
        illegal="Lance ilegal na partida",
        games="contra",
        not_admin="Só os gestores do servidor",
    ),
}
