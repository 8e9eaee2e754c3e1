/* instr_dispatch.c - capture tier 3's expansion of a dispatch's records (instr.c makes the
 * twins that write them): each record becomes its CS (storage) and OTHER (uniform) line
 * accesses, or a sample's TEX texels, by its workgroup's SM. A dispatch's windows of records
 * are worked out apart from the footprint model on the expansion's threads (instr_crew.c,
 * LLCT_CAPTURE_EXPAND_THREADS), each lane with its own copy of the sites' state, then handed
 * to the model in the records' order, so the trace is the same for any number of threads; a
 * dispatch whose sites are looked up record by record (an element given at run time, a device
 * address) is expanded by one lane on the expansion's thread, which looks them up. */
#include "instr.h"
#include "instr_crew.h"
#include "spirv.h"

#include <stdlib.h>
#include <string.h>

/* Where a site's accesses go for descriptor element elem of its binding: a buffer's base
 * address and size, or a storage image view's map. */
struct base {
	uint64_t addr, size;
	int stream, ok, looked;
	uint32_t elem;
	struct llct_surface_map m;
	const struct img *im; /* storage images: the view's image, level, first layer */
	uint32_t mip, layer, at_layer;
};
static void site_base(struct capture_device *c, const struct llct_spirv_site *st, uint32_t elem,
		      uint32_t L, struct base *b)
{
	memset(b, 0, sizeof(*b));
	b->looked = 1, b->elem = elem;
	struct dset *ds =
	    st->set < 8 ? capture_hmap_get(&c->ps->sets, c->walk->cur_set[1][st->set]) : NULL;
	struct slot *sl = ds ? capture_find_slot(ds, st->binding, elem) : NULL;
	uint64_t addr, len;
	if (sl && llct_spirv_site_image(st->kind)) {
		uint32_t mip, layer;
		struct img *im = capture_view_image(c->tr, sl->handle, &mip, &layer);
		if (im) {
			b->im = im, b->mip = mip, b->layer = layer, b->at_layer = UINT32_MAX;
			b->ok = 1, b->stream = LLCT_STREAM_CS;
		}
		(void)L;
		return;
	}
	if (!sl || !capture_buffer_bytes(c->tr, sl->handle, sl->offset, sl->range, &addr, &len))
		return;
	b->addr = addr, b->size = len, b->ok = 1;
	b->stream = sl->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
			    sl->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
			? LLCT_STREAM_OTHER
			: LLCT_STREAM_CS;
}

int instr_records_peek(const struct cbuf *b, const struct cmd *m, const struct pipe *p,
		       struct instr_result *res)
{
	memset(res, 0, sizeof(*res));
	uint32_t k = m->u.dispatch.rec;
	if (!k || !b || k > b->n_crec_used || !p || !p->tw.sites)
		return -1;
	const struct crec *r = &b->crec[k - 1];
	uint32_t total = r->map[0] / 3, kept = total < r->cap / 3 ? total : r->cap / 3;
	res->records = total;
	res->lost = total - kept;
	for (uint32_t i = 0; i < kept; i++) /* a sample's prefix is part of its record */
		res->records -= (r->map[2 + 3 * (size_t)i] & 4095) == LLCT_SPIRV_PREFIX_SITE;
	return 0;
}

/* A lane: its window, records [first, end), its own copies of the sites' state (a storage
 * image's mapped layer, a sampled image's mapped levels change as it goes), the touches it
 * works out and its counts. */
struct dlane {
	struct base *base;
	struct site_at *tex;
	struct bda_cache bk; /* device addresses (a serial dispatch's one lane) */
	struct llct_fp_access *t;
	size_t n, cap;
	int oom;
	uint32_t first, end, unplaced;
	uint64_t run_records, run_accesses;
	struct llct_fp_group grp; /* its touches grouped for the model's split step */
	int grouped;              /* grp is this window's */
	double secs;
};

/* What every lane reads of the dispatch (serial: its sites are looked up record by record, with
 * the lock, so its one lane runs on the expansion's thread). */
struct djob {
	struct capture_device *c;
	int serial;
	const struct pipe *p;
	const uint32_t *map; /* the records, 3 words each from map + 2 */
	uint32_t L, n_sms, site0;
	struct dlane *lanes;
	unsigned groups; /* the model's step split in this many (instr_model.c), or 1 */
};

