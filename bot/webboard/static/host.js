// Hexhall's web board inside Telegram: the Mini App side of Telegram's documented web events
// (core.telegram.org/api/web-events, core.telegram.org/api/bots/webapps), spoken directly,
// without Telegram's script (the page loads no script from outside its own origin).
//
// Out: an event is posted through window.TelegramWebviewProxy.postEvent(type, JSON data)
// (mobile and desktop apps), window.external.notify(JSON {eventType, eventData}) (Windows
// phone), or window.parent.postMessage(JSON {eventType, eventData}, "*") (the web clients,
// which frame the app).  In: the apps call window.Telegram.WebView.receiveEvent(type, data);
// a web client posts the same JSON to this frame.  The launch parameters (tgWebAppVersion,
// tgWebAppPlatform, tgWebAppThemeParams ...) come in the address's fragment, kept for the tab.
//
// window.HexhallHost is what board.js calls; outside Telegram every call does nothing.
"use strict";
(() => {
  const KEY = "hexhall-tg-launch";
  const KEPT = ["tgWebAppVersion", "tgWebAppPlatform", "tgWebAppThemeParams"];
  // The version each method came in (methods of an older client are not posted).
  const SINCE = {
    web_app_setup_back_button: "6.1",
    web_app_trigger_haptic_feedback: "6.1",
    web_app_setup_closing_behavior: "6.2",
    web_app_setup_swipe_behavior: "7.7",
    web_app_request_safe_area: "8.0",
    web_app_request_content_safe_area: "8.0",
  };

  function launch() {
    let kept = {};
    try {
      kept = JSON.parse(sessionStorage.getItem(KEY) || "{}") || {};
    } catch (e) {
      kept = {};
    }
    const hash = new URLSearchParams(location.hash.slice(1));
    let fresh = false;
    for (const name of [...KEPT, "tgWebAppData"]) {
      if (hash.get(name) !== null) fresh = true;
    }
    for (const name of KEPT) {
      const value = hash.get(name);
      if (value !== null) kept[name] = value;
    }
    if (fresh) kept.launched = true;
    try {
      sessionStorage.setItem(KEY, JSON.stringify(kept));
    } catch (e) {
      // storage refused (a private window's quota): the fragment is read again next time
    }
    return kept;
  }

  const params = launch();
  const framed = window.parent !== window;

  // How this page talks to the Telegram app around it (null: it is in none).
  function transport() {
    const proxy = window.TelegramWebviewProxy;
    if (proxy && typeof proxy.postEvent === "function") {
      return (type, data) => proxy.postEvent(type, JSON.stringify(data));
    }
    const external = window.external;
    if (external && typeof external.notify === "function") {
      return (type, data) => external.notify(JSON.stringify({ eventType: type, eventData: data }));
    }
    // A web client frames the app and gives it the launch parameters; another frame around
    // the page (a Discord Activity) is not Telegram.
    if (framed && params.launched) {
      return (type, data) =>
        window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data }), "*");
    }
    return null;
  }

  const send = transport();
  const version = params.tgWebAppVersion || "6.0";

  function atLeast(wanted) {
    const a = version.split(".").map(Number);
    const b = wanted.split(".").map(Number);
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = a[i] || 0;
      const y = b[i] || 0;
      if (x !== y) return x > y;
    }
    return true;
  }

  function post(type, data) {
    if (!send || (SINCE[type] && !atLeast(SINCE[type]))) return;
    try {
      send(type, data === undefined ? {} : data);
    } catch (e) {
      // the app went away under the page: nothing to tell it any more
    }
  }

  // -- events from the app ------------------------------------------------------------------
  const handlers = {};
  function on(type, handler) {
    (handlers[type] = handlers[type] || []).push(handler);
  }
  function receive(type, data) {
    for (const handler of handlers[type] || []) handler(data || {});
  }
  window.Telegram = window.Telegram || {};
  window.Telegram.WebView = Object.assign(window.Telegram.WebView || {}, { receiveEvent: receive });
  window.TelegramGameProxy = { receiveEvent: receive }; // older apps call these names
  window.TelegramGameProxy_receiveEvent = receive;
  window.addEventListener("message", (e) => {
    if (!framed || e.source !== window.parent) return;
    let message = null;
    try {
      message = typeof e.data === "string" ? JSON.parse(e.data) : e.data;
    } catch (err) {
      return;
    }
    if (!message || typeof message.eventType !== "string") return;
    if (message.eventType === "reload_iframe") {
      post("iframe_will_reload");
      location.reload();
      return;
    }
    receive(message.eventType, message.eventData);
  });

  // -- the theme: Telegram's colours as the page's, every text kept readable (4.5:1) ------
  function rgb(hex) {
    const m = /^#?([0-9a-f]{6})$/i.exec(String(hex || "").trim());
    if (!m) return null;
    const n = parseInt(m[1], 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  function luminance(c) {
    const [r, g, b] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  function contrast(a, b) {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  }
  function hex(c) {
    return "#" + c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  }
  // ``fg`` on ``bg``, moved towards ``towards`` (the text colour) until it reads at 4.5:1.
  function readable(fg, bg, towards) {
    let c = fg;
    for (let k = 1; k <= 10 && contrast(c, bg) < 4.5; k++) {
      c = fg.map((v, i) => v + ((towards[i] - v) * k) / 10);
    }
    return c;
  }
  function bestOf(bg) {
    return contrast([0, 0, 0], bg) >= contrast([255, 255, 255], bg) ? [0, 0, 0] : [255, 255, 255];
  }

  let theme = {};
  function applyTheme(given) {
    if (!given || typeof given !== "object") return;
    theme = Object.assign({}, theme, given);
    const bg = rgb(theme.bg_color);
    if (!bg) return;
    const root = document.documentElement;
    const dark = luminance(bg) < 0.2;
    let text = rgb(theme.text_color) || bestOf(bg);
    if (contrast(text, bg) < 4.5) text = bestOf(bg);
    const panel = rgb(theme.secondary_bg_color);
    const buttons = panel && contrast(text, panel) >= 4.5 ? panel : bg;
    const accent = rgb(theme.button_color) || text;
    let onAccent = rgb(theme.button_text_color) || bestOf(accent);
    if (contrast(onAccent, accent) < 4.5) onAccent = bestOf(accent);
    const hint = rgb(theme.hint_color) || text;
    const link = rgb(theme.link_color) || text;
    const warn = rgb(theme.destructive_text_color) || (dark ? [255, 138, 128] : [176, 0, 32]);
    const colours = {
      "--bg": bg,
      "--text": text,
      "--hint": readable(hint, bg, text),
      "--link": readable(link, bg, text),
      "--warn": readable(warn, bg, text),
      "--button-bg": buttons,
      "--button-text": readable(text, buttons, bestOf(buttons)),
      "--accent": accent,
      "--accent-text": onAccent,
    };
    for (const [name, c] of Object.entries(colours)) root.style.setProperty(name, hex(c));
    root.classList.add("tg-theme");
    root.classList.toggle("tg-dark", dark);
    root.classList.toggle("tg-light", !dark);
  }
  if (params.tgWebAppThemeParams) {
    try {
      applyTheme(JSON.parse(params.tgWebAppThemeParams));
    } catch (e) {
      // a theme that is no JSON: the page's own colours
    }
  }
  on("theme_changed", (data) => applyTheme(data.theme_params));

  // -- safe areas: the device's and Telegram's own controls (fullscreen) -------------------
  const insets = { safe: {}, content: {} };
  function applyInsets() {
    const root = document.documentElement;
    for (const side of ["top", "bottom", "left", "right"]) {
      const px = (Number(insets.safe[side]) || 0) + (Number(insets.content[side]) || 0);
      root.style.setProperty(`--tg-inset-${side}`, `${Math.max(0, px)}px`);
    }
  }
  on("safe_area_changed", (data) => {
    insets.safe = data;
    applyInsets();
  });
  on("content_safe_area_changed", (data) => {
    insets.content = data;
    applyInsets();
  });

  // -- what board.js calls -----------------------------------------------------------------
  let isReady = false;
  let pressMain = null;
  let pressBack = null;
  let mainText = null;
  let backShown = false;
  let confirming = false;
  on("main_button_pressed", () => {
    if (pressMain) pressMain();
  });
  on("back_button_pressed", () => {
    if (pressBack) pressBack();
  });

  function setupMain(progress) {
    const shown = mainText !== null;
    const data = { is_visible: shown };
    if (shown) {
      Object.assign(data, {
        is_active: !progress,
        is_progress_visible: !!progress,
        text: mainText,
        color: theme.button_color || "#2481cc",
        text_color: theme.button_text_color || "#ffffff",
      });
    }
    post("web_app_setup_main_button", data);
  }

  // Vertical swipes (which close or fold the app) are off while a finger is on ``element``.
  let swipesOff = false;
  function swipes(off) {
    if (off === swipesOff) return;
    swipesOff = off;
    post("web_app_setup_swipe_behavior", { allow_vertical_swipe: !off });
  }

  window.HexhallHost = {
    /** Whether the page is inside a Telegram app (its MainButton stands for Play). */
    inTelegram: !!send,
    /** The board is drawn: Telegram takes its placeholder away and opens the app full height. */
    ready() {
      if (isReady) return;
      isReady = true;
      post("web_app_ready");
      post("web_app_expand");
      post("web_app_request_theme");
      post("web_app_request_safe_area");
      post("web_app_request_content_safe_area");
    },
    /** The MainButton: shown as ``text`` (at most 64 characters), pressed calls ``onPress``;
     * ``null`` hides it. */
    main(text, onPress) {
      const next = text ? String(text).slice(0, 64) : null;
      pressMain = next ? onPress : null;
      if (next === mainText) return;
      mainText = next;
      setupMain(false);
    },
    /** The MainButton waits (its progress shown) while ``on``. */
    busy(on) {
      if (mainText !== null) setupMain(on);
    },
    /** The BackButton: shown while ``onPress`` is given. */
    back(onPress) {
      pressBack = onPress || null;
      if (!!pressBack === backShown) return;
      backShown = !!pressBack;
      post("web_app_setup_back_button", { is_visible: backShown });
    },
    /** "tap" (a part chosen), "done" (a move played) or "error" (a move refused or lost). */
    haptic(kind) {
      const data =
        kind === "done"
          ? { type: "notification", notification_type: "success" }
          : kind === "error"
            ? { type: "notification", notification_type: "error" }
            : { type: "selection_change" };
      post("web_app_trigger_haptic_feedback", data);
    },
    /** Closing the app asks first while ``on`` (a move half built). */
    confirmClose(on) {
      if (!!on === confirming) return;
      confirming = !!on;
      post("web_app_setup_closing_behavior", { need_confirmation: confirming });
    },
    /** Vertical swipes off while a finger or the mouse is down on ``element``. */
    guard(element) {
      if (!send || !element) return;
      element.addEventListener("pointerdown", () => swipes(true));
      for (const type of ["pointerup", "pointercancel"]) {
        window.addEventListener(type, () => swipes(false));
      }
    },
  };

  if (send) {
    document.documentElement.classList.add("tg");
    if (framed) post("iframe_ready", { reload_supported: true });
  }
})();
