"""The schema as one list of migrations, each written for SQLite and for PostgreSQL.

Entry ``i`` of :data:`MIGRATIONS` brings a database from version ``i`` to ``i + 1``; both stores
run the missing ones in order when they open a database (and ``hexhall migrate`` does), each
in one transaction.  SQLite counts them in ``PRAGMA user_version``, PostgreSQL in the table
``schema_version``.  Never edit a released entry: append one with both dialects.

Entry 0 is the schema of issue 8/9 exactly as ``bot/store.py`` released it, so databases made
by that store upgrade in place.  PostgreSQL arrived with schema 6: its entry 5 creates that
whole schema at once and its entries 0 to 4 are empty (no PostgreSQL database ever had them).

The PostgreSQL tables keep SQLite's column types as far as the store reads them: times are
the same sortable UTC text, options and snapshots the same JSON text, flags the same 0/1
integers, so both stores share every query and every row reader (:mod:`bot.storage.sql`).

>>> [bool(m.postgres) for m in MIGRATIONS[:6]]
[False, False, False, False, False, True]
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Migration"]


@dataclass(frozen=True)
class Migration:
    """One schema step in both dialects (``postgres`` empty: nothing to do there)."""

    sqlite: str
    postgres: str


_SQLITE: tuple[str, ...] = (
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        -- settings (issue 9 reads and writes them)
        dm_enabled INTEGER NOT NULL DEFAULT 1,
        reminders_enabled INTEGER NOT NULL DEFAULT 1,
        quiet_start INTEGER,            -- minutes after local midnight, NULL = no quiet hours
        quiet_end INTEGER,
        utc_offset_min INTEGER NOT NULL DEFAULT 0,
        vacation_days_used INTEGER NOT NULL DEFAULT 0,
        vacation_year INTEGER,
        away_until TEXT,
        UNIQUE (platform, user_id)
    );
    CREATE INDEX players_name ON players (platform, name COLLATE NOCASE);

    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,          -- JSON object of resolved options
        seat0 INTEGER NOT NULL REFERENCES players (id),
        seat1 INTEGER NOT NULL REFERENCES players (id),
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        status TEXT NOT NULL,           -- active | finished | aborted | corrupt
        ply INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0,
        to_move INTEGER,                -- seat to move, NULL once over
        snapshot TEXT NOT NULL,         -- JSON of Position.to_dict() after the last move
        winner INTEGER,                 -- seat, NULL for a draw or no result
        result TEXT,                    -- win | draw | none (aborted)
        reason TEXT,                    -- connection, resignation, timeout, agreement, ...
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT,
        time_per_move REAL,             -- days, NULL = no clock
        turn_started_at TEXT,           -- when the player to move got the move (clock start)
        deadline_at TEXT,
        reminder_sent_for_ply INTEGER,
        draw_offer_by INTEGER,          -- seat or NULL
        takeback_by INTEGER,            -- seat or NULL
        rematch_of INTEGER REFERENCES games (id),
        challenge_id INTEGER,
        corrupt_reason TEXT,
        last_move TEXT,                 -- the move that made this ply (moves has them all)
        last_seat INTEGER,
        pending_notes TEXT              -- JSON notes, moved to notifications by a trigger
    );
    CREATE INDEX games_seat0 ON games (seat0, status);
    CREATE INDEX games_seat1 ON games (seat1, status);
    CREATE INDEX games_deadline ON games (status, deadline_at);

    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,           -- ply before the move (0 for the first)
        move TEXT NOT NULL,
        seat INTEGER NOT NULL,
        played_at TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );

    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        challenger INTEGER NOT NULL REFERENCES players (id),
        target INTEGER REFERENCES players (id),  -- NULL = open challenge
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        first TEXT NOT NULL,            -- me | them | random (who takes seat 0)
        time_per_move REAL,
        status TEXT NOT NULL,           -- pending | accepted | declined | cancelled | expired
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        closed_at TEXT,
        game_id INTEGER REFERENCES games (id),
        rematch_of INTEGER REFERENCES games (id)
    );
    CREATE INDEX challenges_pending ON challenges (status, expires_at);

    CREATE TABLE notifications (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        user_id TEXT NOT NULL,
        player_id INTEGER REFERENCES players (id),
        kind TEXT NOT NULL,             -- challenge | your_turn | game_over | ... (issue 9 adds)
        game_id INTEGER,
        challenge_id INTEGER,
        chat_id TEXT,                   -- the game's chat (when direct messages are off)
        text TEXT NOT NULL,
        created_at TEXT NOT NULL,
        deliver_after TEXT NOT NULL,
        sent_at TEXT,
        dedupe TEXT UNIQUE              -- e.g. your_turn:<game>:<ply>: at most one such event
    );

    CREATE TABLE away_spans (           -- vacations (issue 9): clocks pause inside them
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players (id),
        start_at TEXT NOT NULL,
        end_at TEXT NOT NULL
    );
    CREATE INDEX away_spans_player ON away_spans (player_id, end_at);
    CREATE INDEX notifications_due ON notifications (platform, sent_at, deliver_after);

    -- A move is ONE statement (UPDATE games ...): these triggers append the move and move the
    -- notes into the outbox inside it, so it is atomic without BEGIN/COMMIT and costs one trip
    -- to the database thread instead of five.  (PostgreSQL: one statement of data-modifying
    -- CTEs does the same.)
    CREATE TRIGGER games_append_move AFTER UPDATE OF ply ON games
    WHEN NEW.ply = OLD.ply + 1 AND NEW.last_move IS NOT NULL
    BEGIN
        INSERT INTO moves (game_id, ply, move, seat, played_at)
        VALUES (NEW.id, OLD.ply, NEW.last_move, NEW.last_seat, NEW.updated_at);
    END;
    CREATE TRIGGER games_emit_notes AFTER UPDATE OF pending_notes ON games
    WHEN NEW.pending_notes IS NOT NULL
    BEGIN
        INSERT OR IGNORE INTO notifications (platform, user_id, player_id, kind, game_id,
            challenge_id, chat_id, text, created_at, deliver_after, dedupe)
        SELECT json_extract(value, '$.platform'), json_extract(value, '$.user_id'),
            json_extract(value, '$.player_id'), json_extract(value, '$.kind'),
            json_extract(value, '$.game_id'), json_extract(value, '$.challenge_id'),
            json_extract(value, '$.chat_id'), json_extract(value, '$.text'),
            json_extract(value, '$.created_at'), json_extract(value, '$.deliver_after'),
            json_extract(value, '$.dedupe')
        FROM json_each(NEW.pending_notes);
        UPDATE games SET pending_notes = NULL WHERE id = NEW.id;
    END;
    """,
    # 1 -> 2 (issue 12): no triggers (a move is one explicit transaction), structured
    # notifications with delivery leases, indexes for the queries every command runs, and no
    # columns or indexes that nothing reads.
    """
    DROP TRIGGER games_append_move;
    DROP TRIGGER games_emit_notes;
    DROP INDEX games_seat0;
    DROP INDEX games_seat1;
    DROP INDEX games_deadline;
    DROP INDEX challenges_pending;
    DROP INDEX notifications_due;
    DROP INDEX players_name;
    ALTER TABLE games DROP COLUMN pending_notes;
    ALTER TABLE games DROP COLUMN last_move;
    ALTER TABLE games DROP COLUMN last_seat;
    ALTER TABLE games DROP COLUMN turn_started_at;
    ALTER TABLE players DROP COLUMN vacation_days_used;
    ALTER TABLE players DROP COLUMN vacation_year;

    -- A player's games by seat and status: "my active games" is an index lookup per seat.
    CREATE INDEX games_seat0 ON games (seat0, status);
    CREATE INDEX games_seat1 ON games (seat1, status);
    -- The sweeper's "active games due by then": only active games are in it.
    CREATE INDEX games_deadline ON games (deadline_at) WHERE status = 'active';
    CREATE INDEX challenges_challenger ON challenges (challenger) WHERE status = 'pending';
    CREATE INDEX challenges_target ON challenges (target) WHERE status = 'pending';
    CREATE INDEX challenges_open ON challenges (platform, chat_id)
        WHERE status = 'pending' AND target IS NULL;
    CREATE INDEX challenges_expiry ON challenges (expires_at) WHERE status = 'pending';
    CREATE INDEX challenges_rematch ON challenges (rematch_of) WHERE rematch_of IS NOT NULL;

    CREATE TABLE notifications_v2 (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,         -- the recipient: platform, user id, display name
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        player_id INTEGER REFERENCES players (id),
        chat_id TEXT,                   -- the game's chat (on the recipient's platform)
        kind TEXT NOT NULL,             -- bot.delivery.notify.Kind
        game_id INTEGER,
        challenge_id INTEGER,
        ply INTEGER,                    -- the ply a "your turn" or reminder is about
        text TEXT NOT NULL,             -- bot.messages.Text.to_json()
        actions TEXT NOT NULL,          -- JSON [[label, action id], ...]
        direct INTEGER NOT NULL,        -- 1: as a direct message; 0: in the chat
        created_at TEXT NOT NULL,
        deliver_after TEXT NOT NULL,
        dedupe TEXT UNIQUE,             -- a second notification with this key is not added
        attempts INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,               -- the outbox worker delivering it ...
        lease_until TEXT,               -- ... until then (after that another may take it)
        done_at TEXT,                   -- NULL while it is to be delivered
        outcome TEXT,                   -- sent | obsolete | failed
        last_error TEXT
    );
    INSERT INTO notifications_v2 (id, platform, user_id, name, player_id, chat_id, kind,
        game_id, challenge_id, ply, text, actions, direct, created_at, deliver_after, dedupe,
        done_at, outcome)
    SELECT n.id, n.platform, n.user_id, COALESCE(p.name, n.user_id), n.player_id, n.chat_id,
        n.kind, n.game_id, n.challenge_id,
        CASE WHEN n.kind IN ('your_turn', 'reminder') AND n.game_id IS NOT NULL
            AND n.dedupe LIKE n.kind || ':' || n.game_id || ':%'
        THEN CAST(substr(n.dedupe, length(n.kind || ':' || n.game_id || ':') + 1) AS INTEGER)
        END,
        json_array(n.text),
        CASE WHEN n.kind = 'challenge' AND n.challenge_id IS NOT NULL
        THEN json_array(json_array('Accept', 'acc:' || n.challenge_id),
                        json_array('Decline', 'dec:' || n.challenge_id))
        ELSE '[]' END,
        COALESCE(p.dm_enabled, 1), n.created_at, n.deliver_after,
        CASE WHEN n.dedupe LIKE '%:undone:%' THEN NULL ELSE n.dedupe END,
        CASE WHEN n.sent_at IS NOT NULL THEN n.sent_at
             WHEN n.dedupe LIKE '%:undone:%' THEN n.created_at END,
        CASE WHEN n.sent_at IS NOT NULL THEN 'sent'
             WHEN n.dedupe LIKE '%:undone:%' THEN 'obsolete' END
    FROM notifications n LEFT JOIN players p ON p.id = n.player_id;
    DROP TABLE notifications;
    ALTER TABLE notifications_v2 RENAME TO notifications;
    -- Due notifications of a platform, oldest first (what outbox workers claim).
    CREATE INDEX notifications_due ON notifications (platform, deliver_after)
        WHERE done_at IS NULL;
    -- Undelivered notifications of a game (cancelled when a change makes them obsolete).
    CREATE INDEX notifications_game ON notifications (game_id) WHERE done_at IS NULL;
    -- Delivered ones by age (pruned after 30 days).
    CREATE INDEX notifications_done ON notifications (done_at) WHERE done_at IS NOT NULL;
    ANALYZE;
    """,
    # 2 -> 3 (issue 18): ratings.  A rating per (player, pool) with its shown value, so a
    # leaderboard is a walk down an index; each rated game's before/after per seat (the stats
    # chart); who played rated games in which community (server or group); the rated flag and
    # community of challenges and games, and where a game came from (only games from a
    # challenge are rated: imported ones, stored before this without a challenge, never).
    """
    ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE challenges ADD COLUMN community TEXT;
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE games ADD COLUMN origin TEXT NOT NULL DEFAULT 'challenge';
    ALTER TABLE games ADD COLUMN community TEXT;
    UPDATE games SET origin = 'imported' WHERE challenge_id IS NULL;
    UPDATE games SET community = chat_id;
    UPDATE challenges SET community = chat_id;

    CREATE TABLE ratings (
        player INTEGER NOT NULL REFERENCES players (id),
        pool TEXT NOT NULL,             -- bot.ratings.Pool key
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,         -- rated games it rests on
        value INTEGER NOT NULL,         -- the shown number (bot.ratings.Rating.value)
        updated_at TEXT NOT NULL,
        PRIMARY KEY (player, pool)
    ) WITHOUT ROWID;
    -- "leaderboard <game> all": the first rows of one pool in this index, nothing else read.
    CREATE INDEX ratings_board ON ratings (pool, value DESC, games DESC, player);

    CREATE TABLE rating_changes (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        player INTEGER NOT NULL REFERENCES players (id),
        pool TEXT NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        games_before INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        at TEXT NOT NULL,               -- the game's finish time
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    -- A player's rating history in a pool, oldest first (the stats chart).
    CREATE INDEX rating_changes_player ON rating_changes (player, pool, at, game_id);

    -- Who played a rated game in which community, with their current rating in the pool
    -- copied in, so "leaderboard <game>" is one index range too.
    CREATE TABLE rating_members (
        platform TEXT NOT NULL,
        community TEXT NOT NULL,        -- a group, a server (Discord guild), the console
        pool TEXT NOT NULL,
        player INTEGER NOT NULL REFERENCES players (id),
        value INTEGER NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (platform, community, pool, player)
    ) WITHOUT ROWID;
    CREATE INDEX rating_members_board
        ON rating_members (platform, community, pool, value DESC, games DESC, player);
    CREATE INDEX rating_members_player ON rating_members (player, pool);
    -- Finished games in finish order (a rebuild replays them).
    CREATE INDEX games_finished ON games (finished_at, id) WHERE status = 'finished';
    ANALYZE;
    """,
    # 3 -> 4 (issue 17): games against the bot.  ``bot_seat`` is the seat Hexhall itself plays
    # (NULL: a game between people), ``bot_level`` its level; the index lists the games that
    # wait for the bot's move (the sweep finds them again after a restart).
    """
    ALTER TABLE games ADD COLUMN bot_seat INTEGER;
    ALTER TABLE games ADD COLUMN bot_level TEXT;
    CREATE INDEX games_bot_turn ON games (id)
        WHERE status = 'active' AND bot_seat IS NOT NULL AND to_move = bot_seat;
    """,
    # 4 -> 5 (issue 15): the bot's own messages on the chat platforms (bot.storage.posts), so
    # a challenge card or an old board can be edited after a restart.
    """
    CREATE TABLE posts (
        platform TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        message_id TEXT NOT NULL,       -- the platform's id of the message, as text
        kind TEXT NOT NULL,             -- bot.storage.posts.PostKind: board | card
        game_id INTEGER REFERENCES games (id),
        challenge_id INTEGER REFERENCES challenges (id),
        live INTEGER NOT NULL DEFAULT 1, -- 1 while it has buttons that work
        created_at TEXT NOT NULL,
        PRIMARY KEY (platform, chat_id, message_id)
    );
    -- A game's live board(s), a challenge's card.
    CREATE INDEX posts_game ON posts (game_id, kind) WHERE game_id IS NOT NULL;
    CREATE INDEX posts_challenge ON posts (challenge_id) WHERE challenge_id IS NOT NULL;
    """,
    # 5 -> 6 (issue 15): a challenge to a player known only by their platform username
    # (Telegram gives bots no look-up by @username): ``target`` stays NULL until the person
    # with that username (lower case) accepts, and is then bound to their id.
    """
    ALTER TABLE challenges ADD COLUMN target_name TEXT;
    """,
)

