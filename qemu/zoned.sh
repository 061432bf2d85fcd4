# zoned.sh: the target's zoned namespace (--target-zoned), for qemu/run.sh
# (sourced): its options, what combines with it, QEMU's nvme-ns properties
# and the guest's words that name the namespaces.
# Options (qemu/run.sh --help lists them with its own):
#   --target-zoned [ZONE_SIZE[,capacity=C][,max_open=N][,max_active=N]]
#                     the target's NVMe controller has two namespaces:
#                     nsid 1 conventional (the target file, --target-size)
#                     and nsid 2 zoned (QEMU's ZNS emulation, nvme-ns
#                     zoned=true, backed by WORK/zoned.img of --zoned-size):
#                     zones of ZONE_SIZE (default 64M, a power of 2), each
#                     holding C (default: ZONE_SIZE), at most N open and N
#                     active zones (default 0: no limit). The guest is told
#                     fsbench.target=wwn:WWID of the namespace
#                     --target-ns names and, for the zoned one,
#                     fsbench.zoned_conv=wwn:WWID of the conventional one
#                     (f2fs's metadata), unless --append sets them (WWID:
#                     nvme.1b36-SERIAL-MODEL-NSID, the serial and model in
#                     hex, as Linux gives it for QEMU's namespaces).
#                     NVMe bus only; not with --unplug-target-after-records
#                     or --throttle-at. QEMU keeps the zones' state in
#                     memory: every boot starts with them empty
#   --zoned-size S    the zoned namespace's size (default --target-size)
#   --target-ns NS    with --target-zoned, the run's target: zoned (the
#                     default) or conventional (the same controller's other
#                     namespace: the run to hold the zoned one against)
# Inputs (qemu/run.sh's variables): here (qemu/), tbus, tsize,
#   unplug_after, throttle_at, append (the guest's words).
# Gives: zoned_opt OPT [ARG] (nargs: how many words it took, 0 when OPT is
#   not its own), zoned_check (tzoned: the zoned namespace's nvme-ns
#   properties, empty without --target-zoned; zsize, tns; append
#   completed), ZUUID_CONV and ZUUID_ZONED (the namespaces' UUIDs),
#   zoned_say (what the console says of them).
# Exit status: through ../image/lib.sh's die, 2 on misuse.

. "$here/../image/lib.sh"
prog=qemu

zoned= zsize= tns= tzoned=
# The namespaces under --target-zoned: fixed UUIDs (QEMU's default is a
# new random one each boot), and the names the guest finds them by, their
# wwid as Linux 6.1 gives it for QEMU's controller: nvme.VID-SERIAL-MODEL-NSID
# (vendor 1b36, the serial and model in hex without their padding, the
# nsid in 8 hex digits; that kernel does not take QEMU's namespace UUIDs
# for the wwid).
ZUUID_CONV=5a0e4a5e-0000-4000-8000-000000000001
ZUUID_ZONED=5a0e4a5e-0000-4000-8000-000000000002
hex() { printf %s "$1" | od -An -tx1 | tr -d ' \n'; }
zwwid() { echo "nvme.1b36-$(hex fsbench-target)-$(hex 'QEMU NVMe Ctrl')-$(printf %08x "$1")"; }

zoned_opt() {
	nargs=0
	case $1 in
	--target-zoned)
		zoned=64M nargs=1
		case ${2:-} in [0-9]*) zoned=$2 nargs=2 ;; esac ;;
	--zoned-size) zsize=$2 nargs=2 ;;
	--target-ns)
		case $2 in zoned|conventional) ;; *) die $EX_USAGE "--target-ns '$2': zoned or conventional" ;; esac
		tns=$2 nargs=2 ;;
	*) return 1 ;;
	esac
}

# The nvme-ns properties of the zoned namespace, and the guest's target
# (and zoned_conv) by the namespaces' wwids.
zoned_check() {
	if [ -z "$zoned" ]; then
		[ -z "$zsize$tns" ] || die $EX_USAGE "--zoned-size, --target-ns: only with --target-zoned"
		return 0
	fi
	[ "$tbus" = nvme ] || die $EX_USAGE "--target-zoned: only with --target-bus nvme (QEMU emulates zoned NVMe namespaces), not $tbus"
	[ "$unplug_after" = 0 ] || die $EX_USAGE "--target-zoned: not with --unplug-target-after-records"
	[ -z "$throttle_at" ] || die $EX_USAGE "--target-zoned: not with --throttle-at"
	_zs=${zoned%%,*}
	_b=$(numfmt --from=iec "$_zs" 2>/dev/null) || die $EX_USAGE "--target-zoned '$zoned': $_zs is not a size"
	[ "$_b" -ge 1048576 ] && [ $((_b & (_b - 1))) = 0 ] ||
		die $EX_USAGE "--target-zoned '$zoned': the zone size must be a power of 2 of at least 1M (Linux), not $_zs"
	tzoned="zoned=true,zoned.zone_size=$_zs"
	_rest=${zoned#"$_zs"}
	IFS=,
	for _kv in ${_rest#,}; do
		case $_kv in
		capacity=?*)
			_c=$(numfmt --from=iec "${_kv#*=}" 2>/dev/null) && [ "$_c" -gt 0 ] && [ "$_c" -le "$_b" ] ||
				{ unset IFS; die $EX_USAGE "--target-zoned: capacity=${_kv#*=}: a size of at most the zone size $_zs"; }
			tzoned="$tzoned,zoned.zone_capacity=${_kv#*=}" ;;
		max_open=*|max_active=*)
			case ${_kv#*=} in ''|*[!0-9]*) unset IFS; die $EX_USAGE "--target-zoned: $_kv: a whole number (0: no limit)" ;; esac
			tzoned="$tzoned,zoned.${_kv%%=*}=${_kv#*=}" ;;
		*) unset IFS; die $EX_USAGE "--target-zoned '$zoned': ZONE_SIZE[,capacity=C][,max_open=N][,max_active=N]" ;;
		esac
	done
	unset IFS
	[ -n "$zsize" ] || zsize=$tsize
	numfmt --from=iec "$zsize" >/dev/null 2>&1 || die $EX_USAGE "--zoned-size '$zsize': not a size"
	[ $(( $(numfmt --from=iec "$zsize") % _b )) = 0 ] ||
		die $EX_USAGE "--zoned-size $zsize: not a whole number of zones of $_zs"
	case " $append " in
	*" fsbench.target="*) ;;
	*) if [ "${tns:-zoned}" = zoned ]; then append="$append fsbench.target=wwn:$(zwwid 2)"
	   else append="$append fsbench.target=wwn:$(zwwid 1)"; fi ;;
	esac
	if [ "${tns:-zoned}" = zoned ]; then
		case " $append " in *" fsbench.zoned_conv="*) ;; *) append="$append fsbench.zoned_conv=wwn:$(zwwid 1)" ;; esac
	fi
}

zoned_say() {
	[ -z "$tzoned" ] || say "target: one NVMe controller, nsid 1 conventional ($tsize, uuid $ZUUID_CONV), nsid 2 zoned ($zsize, $tzoned, uuid $ZUUID_ZONED); the run's target: the ${tns:-zoned} namespace"
}
