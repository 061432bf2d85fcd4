# qemu/records.jq: reading records (one JSON object a line) with jq, as a
# module: jq -L qemu 'include "records"; ...' (qemu/records.sh uses it).
# A key is a value's path from the top of the record, its names joined with
# "." and array items counted from 1 in brackets: type, config.rounds,
# lat_ns.p99, worker_seconds[2], disks[1].serial. Values are found by
# their keys, never by where they stand in the line.

# unprintk: a record line of the console without a kernel message that the
# console printed right after the record, before its newline
# ("}[   12.555790] Buffer I/O error ..."): printk writes to the serial
# port beside the tty's output. A line that is JSON as it is stays whole.
def unprintk:
	. as $s
	| if (try (fromjson | true) catch false) then $s
	  else $s | sub("}\\[ *[0-9]+[.][0-9]+\\] .*$"; "}") end;

# text($prefix): from one console line (raw text), the record's text: what
# follows the last "$prefix{" (the { kept); the line itself when $prefix is
# "". Carriage returns are dropped. Empty when the line holds no prefix.
def text($prefix):
	gsub("\r"; "")
	| if $prefix == "" then .
	  else split($prefix + "{") | select(length > 1) | "{" + .[-1] | unprintk end;

# before($prefix): the console text before the last "$prefix{" (the whole
# line when it holds none), carriage returns dropped.
def before($prefix):
	gsub("\r"; "") | split($prefix + "{") | if length > 1 then .[:-1] | join($prefix + "{") else .[0] end;

# record: the text as a record (a JSON object); empty when it is none (a
# line torn by a crash, boot noise).
def record: try fromjson catch empty | objects;

# keypath: a key as jq's path: "disks[1].serial" -> ["disks", 0, "serial"].
def keypath:
	[scan("[^.\\[\\]]+|\\[[0-9]+\\]")
	 | if startswith("[") then .[1:-1] | tonumber - 1 | if . < 0 then "[0]" else . end else . end];

# keyname: a jq path as a key: ["disks", 0, "serial"] -> "disks[1].serial".
def keyname:
	reduce .[] as $k ("";
		if ($k | type) == "number" then . + "[\($k + 1)]"
		elif . == "" then $k
		else . + "." + $k end);

# scalar: a value as one field of text: a string as it is (unescaped), a
# number or true/false as jq writes it, null as "", an array as its
# length, an object as "".
def scalar:
	if . == null then ""
	elif type == "array" then length | tostring
	elif type == "object" then ""
	else tostring end;

# at($path): the value at a keypath; null when there is none. A name may
# hold dots itself (config.mkfs_opts.ext4): the first run of names that is
# a key of the object and leads to a value is taken, the shortest first.
def at($path):
	if ($path | length) == 0 then .
	elif ($path[0] | type) == "number" then
		if type == "array" then .[$path[0]] | at($path[1:]) else null end
	elif type == "object" then
		. as $o
		| [range(1; ($path | length) + 1) as $n
		   | ($path[:$n] | map(strings)) as $names
		   | select(($names | length) == $n and ($o | has($names | join("."))))
		   | $o[$names | join(".")] | at($path[$n:]) | select(. != null)]
		| if length > 0 then .[0] else null end
	else null end;

# value($key): the record's value at a key; "" when it has none.
def value($key): at($key | keypath) | scalar;

# values($keys): the values at the keys, tab-separated.
def values($keys): . as $r | [$keys[] | . as $k | $r | value($k)] | join("\t");

# flat: every value that is not an object or array, one KEY=VALUE each, in
# the record's order.
def flat:
	. as $r | paths as $p | ($r | getpath($p)) as $v
	| select(($v | type) != "object" and ($v | type) != "array")
	| ($p | keyname) + "=" + ($v | scalar);