# Schema 6 in PostgreSQL, table for table what SQLite has after its first six entries.
_POSTGRES_6 = """
CREATE TABLE players (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    dm_enabled INTEGER NOT NULL DEFAULT 1,
    reminders_enabled INTEGER NOT NULL DEFAULT 1,
    quiet_start INTEGER,
    quiet_end INTEGER,
    utc_offset_min INTEGER NOT NULL DEFAULT 0,
    away_until TEXT,
    UNIQUE (platform, user_id)
);
CREATE TABLE games (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seat0 BIGINT NOT NULL REFERENCES players (id),
    seat1 BIGINT NOT NULL REFERENCES players (id),
    platform TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    status TEXT NOT NULL,
    ply INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0,
    to_move INTEGER,
    snapshot TEXT NOT NULL,
    winner INTEGER,
    result TEXT,
    reason TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT,
    time_per_move DOUBLE PRECISION,
    deadline_at TEXT,
    reminder_sent_for_ply INTEGER,
    draw_offer_by INTEGER,
    takeback_by INTEGER,
    rematch_of BIGINT REFERENCES games (id),
    challenge_id BIGINT,
    corrupt_reason TEXT,
    rated INTEGER NOT NULL DEFAULT 1,
    origin TEXT NOT NULL DEFAULT 'challenge',
    community TEXT,
    bot_seat INTEGER,
    bot_level TEXT
);
CREATE INDEX games_seat0 ON games (seat0, status);
CREATE INDEX games_seat1 ON games (seat1, status);
CREATE INDEX games_deadline ON games (deadline_at) WHERE status = 'active';
CREATE INDEX games_finished ON games (finished_at, id) WHERE status = 'finished';
CREATE INDEX games_bot_turn ON games (id)
    WHERE status = 'active' AND bot_seat IS NOT NULL AND to_move = bot_seat;
CREATE TABLE moves (
    game_id BIGINT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    seat INTEGER NOT NULL,
    played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE challenges (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    challenger BIGINT NOT NULL REFERENCES players (id),
    target BIGINT REFERENCES players (id),
    platform TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    first TEXT NOT NULL,
    time_per_move DOUBLE PRECISION,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    closed_at TEXT,
    game_id BIGINT REFERENCES games (id),
    rematch_of BIGINT REFERENCES games (id),
    rated INTEGER NOT NULL DEFAULT 1,
    community TEXT,
    target_name TEXT
);
CREATE INDEX challenges_challenger ON challenges (challenger) WHERE status = 'pending';
CREATE INDEX challenges_target ON challenges (target) WHERE status = 'pending';
CREATE INDEX challenges_open ON challenges (platform, chat_id)
    WHERE status = 'pending' AND target IS NULL;
CREATE INDEX challenges_expiry ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_rematch ON challenges (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE TABLE away_spans (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    start_at TEXT NOT NULL,
    end_at TEXT NOT NULL
);
CREATE INDEX away_spans_player ON away_spans (player_id, end_at);
CREATE TABLE notifications (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    player_id BIGINT REFERENCES players (id),
    chat_id TEXT,
    kind TEXT NOT NULL,
    game_id BIGINT,
    challenge_id BIGINT,
    ply INTEGER,
    text TEXT NOT NULL,
    actions TEXT NOT NULL,
    direct INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    deliver_after TEXT NOT NULL,
    dedupe TEXT UNIQUE,
    attempts INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until TEXT,
    done_at TEXT,
    outcome TEXT,
    last_error TEXT
);
CREATE INDEX notifications_due ON notifications (platform, deliver_after) WHERE done_at IS NULL;
CREATE INDEX notifications_game ON notifications (game_id) WHERE done_at IS NULL;
CREATE INDEX notifications_done ON notifications (done_at) WHERE done_at IS NOT NULL;
CREATE TABLE ratings (
    player BIGINT NOT NULL REFERENCES players (id),
    pool TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    value INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (player, pool)
);
CREATE INDEX ratings_board ON ratings (pool, value DESC, games DESC, player);
CREATE TABLE rating_changes (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    player BIGINT NOT NULL REFERENCES players (id),
    pool TEXT NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    games_before INTEGER NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_player ON rating_changes (player, pool, at, game_id);
CREATE TABLE rating_members (
    platform TEXT NOT NULL,
    community TEXT NOT NULL,
    pool TEXT NOT NULL,
    player BIGINT NOT NULL REFERENCES players (id),
    value INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (platform, community, pool, player)
);
CREATE INDEX rating_members_board
    ON rating_members (platform, community, pool, value DESC, games DESC, player);
CREATE INDEX rating_members_player ON rating_members (player, pool);
CREATE TABLE posts (
    platform TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    game_id BIGINT REFERENCES games (id),
    challenge_id BIGINT REFERENCES challenges (id),
    live INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    PRIMARY KEY (platform, chat_id, message_id)
);
CREATE INDEX posts_game ON posts (game_id, kind) WHERE game_id IS NOT NULL;
CREATE INDEX posts_challenge ON posts (challenge_id) WHERE challenge_id IS NOT NULL;
"""

