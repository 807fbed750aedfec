// Hexhall's board inside Discord (a Discord Activity): signs the player in through the
// Embedded App SDK (discord-sdk.js: window.HexhallDiscord), then shows the board of their game
// in place: the game's own page, taken into this document, with board.js and the player's
// personal token, so the board plays exactly as the web board does.  Every request is a path
// of this origin (Discord's proxy maps it to the bot), under /.proxy when the page was served
// there by an older proxy.  No inline script: the page's Content-Security-Policy forbids it.
"use strict";
(() => {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const BASE = location.pathname.startsWith("/.proxy/") ? "/.proxy" : "";
  const launch = new URLSearchParams(location.search);
  const clientId = body.dataset.clientId;
  const boardJs = body.dataset.boardJs;
  const boardBoxJs = body.dataset.boardBoxJs;

  function say(text) {
    $("status").textContent = text || "";
  }

  // The SDK, or (tests only: the server sets data-mock) the SDK's own mock.  Outside Discord
  // the SDK cannot start (no frame_id, instance_id and platform in the address).
  function discordSdk() {
    const sdk = window.HexhallDiscord;
    if (body.dataset.mock === "1") {
      return new sdk.DiscordSDKMock(
        clientId, launch.get("guild_id"), launch.get("channel_id"), launch.get("location_id")
      );
    }
    return new sdk.DiscordSDK(clientId, { disableConsoleLogOverride: true });
  }

  // The player's games as links that reopen this page on another game (Discord's launch
  // parameters kept, so the SDK starts again).
  function listGames(title, games) {
    const nav = document.createElement("nav");
    nav.id = "games";
    nav.className = "games";
    const heading = document.createElement("h2");
    heading.textContent = title;
    const list = document.createElement("ul");
    for (const game of games) {
      const params = new URLSearchParams(launch);
      params.set("game", String(game.id));
      const link = document.createElement("a");
      link.href = location.pathname + "?" + params.toString();
      link.textContent = game.label;
      const item = document.createElement("li");
      item.appendChild(link);
      list.appendChild(item);
    }
    nav.append(heading, list);
    return nav;
  }

  // A client that denies the frame its storage (third-party storage blocked, as Chromium
  // does for a frame of another site): the board keeps the player's token in this page's
  // memory instead, for as long as the Activity is open.
  function storageOrMemory() {
    try {
      window.sessionStorage.getItem("hexhall");
      return;
    } catch (error) {
      const kept = new Map();
      const memory = {
        getItem: (key) => (kept.has(key) ? kept.get(key) : null),
        setItem: (key, value) => kept.set(key, String(value)),
        removeItem: (key) => kept.delete(key),
      };
      Object.defineProperty(window, "sessionStorage", { value: memory, configurable: true });
    }
  }

  async function showBoard(game, nav) {
    const answer = await fetch(BASE + game.path, { cache: "no-store" });
    if (!answer.ok) {
      say(await answer.text());
      return;
    }
    const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
    document.title = doc.title;
    for (const { name, value } of Array.from(doc.body.attributes)) body.setAttribute(name, value);
    // (A copy of the live list first: each node moved leaves it.)
    body.replaceChildren(...Array.from(doc.body.childNodes));
    const main = body.querySelector("main");
    if (main && nav) main.appendChild(nav);
    // board.js takes the personal token from the address's fragment, as from a link.
    if (game.token) {
      history.replaceState(null, "", location.pathname + location.search + "#t=" + game.token);
    }
    storageOrMemory();
    // The board's size rule (it sizes the board's kept place at once), then board.js, which
    // uses it: run in this order (a parsed page's scripts do not run when taken in).
    for (const src of [boardBoxJs, boardJs]) {
      const script = document.createElement("script");
      script.src = BASE + src;
      script.async = false;
      document.head.appendChild(script);
    }
  }

  async function start() {
    let sdk;
    try {
      sdk = discordSdk();
    } catch (error) {
      say(body.dataset.outside);
      return;
    }
    await sdk.ready();
    let code;
    try {
      ({ code } = await sdk.commands.authorize({
        client_id: clientId,
        response_type: "code",
        state: "",
        prompt: "none",
        scope: ["identify"],
      }));
    } catch (error) {
      say(body.dataset.refused);
      return;
    }
    const answer = await fetch(BASE + "/api/activity/session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, channel: sdk.channelId || "" }),
    });
    let data;
    try {
      data = await answer.json();
    } catch (error) {
      data = { ok: false, text: body.dataset.refused };
    }
    if (!answer.ok || !data.ok) {
      say(data.text);
      return;
    }
    try {
      await sdk.commands.authenticate({ access_token: data.access_token });
    } catch (error) {
      // The board works without it (the bot signed the player in): nothing to stop for.
    }
    const games = data.games || [];
    if (!games.length) {
      say(data.text || body.dataset.noGames);
      return;
    }
    const wanted = Number(launch.get("game"));
    const game = games.find((g) => g.id === wanted) || games[0];
    const nav = games.length > 1 ? listGames(data.title, games) : null;
    await showBoard(game, nav);
  }

  start().catch(() => say(body.dataset.refused));
})();
