#!/usr/bin/env bash
# Build the Debian 12 guest root filesystem (ext4 image) with mmdebstrap.
#
#   vm-images/build-image.sh OUT_IMAGE
#
# The image holds only Debian packages and a few files from vm-images/guest/rootfs;
# the project's own packages (./dev build) reach the guest through a 9p share and
# are installed at every boot (vm-images/guest/boot.sh: dpkg -i), so changing the
# code never rebuilds the image.
# Apt's own sources (/etc/apt/sources.list*) are used as the mirror.
set -euo pipefail

out=${1:?usage: build-image.sh OUT_IMAGE}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${out%/*}/.image.XXXXXX")
trap 'rm -rf "$work"' EXIT

packages=(
	systemd systemd-sysv udev dbus
	iproute2 iputils-ping tcpdump procps psmisc util-linux kmod
	libmnl0 libevent-2.1-7 libevent-core-2.1-7 libinih1 libsystemd0 libcap2-bin
	# what libipeh-dev depends on (the guests install every user package)
	libmnl-dev
	strace less ethtool
	# the kernel tree's YNL client, tools/net/ynl/cli.py (e2e test 21-ynl-cli)
	python3 python3-yaml python3-jsonschema
)

mirrors=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
	[ -s "$f" ] || continue
	# only Debian's own archive (other third-party lists are not for the guest)
	grep -q 'debian' "$f" || continue
	case "$f" in *disabled*) continue ;; esac
	mirrors+=("$f")
done
[ ${#mirrors[@]} -gt 0 ] || { echo "build-image: no Debian apt source found in /etc/apt" >&2; exit 1; }

echo "build-image: mmdebstrap bookworm (${#packages[@]} packages) ..."
mmdebstrap --variant=minbase --mode=root --quiet \
	--include="$(IFS=,; echo "${packages[*]}")" \
	--customize-hook="cp -a $here/guest/rootfs/. \"\$1\"/" \
	--customize-hook="chroot \"\$1\" /usr/local/sbin/ipeh-guest-customize" \
	bookworm "$work/root" "${mirrors[@]}"

echo "build-image: making ext4 image ..."
size_mb=$(( $(du -sm "$work/root" | cut -f1) + 512 ))
mke2fs -q -t ext4 -L ipeh-root -d "$work/root" "$work/rootfs.img" "${size_mb}M"
mv "$work/rootfs.img" "$out"
echo "build-image: wrote $out (${size_mb} MiB)"
