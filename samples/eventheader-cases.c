// SPDX-License-Identifier: GPL-2.0-only
/*
 * eventheader-cases.c - the catalogue of eventheader-cases.h and its walk.
 *
 * Every expected JSON text below was written by hand from the rules of
 * LinuxTracepoints' EventFormatter as its own test vectors show them
 * (decimal integers, "0x%X" hex, "EPERM(1)" errnos, ISO times or
 * "TIME(n)", shortest floats, "01 02" hex bytes, strings as UTF-8 with
 * byte-order marks dropped, "[ a, b ]" and "{ "k": v }" with spaces);
 * none of it was taken from the decoder under test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader-cases.h"

/* The tables leave out the trailing members a field does not need. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define V(...)		((const struct ehc_value[]){ __VA_ARGS__ })
#define N(x)		{ .u = (x) }
/* bytes as written, whatever the byte order; or 8-bit code units */
#define S(s)		{ .p = (s), .n = sizeof(s) - 1 }
#define W16(...)	{ .p = (const uint16_t[]){ __VA_ARGS__ },	\
			  .n = sizeof((const uint16_t[]){ __VA_ARGS__ }) / 2 }
#define W32(...)	{ .p = (const uint32_t[]){ __VA_ARGS__ },	\
			  .n = sizeof((const uint32_t[]){ __VA_ARGS__ }) / 4 }
#define FIELDS(...)	((const struct ehc_field[]){ __VA_ARGS__, { NULL } })

#define BIN		EH_ENC_BINARY_LENGTH16_CHAR8
#define CARR		EH_ENC_CARRAY
#define VARR		EH_ENC_VARRAY

#define PROVIDER	"EhFixture"
#define LEVEL5		{ .level = 5 }
#define META5		"\"level\": 5, \"keyword\": \"0x1\""

static const uint8_t act_parent[16] = {
	0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1,
	0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
};
static const uint8_t act_child[16] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
	0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};
#define ACT_PARENT	"\"6ba7b810-9dad-11d1-80b4-00c04fd430c8\""
#define ACT_CHILD	"\"00112233-4455-6677-8899-aabbccddeeff\""

