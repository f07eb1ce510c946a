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