static void dput(struct dlane *ln, uint64_t line_addr, int stream, int op, uint32_t sm,
		 uint32_t site, int same_skip)
{
	if (ln->n == ln->cap && instr_touches_room(&ln->t, &ln->cap, ln->n + 1)) {
		ln->oom = 1;
		return;
	}
	ln->t[ln->n++] = (struct llct_fp_access){
	    line_addr, sm, site, (uint8_t)stream, (uint8_t)op, (uint8_t)same_skip, 0};
}

/* A buffer access's lines first..last of b, read and/or written by SM sm, as touches; left out
 * where it is the one line the access before touched the same way (a SIMD group's lanes mostly
 * repeat their neighbour's line: the same line, kind and stream by the same SM hits the line it
 * just left in that SM's cache, so the model's output is the same without it; the access before
 * is the window's, so one more at a window's start is such a hit too). */
static void dbuffer(struct dlane *ln, const struct llct_spirv_site *st, const struct base *b,
		    uint64_t first, uint64_t last, uint32_t sm, uint32_t L, uint32_t site,
		    uint64_t *prev_line, uint32_t *prev_key)
{
	uint32_t key = sm << 8 | (uint32_t)b->stream << 4 | st->kind;
	if (first == last && first == *prev_line && key == *prev_key)
		return;
	*prev_line = first == last ? first : UINT64_MAX;
	*prev_key = key;
	for (uint64_t l = first; l <= last; l++) {
		if (llct_spirv_site_reads(st->kind))
			dput(ln, l * L, b->stream, LLCT_OP_READ, sm, site, 0);
		if (llct_spirv_site_writes(st->kind))
			dput(ln, l * L, b->stream, LLCT_OP_WRITE, sm, site, 0);
	}
}

/* Where sample site st's element el is: its view and sampler (a->ok when the view is known). */
static void dispatch_view(struct capture_device *c, const struct llct_spirv_site *st, uint32_t el,
			  struct site_at *a)
{
	memset(a, 0, sizeof(*a));
	a->looked = 1, a->elem = el;
	struct dset *ds =
	    st->set < 8 ? capture_hmap_get(&c->ps->sets, c->walk->cur_set[1][st->set]) : NULL;
	struct slot *sl = ds ? capture_find_slot(ds, st->binding, el) : NULL;
	if (sl)
		instr_view_at(c, sl, a);
}

/* Lane k's window, record by record, as touches: a sample's texels by the SM of its workgroup
 * (where they repeat the line the SM read just before, the model's batch skips them), a
 * buffer's or storage image's lines, a run's loads after its lead's, a device address's lines;
 * an element given at run time looked up again when it changes (serial dispatches only). */