const struct ehc_event ehc_events[] = {
	{ PROVIDER, "", 1, "Ints", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "u8", EH_ENC_VALUE8, 0, 0, 0, V(N(200)), "200" },
		{ "i8", EH_ENC_VALUE8, EH_FMT_SIGNED_INT, 0, 0, V(N(0x80)),
		  "-128" },
		{ "u16", EH_ENC_VALUE16, 0, 0, 0, V(N(60000)), "60000" },
		{ "i16", EH_ENC_VALUE16, EH_FMT_SIGNED_INT, 0, 0,
		  V(N(0x8000)), "-32768" },
		{ "u32", EH_ENC_VALUE32, EH_FMT_UNSIGNED_INT, 0, 0,
		  V(N(4000000000u)), "4000000000" },
		{ "i32", EH_ENC_VALUE32, EH_FMT_SIGNED_INT, 0, 0,
		  V(N(0xfffffffe)), "-2" },
		{ "u64", EH_ENC_VALUE64, 0, 0, 0,
		  V(N(18000000000000000000ull)), "18000000000000000000" },
		{ "i64", EH_ENC_VALUE64, EH_FMT_SIGNED_INT, 0, 0,
		  V(N(0x8000000000000000ull)), "-9223372036854775808" },
		{ "pid", EH_ENC_VALUE32, EH_FMT_PID, 0, 0, V(N(4242)),
		  "4242" }) },
	{ PROVIDER, "", 1, "Hex", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "x8", EH_ENC_VALUE8, EH_FMT_HEX_INT, 0, 0, V(N(0xc8)),
		  "\"0xC8\"" },
		{ "x16", EH_ENC_VALUE16, EH_FMT_HEX_INT, 0, 0,
		  V(N(0xea60)), "\"0xEA60\"" },
		{ "x32", EH_ENC_VALUE32, EH_FMT_HEX_INT, 0x12, 0,
		  V(N(0x77359400)), "\"0x77359400\"" },
		{ "x64", EH_ENC_VALUE64, EH_FMT_HEX_INT, 0, 0,
		  V(N(0xf123456789abcdefull)), "\"0xF123456789ABCDEF\"" },
		{ "zero", EH_ENC_VALUE32, EH_FMT_HEX_INT, 0, 0, V(N(0)),
		  "\"0x0\"" }) },
	{ PROVIDER, "", 1, "Errno", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "e1", EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0, V(N(1)),
		  "\"EPERM(1)\"" },
		{ "e2", EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0, V(N(2)),
		  "\"ENOENT(2)\"" },
		{ "e131", EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0, V(N(131)),
		  "\"ENOTRECOVERABLE(131)\"" },
		{ "big", EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0,
		  V(N(2000000000)), "\"ERRNO(2000000000)\"" },
		{ "min", EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0,
		  V(N(0x80000000u)), "\"ERRNO(-2147483648)\"" }) },
	{ PROVIDER, "", 1, "Time", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "t32", EH_ENC_VALUE32, EH_FMT_TIME, 0, 0,
		  V(N(2000000000)), "\"2033-05-18T03:33:20\"" },
		{ "t32min", EH_ENC_VALUE32, EH_FMT_TIME, 0, 0,
		  V(N(0x80000000u)), "\"1901-12-13T20:45:52\"" },
		{ "t64", EH_ENC_VALUE64, EH_FMT_TIME, 0, 0,
		  V(N(1700000000)), "\"2023-11-14T22:13:20\"" },
		{ "epoch", EH_ENC_VALUE64, EH_FMT_TIME, 0, 0, V(N(0)),
		  "\"1970-01-01T00:00:00\"" },
		{ "old", EH_ENC_VALUE64, EH_FMT_TIME, 0, 0,
		  V(N((uint64_t)-11644473601ll)), "\"1600-12-31T23:59:59\"" },
		{ "far", EH_ENC_VALUE64, EH_FMT_TIME, 0, 0,
		  V(N(9000000000000000000ull)),
		  "\"TIME(9000000000000000000)\"" }) },
	{ PROVIDER, "", 1, "Bool", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "f8", EH_ENC_VALUE8, EH_FMT_BOOLEAN, 0, 0, V(N(0)),
		  "false" },
		{ "t8", EH_ENC_VALUE8, EH_FMT_BOOLEAN, 0, 0, V(N(1)),
		  "true" },
		{ "x8", EH_ENC_VALUE8, EH_FMT_BOOLEAN, 0, 0, V(N(255)),
		  "255" },
		{ "t16", EH_ENC_VALUE16, EH_FMT_BOOLEAN, 0, 0, V(N(1)),
		  "true" },
		{ "x16", EH_ENC_VALUE16, EH_FMT_BOOLEAN, 0, 0, V(N(60000)),
		  "60000" },
		{ "x32", EH_ENC_VALUE32, EH_FMT_BOOLEAN, 0, 0,
		  V(N(0x80000000u)), "-2147483648" }) },
	{ PROVIDER, "", 1, "Float", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "f32", EH_ENC_VALUE32, EH_FMT_FLOAT, 0, 0,
		  V(N(0x4048f5c3)), "3.14" },
		{ "third32", EH_ENC_VALUE32, EH_FMT_FLOAT, 0, 0,
		  V(N(0x3eaaaaab)), "0.33333334" },
		{ "ninf", EH_ENC_VALUE32, EH_FMT_FLOAT, 0, 0,
		  V(N(0xff800000)), "\"-inf\"" },
		{ "nnan", EH_ENC_VALUE32, EH_FMT_FLOAT, 0, 0,
		  V(N(0xffc00000)), "\"-nan\"" },
		{ "f64", EH_ENC_VALUE64, EH_FMT_FLOAT, 0, 0,
		  V(N(0x40191eb851eb851full)), "6.28" },
		{ "third64", EH_ENC_VALUE64, EH_FMT_FLOAT, 0, 0,
		  V(N(0x3fd5555555555555ull)), "0.3333333333333333" },
		{ "tiny", EH_ENC_VALUE64, EH_FMT_FLOAT, 0, 0, V(N(1)),
		  "5e-324" },
		{ "big", EH_ENC_VALUE64, EH_FMT_FLOAT, 0, 0,
		  V(N(0x4341c37937e08000ull)), "1e+16" }) },
	{ PROVIDER, "", 1, "HexBytes", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "h8", EH_ENC_VALUE8, EH_FMT_HEX_BYTES, 0, 0, V(S("\x01")),
		  "\"01\"" },
		{ "h16", EH_ENC_VALUE16, EH_FMT_HEX_BYTES, 0, 0,
		  V(S("\x01\x02")), "\"01 02\"" },
		{ "h32", EH_ENC_VALUE32, EH_FMT_HEX_BYTES, 0, 0,
		  V(S("\x01\x02\x03\x04")), "\"01 02 03 04\"" },
		{ "h64", EH_ENC_VALUE64, EH_FMT_HEX_BYTES, 0, 0,
		  V(S("\x01\x02\x03\x04\x05\x06\x07\x08")),
		  "\"01 02 03 04 05 06 07 08\"" },
		{ "v128", EH_ENC_VALUE128, 0, 0, 0,
		  V(S("\x01\x02\x03\x04\x05\x06\x07\x08"
		      "\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10")),
		  "\"01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10\"" },
		{ "hz16", EH_ENC_ZSTRING_CHAR16, EH_FMT_HEX_BYTES, 0, 0,
		  V(W16('h', 'j')), "\"68 00 6a 00\"", "\"00 68 00 6a\"" },
		{ "hl8", EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_HEX_BYTES, 0,
		  0, V(S("hj")), "\"68 6a\"" },
		{ "bin", EH_ENC_BINARY_LENGTH16_CHAR8, 0, 0, 0, V(S("Ho")),
		  "\"48 6f\"" },
		{ "bin0", EH_ENC_BINARY_LENGTH16_CHAR8, 0, 0, 0, V(S("")),
		  "\"\"" },
		{ "binu", EH_ENC_BINARY_LENGTH16_CHAR8, EH_FMT_UNSIGNED_INT,
		  0, 0, V(S("\x01\x00")), "1", "256" },
		{ "binnull", EH_ENC_BINARY_LENGTH16_CHAR8,
		  EH_FMT_UNSIGNED_INT, 0, 0, V(S("")), "null" }) },
	{ PROVIDER, "", 1, "Strings", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "z8", EH_ENC_ZSTRING_CHAR8, 0, 0, 0, V(S("hjkl")),
		  "\"hjkl\"" },
		{ "empty", EH_ENC_ZSTRING_CHAR8, 0, 0, 0, V(S("")), "\"\"" },
		{ "z16", EH_ENC_ZSTRING_CHAR16, 0, 0, 0,
		  V(W16('h', 0xe9, 0xd83d, 0xde00)),
		  "\"h\xc3\xa9\xf0\x9f\x98\x80\"" },
		{ "z32", EH_ENC_ZSTRING_CHAR32, 0, 0, 0,
		  V(W32('H', 0x10ffff)), "\"H\xf4\x8f\xbf\xbf\"" },
		{ "l8", EH_ENC_STRING_LENGTH16_CHAR8, 0, 0, 0,
		  V(S("q\"\n")), "\"q\\\"\\n\"" },
		{ "l16", EH_ENC_STRING_LENGTH16_CHAR16, 0, 0, 0,
		  V(W16('a', 'b')), "\"ab\"" },
		{ "l32", EH_ENC_STRING_LENGTH16_CHAR32, 0, 0, 0,
		  V(W32('x', 'y', 'z')), "\"xyz\"" },
		{ "latin1", EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING8, 0, 0,
		  V(S("\xe9t\xe9")), "\"\xc3\xa9t\xc3\xa9\"" },
		{ "utf8", EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING_UTF, 0, 0,
		  V(S("\xc3\xa9")), "\"\xc3\xa9\"" },
		{ "ctl", EH_ENC_ZSTRING_CHAR8, 0, 0, 0, V(S("a\x01")),
		  "\"a\\u0001\"" }) },
	{ PROVIDER, "", 1, "BomStrings", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "bom8", EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING_UTF_BOM, 0, 0,
		  V(S("\xef\xbb\xbfhjkl")), "\"hjkl\"" },
		{ "bom16", EH_ENC_ZSTRING_CHAR16, EH_FMT_STRING_UTF_BOM, 0,
		  0, V(W16(0xfeff, 'h', 'j')), "\"hj\"" },
		/* the other byte order's mark: the units read swapped */
		{ "xbom16", EH_ENC_ZSTRING_CHAR16, EH_FMT_STRING_UTF_BOM, 0,
		  0, V(W16(0xfffe, 0x6800, 0x6a00)), "\"hj\"" },
		{ "nobom16", EH_ENC_ZSTRING_CHAR16, EH_FMT_STRING_UTF_BOM, 0,
		  0, V(W16('o', 'k')), "\"ok\"" },
		{ "xml", EH_ENC_STRING_LENGTH16_CHAR16, EH_FMT_STRING_XML, 0,
		  0, V(W16(0xfeff, '<', 'a', '/', '>')), "\"<a/>\"" },
		{ "json32", EH_ENC_STRING_LENGTH16_CHAR32,
		  EH_FMT_STRING_JSON, 0, 0, V(W32(0xfeff, '{', '}')),
		  "\"{}\"" },
		{ "json8", EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING_JSON, 0, 0,
		  V(S("[1]")), "\"[1]\"" }) },
	{ PROVIDER, "", 1, "Chars", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "c8", EH_ENC_VALUE8, EH_FMT_STRING8, 0, 0, V(N('A')),
		  "\"A\"" },
		{ "c8fe", EH_ENC_VALUE8, EH_FMT_STRING8, 0, 0, V(N(0xfe)),
		  "\"\xc3\xbe\"" },
		{ "c16", EH_ENC_VALUE16, EH_FMT_STRING_UTF, 0, 0, V(N('B')),
		  "\"B\"" },
		{ "c16fffe", EH_ENC_VALUE16, EH_FMT_STRING_UTF, 0, 0,
		  V(N(0xfffe)), "\"\xef\xbf\xbe\"" },
		{ "c32", EH_ENC_VALUE32, EH_FMT_STRING_UTF, 0, 0,
		  V(N(0x10ffff)), "\"\xf4\x8f\xbf\xbf\"" },
		{ "ch3", EH_ENC_VALUE8 | CARR, EH_FMT_STRING8, 0x10, 3,
		  V(N('H'), N('o'), N('w')), "[ \"H\", \"o\", \"w\" ]" }) },
	{ PROVIDER, "", 1, "Net", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "port", EH_ENC_VALUE16, EH_FMT_PORT, 0, 0,
		  V(S("\x00\x50")), "80" },
		{ "ip4", EH_ENC_VALUE32, EH_FMT_IP_ADDRESS, 0, 0,
		  V(S("\x7f\x00\x00\x01")), "\"127.0.0.1\"" },
		{ "ip4old", EH_ENC_VALUE32, EH_FMT_IP_ADDRESS_OBSOLETE, 0, 0,
		  V(S("\x0a\x00\x00\x02")), "\"10.0.0.2\"" },
		{ "ip6", EH_ENC_VALUE128, EH_FMT_IP_ADDRESS, 0, 0,
		  V(S("\x20\x01\x0d\xb8\x00\x00\x00\x00"
		      "\x00\x00\x00\x00\x00\x00\x00\x01")),
		  "\"2001:db8::1\"" },
		{ "ip6old", EH_ENC_VALUE128, EH_FMT_IP_ADDRESS_OBSOLETE, 0, 0,
		  V(S("\xfe\x80\x00\x00\x00\x00\x00\x00"
		      "\x00\x00\x00\x00\x00\x00\x12\x34")),
		  "\"fe80::1234\"" },
		{ "guid", EH_ENC_VALUE128, EH_FMT_UUID, 0, 0,
		  V({ .p = act_parent, .n = 16 }), ACT_PARENT }) },
	{ PROVIDER, "", 1, "Arrays", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "carr", EH_ENC_VALUE16 | CARR, 0, 0, 3,
		  V(N(1), N(2), N(3)), "[ 1, 2, 3 ]" },
		{ "varr", EH_ENC_VALUE8 | VARR, EH_FMT_HEX_INT, 0, 2,
		  V(N(7), N(8)), "[ \"0x7\", \"0x8\" ]" },
		{ "vempty", EH_ENC_VALUE32 | VARR, 0, 0, 0, NULL, "[ ]" },
		{ "sarr", EH_ENC_ZSTRING_CHAR8 | VARR, 0, 0, 3,
		  V(S("ABC"), S(""), S("XYZ")),
		  "[ \"ABC\", \"\", \"XYZ\" ]" },
		{ "farr", EH_ENC_VALUE64 | CARR, EH_FMT_FLOAT, 0, 2,
		  V(N(0x3ff8000000000000ull), N(0xc004000000000000ull)),
		  "[ 1.5, -2.5 ]" },
		{ "garr", EH_ENC_VALUE128 | VARR, EH_FMT_UUID, 0, 1,
		  V({ .p = act_child, .n = 16 }), "[ " ACT_CHILD " ]" },
		{ "l16arr", EH_ENC_STRING_LENGTH16_CHAR16 | CARR, 0, 0x7ff,
		  2, V(W16('a', 'b'), W16('c')), "[ \"ab\", \"c\" ]" },
		{ "barr", EH_ENC_VALUE8 | CARR, EH_FMT_BOOLEAN, 0, 2,
		  V(N(0), N(1)), "[ false, true ]" },
		{ "ports", EH_ENC_VALUE16 | VARR, EH_FMT_PORT, 0, 1,
		  V(S("\x60\xea")), "[ 24810 ]" },
		{ "errs", EH_ENC_VALUE32 | VARR, EH_FMT_ERRNO, 0, 2,
		  V(N(2), N(2000000000)),
		  "[ \"ENOENT(2)\", \"ERRNO(2000000000)\" ]" },
		{ "times", EH_ENC_VALUE32 | CARR, EH_FMT_TIME, 0, 1,
		  V(N(2000000000)), "[ \"2033-05-18T03:33:20\" ]" },
		{ "i64s", EH_ENC_VALUE64 | VARR, EH_FMT_SIGNED_INT, 0, 3,
		  V(N(1), N(0xffffffffffffffffull), N(0x7fffffffffffffffull)),
		  "[ 1, -1, 9223372036854775807 ]" }) },
	{ PROVIDER, "", 1, "Structs", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "st", EH_ENC_STRUCT, 2, 0, 0, NULL,
		  "{ \"a\": true, \"b\": \"x\" }" },
		{ "a", EH_ENC_VALUE8, EH_FMT_BOOLEAN, 0, 0, V(N(1)) },
		{ "b", EH_ENC_STRING_LENGTH16_CHAR8, 0, 0, 0, V(S("x")) },
		{ "outer", EH_ENC_STRUCT, 2, 0xbeef, 0, NULL,
		  "{ \"in\": { \"v;tag=0x12\": 7 }, \"w\": 9 }" },
		{ "in", EH_ENC_STRUCT, 1, 0, 0, NULL },
		{ "v", EH_ENC_VALUE32, 0, 0x12, 0, V(N(7)) },
		{ "w", EH_ENC_VALUE8, 0, 0, 0, V(N(9)) },
		{ "deep", EH_ENC_STRUCT, 1, 0, 0, NULL,
		  "{ \"list\": [ { \"k\": \"A\" }, { \"k\": \"B\" } ] }" },
		{ "list", EH_ENC_STRUCT | CARR, 1, 0, 2, NULL },
		{ "k", EH_ENC_ZSTRING_CHAR8, 0, 0, 0, V(S("A"), S("B")) },
		{ "last", EH_ENC_VALUE16, 0, 0, 0, V(N(65535)), "65535" }) },
	{ PROVIDER, "", 1, "StructArrays", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "sa", EH_ENC_STRUCT | VARR, 2, 0, 2, NULL,
		  "[ { \"x\": 1.5, \"name\": \"p\" }, "
		  "{ \"x\": -2.5, \"name\": \"q\" } ]" },
		{ "x", EH_ENC_VALUE32, EH_FMT_FLOAT, 0, 0,
		  V(N(0x3fc00000), N(0xc0200000)) },
		{ "name", EH_ENC_ZSTRING_CHAR8, 0, 0, 0, V(S("p"), S("q")) },
		{ "ca", EH_ENC_STRUCT | CARR, 1, 0, 2, NULL,
		  "[ { \"arr\": [ 1, 2 ] }, { \"arr\": [ 3, 4 ] } ]" },
		{ "arr", EH_ENC_VALUE8 | VARR, 0, 0, 2,
		  V(N(1), N(2), N(3), N(4)) },
		{ "sa0", EH_ENC_STRUCT | VARR, 2, 0, 0, NULL, "[ ]" },
		{ "z", EH_ENC_VALUE8, 0, 0, 0, NULL },
		{ "zs", EH_ENC_STRUCT, 1, 0, 0, NULL },
		{ "zz", EH_ENC_VALUE8, 0, 0, 0, NULL },
		{ "after", EH_ENC_VALUE8, 0, 0, 0, V(N(42)), "42" }) },
	/*
	 * Counted binary and strings under the value formats, as
	 * LinuxTracepoints' dynamic provider writes them: a value when the
	 * size is one the format takes (numbers in the event's byte order,
	 * addresses, ports and UUIDs in network order), else hex bytes
	 * (binary) or text (strings).
	 */
	{ PROVIDER, "", 1, "Sized", LEVEL5, .meta = META5,
	  .fields = FIELDS(
		{ "u4", BIN, EH_FMT_UNSIGNED_INT, 0, 0,
		  V(S("\x01\x00\x00\x00")), "1", "16777216" },
		{ "i1", BIN, EH_FMT_SIGNED_INT, 0, 0, V(S("\xf0")), "-16" },
		{ "x4", BIN, EH_FMT_HEX_INT, 0, 0,
		  V(S("\xf3\xf2\xf1\xf0")), "\"0xF0F1F2F3\"",
		  "\"0xF3F2F1F0\"" },
		{ "x16", BIN, EH_FMT_HEX_INT, 0, 0,
		  V(S("\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7"
		      "\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff")),
		  "\"f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff\"" },
		{ "e4", BIN, EH_FMT_ERRNO, 0, 0,
		  V(S("\x01\x00\x00\x00")), "\"EPERM(1)\"",
		  "\"ERRNO(16777216)\"" },
		{ "e1", BIN, EH_FMT_ERRNO, 0, 0, V(S("\x01")), "\"01\"" },
		{ "p4", BIN, EH_FMT_PID, 0, 0, V(S("\x01\x00\x00\x00")),
		  "1", "16777216" },
		{ "t4", BIN, EH_FMT_TIME, 0, 0, V(S("\x01\x00\x00\x00")),
		  "\"1970-01-01T00:00:01\"", "\"1970-07-14T04:20:16\"" },
		{ "b1", BIN, EH_FMT_BOOLEAN, 0, 0, V(S("\x01")), "true" },
		{ "f8", BIN, EH_FMT_FLOAT, 0, 0,
		  V(S("\x00\x00\x00\x00\x00\x00\xf8\x3f")), "1.5",
		  "3.13984e-319" },
		{ "g16", BIN, EH_FMT_UUID, 0, 0,
		  V({ .p = act_parent, .n = 16 }), ACT_PARENT },
		{ "g4", BIN, EH_FMT_UUID, 0, 0, V(S("\x01\x00\x00\x00")),
		  "\"01 00 00 00\"" },
		{ "port2", BIN, EH_FMT_PORT, 0, 0, V(S("\x00\x50")), "80" },
		{ "ip4", BIN, EH_FMT_IP_ADDRESS, 0, 0,
		  V(S("\xc0\xa8\x00\x01")), "\"192.168.0.1\"" },
		{ "ip16", BIN, EH_FMT_IP_ADDRESS_OBSOLETE, 0, 0,
		  V(S("\x00\x00\x00\x00\x00\x00\x00\x00"
		      "\x00\x00\x00\x00\x00\x00\x00\x01")), "\"::1\"" },
		{ "s2", EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_UNSIGNED_INT, 0,
		  0, V(S("\x01\x00")), "1", "256" },
		{ "s3", EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_UNSIGNED_INT, 0,
		  0, V(S("\x01\x02\x03")), "\"\\u0001\\u0002\\u0003\"" },
		{ "sg4", EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_UUID, 0, 0,
		  V(S("ABCD")), "\"ABCD\"" }) },
	{ PROVIDER, "Gfixture", 0x85, "Header;attr=1",
	  { .version = 11, .id = 1000, .tag = 0x1234, .opcode = 3,
	    .level = 4 },
	  .meta = "\"id\": 1000, \"version\": 11, \"level\": 4, "
		  "\"keyword\": \"0x85\", \"opcode\": 3, \"tag\": \"0x1234\"",
	  .fields = FIELDS(
		{ "one", EH_ENC_VALUE8, 0, 0, 0, V(N(1)), "1" }) },
	{ PROVIDER, "", 0, "Empty", { .level = 2 },
	  .meta = "\"level\": 2", .fields = FIELDS({ NULL }) },
	{ PROVIDER, "", 1, "Start", { .level = 5, .opcode = 1 },
	  .activity = act_parent,
	  .meta = META5 ", \"opcode\": 1, \"activity\": " ACT_PARENT,
	  .fields = FIELDS(
		{ "step", EH_ENC_VALUE32, 0, 0, 0, V(N(1)), "1" }) },
	{ PROVIDER, "", 1, "Child", { .level = 5, .opcode = 1 },
	  .activity = act_child, .related = act_parent,
	  .meta = META5 ", \"opcode\": 1, \"activity\": " ACT_CHILD
		  ", \"relatedActivity\": " ACT_PARENT,
	  .fields = FIELDS(
		{ "step", EH_ENC_VALUE32, 0, 0, 0, V(N(2)), "2" }) },
	{ PROVIDER, "", 1, "Stop", { .level = 5, .opcode = 2 },
	  .activity = act_parent,
	  .meta = META5 ", \"opcode\": 2, \"activity\": " ACT_PARENT,
	  .fields = FIELDS(
		{ "step", EH_ENC_VALUE32, 0, 0, 0, V(N(3)), "3" }) },
	/* Metadata first, an unknown block last, 32-bit pointers. */
	{ PROVIDER, "", 1, "Extensions",
	  { .level = 5, .pointer32 = true },
	  .activity = act_child, .unknown_ext = 0x55, .meta_first = true,
	  .meta = META5 ", \"activity\": " ACT_CHILD,
	  .fields = FIELDS(
		{ "s", EH_ENC_ZSTRING_CHAR8, 0, 0, 0, V(S("ext")),
		  "\"ext\"" }) },
	/* An unknown block between the activity id and the metadata. */
	{ PROVIDER, "", 1, "Unknown", LEVEL5, .unknown_ext = 0x7ff0,
	  .activity = act_parent,
	  .meta = META5 ", \"activity\": " ACT_PARENT,
	  .fields = FIELDS(
		{ "num", EH_ENC_VALUE16, 0, 0, 0, V(N(7)), "7" }) },
};

