/* test_capture_walk.c - the expansion's walk through shadow command lists without a device
 * (capture/07-expansion/expand.c, describe.c): a primary and a secondary command buffer built by
 * hand, over tracked images and pipelines built by hand, walked into a real trace by a tier that
 * logs what the walk hands it (and passes it on to tier 1 for records). Checks the order of passes,
 * draws and clears the tier sees, what each carries (attachments and their ops, the area, the
 * viewport set by a command), the kernels written (kinds, labels, counts, pipelines), that a
 * secondary inherits no bound state from the primary that runs it, the images a draw samples
 * through its bound sets (the bindings its shaders use, in each set layout's order, ascending or
 * not), and that work outside a captured frame is walked past. */
#include "block.h"
#include "check.h"
#include "layer.h"
#include "settings.h"
#include "tier.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_STR(got, want)                                                                       \
	do {                                                                                       \
		CHECK(!strcmp((got), (want)));                                                     \
		if (strcmp((got), (want)))                                                         \
			fprintf(stderr, "  got:  %s\n  want: %s\n", (got), (want));                \
	} while (0)

/* ---- the tier: a log of what the walk hands it, then tier 1's records ---- */

static char tlog[1024];

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	size_t at = strlen(tlog);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tlog + at, sizeof(tlog) - at, fmt, ap);
	va_end(ap);
}

static void t_begin_pass(struct capture_device *c, const struct llct_pass *p)
{
	logf_("B(%u,%ux%u", p->n, p->x1 - p->x0, p->y1 - p->y0);
	for (uint32_t i = 0; i < p->n; i++)
		logf_(",%s%s/%s", p->att[i].role == LLCT_ROLE_DEPTH ? "Z" : "C",
		      p->att[i].load == LLCT_LOAD_CLEAR  ? "clear"
		      : p->att[i].load == LLCT_LOAD_LOAD ? "load"
							 : "dc",
		      p->att[i].store == LLCT_STORE_STORE ? "store" : "dc");
	logf_(") ");
	llct_tier1.begin_pass(c, p);
}

static void t_end_pass(struct capture_device *c, const struct llct_pass *p)
{
	logf_("E ");
	llct_tier1.end_pass(c, p);
}

static void t_draw(struct capture_device *c, const struct llct_pass *p, const struct llct_draw *d,
		   struct llct_draw_result *r)
{
	logf_("D(vp%g", d->st.has_viewport ? d->st.vp_w : 0.0f);
	for (uint32_t i = 0; i < d->n_uses; i++) /* the images sampled, by their base's MiB */
		if (d->uses[i].kind == LLCT_USE_IMAGE)
			logf_("%s%llu", i ? "," : " u",
			      (unsigned long long)(d->uses[i].s.base >> 20));
	logf_(") ");
	llct_tier1.draw(c, p, d, r);
}

static void t_clear(struct capture_device *c, const struct llct_pass *p, uint32_t a, uint32_t x0,
		    uint32_t y0, uint32_t x1, uint32_t y1, uint32_t aspects, float depth,
		    uint32_t stencil)
{
	logf_("C(%u,%ux%u) ", a, x1 - x0, y1 - y0);
	llct_tier1.clear(c, p, a, x0, y0, x1, y1, aspects, depth, stencil);
}

static const struct tier_ops log_tier = {
    .tier = 1,
    .setting = "test",
    .begin_pass = t_begin_pass,
    .end_pass = t_end_pass,
    .draw = t_draw,
    .clear = t_clear,
};

/* ---- tracked objects and commands, by hand ---- */

static struct img *add_image(struct capture_device *c, uint64_t handle, uint64_t id, int depth,
			     uint64_t base)
{
	struct img *im = calloc(1, sizeof(*im));
	im->id = id;
	im->s = (struct llct_surface){.base = base,
				      .width = 64,
				      .height = 32,
				      .layers = 1,
				      .mips = 1,
				      .samples = 1,
				      .bpp = 4,
				      .tiled = 1};
	im->depth = depth;
	im->bound = 1;
	capture_hmap_put(&c->tr->imgs, handle, im);
	return im;
}

