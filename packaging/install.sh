#!/bin/sh
# Register citeview with the Linux desktop: menu entry, icon, the .cite file type, and
# citeview as an extra handler for PDFs.
#
#   packaging/install.sh              for the current user (~/.local/share)
#   packaging/install.sh --system     for everyone (/usr/local/share; run as root)
#   packaging/install.sh --uninstall  remove what the same mode installed
#
# DATA_HOME=/some/share overrides the target folder (packagers, tests);
# CITEVIEW_NO_DEFAULT=1 leaves the default application for .cite files alone. The `citeview`
# command itself comes from installing the Python package (pip install .).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
mode=user
action=install
for arg in "$@"; do
    case "$arg" in
        --system) mode=system ;;
        --uninstall) action=uninstall ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done
if [ -z "${DATA_HOME:-}" ]; then
    if [ "$mode" = system ]; then DATA_HOME=/usr/local/share
    else DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}; fi
fi

apps="$DATA_HOME/applications"
mime="$DATA_HOME/mime"
icons="$DATA_HOME/icons/hicolor/scalable/apps"

have() { command -v "$1" >/dev/null 2>&1; }

refresh() {
    if have update-mime-database; then update-mime-database "$mime" || true; fi
    if have update-desktop-database; then update-desktop-database "$apps" || true; fi
    if have gtk-update-icon-cache; then
        gtk-update-icon-cache -q -t "$DATA_HOME/icons/hicolor" || true
    fi
}

if [ "$action" = uninstall ]; then
    rm -f "$apps/citeview.desktop" "$mime/packages/citeview-mime.xml" "$icons/citeview.svg"
    refresh
    echo "citeview desktop integration removed from $DATA_HOME"
    exit 0
fi

install -d "$apps" "$mime/packages" "$icons"
install -m 644 "$here/citeview.desktop" "$apps/citeview.desktop"
install -m 644 "$here/citeview-mime.xml" "$mime/packages/citeview-mime.xml"
install -m 644 "$here/../resources/citeview.svg" "$icons/citeview.svg"
refresh
# Open .cite files with citeview by default (PDFs only get citeview as an extra choice).
if [ "$mode" = user ] && [ -z "${CITEVIEW_NO_DEFAULT:-}" ] && have xdg-mime; then
    xdg-mime default citeview.desktop application/x-citeview-citations || true
fi
echo "citeview desktop integration installed in $DATA_HOME"
if ! have citeview; then
    echo "note: the citeview command is not on PATH yet; install the package (pip install .)"
fi
