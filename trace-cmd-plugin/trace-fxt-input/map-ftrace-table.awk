# SPDX-License-Identifier: GPL-2.0-only
#
# map-ftrace-table.awk - map-ftrace.table as the C header the mapping
# compiles (map-ftrace-table.h, in the build folder):
#  - PFT_EV_<EVENT>: each event's field number in FtraceEvent;
#  - PFT_<EVENT>_<FIELD>: its message's field numbers;
#  - MAP_TABLE_MOST_FIELDS: the most fields a row has;
#  - MAP_TABLE_FIELDS_<system>_<event> and MAP_TABLE_PKT_<system>_<event>:
#    a row of map_specials[] (map-dispatch.c), its fields and the
#    struct map_pkt_def of its message;
#  - MAP_TABLE_ROWS(ROW): ROW(system, event) for each row the table
#    gives whole ("table", "raw"), for map-dispatch.c to expand; a "raw"
#    row's struct map_pkt_def says .raw;
#  - for the tests (test-map-table.c): MAP_TABLE_ALL(ROW), ROW(system,
#    event, message) for every row, and MAP_TABLE_TYPES_<system>_<event>,
#    the types its fields are written as ("uint32", ...; NULL for a
#    field not written).
# Rows of kind "read" and fields marked "+" are the way back's only: none
# of the above names them.
#
# With -v inverse=1 it writes the way back's header instead
# (pft-ftrace-table.h, for common/fxt-tep/pft2dat-*.c): every row,
# "read" ones and "+" fields included, as PFT_TABLE_ROWS(ROW) with
# ROW(number, system, event, FIELDS), FIELDS a braced list of
# { "field", number, PFT_T_<TYPE> } (the types pft2dat.h declares), by
# FtraceEvent field number.
# Awk, not a script of another language: the build needs nothing new.
# A row that does not parse stops the build, naming its line.
#
#   awk -f map-ftrace-table.awk map-ftrace.table > map-ftrace-table.h
#   awk -v inverse=1 -f map-ftrace-table.awk map-ftrace.table \
#	> pft-ftrace-table.h

function fail(why) {
	printf "%s:%d: %s\n", FILENAME, FNR, why > "/dev/stderr"
	failed = 1
	exit 1
}

# what a type is written as (enum map_pkt_kind)
BEGIN {
	kind["int32"] = "MAP_PKT_INT"
	kind["int64"] = "MAP_PKT_INT"
	kind["uint32"] = "MAP_PKT_UINT"
	kind["uint64"] = "MAP_PKT_UINT"
	kind["string"] = "MAP_PKT_STR"
	kind["sym"] = "MAP_PKT_SYM"
	kind["kstr"] = "MAP_PKT_KSTR"
	kind["uint64s"] = "MAP_PKT_UINTS"
	n = 0
	most = 0
}