# 6 -> 7 (issue 19): leases on shared chores (the clock sweep), so that of several bot
# processes on one database one does each round, and another takes over when its lease ends.
_LEASES = """
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    until TEXT NOT NULL
);
"""

# 7 -> 8 (issue 19): each active game's next alarm (bot.deadlines.alarm_at), indexed, so the
# clock sweep reads the games with work due, not every game with a deadline in the next day.
# '' (before every time) marks the games from before: the store works their alarm out once.
_ALARMS = """
ALTER TABLE games ADD COLUMN alarm_at TEXT;
CREATE INDEX games_alarm ON games (alarm_at) WHERE status = 'active';
UPDATE games SET alarm_at = '' WHERE status = 'active' AND deadline_at IS NOT NULL;
"""

# 8 -> 9 (issue 29): round-robin tournaments in a chat.  ``tournaments`` holds each one and its
# status (open for sign-up, running, finished, cancelled: the conditional updates of its status
# make the sweep start and end each once), ``tournament_players`` who signed up (their group,
# rating at the start, withdrawal and final place), ``tournament_games`` which games are the
# tournament's (an aborted game's one replay names it in ``replay_of``).  ``swept`` is the
# fingerprint of its games when the sweep last looked at them all (see
# bot.storage.sql_tournaments.SqlTournaments.tournament_fingerprint).
_TOURNAMENTS = """
CREATE TABLE tournaments (
    id {id},
    platform TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    community TEXT NOT NULL,
    creator {ref} NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    time_per_move {real},
    rounds INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    max_players INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    starts_by TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    standings_at TEXT,
    swept INTEGER
);
CREATE INDEX tournaments_chat ON tournaments (platform, chat_id, id);
CREATE INDEX tournaments_live ON tournaments (status) WHERE status IN ('open', 'running');
CREATE TABLE tournament_players (
    tournament_id {ref} NOT NULL REFERENCES tournaments (id),
    player_id {ref} NOT NULL REFERENCES players (id),
    joined_at TEXT NOT NULL,
    rating INTEGER NOT NULL DEFAULT 0,
    grp INTEGER,
    withdrawn_at TEXT,
    withdrawn_why TEXT,
    place INTEGER,
    PRIMARY KEY (tournament_id, player_id)
);
CREATE INDEX tournament_players_player ON tournament_players (player_id);
CREATE TABLE tournament_games (
    game_id {ref} PRIMARY KEY REFERENCES games (id),
    tournament_id {ref} NOT NULL REFERENCES tournaments (id),
    grp INTEGER NOT NULL,
    leg INTEGER NOT NULL,
    replay_of {ref} UNIQUE REFERENCES games (id)
);
CREATE INDEX tournament_games_tournament ON tournament_games (tournament_id);
"""
_TOURNAMENTS_SQLITE = _TOURNAMENTS.format(id="INTEGER PRIMARY KEY", ref="INTEGER", real="REAL")
_TOURNAMENTS_POSTGRES = _TOURNAMENTS.format(
    id="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", ref="BIGINT", real="DOUBLE PRECISION"
)

