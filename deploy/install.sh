#!/usr/bin/env bash
# Install or update Ringside on a Raspberry Pi (Raspberry Pi OS Bookworm / Python 3.11,
# Trixie / Python 3.13):   cd <checkout> && sudo deploy/install.sh   (or sudo make install)
#
# An update is `git pull` and the same command.  Each run copies the checkout's files
# (tracked and untracked, not ignored: what you see in the working tree) to
# $PREFIX/app, notes the commit in firmware_py/build_info.json, installs that copy
# editable into the venv $PREFIX/venv (so the venv runs exactly $PREFIX/app) and
# restarts the service if it runs.  The venv sees Debian's packages
# (--system-site-packages) for python3-lgpio, which has no wheel for these Pythons.
#
# What it sets up (all idempotent):
#   user ringside (system user, home /var/lib/ringside, no login) in the groups gpio,
#   i2c, dialout, video, render, audio, input - never root;
#   /etc/ringside/cabinet.toml from the commented template (never overwritten);
#   the udev rule naming the padboard /dev/ringside-padboard; a polkit rule letting
#   ringside power off (the service menu's Shut down); a journald size cap; I2C on at
#   400 kHz in config.txt; the systemd unit ringside.service, enabled and (re)started;
#   /usr/local/bin/ringside.
#
# Options:
#   --prefix DIR     code and venv (default /opt/ringside)
#   --etc DIR        config folder (default /etc/ringside)
#   --no-system      only the code, venv and config: no apt, user, udev, polkit,
#                    journald, boot config or systemd (a trial install; the tests)
#   --no-start       install and enable the service but do not (re)start it
#   --pip-args ARGS  extra arguments for pip (e.g. "--no-index --find-links DIR")
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
        -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

SRC=$(cd "$(dirname "$0")/.." && pwd)
USER_NAME=ringside
DATA=/var/lib/ringside
GROUPS_WANTED="gpio i2c dialout video render audio input"
say() { echo "install.sh: $*"; }
die() { echo "install.sh: $*" >&2; exit 1; }

[ -f "$SRC/pyproject.toml" ] && [ -d "$SRC/firmware_py" ] || die "run it from a Ringside checkout ($SRC is not one)"
if [ "$SYSTEM" = 1 ] && [ "$(id -u)" != 0 ]; then
    die "run it with sudo (or --no-system for a trial install of the code only)"
fi
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "$PYTHON is $("$PYTHON" -V 2>&1); Ringside needs Python 3.11 or newer"

# -- system packages and the cabinet user ---------------------------------------------------
if [ "$SYSTEM" = 1 ]; then
    missing=""
    for pkg in python3-venv python3-lgpio i2c-tools gpiod polkitd git; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
    done
    if [ -n "$missing" ]; then
        say "installing Debian packages:$missing"
        apt-get update -q
        # python3-lgpio: Debian's lgpio for the system Python (the venv sees it).  Where a
        # release lacks it, pip can build lgpio instead: apt install swig liblgpio-dev.
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
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

# -- the code: a fresh copy of the checkout, its commit noted --------------------------------
GIT="git -c safe.directory=$SRC -C $SRC"   # root reading a checkout it does not own
install -d "$PREFIX"
NEW="$PREFIX/app.new"
rm -rf "$NEW"
mkdir -p "$NEW"
if $GIT rev-parse --git-dir >/dev/null 2>&1; then
    $GIT ls-files -z --cached --others --exclude-standard | (cd "$SRC" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$NEW"
    commit=$($GIT rev-parse HEAD)
    dirty=false
    [ -n "$($GIT status --porcelain --untracked-files=no)" ] && dirty=true
else
    (cd "$SRC" && tar --exclude=.venv --exclude=out --exclude='*.egg-info' --exclude=__pycache__ -cf - .) | tar -xf - -C "$NEW"
    commit=unknown
    dirty=false
fi
printf '{"commit": "%s", "dirty": %s, "installed_at": "%s"}\n' "$commit" "$dirty" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    > "$NEW/firmware_py/build_info.json"
rm -rf "$PREFIX/app.old"
[ -d "$PREFIX/app" ] && mv "$PREFIX/app" "$PREFIX/app.old"
mv "$NEW" "$PREFIX/app"
rm -rf "$PREFIX/app.old"
say "code: $PREFIX/app (commit ${commit:0:12}$([ "$dirty" = true ] && echo ', with local changes'))"

# -- the venv: the copy installed editable, Debian's lgpio visible ----------------------------
VENV="$PREFIX/venv"
want=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
have=$([ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' || echo none)
if [ "$have" != "$want" ]; then
    say "creating $VENV (Python $want, with system site packages)"
    rm -rf "$VENV"
    "$PYTHON" -m venv --system-site-packages "$VENV"
fi
# shellcheck disable=SC2086  # PIP_ARGS is a list of words on purpose
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check $PIP_ARGS -e "$PREFIX/app"
if [ "$SYSTEM" = 1 ]; then
    "$VENV/bin/python" -c 'import lgpio' 2>/dev/null \
        || say "warning: lgpio is not importable in $VENV: install python3-lgpio (or swig and liblgpio-dev, then $VENV/bin/pip install lgpio)"
    ln -sf "$VENV/bin/ringside" /usr/local/bin/ringside
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
udevadm control --reload && udevadm trigger --subsystem-match=tty || true
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
if [ -f "$BOOT" ] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$BOOT"; then
    printf '\n# Ringside: I2C for the private OLEDs, at 400 kHz (a frame takes 23 ms instead of 90)\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n' >> "$BOOT"
    say "enabled I2C at 400 kHz in $BOOT: reboot once for it to take effect"
fi

# -- the service ----------------------------------------------------------------------------
install -m 0644 "$SRC/deploy/systemd/ringside.service" /etc/systemd/system/ringside.service
systemctl daemon-reload
systemctl enable ringside.service >/dev/null
if [ "$START" = 1 ]; then
    systemctl restart ringside.service
    say "ringside.service (re)started; follow it with: journalctl -u ringside -f"
fi
say "installed $("$VENV/bin/ringside" --version)"
