#!/usr/bin/env bash
# Fetch the third-party files the web client and the website load, so that the game serves
# them itself and its pages work with no internet access (a LAN party, CI, these machines).
#
#   scripts/fetch_web_vendor.sh          (scripts/setup.sh runs it)
#
# Each package is taken from the npm registry by its exact version (`npm pack`), checked
# against the integrity hash pinned below, and only the files the templates use are copied
# to game/web/static/vendor/<package>-<version>/ (git-ignored: third-party files are not
# committed). The template overrides in game/web/templates/ point there.
#
# Idempotent and quiet when everything is in place. Needs npm (Node.js). Exit status 1 when
# something could not be fetched (the game still runs; its web pages then lack these files).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$repo/game/web/static/vendor"
stamp="$dest/.fetched"

# package@version | npm integrity (sha512 of the tarball) | files: path-in-package[:name] ...
# Versions are the ones Evennia 6.1's templates name (webclient/base.html and
# website/base.html); the website's Bootstrap 4.6.0 CSS comes with its matching JS bundle
# (which includes Popper).
MANIFEST="
jquery@3.2.1|sha512-iQUctXqe/nSa7hshPkQnJaJEUfxM139//hg2nJj+wsqVvd/YgXALR3jTNGh7BylgsyfcC8r4i2cJrClGBkDu5Q==|dist/jquery.min.js dist/jquery.slim.min.js LICENSE.txt
golden-layout@1.5.9|sha512-iBXDQCXOTgUEQJo96zPbjDoy5bRIk9XW5l+q+pDgLnIyReqaa1aiQctNud4epsskyLt952BG521dew5Z1liSxA==|dist/goldenlayout.min.js src/css/goldenlayout-base.css src/css/goldenlayout-dark-theme.css LICENSE
favico.js@0.3.10|sha512-S5KvqAOczRjlyjQPPZPSlUEybBkfBgKosY/pzTIxkvKgigB+DkITvIEI70dxQarbv4PZ+UD77QzquCAcU/6LHQ==|favico-0.3.10.min.js
bootstrap@4.0.0-beta|sha512-I/r3fYtUZr+rUNkh8HI+twxZ56p6ehNn27eA1XSebLVQKAJ2xZHnEvZrSR+UR2A/bONcd9gHC3xatVhQlH6R6w==|dist/css/bootstrap.min.css dist/js/bootstrap.min.js LICENSE
popper.js@1.11.0|sha512-mPwHWRijjT5hcI5pJCM8W4dv6y48v94ANpP5mVX9ZRZPuxWveGmm/VpE/1t5NB7wBA7CtSVsWHlbW1VucbILyQ==|dist/umd/popper.min.js
bootstrap@4.6.0|sha512-Io55IuQY3kydzHtbGvQya3H+KorS/M9rSNyfCGCg9WZ4pyT/lCxIlpJgG1GXW/PswzC84Tr2fBYi+7+jFVQQBw==|dist/css/bootstrap.min.css dist/js/bootstrap.bundle.min.js LICENSE
"

say() { echo "fetch_web_vendor: $*" >&2; }

want="$(printf '%s' "$MANIFEST" | sha256sum | cut -d' ' -f1)"

# Everything there already?
all_there() {
    local line spec files f name
    while IFS='|' read -r spec _ files; do
        [ -n "$spec" ] || continue
        name="${spec/@/-}"
        for f in $files; do
            [ -s "$dest/$name/$(basename "$f")" ] || return 1
        done
    done <<<"$MANIFEST"
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]
}

if all_there; then
    exit 0
fi

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    say "npm and node are needed to fetch the web client's libraries (jQuery, Golden Layout, ...)."
    say "Install Node.js (e.g. apt-get install nodejs npm), then run scripts/fetch_web_vendor.sh."
    exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

integrity_of() {
    node -e 'const c=require("crypto"),f=require("fs");
process.stdout.write("sha512-"+c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$1"
}

say "fetching the web client's libraries into game/web/static/vendor/ ..."
while IFS='|' read -r spec integrity files; do
    [ -n "$spec" ] || continue
    name="${spec/@/-}"
    work="$tmp/$name"
    mkdir -p "$work"
    if ! tarball="$(cd "$work" && npm pack --silent --prefer-offline "$spec" 2>"$work/npm.err" | tail -n 1)" ||
        [ ! -f "$work/$tarball" ]; then
        say "npm pack $spec failed:"
        tail -n 5 "$work/npm.err" >&2
        exit 1
    fi
    got="$(integrity_of "$work/$tarball")"
    if [ "$got" != "$integrity" ]; then
        say "$spec: the tarball's hash is not the pinned one (got $got); not using it."
        exit 1
    fi
    tar -xzf "$work/$tarball" -C "$work" --warning=no-unknown-keyword 2>/dev/null ||
        tar -xzf "$work/$tarball" -C "$work"
    rm -rf "${dest:?}/$name"
    mkdir -p "$dest/$name"
    for f in $files; do
        if [ ! -f "$work/package/$f" ]; then
            say "$spec has no $f"
            exit 1
        fi
        cp "$work/package/$f" "$dest/$name/$(basename "$f")"
    done
done <<<"$MANIFEST"
echo "$want" >"$stamp"
say "done."
