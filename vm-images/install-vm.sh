#!/bin/bash
# Install the ipeh packages on a Debian 12 virtual machine the way a user
# does, and boot the ipeh kernel through the VM's own boot loader
# (./dev kernel-deb --vm --install).
#
#   install-vm.sh --kernel-deb LINUX-IMAGE.deb --debs DIR --work DIR
#
# 1. mmdebstrap makes a Debian 12 system with Debian's own kernel
#    (linux-image-amd64), systemd and initramfs-tools, on an MBR-partitioned
#    raw disk: sfdisk writes the partition table into the file and mke2fs -d
#    the root file system at the partition's offset (no loop device, no
#    mount). GRUB's packages are downloaded into it, not installed, and the
#    ipeh packages are copied into it: the VM has no network.
# 2. First boot, on Debian's kernel (QEMU -kernel/-initrd, as an installer
#    starts it): apt-get install grub-pc (GRUB goes into /dev/vda's MBR),
#    then apt-get install ./linux-image-...-ipeh_...deb and the userspace
#    packages. The kernel package's hooks make its initramfs and add it to
#    grub.cfg.
# 3. Second boot, from the disk alone: SeaBIOS, GRUB, and GRUB's default
#    entry, the newest kernel: ipeh's. The VM checks which kernel runs and
#    how it was loaded, loads ip6_pmtu_opt, and sends IOAM options as an
#    ordinary user before and after `systemctl start tlvd`.
#
# Results are printed as "ok NAME" / "not ok NAME -- DETAIL" lines (and kept
# in WORK/results.txt); the exit status is 0 only if all passed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kdeb="" debs="" work=""
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel-deb) kdeb=$2; shift ;;
	--debs) debs=$2; shift ;;
	--work) work=$2; shift ;;
	*) echo "install-vm: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[ -f "$kdeb" ] && [ -d "$debs" ] && [ -n "$work" ] ||
	{ echo "usage: install-vm.sh --kernel-deb FILE --debs DIR --work DIR" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "install-vm: run as root (mmdebstrap --mode=root)" >&2; exit 2; }
rel=$(dpkg-deb -f "$kdeb" Package)
rel=${rel#linux-image-}
user_debs=()
for p in libipeh1 tlvd ipeh-examples; do
	f=$(find "$debs" -maxdepth 1 -name "${p}_*.deb" | head -n 1)
	[ -n "$f" ] || { echo "install-vm: no ${p}_*.deb in $debs" >&2; exit 2; }
	user_debs+=("$f")
done

rm -rf "$work"
mkdir -p "$work/root-extra/root/ipeh-vm/debs"
cp "$kdeb" "${user_debs[@]}" "$work/root-extra/root/ipeh-vm/debs/"
echo "$rel" > "$work/root-extra/root/ipeh-vm/release"
install -D -m 0755 "$here/install-vm/ipeh-vm-step" "$work/root-extra/usr/local/sbin/ipeh-vm-step"
install -D -m 0644 "$here/install-vm/ipeh-vm-step.service" \
	"$work/root-extra/etc/systemd/system/ipeh-vm-step.service"
install -D -m 0644 "$here/install-vm/grub-serial.cfg" "$work/root-extra/etc/default/grub.d/ipeh-vm.cfg"

# apt's own Debian sources are the mirror, as in build-image.sh
mirrors=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
	[ -s "$f" ] && grep -q debian "$f" || continue
	case "$f" in *disabled*) continue ;; esac
	mirrors+=("$f")
