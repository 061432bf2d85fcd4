# qemu/json.awk: a JSON reader for records (one JSON object per line), as
# POSIX awk functions; load it before the program that uses it
# (awk -f qemu/json.awk -f PROGRAM.awk).
# json_parse(TEXT): 1 when TEXT is one JSON value, 0 otherwise. Fills JV[PATH]
#   (the value: a string unescaped, a number or true/false/null as written,
#   the length of an array) and JT[PATH] (s, n, b, null, o, a) for every
#   value, PATH being the keys from the top joined with "." and array items
#   as [1], [2]: "type", "config.rounds", "lat_ns.p99", "worker_seconds[2]",
#   "disks[1].serial"; JN and JK[1..JN], the paths in the record's order.
#   A key is found by its name, never by where it stands in the record.
# json_get(PATH): JV[PATH], "" when the record has no such value.

function json_parse(s) {
	split("", JV); split("", JT); split("", JK); JN = 0
	_js = s; _jp = 1; _jn = length(s)
	if (!_jval("")) return 0
	_jws()
	return _jp > _jn
}
function json_get(path) { return (path in JV) ? JV[path] : "" }

function _jws(   c) {
	while (_jp <= _jn) {
		c = substr(_js, _jp, 1)
		if (c != " " && c != "\t" && c != "\n" && c != "\r") break
		_jp++
	}
}
function _jval(path,   c, k, n, rest) {
	_jws()
	JK[++JN] = path
	c = substr(_js, _jp, 1)
	if (c == "{") {
		JT[path] = "o"; JV[path] = ""; _jp++; _jws()
		if (substr(_js, _jp, 1) == "}") { _jp++; return 1 }
		for (;;) {
			_jws()
			if (substr(_js, _jp, 1) != "\"" || !_jstr()) return 0
			k = _jsv
			_jws()
			if (substr(_js, _jp, 1) != ":") return 0
			_jp++
			if (!_jval(path == "" ? k : path "." k)) return 0
			_jws()
			c = substr(_js, _jp, 1); _jp++
			if (c == "}") return 1
			if (c != ",") return 0
		}
	}
	if (c == "[") {
		JT[path] = "a"; JV[path] = 0; n = 0; _jp++; _jws()
		if (substr(_js, _jp, 1) == "]") { _jp++; return 1 }
		for (;;) {
			n++
			if (!_jval(path "[" n "]")) return 0
			JV[path] = n
			_jws()
			c = substr(_js, _jp, 1); _jp++
			if (c == "]") return 1
			if (c != ",") return 0
		}
	}
	if (c == "\"") {
		if (!_jstr()) return 0
		JT[path] = "s"; JV[path] = _jsv
		return 1
	}
	rest = substr(_js, _jp, 32)
	if (match(rest, /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) {
		JT[path] = "n"; JV[path] = substr(rest, 1, RLENGTH); _jp += RLENGTH
		return 1
	}
	if (rest ~ /^true/) { JT[path] = "b"; JV[path] = "true"; _jp += 4; return 1 }
	if (rest ~ /^false/) { JT[path] = "b"; JV[path] = "false"; _jp += 5; return 1 }
	if (rest ~ /^null/) { JT[path] = "null"; JV[path] = ""; _jp += 4; return 1 }
	return 0
}
# A string at _jp (on its opening quote): its text, unescaped, in _jsv.
function _jstr(   rest, i, c, h) {
	_jsv = ""; _jp++
	for (;;) {
		rest = substr(_js, _jp)
		i = match(rest, /["\\]/)
		if (!i) return 0
		_jsv = _jsv substr(rest, 1, i - 1)
		_jp += i
		if (substr(rest, i, 1) == "\"") return 1
		c = substr(_js, _jp, 1); _jp++
		if (c == "n") _jsv = _jsv "\n"
		else if (c == "t") _jsv = _jsv "\t"
		else if (c == "r") _jsv = _jsv "\r"
		else if (c == "b" || c == "f") _jsv = _jsv " "
		else if (c == "u") {
			h = substr(_js, _jp, 4)
			if (h !~ /^[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]$/) return 0
			_jp += 4
			_jsv = _jsv (h ~ /^00[2-7]/ ? sprintf("%c", _jhex(h)) : "?")
		} else if (c == "\"" || c == "\\" || c == "/") _jsv = _jsv c
		else return 0
	}
}
function _jhex(h,   i, v) {
	v = 0
	for (i = 1; i <= 4; i++) v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
	return v
}