# 9 -> 10 (issue 28): each game's web page address, an unguessable slug, and how many pages
# of it each bot process has open (its spectator count, kept while ``until`` is ahead)
# (bot.storage.sql_web).
_WEB_LINKS = """
CREATE TABLE web_links (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    slug TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE web_watchers (
    game_id BIGINT NOT NULL REFERENCES games (id),
    worker TEXT NOT NULL,
    watchers INTEGER NOT NULL,
    until TEXT NOT NULL,
    PRIMARY KEY (game_id, worker)
);
"""

# 10 -> 11 (issue 24): when the platform last refused a direct message to a player (a Telegram
# user who never started the bot, closed Discord DMs): none is tried again until the player
# starts the bot or turns direct messages on again.
_DM_REFUSED = """
ALTER TABLE players ADD COLUMN dm_refused_at TEXT;
"""

# 11 -> 12 (issue 27): ratings count games of their own community only.  A rating is per
# (player, platform, community, pool): ``rating_members`` (who played rated games where, with a
# copy of their one rating) is gone, a community's leaderboard walks ``ratings_board``, and each
# rating change names the community of its game.  Existing rows: a migration is SQL only (no
# openskill here), so each player's former rating is given to every community they played a rated
# game in (``rating_members`` says which): no number players were shown changes or is lost;
# ``hexhall ratings rebuild`` recomputes each community's ratings from its own games in order.
_COMMUNITY_RATINGS = """
ALTER TABLE ratings RENAME TO ratings_global;
CREATE TABLE ratings (
    platform TEXT NOT NULL,
    community TEXT NOT NULL,        -- a group, a server (Discord guild), a direct chat, the console
    pool TEXT NOT NULL,             -- bot.ratings.Pool key
    player {ref} NOT NULL REFERENCES players (id),
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    games INTEGER NOT NULL,         -- rated games it rests on
    value INTEGER NOT NULL,         -- the shown number (bot.ratings.Rating.value)
    updated_at TEXT NOT NULL,
    PRIMARY KEY (player, platform, community, pool)
){rowid};
INSERT INTO ratings (platform, community, pool, player, mu, sigma, games, value, updated_at)
    SELECT m.platform, m.community, m.pool, m.player, r.mu, r.sigma, r.games, r.value,
        r.updated_at
    FROM rating_members m JOIN ratings_global r ON r.player = m.player AND r.pool = m.pool;
DROP TABLE ratings_global;
DROP TABLE rating_members;
-- "leaderboard <game>": the first rows of one community's pool in this index, nothing else read.
CREATE INDEX ratings_board ON ratings (platform, community, pool, value DESC, games DESC, player);
-- "leaderboard <game> all": the best ratings of the pool in every community.
CREATE INDEX ratings_pool ON ratings (pool, value DESC, games DESC, player);
ALTER TABLE rating_changes ADD COLUMN platform TEXT NOT NULL DEFAULT '';
ALTER TABLE rating_changes ADD COLUMN community TEXT NOT NULL DEFAULT '';
UPDATE rating_changes SET
    platform = (SELECT g.platform FROM games g WHERE g.id = rating_changes.game_id),
    community = (SELECT COALESCE(g.community, g.chat_id) FROM games g
        WHERE g.id = rating_changes.game_id);
DROP INDEX rating_changes_player;
-- A player's rating history in one community's pool, oldest first (the stats chart).
CREATE INDEX rating_changes_player
    ON rating_changes (player, platform, community, pool, at, game_id);
"""
_COMMUNITY_RATINGS_SQLITE = _COMMUNITY_RATINGS.format(
    ref="INTEGER", real="REAL", rowid=" WITHOUT ROWID"
)
_COMMUNITY_RATINGS_POSTGRES = _COMMUNITY_RATINGS.format(
    ref="BIGINT", real="DOUBLE PRECISION", rowid=""
)

