/* test_jtext.c - capture's JSON text buffer (capture/01-base/jtext.c): text past the stack buffer
 * is kept whole, against the same text built with one snprintf; strings are escaped; the result
 * parses as JSON (SQLite's json_valid) however long it grows. */
#include "../../capture/01-base/jtext.h"
#include "check.h"

#include <sqlite3.h>
#include <string.h>

static int valid_json(const char *s)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int ok = 0;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return 0;
	if (sqlite3_prepare_v2(db, "SELECT json_valid(?1), json_extract(?1, '$.why')", -1, &st,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, s, -1, SQLITE_STATIC);
		ok = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return ok;
}

int main(void)
{
	struct capture_jtext t;
	static char want[200000];
	size_t at = 0;
	capture_jtext_init(&t);
	CHECK(strcmp(capture_jtext_get(&t), "") == 0);
	CHECK(t.s == t.small);
	/* a row of many attachments: far past the 512 bytes on the stack, grown several times */
	capture_jtext_add(&t, "{\"attachments\":[");
	at += (size_t)snprintf(want + at, sizeof(want) - at, "{\"attachments\":[");
	for (unsigned i = 0; i < 5000; i++) {
		unsigned long long id = 18446744073709551000ull + i % 600;
		capture_jtext_add(&t, "%s%llu", i ? "," : "", id);
		at += (size_t)snprintf(want + at, sizeof(want) - at, "%s%llu", i ? "," : "", id);
	}
	capture_jtext_add(&t, "],\"why\":");
	capture_jtext_str(&t, "a \"quoted\" reason\\ with\ta tab and\nlines");
	capture_jtext_add(&t, "}");
	at += (size_t)snprintf(want + at, sizeof(want) - at,
			       "],\"why\":\"a \\\"quoted\\\" reason\\\\ with\\u0009a tab "
			       "and\\u000alines\"}");
	CHECK(t.s != t.small);
	CHECK_EQ(t.n, at);
	CHECK(strcmp(capture_jtext_get(&t), want) == 0);
	CHECK(valid_json(capture_jtext_get(&t)));
	capture_jtext_free(&t);
	CHECK(t.s == t.small && t.n == 0);
	/* exactly filling the stack buffer, then one byte more */
	char fill[sizeof(t.small)];
	memset(fill, 'x', sizeof(fill) - 1);
	fill[sizeof(fill) - 1] = '\0';
	capture_jtext_add(&t, "%s", fill);
	CHECK(t.s == t.small && t.n == sizeof(fill) - 1);
	capture_jtext_add(&t, "y");
	CHECK(t.s != t.small && t.n == sizeof(fill));
	CHECK(t.s[t.n - 1] == 'y' && t.s[t.n - 2] == 'x' && t.s[t.n] == '\0');
	capture_jtext_free(&t);
	/* an empty string and a NULL one are "" */
	capture_jtext_str(&t, "");
	capture_jtext_str(&t, NULL);
	CHECK(strcmp(capture_jtext_get(&t), "\"\"\"\"") == 0);
	capture_jtext_free(&t);
	/* put: bytes as they are (a '%' is not a conversion), growing past the stack buffer */
	capture_jtext_put(&t, "50%s", 4);
	CHECK(strcmp(capture_jtext_get(&t), "50%s") == 0 && t.n == 4);
	capture_jtext_put(&t, fill, sizeof(fill) - 1);
	CHECK(t.s != t.small && t.n == sizeof(fill) + 3 && t.s[t.n] == '\0');
	CHECK(memcmp(t.s, "50%sxx", 6) == 0 && t.s[t.n - 1] == 'x');
	capture_jtext_free(&t);
	/* num: plain text, then the number in decimal, as printf's %llu writes it */
	capture_jtext_num(&t, "{\"a\":", 0);
	capture_jtext_num(&t, ",\"b%\":", 18446744073709551615ull);
	capture_jtext_num(&t, "", 1234567890);
	CHECK(strcmp(capture_jtext_get(&t), "{\"a\":0,\"b%\":184467440737095516151234567890") == 0);
	for (int i = 0; i < 40; i++) /* past the stack buffer */
		capture_jtext_num(&t, ",", 10000000000000000000ull + (unsigned long long)i);
	char many[1024];
	int k = snprintf(many, sizeof(many), "{\"a\":0,\"b%%\":184467440737095516151234567890");
	for (int i = 0; i < 40; i++)
		k += snprintf(many + k, sizeof(many) - (size_t)k, ",%llu",
			      10000000000000000000ull + (unsigned long long)i);
	CHECK(t.s != t.small && strcmp(capture_jtext_get(&t), many) == 0);
	capture_jtext_free(&t);
	return check_done("test_jtext");
}
