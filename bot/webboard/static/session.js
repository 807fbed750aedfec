// Who the page is: the player's sign-in and the page's storage, for board.js.  Telegram's
// initData (from its script, or from the launch fragment, kept for this tab and then taken out
// of the address), or the personal link's token (#t=, kept for this tab, taken out of the
// address too): an address copied, shared or bookmarked never carries the player's sign-in.
// Defines window.HexhallSession; nothing runs when loaded.
"use strict";
window.HexhallSession = (() => {
  function fragment() {
    return new URLSearchParams(location.hash.slice(1));
  }

  function telegram() {
    return (window.Telegram && window.Telegram.WebApp) || null;
  }

  // Telegram's initData: from its script when present, else from the launch fragment (kept
  // for this tab, then taken out of the address by forgetLaunchData: an address copied,
  // shared or bookmarked never carries the player's sign-in).
  const TMA_KEY = "hexhall-tma";
  // The tab's storage, or this page's memory where it is refused (a third-party frame, as in
  // Telegram's web client, when the browser blocks third-party storage).
  const memory = {};
  const tab = {
    get(key) {
      if (key in memory) return memory[key];
      try {
        return sessionStorage.getItem(key);
      } catch (e) {
        return null;
      }
    },
    set(key, value) {
      memory[key] = value;
      try {
        sessionStorage.setItem(key, value);
        return true;
      } catch (e) {
        return false; // kept in memory only
      }
    },
  };
  // The browser's lasting storage (the board turned or not), where it is allowed: a frame of
  // another site (Telegram's web client, Discord) may be refused it, and reading it throws.
  const lasting = {
    get(key) {
      try {
        return localStorage.getItem(key);
      } catch (e) {
        return key in memory ? memory[key] : null;
      }
    },
    set(key, value) {
      memory[key] = value;
      try {
        localStorage.setItem(key, value);
      } catch (e) {
        // kept in this page's memory only
      }
    },
  };
  function initData() {
    const app = telegram();
    if (app && app.initData) return app.initData;
    return fragment().get("tgWebAppData") || tab.get(TMA_KEY) || "";
  }

  function forgetLaunchData() {
    const params = fragment();
    const data = params.get("tgWebAppData");
    if (!data) return;
    // A frame's address is shown to nobody: where the tab's storage is refused, the data
    // stays in it, so the client's reload of the frame (reload_iframe) keeps the sign-in.
    if (!tab.set(TMA_KEY, data) && window.parent !== window) return;
    params.delete("tgWebAppData");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + location.search + (rest ? "#" + rest : ""));
  }

  function credentials() {
    const data = initData();
    if (data) return "tma " + data;
    const key = "hexhall-token:" + location.pathname;
    const params = fragment();
    const token = params.get("t");
    if (token) {
      tab.set(key, token);
      params.delete("t");
      const rest = params.toString();
      history.replaceState(null, "", location.pathname + (rest ? "#" + rest : ""));
    }
    const kept = tab.get(key);
    return kept ? "Bearer " + kept : "";
  }

  return { fragment, telegram, tab, lasting, initData, forgetLaunchData, credentials };
})();