static void dlane_walk(void *ctx, unsigned k)
{
	struct djob *j = ctx;
	struct dlane *ln = &j->lanes[k];
	const struct pipe *p = j->p;
	double t0 = capture_mono_s();
	ln->n = 0;
	uint64_t prev_line = UINT64_MAX;
	uint32_t prev_key = UINT32_MAX, L = j->L;
	const uint32_t *pre = NULL; /* the prefix before: the window before may end on it */
	if (ln->first && (j->map[2 + 3 * (size_t)(ln->first - 1)] & 4095) == LLCT_SPIRV_PREFIX_SITE)
		pre = j->map + 2 + 3 * (size_t)(ln->first - 1);
	for (uint32_t i = ln->first; i < ln->end; i++) {
		const uint32_t *rec = j->map + 2 + 3 * (size_t)i, *x = pre;
		uint32_t site = rec[0] & 4095, off = rec[1], sm = rec[2] % j->n_sms;
		pre = NULL;
		if (site == LLCT_SPIRV_PREFIX_SITE) {
			pre = rec;
			continue;
		}
		uint32_t tsite = j->site0 && site < p->tw.n_sites ? j->site0 + site : 0;
		const struct llct_spirv_site *st = site < p->tw.n_sites ? &p->tw.sites[site] : NULL;
		uint32_t el = !st                                           ? 0
			      : st->element == LLCT_SPIRV_ELEMENT_IN_RECORD ? rec[0] >> 12
									    : st->element;
		if (st && st->kind >= LLCT_SPIRV_SAMPLE && !llct_spirv_site_image(st->kind)) {
			if (p->tw.tex_partial || !x) { /* a sample: TEX */
				ln->unplaced += !p->tw.tex_partial;
				continue;
			}
			if (j->serial && (!ln->tex[site].looked || ln->tex[site].elem != el))
				dispatch_view(j->c, st, el, &ln->tex[site]);
			if (!ln->tex[site].ok) {
				ln->unplaced++;
				continue;
			}
			uint64_t lines[16];
			uint32_t nl = instr_texel_lines(st, &ln->tex[site], L, x[1], x[2], rec[1],
							NULL, lines);
			for (uint32_t q = 0; q < nl; q++)
				dput(ln, lines[q], LLCT_STREAM_TEX, LLCT_OP_READ, sm, tsite, 1);
			continue;
		}
		if (st && st->bda) { /* a device address (its prefix): CS */
			uint32_t size = st->size ? st->size : 4;
			uint64_t a;
			if (!x || !capture_bda_bytes(j->c->tr, &ln->bk, x[1] | (uint64_t)x[2] << 32,
						     size, &a)) {
				ln->unplaced++;
				continue;
			}
			for (uint64_t l = a / L; l <= (a + size - 1) / L; l++) {
				if (llct_spirv_site_reads(st->kind))
					dput(ln, l * L, LLCT_STREAM_CS, LLCT_OP_READ, sm, tsite, 0);
				if (llct_spirv_site_writes(st->kind))
					dput(ln, l * L, LLCT_STREAM_CS, LLCT_OP_WRITE, sm, tsite,
					     0);
			}
			continue;
		}
		struct base *bs = st ? &ln->base[site] : NULL;
		if (bs && j->serial && st->element == LLCT_SPIRV_ELEMENT_IN_RECORD &&
		    (!bs->looked || bs->elem != el))
			site_base(j->c, st, el, L, bs);
		if (!bs || !bs->ok) {
			ln->unplaced++;
			continue;
		}
		uint32_t size = st->size ? st->size : 4;
		uint64_t first, last;
		if (llct_spirv_site_image(st->kind)) { /* a texel: x + 65536 y (layer, slice) */
			first = last = instr_storage_line(bs->im, st, L, bs->mip, bs->layer, &bs->m,
							  &bs->at_layer, off & 0xffff, off >> 16,
							  st->prefix && x ? x[1] : 0) /
				       L;
		} else if ((uint64_t)off + size > bs->size) { /* past the range */
			ln->unplaced++;
			continue;
		} else {
			first = (bs->addr + off) / L;
			last = (bs->addr + off + size - 1) / L;
		}
		dbuffer(ln, st, bs, first, last, sm, L, tsite, &prev_line, &prev_key);
		if (!st->run)
			continue;
		ln->run_records++, ln->run_accesses++; /* a run: its lead's access, then the rest */
		for (uint32_t f = 1; f <= st->run; f++) {
			uint32_t fs = site + f;
			const struct llct_spirv_site *ft =
			    fs < p->tw.n_sites ? &p->tw.sites[fs] : NULL;
			uint32_t fsize = ft && ft->size ? ft->size : 4;
			if (!ft || !ln->base[fs].ok ||
			    (uint64_t)ft->off + fsize > ln->base[fs].size) {
				ln->unplaced++;
				continue;
			}
			ln->run_accesses++;
			dbuffer(ln, ft, &ln->base[fs], (ln->base[fs].addr + ft->off) / L,
				(ln->base[fs].addr + ft->off + fsize - 1) / L, sm, L,
				j->site0 ? j->site0 + fs : 0, &prev_line, &prev_key);
		}
	}
	ln->grouped = j->groups > 1 && !ln->oom &&
		      !llct_fp_group(j->c->out->fp, ln->t, ln->n, j->groups, &ln->grp);
	ln->secs += capture_mono_s() - t0;
}

/* The dispatch's records in windows, on the crew's threads but for a serial dispatch, and their
 * touches to the model in order (base: the sites' whose element is fixed, looked up): 0, or -1
 * out of memory. */
