#!/usr/bin/env bash
# Install or update Ringside on a Raspberry Pi (Raspberry Pi OS Bookworm / Python 3.11,
# Trixie / Python 3.13):   cd <checkout> && sudo deploy/install.sh   (or sudo make install)
#
# An update is `git pull` and the same command.  Each run installs the checkout's files
# (tracked and untracked, not ignored: what you see in the working tree) as a new release
# beside the running one, $PREFIX/releases/<time>-<commit>/ (app: the copy, its commit in
# firmware_py/build_info.json; venv: that copy installed editable, seeing Debian's
# packages for python3-lgpio; where Debian has none, the lgpio wheel pyproject.toml pins).  Only when pip and a
# smoke check passed does $PREFIX/current switch to it ($PREFIX/previous keeps the one
# before: `sudo ringside-rollback` returns to it) and the service restart; if it does
# not come up within a minute the installer rolls back by itself.  A failed or
# interrupted update leaves the running version as it was.
#
# What it sets up (all idempotent):
#   user ringside (system user, home /var/lib/ringside, no login) in the groups gpio,
#   i2c, dialout, video, render, audio, input - never root;
#   /etc/ringside/cabinet.toml from the commented template (never overwritten);
#   the udev rule naming the padboard /dev/ringside-padboard; a polkit rule letting
#   ringside power off (the service menu's Shut down); a journald size cap; I2C on at
#   400 kHz in config.txt (then it does not start the cabinet: that takes a reboot);
#   the systemd units ringside.service (enabled and (re)started) and ringside-console
#   (the console login back if the cabinet fails); /usr/local/bin/ringside and
#   /usr/local/sbin/ringside-rollback.
#
# Options:
#   --prefix DIR     code and venv (default /opt/ringside)
#   --etc DIR        config folder (default /etc/ringside)
#   --no-system      only the code, venv and config: no apt, user, udev, polkit,
#                    journald, boot config or systemd (a trial install; the tests)
#   --no-start       install and enable the service but do not (re)start it
#   --pip-args ARGS  extra arguments for pip (e.g. "--no-index --find-links DIR")
#   --web            also enable and start ringside-web (Punch Cards standings on phones)
#
# Refused, with one sentence and exit status 3 before anything changes: a 32-bit
# userland (no wheels of pygame-ce, numpy or psycopg: Ringside needs 64-bit Raspberry
# Pi OS), a Python older than 3.11; and, before the new release becomes current, an lgpio
# that is no GPIO library (pip's empty placeholder "lgpio 0.0.0.2", or one that does not
# import).  Other failures exit 1, a bad option 2.
set -euo pipefail

PREFIX=/opt/ringside
ETC=/etc/ringside
SYSTEM=1
START=1
PIP_ARGS=""
PYTHON=${PYTHON:-python3}
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX=$2; shift 2 ;;
        --etc) ETC=$2; shift 2 ;;
        --no-system) SYSTEM=0; shift ;;
        --no-start) START=0; shift ;;
        --pip-args) PIP_ARGS=$2; shift 2 ;;
        --web) WEB=1; shift ;;
        -h|--help) sed -n '2,39p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

SRC=$(cd "$(dirname "$0")/.." && pwd)
USER_NAME=ringside
DATA=/var/lib/ringside
GROUPS_WANTED="gpio i2c dialout video render audio input"
say() { echo "install.sh: $*"; }
die() { echo "install.sh: $*" >&2; exit 1; }

REFUSED=3
refuse() { echo "install.sh: $*" >&2; exit "$REFUSED"; }

[ -f "$SRC/pyproject.toml" ] && [ -d "$SRC/firmware_py" ] || die "run it from a Ringside checkout ($SRC is not one)"

# -- what cannot work here, refused before anything changes ---------------------------------
# The userland's architecture, dpkg's (a Pi 4 or 5 boots a 64-bit kernel under 32-bit
# Raspberry Pi OS too: uname -m says aarch64 there); uname -m where there is no dpkg.
# RINGSIDE_INSTALL_ARCH stands in for the detection (tests/test_install.py).
userland=${RINGSIDE_INSTALL_ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}
case "$userland" in
    armhf | armel | armv6l | armv7l | i386 | i686)
        refuse "Ringside needs 64-bit Raspberry Pi OS: this userland is $userland (32-bit), for which pygame-ce, numpy and psycopg have no wheels, so the install would compile for an hour or fail half way." ;;