static void add_view(struct capture_device *c, uint64_t handle, uint64_t image)
{
	struct view *v = calloc(1, sizeof(*v));
	v->image = image;
	v->layers = 1;
	capture_hmap_put(&c->tr->views, handle, v);
}

static void add_pipe(struct capture_device *c, uint64_t handle, uint64_t id)
{
	struct pipe *p = calloc(1, sizeof(*p));
	p->id = id;
	p->parts = PART_ALL;
	p->vi.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	p->pr.polygon_mode = VK_POLYGON_MODE_FILL;
	p->pr.line_width = 1;
	p->pr.depth_clip = -1;
	p->pr.out_prim = -1;
	p->fs.has_fs = 1;
	p->fs.samples = 1;
	memset(p->used, 0xff, sizeof(p->used));
	capture_hmap_put(&c->ps->pipes, handle, p);
}

/* A set of sampled images, its layout's bindings in the order given, each holding the view
 * given. */
static void add_set(struct capture_device *c, uint64_t handle, const uint32_t *binding,
		    const uint64_t *view, uint32_t n)
{
	struct dlayout l = {.n = n, .b = calloc(n, sizeof(*l.b))};
	for (uint32_t i = 0; i < n; i++)
		l.b[i].binding = binding[i], l.b[i].count = 1,
		l.b[i].type = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
	struct dset *s = capture_new_dset(&l);
	free(l.b);
	CHECK(s != NULL);
	for (uint32_t i = 0; s && i < n; i++)
		s->slot[s->first[i]].handle = view[i];
	capture_hmap_put(&c->ps->sets, handle, s);
}

/* Sampled images at 3, 4 and 5 MiB; a set whose layout lists bindings 2, 0, 1 and one that
 * lists 0, 1, 2, each binding 0 the first image, 1 the second, 2 the third; pipeline A's shaders
 * use bindings 0 and 2 of sets 0 and 1, so a draw's uses are each set's slots of those bindings
 * in the layout's order: 5, 3 and then 3, 5. */
static void add_sampled(struct capture_device *c)
{
	for (uint64_t i = 3; i <= 5; i++) {
		add_image(c, i << 8, i, 0, i << 20);
		add_view(c, i << 8 | 0x10, i << 8);
	}
	add_set(c, 0x700, (const uint32_t[]){2, 0, 1}, (const uint64_t[]){0x510, 0x310, 0x410}, 3);
	add_set(c, 0x800, (const uint32_t[]){0, 1, 2}, (const uint64_t[]){0x310, 0x410, 0x510}, 3);
	struct pipe *pa = capture_hmap_get(&c->ps->pipes, 0xa);
	pa->used[0] = pa->used[1] = 1u << 0 | 1u << 2;
}

static struct cmd *add(struct cbuf *b, enum cmd_op op)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->cmds = realloc(b->cmds, b->cap * sizeof(*b->cmds));
	}
	struct cmd *m = &b->cmds[b->n++];
	memset(m, 0, sizeof(*m));
	m->op = op;
	return m;
}

static void draw(struct cbuf *b, uint32_t count, uint32_t instances)
{
	struct cmd *m = add(b, C_DRAW);
	m->u.draw.count = count;
	m->u.draw.instances = instances;
}

/* ---- the kernels written ---- */

static char klog[2048];

static int on_kernel(uint64_t id, uint32_t frame, const char *kind, const char *name,
		     const char *params, void *ud)
{
	(void)ud;
	(void)frame;
	size_t at = strlen(klog);
	const char *count = params ? strstr(params, "\"count\":") : NULL;
	const char *pipe = params ? strstr(params, "\"pipeline\":") : NULL;
	snprintf(klog + at, sizeof(klog) - at, "%llu:%s[%s]%s%.*s%s%.*s ", (unsigned long long)id,
		 kind, name ? name : "", count ? " " : "", count ? (int)strcspn(count, ",}") : 0,
		 count ? count : "", pipe ? " " : "", pipe ? (int)strcspn(pipe, ",}") : 0,
		 pipe ? pipe : "");
	return 0;
}

