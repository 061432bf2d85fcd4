# apt.sh: a private apt state for one Debian architecture (sourced, POSIX
# sh; it sources image/lib.sh for its messages): apt runs with its own lists, cache, status file
# and source list (a copy of the host's), without root, and the host's apt
# configuration is left untouched.
#
#   apt_state DIR ARCH   make DIR/state (lists, an empty status), DIR/cache,
#                        DIR/etc (the host's sources copied: the only thing
#                        taken from the host) and DIR/apt.conf naming them;
#                        apt then runs as `apt-get -c DIR/apt.conf ...`
#                        (read after the host's apt.conf.d, so it wins);
#                        APT_SOURCES=FILE: that sources list instead of
#                        the host's (a test's local repository)
#   apt_lists DIR        true when DIR has package lists (an update was done)
#   apt_update DIR ARCH  apt-get update in that state (log DIR/update.log);
#                        an index that failed while others arrived (a mirror
#                        in the middle of a sync) is said and passed over;
#                        no list at all: exit 4
#   apt_sources DIR      the state's sources on one line ("URI SUITE...;
#                        ..."), for messages
#
# Users: image/fetch.sh (the packages of a board), image/debkernel.sh (a
# Debian kernel package as a kernel of your own).
. "$(dirname "$0")/lib.sh"

apt_state() {
	_d=$1 _a=$2
	mkdir -p "$_d/state/lists/partial" "$_d/cache/archives/partial" \
		"$_d/etc/sources.list.d" "$_d/etc/preferences.d" ||
		die $EX_SYSTEM "cannot make the apt state $_d"
	_d=$(cd "$_d" && pwd)	# apt takes a relative path from /etc/apt
	: >"$_d/state/status"
	if [ -n "${APT_SOURCES:-}" ]; then
		cp "$APT_SOURCES" "$_d/etc/sources.list" || die $EX_USAGE "APT_SOURCES=$APT_SOURCES: cannot be read"
		rm -f "$_d/etc/sources.list.d/"*
	elif [ -f /etc/apt/sources.list ]; then
		cp /etc/apt/sources.list "$_d/etc/sources.list"
	else
		: >"$_d/etc/sources.list"
	fi
	for _f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -z "${APT_SOURCES:-}" ] && [ -f "$_f" ] || continue
		cp "$_f" "$_d/etc/sources.list.d/"
	done
	# apt's binary caches kept in the private state (a host's apt.conf.d
	# may turn them off, as Debian's container images do): each apt call
	# then reads them instead of parsing every list again (0.5 s, not 1.8 s).
	# The file is written whole, then renamed: another build's apt may be
	# reading it.
	cat >"$_d/apt.conf.$$" <<EOF
APT::Architecture "$_a";
APT::Architectures "$_a";
Dir::State "$_d/state";
Dir::State::status "$_d/state/status";
Dir::Cache "$_d/cache";
Dir::Cache::pkgcache "pkgcache.bin";
Dir::Cache::srcpkgcache "srcpkgcache.bin";
Dir::Etc::SourceList "$_d/etc/sources.list";
Dir::Etc::SourceParts "$_d/etc/sources.list.d";
Dir::Etc::Preferences "$_d/etc/preferences";
Dir::Etc::PreferencesParts "$_d/etc/preferences.d";
Debug::NoLocking "1";
APT::Sandbox::User "$(id -un)";
Acquire::Languages "none";
APT::Get::List-Cleanup "0";
EOF
	mv -f "$_d/apt.conf.$$" "$_d/apt.conf"
}

apt_lists() {
	for _f in "$1"/state/lists/*_Packages*; do
		[ ! -e "$_f" ] || return 0
	done
	return 1
}

apt_update() {
	say "apt-get update ($2, private state in $1)"
	apt-get -q -c "$1/apt.conf" update >"$1/update.log" 2>&1 && return 0
	if apt_lists "$1" && grep -q '^E: Some index files failed to download' "$1/update.log"; then
		warn "apt-get update ($2): some indexes failed, going on with the others:"
		grep '^E: Failed to fetch' "$1/update.log" | cut -c1-200 >&2 || :
		return 0
	fi
	cat "$1/update.log" >&2
	die $EX_SYSTEM "apt-get update ($2, private state in $1) failed"
}

apt_sources() {
	apt-get -c "$1/apt.conf" indextargets --format '$(REPO_URI) $(RELEASE)' 'Created-By: Packages' 2>/dev/null |
		sort -u | awk '{ s[$1] = s[$1] " " $2 } END { for (u in s) print u s[u] }' | sort | paste -sd';' | sed 's/;/; /g'
}