const size_t ehc_event_count = sizeof(ehc_events) / sizeof(ehc_events[0]);

unsigned int ehc_unit_size(unsigned int encoding)
{
	switch (encoding) {
	case EH_ENC_ZSTRING_CHAR8:
	case EH_ENC_STRING_LENGTH16_CHAR8:
	case EH_ENC_BINARY_LENGTH16_CHAR8:
		return 1;
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_STRING_LENGTH16_CHAR16:
		return 2;
	case EH_ENC_ZSTRING_CHAR32:
	case EH_ENC_STRING_LENGTH16_CHAR32:
		return 4;
	}
	return 0;
}

/* --- the walk -------------------------------------------------------- */

#define EHC_MAX_FIELDS	64

struct ehc_walk {
	const struct ehc_event	*ev;
	ehc_visit_fn		fn;
	void			*ctx;
	unsigned int		cursor[EHC_MAX_FIELDS];
};

/* Index of the table entry after field @i and its struct members. */
static size_t ehc_skip(const struct ehc_field *f, size_t i)
{
	size_t j = i + 1;
	unsigned int k;

	if ((f[i].enc & EH_ENC_VALUE_MASK) == EH_ENC_STRUCT)
		for (k = 0; k < f[i].fmt; k++)
			j = ehc_skip(f, j);
	return j;
}

