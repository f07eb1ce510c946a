# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# NVMe over Fabrics helpers of the guest scripts (scenarios/wire/64-nvmf.sh,
# bench/vm/32-nvmf-fio.sh): the target's subsystem and port through nvmet's
# configfs, the host's identity and its namespace.  Sourced; sets nothing
# but NVMF_CFS, NVMF_HOSTNQN and NVMF_HOSTID.
#
# The kernel refuses a connect whose host NQN names a UUID other than the
# host ID (nvme-cli would otherwise take /etc/nvme/hostid, which the
# initramfs has not): nvmf_connect passes both, derived from one UUID.
#
# nvmf_sums and nvmf_write_blocks read the caller's NVMF_BLOCKS: one
# block a line, "SIZE_KIB OFFSET_KIB", each offset a multiple of its
# size (dd's seek counts blocks).

NVMF_CFS=/sys/kernel/config/nvmet
NVMF_HOSTID=6b8c1f3e-0f3a-4d52-9c51-2f0c4a1e00${WIRE_SELF:-0}${WIRE_SELF:-0}
NVMF_HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$NVMF_HOSTID

nvmf_configfs() {
	grep -q " /sys/kernel/config configfs " /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config
}

# nvmf_subsys_add NQN BLOCKDEV: subsystem NQN (any host) with BLOCKDEV as
# namespace 1, enabled.
nvmf_subsys_add() {
	local s=$NVMF_CFS/subsystems/$1
	nvmf_configfs || return
	mkdir "$s" &&
		echo 1 >"$s/attr_allow_any_host" &&
		mkdir "$s/namespaces/1" &&
		echo "$2" >"$s/namespaces/1/device_path" &&
		echo 1 >"$s/namespaces/1/enable"
}
# nvmf_subsys_remove NQN
nvmf_subsys_remove() {
	local s=$NVMF_CFS/subsystems/$1
	echo 0 >"$s/namespaces/1/enable" &&
		rmdir "$s/namespaces/1" && rmdir "$s"
}

# nvmf_port_add NQN TRTYPE ADDR SVCID: port 1 (IPv4) exporting NQN.
nvmf_port_add() {
	local p=$NVMF_CFS/ports/1
	mkdir $p &&
		echo "$2" >$p/addr_trtype &&
		echo ipv4 >$p/addr_adrfam &&
		echo "$3" >$p/addr_traddr &&
		echo "$4" >$p/addr_trsvcid &&
		ln -s "$NVMF_CFS/subsystems/$1" "$p/subsystems/$1"
}
# nvmf_port_remove NQN
nvmf_port_remove() {
	rm "$NVMF_CFS/ports/1/subsystems/$1" && rmdir $NVMF_CFS/ports/1
}

# nvmf_connect TRTYPE NQN ADDR SVCID [nvme connect options...]
nvmf_connect() {
	local t=$1 n=$2 a=$3 s=$4
	shift 4
	nvme connect -t "$t" -n "$n" -a "$a" -s "$s" \
		-q "$NVMF_HOSTNQN" -I "$NVMF_HOSTID" "$@"
}

# nvmf_ns: the first namespace block device's name (nvmeXnY), if any.
nvmf_ns() {
	local n
	for n in /sys/block/nvme*n*; do
		[ -e "$n" ] || continue
		n=${n##*/}
		# nvmeXcYnZ: a path of a multipath namespace, not a disk
		case "$n" in nvme*c*n*) continue ;; esac
		echo "$n"
		return 0
	done
	return 1
}
nvmf_ns_ready() { local n; n=$(nvmf_ns) && [ -b "/dev/$n" ]; }

# nvmf_sums DEVICE: sha256 of each block of NVMF_BLOCKS read back from
# DEVICE with O_DIRECT, on one line.
nvmf_sums() {
	local size off line=
	while read -r size off; do
		line="$line $(dd if="$1" bs=${size}k skip=$((off / size)) count=1 \
			iflag=direct 2>/dev/null | sha256sum | cut -c1-16)"
	done <<EOF
$NVMF_BLOCKS
EOF
	echo "${line# }"
}

# nvmf_write_blocks DEVICE: each block of NVMF_BLOCKS, from /dev/urandom,
# written with O_DIRECT; its own checksum compared with what reads back.  What
# read back, as nvmf_sums gives it, goes to /tmp/nvmf.sums.
nvmf_write_blocks() {
	local size off want got bad=0 line=
	while read -r size off; do
		dd if=/dev/urandom of=/tmp/blk bs=1k count="$size" 2>/dev/null
		want=$(sha256sum </tmp/blk | cut -c1-16)
		dd if=/tmp/blk of="$1" bs=${size}k seek=$((off / size)) count=1 \
			oflag=direct 2>/dev/null || { echo "writing ${size} KiB failed"; bad=1; }
		got=$(dd if="$1" bs=${size}k skip=$((off / size)) count=1 \
			iflag=direct 2>/dev/null | sha256sum | cut -c1-16)
		echo "${size} KiB at ${off} KiB: wrote $want, read $got"
		[ "$want" = "$got" ] || bad=1
		line="$line $got"
	done <<EOF
$NVMF_BLOCKS
EOF
	echo "${line# }" >/tmp/nvmf.sums
	rm -f /tmp/blk
	return $bad
}