/^[ \t]*(#|$)/ { next }

{
	if (NF < 5)
		fail("a row: system:event, message, number, row, fields")
	if ($1 !~ /^[a-z_][a-z0-9_]*:[a-z_][a-z0-9_]*$/)
		fail("\"" $1 "\" is no system:event")
	split($1, se, ":")
	id = se[1] "_" se[2]
	if (id in seen)
		fail($1 " has a row already (line " seen[id] ")")
	seen[id] = FNR
	if ($2 !~ /^[A-Z][A-Za-z0-9]*$/)
		fail("\"" $2 "\" is no message name")
	if ($3 !~ /^[1-9][0-9]*$/)
		fail("\"" $3 "\" is no field number")
	if ($3 in evnum)
		fail("field " $3 " of FtraceEvent is " evnum[$3] "'s already")
	evnum[$3] = $1
	if ($4 != "table" && $4 != "raw" && $4 != "dispatch" && $4 != "read")
		fail("row \"" $4 "\": \"table\", \"raw\", \"dispatch\" " \
		     "or \"read\"")

	# every row, every field written, for the way back
	ni++
	isys[ni] = se[1]
	iev[ni] = se[2]
	inum[ni] = $3
	inf[ni] = 0
	delete used
	for (i = 5; i <= NF; i++) {
		f = $i
		sub(/^\+/, "", f)
		if (f !~ /^[a-z_][a-z0-9_]*=[1-9][0-9]*:[a-z0-9]+$/)
			continue
		split(f, p, /[=:]/)
		if (!(p[3] in kind))
			fail("\"" p[3] "\": int32, int64, uint32, uint64, " \
			     "uint64s, string, sym or kstr")
		if (p[2] in used)
			fail("field " p[2] " of " $2 " is " used[p[2]] \
			     "'s already")
		used[p[2]] = p[1]
		inf[ni]++
		iname[ni, inf[ni]] = p[1]
		inumf[ni, inf[ni]] = p[2]
		itype[ni, inf[ni]] = p[3]
	}
	if ($4 == "read")
		next

	n++
	sys[n] = se[1]
	ev[n] = se[2]
	msg[n] = $2
	num[n] = $3
	whole[n] = $4 == "table" || $4 == "raw"
	raw[n] = $4 == "raw"
	nf[n] = 0
	for (i = 5; i <= NF; i++)
		if ($i !~ /^\+/)
			nf[n]++
	if (nf[n] > most)
		most = nf[n]
	delete used
	k = 0
	for (i = 5; i <= NF; i++) {
		if ($i ~ /^\+/)
			continue
		k++
		fname[n, k] = ""
		fnum[n, k] = 0
		ftype[n, k] = ""
		if ($i == "-")
			continue
		if ($i ~ /^[a-z_][a-z0-9_]*$/) {
			fname[n, k] = $i
			continue
		}
		if ($i !~ /^[a-z_][a-z0-9_]*=[1-9][0-9]*:[a-z0-9]+$/)
			fail("\"" $i "\" is no field=number:type, field or -")
		split($i, p, /[=:]/)
		if (!(p[3] in kind))
			fail("\"" p[3] "\": int32, int64, uint32, uint64, " \
			     "uint64s, string, sym or kstr")
		if (p[2] + 0 > 536870911)
			fail(p[2] " is past protobuf's field numbers")
		if (p[2] in used)
			fail("field " p[2] " of " $2 " is " used[p[2]] \
			     "'s already")
		used[p[2]] = p[1]
		fname[n, k] = p[1]
		fnum[n, k] = p[2]
		ftype[n, k] = p[3]
	}
}

function inverse_header(	r, k, most) {
	print "/* SPDX-License-Identifier: GPL-2.0-only */"
	print "/*"
	print " * pft-ftrace-table.h - generated from map-ftrace.table by"
	print " * map-ftrace-table.awk -v inverse=1: edit the table, not this."
	print " */"
	print "#ifndef _PFT_FTRACE_TABLE_H"
	print "#define _PFT_FTRACE_TABLE_H"
	print ""
	print "/* ROW(FtraceEvent field, system, event, { fields }), a field"
	print "   { name, its length, its FtraceEvent field, its type } */"
	print "#define PFT_TABLE_ROWS(ROW)\t\\"
	for (r = 1; r <= ni; r++) {
		printf "\tROW(%d, \"%s\", \"%s\", {", inum[r], isys[r], iev[r]
		for (k = 1; k <= inf[r]; k++)
			printf "%s { \"%s\", %d, %d, PFT_T_%s }",
			       (k > 1 ? "," : ""), iname[r, k],
			       length(iname[r, k]), inumf[r, k],
			       toupper(itype[r, k])
		print " })\t\\"
		if (inf[r] > most)
			most = inf[r]
	}
	print ""
	print "/* The most fields of a row */"
	printf "#define PFT_TABLE_MAX_FIELDS\t%d\n", most
	print ""
	print "#endif /* _PFT_FTRACE_TABLE_H */"
}

END {
	if (failed)
		exit 1
	if (inverse) {
		inverse_header()
		exit 0
	}
	print "/* SPDX-License-Identifier: GPL-2.0-only */"
	print "/*"
	print " * map-ftrace-table.h - generated from map-ftrace.table by"
	print " * map-ftrace-table.awk: edit the table, not this."
	print " */"
	print "#ifndef _MAP_FTRACE_TABLE_H"
	print "#define _MAP_FTRACE_TABLE_H"
	print ""
	print "/* the most fields a row has */"
	printf "#define MAP_TABLE_MOST_FIELDS\t%d\n", most
	print ""
	print "/* FtraceEvent: each event's field. */"
	print "enum {"
	for (r = 1; r <= n; r++)
		printf "\tPFT_EV_%s = %d,\n", toupper(ev[r]), num[r]
	print "};"
	for (r = 1; r <= n; r++) {
		printf "\n/* %s. */\nenum {\n", msg[r]
		for (k = 1; k <= nf[r]; k++)
			if (fnum[r, k])
				printf "\tPFT_%s_%s = %d,\t/* %s */\n",
				       toupper(ev[r]), toupper(fname[r, k]),
				       fnum[r, k], ftype[r, k]
		print "};"
	}
	print ""
	print "/* map_specials[]'s rows: each event's fields, its message. */"
	for (r = 1; r <= n; r++) {
		id = sys[r] "_" ev[r]
		printf "#define MAP_TABLE_FIELDS_%s\t\\\n\t", id
		for (k = 1; k <= nf[r]; k++)
			printf "%s%s", (k > 1 ? ", " : ""),
			       (fname[r, k] == "" ? "NULL" : \
				"\"" fname[r, k] "\"")
		printf "\n#define MAP_TABLE_PKT_%s\t\\\n", id
		printf "\t.event = PFT_EV_%s, .f = {", toupper(ev[r])
		for (k = 1; k <= nf[r]; k++)
			printf "%s { %s, %d }", (k > 1 ? "," : ""),
			       fnum[r, k] ? kind[ftype[r, k]] : "MAP_PKT_NONE",
			       fnum[r, k]
		print " }" (raw[r] ? ", .raw = true" : "")
	}
	print ""
	print "/* For the tests: every row, the types of its fields. */"
	print "#define MAP_TABLE_ALL(ROW)\t\\"
	for (r = 1; r <= n; r++)
		printf "\tROW(%s, %s, %s)\t\\\n", sys[r], ev[r], msg[r]
	print ""
	for (r = 1; r <= n; r++) {
		printf "#define MAP_TABLE_TYPES_%s_%s\t\\\n\t", sys[r], ev[r]
		for (k = 1; k <= nf[r]; k++)
			printf "%s%s", (k > 1 ? ", " : ""),
			       fnum[r, k] ? "\"" ftype[r, k] "\"" : "NULL"
		print ""
	}
	print ""
	print "/* The rows map-dispatch.c takes as they stand. */"
	print "#define MAP_TABLE_ROWS(ROW)\t\\"
	for (r = 1; r <= n; r++)
		if (whole[r])
			printf "\tROW(%s, %s)\t\\\n", sys[r], ev[r]
	print ""
	print "#endif /* _MAP_FTRACE_TABLE_H */"
}