static int ehc_emit(struct ehc_walk *w, enum eh_item_kind kind, size_t i,
		    unsigned int depth, uint16_t index, uint16_t count)
{
	struct ehc_item it = {
		.kind = kind, .depth = depth, .index = index, .count = count,
	};

	if (kind != EH_ITEM_EVENT_BEGIN && kind != EH_ITEM_EVENT_END)
		it.f = &w->ev->fields[i];
	if (kind == EH_ITEM_VALUE) {
		if (i >= EHC_MAX_FIELDS || !it.f->v)
			return -EINVAL;
		it.v = &it.f->v[w->cursor[i]++];
	}
	return w->fn(w->ctx, &it);
}

static int ehc_walk_field(struct ehc_walk *w, size_t i, unsigned int depth);

/* One value, or one struct, of field @i. */
static int ehc_walk_one(struct ehc_walk *w, size_t i, unsigned int depth,
			uint16_t index, uint16_t count)
{
	const struct ehc_field *f = w->ev->fields;
	size_t j;
	unsigned int k;
	int ret;

	if ((f[i].enc & EH_ENC_VALUE_MASK) != EH_ENC_STRUCT)
		return ehc_emit(w, EH_ITEM_VALUE, i, depth, index, count);
	ret = ehc_emit(w, EH_ITEM_STRUCT_BEGIN, i, depth, index, count);
	for (j = i + 1, k = 0; !ret && k < f[i].fmt; k++) {
		ret = ehc_walk_field(w, j, depth + 1);
		j = ehc_skip(f, j);
	}
	return ret ? ret : ehc_emit(w, EH_ITEM_STRUCT_END, i, depth, index,
				    count);
}

