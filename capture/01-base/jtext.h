/* jtext.h - the text of a kernel row's JSON params, built by appending: printf formats and
 * escaped strings into a buffer that starts on the stack and grows on the heap, so no draw
 * (however many attachments, however long its reasons) can outgrow it or cut its JSON short. */
#ifndef CAPTURE_JTEXT_H
#define CAPTURE_JTEXT_H

#include <stddef.h>

struct capture_jtext {
	char *s;         /* small, or a heap copy once the text outgrew it */
	size_t n, cap;   /* length (no NUL counted), room */
	int oom;         /* a growth failed: the text is replaced by an error object */
	char small[512]; /* most rows fit here: no allocation */
};

/* An empty text. */
void capture_jtext_init(struct capture_jtext *t);
/* Appends printf-formatted text. */
void capture_jtext_add(struct capture_jtext *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends the n bytes at s as they are (no formatting). */
void capture_jtext_put(struct capture_jtext *t, const char *s, size_t n);
/* Appends plain text s (no formatting), then v in decimal: the draw rows' many numbers without
 * printf. */
void capture_jtext_num(struct capture_jtext *t, const char *s, unsigned long long v);
/* Appends s as a JSON string: quoted, with quotes, backslashes and control characters escaped. */
void capture_jtext_str(struct capture_jtext *t, const char *s);
/* The text; {"error":"out of memory"} where a growth failed. Valid until the next call. */
const char *capture_jtext_get(const struct capture_jtext *t);
/* Frees what grew on the heap (the text is gone). */
void capture_jtext_free(struct capture_jtext *t);

#endif
