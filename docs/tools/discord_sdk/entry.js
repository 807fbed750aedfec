// The part of @discord/embedded-app-sdk the Activity's page uses, as one global
// (window.HexhallDiscord): the SDK itself, and its own mock for the browser tests.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

window.HexhallDiscord = { DiscordSDK, DiscordSDKMock };