done
[ ${#mirrors[@]} -gt 0 ] || { echo "install-vm: no Debian apt source found in /etc/apt" >&2; exit 1; }
echo "install-vm: mmdebstrap bookworm with Debian's kernel, GRUB downloaded ..."
# the userspace packages' run-time dependencies are installed here, as the
# VM cannot download them; GRUB is only downloaded (installing it needs the
# VM's disk)
mmdebstrap --variant=minbase --mode=root --quiet \
	--include=systemd-sysv,udev,kmod,linux-image-amd64,initramfs-tools,zstd,apt,iproute2,procps,passwd,libmnl0,libevent-2.1-7 \
	--customize-hook="cp -a $work/root-extra/. \"\$1\"/" \
	--customize-hook='mkdir -p "$1"/root/ipeh-vm/grub/partial' \
	--customize-hook='chroot "$1" apt-get install -y -qq --download-only --no-install-recommends -o Dir::Cache::archives=/root/ipeh-vm/grub grub-pc' \
	--customize-hook='rm -rf "$1"/root/ipeh-vm/grub/partial "$1"/root/ipeh-vm/grub/lock' \
	--customize-hook='echo "LABEL=ipeh-vm / ext4 errors=remount-ro 0 1" > "$1"/etc/fstab' \
	--customize-hook='echo ipeh-vm > "$1"/etc/hostname' \
	--customize-hook='chroot "$1" systemctl -q enable ipeh-vm-step.service' \
	--customize-hook='chroot "$1" systemctl -q mask serial-getty@ttyS0.service' \
	bookworm "$work/root" "${mirrors[@]}"

dkver=$(find "$work/root/boot" -name 'vmlinuz-*' -printf '%f\n' | sed 's/^vmlinuz-//' | sort -V | tail -n 1)
[ -n "$dkver" ] && [ -f "$work/root/boot/initrd.img-$dkver" ] ||
	{ echo "install-vm: no Debian kernel and initramfs in the image's /boot" >&2; exit 1; }
cp "$work/root/boot/vmlinuz-$dkver" "$work/root/boot/initrd.img-$dkver" "$work/"
echo "install-vm: Debian's kernel $dkver; $(find "$work/root/root/ipeh-vm/grub" -name '*.deb' | wc -l) GRUB packages downloaded"

# a 3 GiB disk: one partition from 1 MiB (GRUB's core image goes into the
# gap before it), the file system written straight into it
echo "install-vm: disk image (MBR, ext4 at 1 MiB) ..."
truncate -s 3G "$work/disk.img"
printf 'label: dos\nstart=2048, type=83, bootable\n' | sfdisk -q "$work/disk.img"
mke2fs -q -t ext4 -L ipeh-vm -E offset=1048576 -d "$work/root" "$work/disk.img" 3071M
rm -rf "$work/root" "$work/root-extra"

qemu_vm() { # LOG [QEMU ARGS...]: one boot, at most 30 min; the VM powers off
	local log=$1
	shift
	timeout 1800 qemu-system-x86_64 -accel tcg -cpu max -m 2048 -smp 1 -no-reboot \
		-display none -monitor none -serial "file:$log" -nic none \
		-drive "file=$work/disk.img,format=raw,if=virtio" "$@" || {
		echo "install-vm: QEMU exited with status $? (see $log)" >&2
		return 0
	}
}

t0=$SECONDS
echo "install-vm: boot 1 (Debian's kernel $dkver): apt-get install grub-pc, then the ipeh packages ..."
qemu_vm "$work/boot1.log" -kernel "$work/vmlinuz-$dkver" -initrd "$work/initrd.img-$dkver" \
	-append "root=LABEL=ipeh-vm rw console=ttyS0,115200"
echo "install-vm: boot 1 took $((SECONDS - t0)) s"
t0=$SECONDS
echo "install-vm: boot 2 (from the disk: BIOS, GRUB, GRUB's default entry) ..."
qemu_vm "$work/boot2.log" -boot c
echo "install-vm: boot 2 took $((SECONDS - t0)) s"

: > "$work/results.txt"
for b in 1 2; do
	console=$(tr -d '\r' < "$work/boot$b.log")
	sed -n 's/^IPEH-VM: \(ok \|not ok \)/\1/p' <<< "$console" >> "$work/results.txt"
	grep -q "^IPEH-VM: done boot $b" <<< "$console" ||
		echo "not ok install-vm: boot $b ran to its end -- no 'done boot $b' on the console (see boot$b.log)" >> "$work/results.txt"
done
cat "$work/results.txt"
! grep -q '^not ok ' "$work/results.txt" && grep -q '^ok ' "$work/results.txt"
