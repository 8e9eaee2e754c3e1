/* jtext.c - the kernel rows' JSON text buffer (jtext.h): vsnprintf into what room is left, and
 * where it does not fit, room doubled on the heap and the text written again; plain text (no
 * conversion in it) is copied without vsnprintf. */
#include "jtext.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void capture_jtext_init(struct capture_jtext *t)
{
	t->s = t->small;
	t->n = 0;
	t->cap = sizeof(t->small);
	t->oom = 0;
	t->s[0] = '\0';
}

/* Room for `more` bytes and a NUL after the text; 0 when it cannot be had. */
static int room(struct capture_jtext *t, size_t more)
{
	if (t->oom)
		return 0;
	if (t->n + more + 1 <= t->cap)
		return 1;
	size_t cap = t->cap;
	while (cap < t->n + more + 1)
		cap *= 2;
	char *s = malloc(cap);
	if (!s) {
		t->oom = 1;
		return 0;
	}
	memcpy(s, t->s, t->n + 1);
	if (t->s != t->small)
		free(t->s);
	t->s = s, t->cap = cap;
	return 1;
}

void capture_jtext_add(struct capture_jtext *t, const char *fmt, ...)
{
	va_list ap;
	if (t->oom)
		return;
	/* plain text (most of a draw row's pieces): copied, without vsnprintf */
	if (!strchr(fmt, '%')) {
		size_t k = strlen(fmt);
		if (room(t, k))
			memcpy(t->s + t->n, fmt, k + 1), t->n += k;
		return;
	}
	va_start(ap, fmt);
	int k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
	va_end(ap);
	if (k < 0) {
		t->s[t->n] = '\0';
		return;
	}
	if ((size_t)k >= t->cap - t->n) { /* cut short: grow and write it again */
		t->s[t->n] = '\0';
		if (!room(t, (size_t)k))
			return;
		va_start(ap, fmt);
		vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
		va_end(ap);
	}
	t->n += (size_t)k;
}

void capture_jtext_put(struct capture_jtext *t, const char *s, size_t n)
{
	if (room(t, n))
		memcpy(t->s + t->n, s, n), t->n += n, t->s[t->n] = '\0';
}

void capture_jtext_num(struct capture_jtext *t, const char *s, unsigned long long v)
{
	char d[24];
	size_t k = sizeof(d);
	do
		d[--k] = (char)('0' + v % 10), v /= 10;
	while (v);
	size_t n = strlen(s);
	if (room(t, n + sizeof(d) - k)) {
		memcpy(t->s + t->n, s, n);
		memcpy(t->s + t->n + n, d + k, sizeof(d) - k);
		t->n += n + sizeof(d) - k;
		t->s[t->n] = '\0';
	}
}

void capture_jtext_str(struct capture_jtext *t, const char *s)
{
	capture_jtext_add(t, "\"");
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			capture_jtext_add(t, "\\%c", ch);
		else if (ch < 0x20)
			capture_jtext_add(t, "\\u%04x", ch);
		else if (room(t, 1))
			t->s[t->n++] = (char)ch, t->s[t->n] = '\0';
	}
	capture_jtext_add(t, "\"");
}

const char *capture_jtext_get(const struct capture_jtext *t)
{
	return t->oom ? "{\"error\":\"out of memory\"}" : t->s;
}

void capture_jtext_free(struct capture_jtext *t)
{
	if (t->s != t->small)
		free(t->s);
	capture_jtext_init(t);
}