static int ehc_walk_field(struct ehc_walk *w, size_t i, unsigned int depth)
{
	const struct ehc_field *f = &w->ev->fields[i];
	uint16_t k;
	int ret;

	if (!(f->enc & (EH_ENC_CARRAY | EH_ENC_VARRAY)))
		return ehc_walk_one(w, i, depth, 0, 1);
	ret = ehc_emit(w, EH_ITEM_ARRAY_BEGIN, i, depth, 0, f->count);
	for (k = 0; !ret && k < f->count; k++)
		ret = ehc_walk_one(w, i, depth, k, f->count);
	return ret ? ret : ehc_emit(w, EH_ITEM_ARRAY_END, i, depth,
				    f->count, f->count);
}

int ehc_walk(const struct ehc_event *ev, ehc_visit_fn fn, void *ctx)
{
	struct ehc_walk w = { .ev = ev, .fn = fn, .ctx = ctx };
	size_t i;
	int ret;

	ret = ehc_emit(&w, EH_ITEM_EVENT_BEGIN, 0, 0, 0, 1);
	for (i = 0; !ret && ev->fields[i].name; i = ehc_skip(ev->fields, i))
		ret = ehc_walk_field(&w, i, 0);
	return ret ? ret : ehc_emit(&w, EH_ITEM_EVENT_END, 0, 0, 0, 1);
}

