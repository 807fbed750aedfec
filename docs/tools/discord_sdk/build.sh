#!/bin/sh
# Builds bot/webboard/static/discord-sdk.js (the Embedded App SDK as one script, served by the
# bot from its own origin) and discord-sdk.LICENSE.txt (the licenses of everything in it), from
# the exact versions pinned in package.json and package-lock.json.  Needs node and the npm
# registry; the bot and its tests only read the two committed files.
#
#   sh docs/tools/discord_sdk/build.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
static="$here/../../../bot/webboard/static"
cd "$here"
npm ci --no-audit --no-fund --ignore-scripts
node_modules/.bin/esbuild entry.js --bundle --format=iife --minify --target=es2020 \
  --legal-comments=none --outfile="$static/discord-sdk.js"
{
  echo "bot/webboard/static/discord-sdk.js bundles these npm packages (built by"
  echo "docs/tools/discord_sdk/build.sh from its package-lock.json):"
  for dir in node_modules/@discord/embedded-app-sdk node_modules/big-integer \
    node_modules/decimal.js-light node_modules/eventemitter3 node_modules/lodash.transform \
    node_modules/uuid node_modules/zod; do
    name=$(node -p "require('./$dir/package.json').name")
    version=$(node -p "require('./$dir/package.json').version")
    license=$(node -p "require('./$dir/package.json').license")
    echo
    echo "==== $name $version ($license) ===="
    for file in "$dir"/LICENSE* "$dir"/LICENCE* "$dir"/license*; do
      [ -f "$file" ] && cat "$file" && break
    done
  done
} > "$static/discord-sdk.LICENSE.txt"
echo "built $(wc -c < "$static/discord-sdk.js") bytes"