static int records_lanes(struct capture_device *c, const struct pipe *p, const struct crec *r,
			 uint32_t kept, const struct base *base, int serial,
			 struct instr_result *res)
{
	struct instr_crew *crew = serial ? NULL : instr_expand_crew(c);
	/* records (prefixes counted) a lane takes a round: 32,768 unless LLCT_CAPTURE_WINDOW says
	 */
	uint32_t window = c->t3->window ? c->t3->window : 32768;
	unsigned n = kept > window && !serial ? c->t3->expand_threads : 1;
	n = n < 1 ? 1 : n > 16 ? 16 : n;
	size_t n_sites = p->tw.n_sites ? p->tw.n_sites : 1;
	struct dlane lanes[16];
	memset(lanes, 0, sizeof(lanes));
	struct djob j = {.c = c,
			 .serial = serial,
			 .p = p,
			 .map = r->map,
			 .L = llct_fp_line_size(c->out->fp),
			 .n_sms = c->n_sms ? c->n_sms : 1,
			 .lanes = lanes,
			 .groups = serial ? 1 : instr_model_groups(c, kept)};
	int oom = 0;
	for (unsigned k = 0; k < n && !oom; k++) {
		lanes[k].base = malloc(n_sites * sizeof(*lanes[k].base));
		lanes[k].tex = calloc(n_sites, sizeof(*lanes[k].tex));
		oom = !lanes[k].base || !lanes[k].tex;
		if (!oom)
			memcpy(lanes[k].base, base, p->tw.n_sites * sizeof(*base));
	}
	/* each sampled site's view, looked up once where the element is fixed, each lane its copy
	 */
	for (size_t s = 0; !oom && s < p->tw.n_sites; s++) {
		const struct llct_spirv_site *st = &p->tw.sites[s];
		if (st->kind < LLCT_SPIRV_SAMPLE || llct_spirv_site_image(st->kind) ||
		    st->element == LLCT_SPIRV_ELEMENT_IN_RECORD)
			continue;
		dispatch_view(c, st, st->element, &lanes[0].tex[s]);
		for (unsigned k = 1; k < n; k++)
			lanes[k].tex[s] = lanes[0].tex[s];
	}
	/* the trace's numbers of the sites: records name the instruction that made them */
	j.site0 = capture_trace_sites(c, p->id, 1, p->tw.sites, p->tw.n_sites, 0);
	struct llct_fp_batch fb;
	llct_fp_batch_init(&fb);
	for (uint32_t at = 0; at < kept && !oom;) {
		unsigned used = 0;
		for (; used < n && at < kept; used++, at += window)
			lanes[used].first = at,
			lanes[used].end = kept - at > window ? at + window : kept;
		if (crew && used > 1) {
			instr_crew_post(crew, dlane_walk, &j, used);
			instr_crew_finish(crew);
		} else {
			for (unsigned k = 0; k < used; k++)
				dlane_walk(&j, k);
		}
		const struct llct_fp_access *ta[16];
		const struct llct_fp_group *tg[16];
		size_t tn[16];
		unsigned m = 0; /* the lanes up to the first that ran out of memory */
		for (; m < used && !oom; m++) {
			oom |= lanes[m].oom;
			ta[m] = lanes[m].t, tn[m] = lanes[m].n;
			tg[m] = lanes[m].grouped ? &lanes[m].grp : NULL;
		}
		instr_model_touches(c, ta, tg, tn, m, &fb);
	}
	llct_fp_set_site(c->out->fp, 0);
	for (unsigned k = 0; k < 16; k++) {
		res->unplaced += lanes[k].unplaced;
		c->t3->run_records += lanes[k].run_records;
		c->t3->run_accesses += lanes[k].run_accesses;
		c->t3->lanes_s += lanes[k].secs;
		free(lanes[k].base), free(lanes[k].tex), free(lanes[k].t);
		llct_fp_group_free(&lanes[k].grp);
	}
	instr_expand_account(c);
	return oom ? -1 : 0;
}

int instr_records(struct capture_device *c, struct cbuf *b, const struct cmd *m,
		  const struct pipe *p, struct instr_result *res)
{
	if (instr_records_peek(b, m, p, res))
		return -1;
	const struct crec *r = &b->crec[m->u.dispatch.rec - 1];
	uint32_t total = r->map[0] / 3, kept = total < r->cap / 3 ? total : r->cap / 3;
	/* each site's buffer (base address and size) or storage image (its view's map), looked
	   up once (for an element given at run time, again when the element changes) */
	struct base *base = calloc(p->tw.n_sites ? p->tw.n_sites : 1, sizeof(*base));
	uint32_t L = llct_fp_line_size(c->out->fp);
	if (!base)
		return -1;
	int serial = 0;
	for (size_t s = 0; s < p->tw.n_sites; s++) {
		serial |=
		    p->tw.sites[s].element == LLCT_SPIRV_ELEMENT_IN_RECORD || p->tw.sites[s].bda;
		if (p->tw.sites[s].element != LLCT_SPIRV_ELEMENT_IN_RECORD)
			site_base(c, &p->tw.sites[s], p->tw.sites[s].element, L, &base[s]);
	}
	int rc = records_lanes(c, p, r, kept, base, serial, res);
	free(base);
	return rc;
}