/* --- building -------------------------------------------------------- */

static int ehc_put(void *ctx, const struct ehc_item *it)
{
	struct eh_enc *e = ctx;
	unsigned int enc;

	if (it->kind == EH_ITEM_ARRAY_BEGIN && it->f->enc & EH_ENC_VARRAY)
		return eh_enc_count(e, it->count);
	if (it->kind != EH_ITEM_VALUE)
		return 0;
	enc = it->f->enc & EH_ENC_VALUE_MASK;
	switch (enc) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
		if (it->v->p)
			return eh_enc_bytes(e, it->v->p, it->v->n);
		return eh_enc_uint(e, 1u << (enc - EH_ENC_VALUE8), it->v->u);
	case EH_ENC_VALUE128:
		return eh_enc_bytes(e, it->v->p, it->v->n);
	}
	return eh_enc_string(e, (uint8_t)enc, it->v->p, it->v->n);
}

int ehc_build(struct eh_enc *e, const struct ehc_event *ev, bool big_endian,
	      char *tp, const uint8_t **data, size_t *len)
{
	struct eh_enc_header h = ev->h;
	static const uint8_t unknown[5] = { 'x', 't', 'r', 'a', 0 };
	size_t i;
	int ret;

	ret = eh_enc_tracepoint_name(tp, EH_NAME_MAX, ev->provider,
				     ev->h.level, ev->keyword, ev->options);
	if (ret < 0)
		return ret;
	h.big_endian = big_endian;
	ret = eh_enc_begin(e, &h, ev->name);
	if (!ret && ev->meta_first)
		ret = eh_enc_extension(e, EH_EXT_METADATA, NULL, 0);
	if (!ret && ev->activity)
		ret = eh_enc_activity(e, ev->activity, ev->related);
	if (!ret && ev->unknown_ext)
		ret = eh_enc_extension(e, ev->unknown_ext, unknown,
				       sizeof(unknown));
	for (i = 0; !ret && ev->fields[i].name; i++)
		ret = eh_enc_field(e, ev->fields[i].name, ev->fields[i].enc,
				   ev->fields[i].fmt, ev->fields[i].tag,
				   ev->fields[i].count);
	if (!ret)
		ret = ehc_walk(ev, ehc_put, e);
	return ret ? ret : eh_enc_finish(e, data, len);
}

/* --- the expected JSON ----------------------------------------------- */

char *ehc_json(const struct ehc_event *ev, bool big_endian)
{
	const char *semi = strchr(ev->name, ';');
	int name_len = semi ? (int)(semi - ev->name) : (int)strlen(ev->name);
	char *out = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	fprintf(f, "{ \"n\": \"%s:%.*s\"", ev->provider, name_len, ev->name);
	for (i = 0; ev->fields[i].name; i = ehc_skip(ev->fields, i)) {
		const struct ehc_field *fd = &ev->fields[i];

		fprintf(f, ", \"%s", fd->name);
		if (fd->tag)
			fprintf(f, ";tag=0x%X", fd->tag);
		fprintf(f, "\": %s",
			big_endian && fd->json_be ? fd->json_be : fd->json);
	}
	fprintf(f, ", \"meta\": { %s } }", ev->meta);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