esac
python_version=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) \
    || refuse "Ringside needs Python 3.11 or newer, and there is no Python at $PYTHON (install python3)."
python_major=${python_version%%.*}
python_minor=${python_version#*.}
if [ "$python_major" -lt 3 ] || { [ "$python_major" = 3 ] && [ "$python_minor" -lt 11 ]; }; then
    refuse "Ringside needs Python 3.11 or newer, and $PYTHON is Python $python_version (Raspberry Pi OS Bookworm has 3.11, Trixie 3.13)."
fi
if [ "$SYSTEM" = 1 ] && [ "$(id -u)" != 0 ]; then
    die "run it with sudo (or --no-system for a trial install of the code only)"
fi

# -- system packages and the cabinet user ---------------------------------------------------
if [ "$SYSTEM" = 1 ]; then
    missing=""
    for pkg in python3-venv python3-lgpio i2c-tools gpiod polkitd git; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
    done
    if [ -n "$missing" ]; then
        apt-get update -q || say "warning: apt-get update failed (no network?): installing from what apt knows"
        # python3-lgpio: Debian's lgpio for the system Python (the venv sees it); Raspberry
        # Pi OS has it, plain Debian bookworm does not.  A package this release lacks is a
        # warning, not the end of the install: pip installs lgpio's wheel instead.
        available=""
        for pkg in $missing; do
            if apt-cache show "$pkg" >/dev/null 2>&1; then
                available="$available $pkg"
            else
                say "warning: this system has no Debian package $pkg; without it: $(case "$pkg" in
                    python3-lgpio) echo "pip installs the lgpio wheel pyproject.toml's pi extra pins" ;;
                    *) echo "install it by hand" ;; esac)"
            fi
        done
        if [ -n "$available" ]; then
            say "installing Debian packages:$available"
            # shellcheck disable=SC2086  # a list of package names
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q $available
        fi
    fi
    if ! id "$USER_NAME" >/dev/null 2>&1; then
        say "creating system user $USER_NAME"
        useradd --system --user-group --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
    fi
    for g in $GROUPS_WANTED; do
        if getent group "$g" >/dev/null; then
            usermod -a -G "$g" "$USER_NAME"
        else
            say "warning: no group $g on this system (not a Raspberry Pi OS image?); $USER_NAME not added"
        fi
    done
    install -d -o "$USER_NAME" -g "$USER_NAME" -m 0750 "$DATA"
fi