int main(void)
{
	char path[] = "/tmp/llct_walk_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);

	struct capture_block k_;
	struct capture_device c = *capture_block_init(&k_);
	pthread_mutex_init(&c.lock, NULL);
	pthread_mutex_init(&c.out->wmu, NULL);
	c.tier = &log_tier;
	c.rs->count_query = VK_QUERY_TYPE_OCCLUSION;
	struct llct_capture_info info = {.source = "test", .tier = 1, .application = "walk"};
	char err[256];
	CHECK(llct_writer_open(path, &info, &c.out->w, err, sizeof(err)) == 0);
	struct llct_fp_config fc;
	llct_fp_config_default(&fc);
	CHECK(capture_model_create(&c, &fc) == 0);
	c.out->all_frames = 1;

	/* a color target and a depth buffer, their views; pipelines A (id 7) and B (id 9) */
	add_image(&c, 0x100, 1, 0, 1u << 20);
	add_image(&c, 0x200, 2, 1, 2u << 20);
	add_view(&c, 0x110, 0x100);
	add_view(&c, 0x210, 0x200);
	add_pipe(&c, 0xa, 7);
	add_pipe(&c, 0xb, 9);
	add_sampled(&c);

	/* the secondary: draws 2 with nothing bound (none inherited), binds B, draws 6 */
	struct cbuf *s = calloc(1, sizeof(*s));
	capture_hmap_put(&c.tr->cbufs, 0x5, s);
	draw(s, 2, 1);
	struct cmd *m = add(s, C_BIND_PIPELINE);
	m->u.bind.pipe = 0xb;
	draw(s, 6, 1);

	/* the primary: a labelled pass (color cleared and stored, depth loaded and not kept)
	   drawing with A under a viewport set by a command, clearing the color attachment,
	   running the secondary, binding A and setting the viewport again (the primary's state
	   is undefined after it) and drawing; a draw after the pass */
	struct cbuf *p = calloc(1, sizeof(*p));
	capture_hmap_put(&c.tr->cbufs, 0x1, p);
	m = add(p, C_LABEL_BEGIN);
	snprintf(m->u.label, sizeof(m->u.label), "gbuffer");
	m = add(p, C_BEGIN_RENDERING);
	struct cmd_pass *dr = calloc(1, sizeof(*dr)); /* the list's passes: this begin's */
	p->passes = dr, p->n_passes = p->cap_passes = 1, m->u.pass = 0;
	dr->dr.n = 2;
	dr->dr.view[0] = 0x110;
	dr->dr.view[1] = 0x210;
	dr->dr.att[0] = (struct att_desc){.load = VK_ATTACHMENT_LOAD_OP_CLEAR,
					  .store = VK_ATTACHMENT_STORE_OP_STORE,
					  .stencil_load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
					  .stencil_store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
					  .role = ROLE_COLOR};
	dr->dr.att[1] = (struct att_desc){.load = VK_ATTACHMENT_LOAD_OP_LOAD,
					  .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
					  .stencil_load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
					  .stencil_store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
					  .role = ROLE_DEPTH};
	dr->dr.area.extent.width = 64;
	dr->dr.area.extent.height = 32;
	m = add(p, C_BIND_PIPELINE);
	m->u.bind.pipe = 0xa;
	m = add(p, C_VIEWPORT);
	m->u.viewport = (VkViewport){0, 0, 48, 32, 0, 1};
	draw(p, 3, 2);
	m = add(p, C_CLEAR_ATT);
	m->u.catt.n_rects = 1;
	m->u.catt.rect.extent.width = 16;
	m->u.catt.rect.extent.height = 8;
	m->u.catt.color_mask = 1; /* color attachment 0 only */
	m = add(p, C_EXECUTE);
	m->u.exec.cb = 0x5;
	m = add(p, C_BIND_SET);
	m->u.set.index = 0, m->u.set.set = 0x700;
	m = add(p, C_BIND_SET);
	m->u.set.index = 1, m->u.set.set = 0x800;
	m = add(p, C_BIND_PIPELINE);
	m->u.bind.pipe = 0xa;
	m = add(p, C_VIEWPORT);
	m->u.viewport = (VkViewport){0, 0, 40, 32, 0, 1};
	draw(p, 4, 1);
	add(p, C_END_RP);
	add(p, C_LABEL_END);
	draw(p, 5, 1);

	/* frame 0 is captured: the walk's order and what it hands the tier */
	c.frame = 0;
	CHECK(capture_frame_open(&c) == 1);
	capture_expand(&c, p, 0);
	CHECK_STR(tlog, "B(2,64x32,Cclear/store,Zload/dc) D(vp48) C(0,16x8) D(vp0) D(vp0) "
			"D(vp40 u5,3,3,5) E D(vp40 u5,3,3,5) ");
	CHECK(c.out->label[0] == '\0'); /* the label ended */
	CHECK(c.walk->rp_active == 0);  /* the pass ended */
	llct_fp_drain(c.out->fp);
	CHECK(llct_writer_end_frame(c.out->w) == 0);
	c.in_frame = 0;

	/* frame 1 is not captured: passes, draws and clears are walked past */
	tlog[0] = '\0';
	uint32_t kernels = c.out->kernel;
	c.frame = 1;
	capture_expand(&c, p, 0);
	CHECK_STR(tlog, "");
	CHECK(c.out->kernel == kernels);
	CHECK(llct_writer_close(c.out->w) == 0);
	c.out->w = NULL;

	/* the kernels written: the load ops, each draw with its count and pipeline (0: none
	   bound), the clear, the store ops, under the label while it lasted */
	struct llct_reader *r;
	CHECK(llct_reader_open(path, &r, err, sizeof(err)) == 0);
	CHECK(llct_reader_foreach_kernel(r, on_kernel, NULL) == 0);
	CHECK_STR(klog, "0:load[gbuffer] 1:draw[gbuffer] \"count\":3 \"pipeline\":7 "
			"2:clear[gbuffer] 3:draw[gbuffer] \"count\":2 \"pipeline\":0 "
			"4:draw[gbuffer] \"count\":6 \"pipeline\":9 "
			"5:draw[gbuffer] \"count\":4 \"pipeline\":7 6:store[gbuffer] "
			"7:draw[] \"count\":5 \"pipeline\":7 ");
	const struct llct_frame_info *fr;
	size_t n_frames = 0;
	CHECK(llct_reader_frames(r, &fr, &n_frames) == 0);
	CHECK_EQ(n_frames, 1);                       /* frame 0 only */
	CHECK(n_frames == 1 && fr[0].n_records > 0); /* tier 1's records of it */
	llct_reader_close(r);

	llct_fp_destroy(c.out->fp);
	for (size_t i = 0; i < c.tr->cbufs.cap; i++) { /* what was built by hand */
		struct cbuf *b = c.tr->cbufs.val[i];
		if (b)
			free(b->cmds), free(b->passes);
	}
	capture_hmap_free_all(&c.tr->cbufs, NULL);
	capture_hmap_free_all(&c.tr->imgs, NULL);
	capture_hmap_free_all(&c.tr->views, NULL);
	capture_hmap_free_all(&c.ps->pipes, NULL);
	capture_hmap_free_all(&c.ps->sets, capture_free_dset);
	free(c.walk->uses);
	unlink(path);
	return check_done("test_capture_walk");
}