# 12 -> 13 (issue 29): a remembered post may be a tournament's standings message (kind
# ``standings``), edited in place by the next day's update (bot.storage.posts).
_STANDINGS_POSTS = """
ALTER TABLE posts ADD COLUMN tournament_id BIGINT REFERENCES tournaments (id);
CREATE INDEX posts_tournament ON posts (tournament_id) WHERE tournament_id IS NOT NULL;
"""

# 13 -> 14 (issue 24): the bot's workers by an id of their own (bot.workers.worker_name), each
# with a heartbeat by the database's clock: one that stopped beating is gone, whatever host
# name or process id it had (containers share both).  ``ns`` says where ``pid`` means this
# process (bot.workers.namespace), so a dead one there is known at once.
_WORKERS = """
CREATE TABLE workers (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    ns TEXT NOT NULL,
    pid BIGINT NOT NULL,
    seen_at TEXT NOT NULL
);
"""

# 14 -> 15 (issue 46): conditional moves ("premoves"), each line a player prepared for a game
# during the opponent's turn, private to them until played (bot.storage.sql_premoves): ``ply``
# is the game's ply at which the line's next move (the opponent's) is due, ``line`` orders the
# game's lines (the first matching wins), ``moves`` is a JSON list, theirs then yours.  And
# each player's daily digest: its local time, and the last local day it went out (so a
# restart never sends a day's digest twice).
_PREMOVES = """
CREATE TABLE premoves (
    id {id},
    game_id {ref} NOT NULL REFERENCES games (id),
    player_id {ref} NOT NULL REFERENCES players (id),
    ply INTEGER NOT NULL,
    line INTEGER NOT NULL,
    moves TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX premoves_game ON premoves (game_id, ply, line);
CREATE TABLE digests (
    player_id {ref} PRIMARY KEY REFERENCES players (id),
    at_minute INTEGER NOT NULL,
    utc_offset INTEGER NOT NULL,
    last_day TEXT,
    due_at TEXT NOT NULL
);
CREATE INDEX digests_due ON digests (due_at);
"""
_PREMOVES_SQLITE = _PREMOVES.format(id="INTEGER PRIMARY KEY", ref="INTEGER")
_PREMOVES_POSTGRES = _PREMOVES.format(
    id="BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", ref="BIGINT"
)
# 15 -> 16 (issue 43): languages, one row per (platform, kind, key): a player's choice
# (``chosen``), what their platform last reported (``seen``), a chat's choice (``chat``)
# (bot.storage.sql_languages).
_LANGUAGES = """
CREATE TABLE languages (
    platform TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    code TEXT NOT NULL,
    PRIMARY KEY (platform, kind, key)
);
"""
# 16 -> 17 (issue 48): the active games with a deadline but no alarm (a row damaged by hand or
# by a tool), indexed (normally empty), so each clock sweep finds them and works their alarm
# out again from their deadline instead of never timing them out.
_ALARMS_MISSING = """
CREATE INDEX games_alarm_missing ON games (id)
    WHERE status = 'active' AND alarm_at IS NULL AND deadline_at IS NOT NULL;
"""