# -- the new release, beside the one that runs ----------------------------------------------
# $PREFIX/releases/<time>-<commit>/ holds a copy of the checkout (app) and its own venv;
# $PREFIX/current is the switch the service and /usr/local/bin/ringside go through, and
# $PREFIX/previous the release it pointed at before.  The new release becomes current only
# when pip and the smoke check passed; until then the running cabinet is never touched.
# A run killed halfway leaves a folder still marked .installing: the next run deletes it.
install -d "$PREFIX/releases"
for stale in "$PREFIX"/releases/*/.installing; do
    [ -e "$stale" ] || continue
    say "removing $(dirname "$stale") (an install that did not finish)"
    rm -rf "$(dirname "$stale")"
done
GIT="git -c safe.directory=$SRC -C $SRC"   # root reading a checkout it does not own
if $GIT rev-parse --git-dir >/dev/null 2>&1; then
    commit=$($GIT rev-parse HEAD)
    dirty=false
    [ -n "$($GIT status --porcelain --untracked-files=no)" ] && dirty=true
else
    commit=unknown
    dirty=false
fi
RELEASE=$(date -u +%Y%m%d-%H%M%S)-${commit:0:12}
[ "$dirty" = true ] && RELEASE=$RELEASE-dirty
n=1
while [ -e "$PREFIX/releases/$RELEASE" ]; do   # two installs within a second
    RELEASE=${RELEASE%.[0-9]*}.$n
    n=$((n + 1))
done
NEW="$PREFIX/releases/$RELEASE"
mkdir -p "$NEW/app"
touch "$NEW/.installing"
if [ "$commit" != unknown ]; then
    $GIT ls-files -z --cached --others --exclude-standard | (cd "$SRC" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$NEW/app"
else
    (cd "$SRC" && tar --exclude=.venv --exclude=out --exclude='*.egg-info' --exclude=__pycache__ -cf - .) | tar -xf - -C "$NEW/app"
fi
printf '{"commit": "%s", "dirty": %s, "installed_at": "%s"}\n' "$commit" "$dirty" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    > "$NEW/app/firmware_py/build_info.json"
running=$([ -e "$PREFIX/current" ] && readlink "$PREFIX/current" || echo none)
abandon() {   # why [exit status]
    rm -rf "$NEW"
    echo "install.sh: $1; nothing changed: $([ "$running" = none ] && echo 'no version was installed before' || echo "the cabinet keeps ${running#releases/}")" >&2
    exit "${2:-1}"
}

# The venv: the copy installed editable (the venv runs exactly $NEW/app), Debian's lgpio
# visible (--system-site-packages).  On a cabinet (not --no-system) without a Debian lgpio
# that works (plain Debian has no python3-lgpio), the `pi` extra installs the lgpio wheel
# pyproject.toml pins.
"$PYTHON" -m venv --system-site-packages "$NEW/venv" || abandon "could not create the venv $NEW/venv"
target="$NEW/app"
if [ "$SYSTEM" = 1 ] && ! "$PYTHON" -c 'import lgpio; lgpio.gpiochip_open' >/dev/null 2>&1; then
    target="$NEW/app[pi]"
fi
# shellcheck disable=SC2086  # PIP_ARGS is a list of words on purpose
"$NEW/venv/bin/python" -m pip install --quiet --disable-pip-version-check $PIP_ARGS -e "$target" \
    || abandon "pip could not install $RELEASE (above: why)"

# lgpio, as the cabinet will import it: pip's "lgpio 0.0.0.2" (what pip picks where no
# real wheel fits) is an empty lgpio.py that imports, and nothing fails until the first
# GPIO call; a wheel built for a newer glibc does not import.  Either is refused; so is
# none at all on a cabinet (a trial install with --no-system needs none).
lgpio=$("$NEW/venv/bin/python" - <<'LGPIO'
import importlib.util

if importlib.util.find_spec("lgpio") is None:
    print("missing")
else:
    try:
        import lgpio
    except Exception as e:  # noqa: BLE001  (whatever stops the import is the answer)
        print(f"broken: {type(e).__name__}: {e}")
    else:
        print("real" if callable(getattr(lgpio, "gpiochip_open", None)) else f"placeholder: {lgpio.__file__}")
LGPIO
) || abandon "the venv's Python did not run"
case "$lgpio" in
    real) ;;
    missing) [ "$SYSTEM" = 0 ] || abandon "Ringside needs lgpio, the GPIO library, and $RELEASE has none: install Debian's python3-lgpio" "$REFUSED" ;;
    placeholder:*) abandon "Ringside needs lgpio, the GPIO library, and the one $RELEASE would import is an empty placeholder (${lgpio#placeholder: }, pip's 'lgpio 0.0.0.2'): install Debian's python3-lgpio, or the version pyproject.toml's pi extra pins" "$REFUSED" ;;
    *) abandon "Ringside needs lgpio, the GPIO library, and it does not import in $RELEASE (${lgpio#broken: }): install Debian's python3-lgpio" "$REFUSED" ;;
esac

# The smoke check: the new code imports, starts, and accepts this cabinet's config.
CONFIG_TO_CHECK="$ETC/cabinet.toml"
[ -f "$CONFIG_TO_CHECK" ] || CONFIG_TO_CHECK="$SRC/deploy/cabinet.toml"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 "$NEW/venv/bin/python" - "$CONFIG_TO_CHECK" <<'SMOKE' \
    || abandon "the smoke check of $RELEASE failed (above: why)"
import sys

import pygame  # noqa: F401  (the display library loads)
from firmware_py.games.registry import check_settings
from firmware_py.process.version import describe
from firmware_py.runtime.cabinet import Cabinet  # noqa: F401  (the whole cabinet imports)
from hal.config import ConfigError, load_config

try:
    check_settings(load_config(sys.argv[1]))
except ConfigError as e:
    sys.exit(f"smoke check: {sys.argv[1]}: {e}")
print(f"smoke check: {describe()} imports and accepts {sys.argv[1]}")
SMOKE
rm "$NEW/.installing"

# The switch: previous := what ran, current := the new release (each a rename, atomic).
if [ "$running" != none ] && [ "$running" != "releases/$RELEASE" ]; then
    ln -sfn "$running" "$PREFIX/previous.tmp" && mv -T "$PREFIX/previous.tmp" "$PREFIX/previous"
fi
ln -sfn "releases/$RELEASE" "$PREFIX/current.tmp" && mv -T "$PREFIX/current.tmp" "$PREFIX/current"
say "code: $PREFIX/releases/$RELEASE (commit ${commit:0:12}$([ "$dirty" = true ] && echo ', with local changes')), now current"
# Releases beyond the newest three that are neither current nor previous are deleted.
# The layout before releases (one app and one venv) goes once nothing runs from it: at
# once for a code-only install, after the restart for the service.
LEGACY="$PREFIX/app $PREFIX/venv $PREFIX/app.new $PREFIX/app.old"
# shellcheck disable=SC2086  # a list of paths without spaces
[ "$SYSTEM" = 1 ] || rm -rf $LEGACY
keep="releases/$RELEASE $(readlink "$PREFIX/previous" 2>/dev/null || true)"
# shellcheck disable=SC2012  # release names are ours: no spaces or newlines
for old in $(ls -1 "$PREFIX/releases" | sort -r | tail -n +4); do
    case " $keep " in *" releases/$old "*) continue ;; esac
    rm -rf "${PREFIX:?}/releases/$old"
done
VENV="$PREFIX/current/venv"
if [ "$SYSTEM" = 1 ]; then
    ln -sfn "$VENV/bin/ringside" /usr/local/bin/ringside
    install -m 0755 "$SRC/deploy/rollback.sh" /usr/local/sbin/ringside-rollback
fi

# -- the config -----------------------------------------------------------------------------
install -d -m 0755 "$ETC"
install -m 0644 "$SRC/deploy/cabinet.toml" "$ETC/cabinet.toml.example"
if [ ! -f "$ETC/cabinet.toml" ]; then
    install -m 0644 "$SRC/deploy/cabinet.toml" "$ETC/cabinet.toml"
    say "wrote $ETC/cabinet.toml from the template: edit it to match the wiring"
else
    say "kept $ETC/cabinet.toml (the current template is $ETC/cabinet.toml.example)"
fi

if [ "$SYSTEM" = 0 ]; then
    say "installed $("$VENV/bin/python" -c 'from firmware_py.process.version import describe; print(describe())') (code only)"
    exit 0
fi

# -- udev, polkit, journald, I2C --------------------------------------------------------------
install -m 0644 "$SRC/deploy/udev/99-ringside-padboard.rules" /etc/udev/rules.d/99-ringside-padboard.rules
{ udevadm control --reload && udevadm trigger --subsystem-match=tty; } 2>/dev/null || true   # no udev in a container
if [ -d /etc/polkit-1 ]; then
    install -d -m 0755 /etc/polkit-1/rules.d
    install -m 0644 "$SRC/deploy/polkit/50-ringside.rules" /etc/polkit-1/rules.d/50-ringside.rules
fi
install -d /etc/systemd/journald.conf.d
if ! cmp -s "$SRC/deploy/journald/ringside.conf" /etc/systemd/journald.conf.d/ringside.conf; then
    install -m 0644 "$SRC/deploy/journald/ringside.conf" /etc/systemd/journald.conf.d/ringside.conf
    systemctl restart systemd-journald || true
fi
BOOT=/boot/firmware/config.txt
[ -f "$BOOT" ] || BOOT=/boot/config.txt
# Turning I2C on takes a reboot: until then the OLEDs' bus (and I/O expanders set up by
# a dtoverlay) is not there and the cabinet cannot open its hardware.  Starting it then
# would only end in "Job failed"; the installer says what comes next instead.  The
# marker is in /run, so the reboot itself clears it.
REBOOT_MARK=/run/ringside-install-needs-reboot
if [ -f "$BOOT" ] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$BOOT"; then
    printf '\n# Ringside: I2C for the private OLEDs, at 400 kHz (a frame takes 23 ms instead of 90)\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n' >> "$BOOT"
    say "enabled I2C at 400 kHz in $BOOT"
    echo "$BOOT" > "$REBOOT_MARK"
fi

# -- the service ----------------------------------------------------------------------------
install -m 0644 "$SRC/deploy/systemd/ringside.service" /etc/systemd/system/ringside.service
install -m 0644 "$SRC/deploy/systemd/ringside-console.service" /etc/systemd/system/ringside-console.service
systemctl daemon-reload
systemctl enable ringside.service >/dev/null
# -- Punch Cards standings on phones (issue 35): opt-in ---------------------------------------
# The unit is always installed; --web enables and (re)starts it.  Its failure never stops
# the install: the cabinet does not depend on it.
install -m 0644 "$SRC/deploy/systemd/ringside-web.service" /etc/systemd/system/ringside-web.service
systemctl daemon-reload
if [ "${WEB:-0}" = 1 ]; then
    systemctl enable ringside-web.service >/dev/null
    if [ "$START" = 1 ]; then
        systemctl restart --no-block ringside-web.service || say "warning: ringside-web did not start: journalctl -u ringside-web"
    fi
    say "ringside-web.service is enabled: phones open http://<this machine>:8035/ (set [game.punch_cards] web_url for the QR codes)"
elif [ "$START" = 1 ] && systemctl is-enabled --quiet ringside-web.service 2>/dev/null; then
    systemctl try-restart --no-block ringside-web.service || true   # enabled before: the new code
fi
say "installed $("$VENV/bin/ringside" --version)"
if [ -f "$REBOOT_MARK" ]; then
    say "the cabinet starts at the next boot: I2C was switched on in $(cat "$REBOOT_MARK") and takes effect then."
    say "next:  1. sudo reboot   2. the cabinet comes up by itself (journalctl -u ringside -b)"
    say "       3. calibrate the slap pads: SERVICE key -> Calibration (docs/operator.md, Calibration)"
    exit 0
fi
if [ "$START" = 0 ]; then
    say "ringside.service is enabled, not started (--no-start): sudo systemctl start ringside"
    exit 0
fi
# Started without waiting on the job (a cabinet that fails would say "Job failed" and
# nothing more): then watched for up to 60 s until it is up, or clearly not.
systemctl reset-failed ringside.service 2>/dev/null || true   # a new version: a fresh start-limit count
systemctl restart --no-block ringside.service
state=activating
for _ in $(seq 120); do
    state=$(systemctl is-active ringside.service || true)
    [ "$state" = active ] || [ "$state" = failed ] && break
    sleep 0.5
done
if [ "$state" = active ]; then
    # shellcheck disable=SC2086  # a list of paths without spaces
    rm -rf $LEGACY
    say "ringside.service is running; follow it with: journalctl -u ringside -f"
    exit 0
fi
say "ringside.service did not come up on $RELEASE ($state); why, in its last lines:"
journalctl _SYSTEMD_UNIT=ringside.service -b -n 8 --no-pager -o cat >&2 || true
# The start is the last check of an update: one that does not come up is rolled back to
# the version that ran (a second `ringside-rollback` returns to the new one).
if [ "$running" != none ] && [ "$running" != "releases/$RELEASE" ] && [ -x "$PREFIX/$running/venv/bin/ringside" ]; then
    say "rolling back to ${running#releases/}, the version that ran before this update"
    if bash "$SRC/deploy/rollback.sh" --prefix "$PREFIX"; then
        die "the update to $RELEASE did not start: the cabinet runs ${running#releases/} again (above: why)"
    fi
    die "the update to $RELEASE did not start, and ${running#releases/} did not either after the rollback: see journalctl -u ringside -b"
fi
die "ringside.service did not come up (above: why); after the fix: sudo systemctl restart ringside"
