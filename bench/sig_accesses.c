/* sig_accesses.c - prints every record of a trace as "ADDRESS R|W SIGNATURE" (hex), the
 * signature being the one llctrace's signature policies see for it (include/llct/policy.h:
 * its instruction site's where it has one, else its kernel's), so that another simulator's
 * signature policy (bench/authors_compare.sh) can be driven with the same "PC"s.
 *
 * usage: sig_accesses TRACE.llct */
#include "llct/policy.h"
#include "llct/replay.h"
#include "llct/trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

struct sigs {
	uint32_t *id, *sig;
	size_t n, cap;
};

static int add(uint64_t id, uint32_t frame, const char *kind, const char *name, const char *params,
	       void *ud)
{
	struct sigs *s = ud;
	(void)frame;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->id = realloc(s->id, s->cap * sizeof(*s->id));
		s->sig = realloc(s->sig, s->cap * sizeof(*s->sig));
		if (!s->id || !s->sig)
			return 1;
	}
	s->id[s->n] = (uint32_t)id; /* in id order */
	s->sig[s->n++] = llct_kernel_signature(kind, name, params);
	return 0;
}

int main(int argc, char **argv)
{
	struct llct_reader *r;
	struct llct_cursor *c;
	struct llct_batch b;
	struct sigs s = {0};
	char err[600];
	int got;
	if (argc != 2) {
		fprintf(stderr, "usage: sig_accesses TRACE.llct\n");
		return 2;
	}
	if (llct_reader_open(argv[1], &r, err, sizeof(err))) {
		fprintf(stderr, "sig_accesses: %s\n", err);
		return 1;
	}
	if (llct_reader_foreach_kernel(r, add, &s) || llct_cursor_open(r, NULL, &c)) {
		fprintf(stderr, "sig_accesses: %s\n", llct_reader_error(r));
		return 1;
	}
	while ((got = llct_cursor_next(c, &b)) > 0)
		for (uint32_t i = 0; i < b.n; i++) {
			uint32_t site = b.site ? b.site[i] : 0;
			uint32_t v =
			    site ? llct_site_signature(site)
				 : llct_kernel_signature_find(s.id, s.sig, s.n, b.kernel[i]);
			printf("%" PRIx64 " %c %x\n", b.addr[i], b.op[i] ? 'W' : 'R',
			       (unsigned)llct_signature(b.stream[i], v));
		}
	if (got < 0) {
		fprintf(stderr, "sig_accesses: %s\n", llct_reader_error(r));
		return 1;
	}
	llct_cursor_close(c);
	llct_reader_close(r);
	free(s.id);
	free(s.sig);
	return 0;
}
