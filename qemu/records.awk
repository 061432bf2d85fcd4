# qemu/records.awk: chosen values of chosen records, one record a line.
# Use through qemu/records.sh (awk -f qemu/json.awk -f qemu/records.awk).
# Variables: type (only records of this type; empty: all), keys (the PATHs
# of json.awk, space-separated), flat (1: every value instead), prefix
# (records follow this text on a console line, the last occurrence counts;
# empty: the line is the record).
# Output: per record, the values of keys, tab-separated; with flat, one
# PATH=VALUE line per value (objects and arrays are their values); with
# neither, the record itself. A line that is not a record is skipped.
BEGIN { nk = split(keys, K, " ") }
{
	line = $0
	sub(/\r+$/, "", line)
	if (prefix != "") {
		i = index(line, prefix "{")
		if (!i) next
		while (i) {
			line = substr(line, i + length(prefix))
			i = index(line, prefix "{")
		}
	}
	if (!json_parse(line)) next
	if (type != "" && json_get("type") != type) next
	if (flat) {
		for (k = 1; k <= JN; k++)
			if (JT[JK[k]] != "o" && JT[JK[k]] != "a") print JK[k] "=" JV[JK[k]]
		next
	}
	if (!nk) { print line; next }
	out = ""
	for (k = 1; k <= nk; k++) out = out (k > 1 ? "\t" : "") json_get(K[k])
	print out
}
