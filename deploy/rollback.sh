#!/usr/bin/env bash
# Return the cabinet to the version that ran before the last update:
#     sudo ringside-rollback          (installed by deploy/install.sh; or: sudo make rollback)
#     ringside-rollback --list        the installed versions, which is current and previous
#
# deploy/install.sh keeps each version in $PREFIX/releases/<time>-<commit>/ (the code and
# its own venv) and makes one live by pointing $PREFIX/current at it; $PREFIX/previous is
# the one that ran before.  This swaps the two (each a rename, atomic) and restarts the
# service, so a second rollback returns to the newer version.
#
# Options:  --prefix DIR (default /opt/ringside)   --no-start (switch, do not restart)
set -euo pipefail

PREFIX=/opt/ringside
START=1
LIST=0
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX=$2; shift 2 ;;
        --no-start) START=0; shift ;;
        --list) LIST=1; shift ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "ringside-rollback: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
say() { echo "ringside-rollback: $*"; }
die() { echo "ringside-rollback: $*" >&2; exit 1; }

current=$(readlink "$PREFIX/current" 2>/dev/null || true)
previous=$(readlink "$PREFIX/previous" 2>/dev/null || true)
if [ "$LIST" = 1 ]; then
    [ -d "$PREFIX/releases" ] || die "no versions installed under $PREFIX/releases"
    # shellcheck disable=SC2012  # release names are ours: no spaces or newlines
    for r in $(ls -1 "$PREFIX/releases" | sort); do
        mark="        "
        [ "releases/$r" = "$current" ] && mark="current "
        [ "releases/$r" = "$previous" ] && mark="previous"
        [ -e "$PREFIX/releases/$r/.installing" ] && mark="unfinished"
        echo "$mark  $r"
    done
    exit 0
fi
[ "$(id -u)" = 0 ] || die "run it with sudo"
[ -n "$current" ] || die "no version is installed under $PREFIX (no $PREFIX/current)"
[ -n "$previous" ] && [ -x "$PREFIX/$previous/venv/bin/ringside" ] \
    || die "no earlier version to return to (the installer keeps one after an update); current is ${current#releases/}"

ln -sfn "$current" "$PREFIX/previous.tmp"
ln -sfn "$previous" "$PREFIX/current.tmp"
mv -T "$PREFIX/current.tmp" "$PREFIX/current"
mv -T "$PREFIX/previous.tmp" "$PREFIX/previous"
say "current: ${previous#releases/} (was ${current#releases/}; ringside-rollback again returns to it)"

if [ "$START" = 1 ] && systemctl is-enabled --quiet ringside.service 2>/dev/null; then
    systemctl reset-failed ringside.service 2>/dev/null || true   # a new version: a fresh start-limit count
    systemctl restart --no-block ringside.service
    state=activating
    for _ in $(seq 120); do
        state=$(systemctl is-active ringside.service || true)
        [ "$state" = active ] || [ "$state" = failed ] && break
        sleep 0.5
    done
    if [ "$state" != active ]; then
        journalctl -u ringside.service -b -n 5 --no-pager -o cat >&2 || true
        die "ringside.service did not come up on ${previous#releases/} ($state)"
    fi
    say "ringside.service is running $("$PREFIX/current/venv/bin/ringside" --version)"
fi