# 17 -> 18: how many conditional-move lines each game keeps (issue 46's ``premoves`` rows,
# maintained by every write of them: bot.storage.sql_premoves, bot.storage.premove_rows), so
# a move in a game without any reads and deletes none (the statement budget of a move).
_PREMOVE_COUNT = """
ALTER TABLE games ADD COLUMN premove_lines INTEGER NOT NULL DEFAULT 0;
UPDATE games SET premove_lines = (SELECT count(*) FROM premoves WHERE premoves.game_id = games.id);
"""

# 18 -> 19 (issue 49): the bot's rating per level and pool, where its measured rating
# (bot.level_ratings) has moved to with the games played against it (bot.storage.sql_standings:
# written in the transaction that ends such a game).  No row: the measured one stands.
_BOT_RATINGS = """
CREATE TABLE bot_ratings (
    pool TEXT NOT NULL,             -- bot.ratings.Pool key
    level TEXT NOT NULL,            -- engines.levels.Level value
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    games INTEGER NOT NULL,         -- the measured games and the games against players since
    value INTEGER NOT NULL,         -- the shown number (bot.ratings.Rating.value)
    updated_at TEXT NOT NULL,
    PRIMARY KEY (pool, level)
);
"""

MIGRATIONS: tuple[Migration, ...] = (
    *(Migration(sql, "") for sql in _SQLITE[:5]),
    Migration(_SQLITE[5], _POSTGRES_6),
    Migration(_LEASES, _LEASES),
    Migration(_ALARMS, _ALARMS),
    Migration(_TOURNAMENTS_SQLITE, _TOURNAMENTS_POSTGRES),
    Migration(_WEB_LINKS, _WEB_LINKS),
    Migration(_DM_REFUSED, _DM_REFUSED),
    Migration(_COMMUNITY_RATINGS_SQLITE, _COMMUNITY_RATINGS_POSTGRES),
    Migration(_STANDINGS_POSTS, _STANDINGS_POSTS),
    Migration(_WORKERS, _WORKERS),
    Migration(_PREMOVES_SQLITE, _PREMOVES_POSTGRES),
    Migration(_LANGUAGES, _LANGUAGES),
    Migration(_ALARMS_MISSING, _ALARMS_MISSING),
    Migration(_PREMOVE_COUNT, _PREMOVE_COUNT),
    Migration(_BOT_RATINGS.format(real="REAL"), _BOT_RATINGS.format(real="DOUBLE PRECISION")),
)

SCHEMA_VERSION = len(MIGRATIONS)
