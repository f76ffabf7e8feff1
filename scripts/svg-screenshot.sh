#!/bin/sh
# Renders an SVG with headless Chromium into a PNG of the SVG's own size, the way a browser
# shows it (docs/analyze-example.png was made so):
#
#     scripts/svg-screenshot.sh docs/analyze-example.svg docs/analyze-example.png
#
# Installs Debian's chromium with apt-get when no chromium is on the PATH (as root), and a
# CJK font (fonts-wqy-microhei) when fontconfig knows none, and stops with a message saying
# why when it cannot. The window is sized from the <svg>
# element's width and height attributes; the PNG is then shrunk to 8-bit colour with
# ImageMagick's convert when it is there (a few tens of KiB instead of a few hundred).
set -eu

die() {
    echo "svg-screenshot: $*" >&2
    exit 1
}

[ $# -eq 2 ] || die "usage: $0 IN.svg OUT.png"
svg=$1
png=$2
[ -f "$svg" ] || die "no such file: $svg"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    command -v apt-get >/dev/null || die "no chromium on the PATH and no apt-get to install it"
    [ "$(id -u)" -eq 0 ] || die "no chromium on the PATH; install it as root (apt-get install chromium)"
    echo "svg-screenshot: installing chromium (apt-get)" >&2
    apt-get update -qq >/dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null ||
        die "apt-get install chromium failed"
    browser=$(command -v chromium) || die "chromium installed but not on the PATH"
fi

# the games' names are Chinese: without a CJK font Chromium draws them as empty boxes
if command -v fc-list >/dev/null && [ -z "$(fc-list :lang=zh 2>/dev/null | head -1)" ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "svg-screenshot: installing a CJK font (fonts-wqy-microhei)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null ||
            die "apt-get install fonts-wqy-microhei failed"
    else
        echo "svg-screenshot: warning: no CJK font; Chinese text will show as boxes" >&2
    fi
fi

# width and height of the root <svg> element (plain numbers, as analyze writes them)
attr() {
    tr '\n' ' ' <"$svg" | sed -n "s/.*<svg[^>]* $1=\"\([0-9.]*\)\".*/\1/p" | cut -d. -f1
}
w=$(attr width)
h=$(attr height)
[ -n "$w" ] && [ -n "$h" ] || die "no numeric width and height on the <svg> element of $svg"

abs=$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")
profile=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$profile" "$out"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" --window-size="$w,$h" \
    --screenshot="$out/shot.png" "file://$abs" >/dev/null 2>&1 ||
    die "chromium failed to render $svg"
[ -s "$out/shot.png" ] || die "chromium wrote no screenshot"

if command -v convert >/dev/null && convert -version 2>/dev/null | grep -q ImageMagick; then
    convert "$out/shot.png" -strip -colors 64 PNG8:"$png" || die "convert failed"
else
    cp "$out/shot.png" "$png"
fi
echo "svg-screenshot: $png (${w}x$h) by $("$browser" --version 2>/dev/null | head -1 | cut -d' ' -f1-2)"
