/* spirv_instr_sg.c - capture tier 3's instrumentation pass, its subgroup reservation: in place
 * of an atomic on the record buffer's cursor for every invocation that records, the lowest
 * recording lane of a subgroup takes room for all of the subgroup's records with one atomic
 * (a ballot of the lanes that record, their exclusive count as each lane's place), and the
 * others learn where it starts from a subgroup sum. The records are the same words in the same
 * order (a subgroup's lanes in lane order, as the lanes' own atomics leave them on lavapipe);
 * only the atomics on one address go from one a lane to one a subgroup, which is what
 * serializes in a GPU's L2. Helper invocations (fragment quads' lanes outside the primitive)
 * record nothing, as before: their writes would not land, so they take no room.
 *
 * The one lane's atomic is a branch, so the block it sits in is split in two: what follows
 * goes into a new block, and the module's OpPhis that name the old block as a predecessor are
 * renamed to the new one after the functions are copied; an OpSampledImage of the old block
 * that the new one uses is made again there (a sampled image must be used in the block that
 * makes it). A block holding a loop's merge instruction (a loop header, which must stay the
 * block its back edge names) is not split: its records take a lane's atomic each, as before.
 * In modules that may demote invocations to helpers (discard as Zink compiles it) a lane asks
 * OpIsHelperInvocationEXT, which sees a demotion, instead of reading HelperInvocation. */
#include "spirv_instr_int.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

int capture_spv_sg_plan(struct pass *p)
{
	const uint32_t *w = p->w;
	if (!p->sg || !(p->fragment || p->compute || p->vertex)) {
		p->sg = 0;
		return 0;
	}
	for (size_t i = 5; i < p->n; i += w[i] >> 16) {
		uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
		if (op == SpvOpCapability && len >= 2) {
			p->demotes |= w[i + 1] == SpvCapabilityDemoteToHelperInvocation;
			p->has_sg_cap[0] |= w[i + 1] == SpvCapabilityGroupNonUniform;
			p->has_sg_cap[1] |= w[i + 1] == SpvCapabilityGroupNonUniformBallot;
			p->has_sg_cap[2] |= w[i + 1] == SpvCapabilityGroupNonUniformArithmetic;
			p->has_sg_cap[3] |= w[i + 1] == SpvCapabilityGroupNonUniformShuffle;
		} else if (op == SpvOpTypeVector && len >= 4 && w[i + 2] == p->t_uint &&
			   w[i + 3] == 4 && !p->t_v4u) {
			p->t_v4u = w[i + 1];
		} else if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
			   w[i + 3] == SpvBuiltInHelperInvocation && w[i + 1] < p->bound &&
			   p->ids[w[i + 1]].op == SpvOpVariable) {
			p->v_help = w[i + 1];
		} else if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationBuiltIn &&
			   w[i + 3] == SpvBuiltInSubgroupLtMask && w[i + 1] < p->bound &&
			   p->ids[w[i + 1]].op == SpvOpVariable) {
			p->v_lt = w[i + 1];
		}
	}
	if (!p->t_v4u)
		p->new_v4u = 1, p->t_v4u = p->next++;
	if (p->fragment && !p->v_help && !p->demotes)
		p->new_help = 1, p->v_help = p->next++, p->t_phelp = p->next++;
	if (p->coalesce && !p->v_lt)
		p->new_lt = 1, p->v_lt = p->next++, p->t_plt = p->next++;
	if (p->coalesce && p->fragment && p->tile_shift >= 0) /* binding 1's slot words */
		p->t_slots = p->next++, p->c_slots = p->next++;
	if (p->coalesce && p->fragment && !p->t_int) { /* the sample key's levels */
		for (size_t i = 5; i < p->n && !p->t_int; i += w[i] >> 16)
			if ((w[i] & 0xffff) == SpvOpTypeInt && (w[i] >> 16) >= 4 &&
			    w[i + 2] == 32 && w[i + 3] == 1)
				p->t_int = w[i + 1];
		if (!p->t_int)
			p->t_int = p->next++, p->new_int = 1;
	}
	return 0;
}

static void *grow(void *a, size_t *cap, size_t need, size_t size, int *oom)
{
	if (need <= *cap)
		return a;
	size_t c = *cap ? 2 * *cap : 16;
	while (c < need)
		c *= 2;
	void *b = realloc(a, c * size);
	if (!b) {
		*oom = 1;
		return NULL;
	}
	*cap = c;
	return b;
}

static int is_terminator(uint32_t op)
{
	return (op >= SpvOpBranch && op <= SpvOpUnreachable) || op == SpvOpTerminateInvocation;
}

/* Instructions whose third operand is a sampled image. */
static int takes_sampled_image(uint32_t op)
{
	return (op >= SpvOpImageSampleImplicitLod && op <= SpvOpImageSampleProjDrefExplicitLod) ||
	       op == SpvOpImageGather || op == SpvOpImageDrefGather || op == SpvOpImage ||
	       op == SpvOpImageQueryLod ||
	       (op >= SpvOpImageSparseSampleImplicitLod &&
		op <= SpvOpImageSparseSampleProjDrefExplicitLod) ||
	       op == SpvOpImageSparseGather || op == SpvOpImageSparseDrefGather;
}

/* A block starts at word i: its label, and whether it holds a loop's merge. */
static void block_begin(struct pass *p, size_t i)
{
	const uint32_t *w = p->w;
	p->cur_label = p->blk_label = w[i + 1];
	p->n_simg = 0;
	p->no_split = 0;
	for (size_t j = i + (w[i] >> 16); j < p->n; j += w[j] >> 16) {
		uint32_t op = w[j] & 0xffff;
		if (op == SpvOpLabel || op == SpvOpFunctionEnd)
			break;
		p->no_split |= op == SpvOpLoopMerge;
	}
}

void capture_spv_sg_copy(struct pass *p, size_t i)
{
	const uint32_t *w = p->w + i;
	uint32_t op = w[0] & 0xffff, len = w[0] >> 16;
	if (!p->sg) {
		capture_spv_emit(p, w, len);
		return;
	}
	if (op == SpvOpLabel && len >= 2)
		block_begin(p, i);
	if (op == SpvOpFunctionEnd)
		p->cur_label = p->blk_label = 0;
	if (op == SpvOpPhi) {
		size_t *ph = grow(p->phis, &p->cap_phis, p->n_phis + 1, sizeof(*ph), &p->oom);
		if (!ph)
			return;
		p->phis = ph;
		p->phis[p->n_phis++] = p->n_out;
	}
	if (op == SpvOpSampledImage && len >= 5) {
		struct sg_image *s =
		    grow(p->simg, &p->cap_simg, p->n_simg + 1, sizeof(*s), &p->oom);
		if (!s)
			return;
		p->simg = s;
		p->simg[p->n_simg++] = (struct sg_image){w[1], w[2], w[3], w[4], w[2]};
	}
	size_t at = p->n_out;
	capture_spv_emit(p, w, len);
	if (takes_sampled_image(op) && len >= 4 && !p->oom)
		for (size_t k = 0; k < p->n_simg; k++)
			if (p->simg[k].orig == w[3])
				p->out[at + 3] = p->simg[k].now;
	if (is_terminator(op) && p->cur_label != p->blk_label) {
		uint32_t(*r)[2] =
		    grow(p->relabel, &p->cap_relabel, p->n_relabel + 1, sizeof(*r), &p->oom);
		if (!r)
			return;
		p->relabel = r;
		p->relabel[p->n_relabel][0] = p->blk_label;
		p->relabel[p->n_relabel++][1] = p->cur_label;
	}
}

static void emit6(struct pass *p, uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t d,
		  uint32_t e)
{
	uint32_t i[6] = {6u << 16 | op, a, b, c, d, e};
	capture_spv_emit(p, i, 6);
}

/* The lanes below this one that record whose record is compared with this one's: the nearest
 * CO_CANDIDATES of them, which in a quad-ordered subgroup (lanes 0-3 a 2 x 2 quad, 4-7 the next
 * to its right) include the pixels to the left and above. */
#define CO_CANDIDATES 3

/* Whether candidate lane pid (has: there is one) records the same compared words as this lane,
 * in the same SM tile (words: this lane's nw of them). */
static uint32_t same_as(struct pass *p, uint32_t sc, uint32_t has, uint32_t pid,
			const uint32_t *words, uint32_t nw)
{
	uint32_t same = has;
	for (uint32_t q = 0; q < nw; q++) {
		uint32_t pv = p->next++, eq = p->next++, a = p->next++;
		emit6(p, SpvOpGroupNonUniformShuffle, p->t_uint, pv, sc, words[q], pid);
		capture_spv_emit5(p, SpvOpIEqual, p->t_bool, eq, pv, words[q]);
		capture_spv_emit5(p, SpvOpLogicalAnd, p->t_bool, a, same, eq);
		same = a;
	}
	return same;
}

/* Whether this lane's record may go unsent (coalesced): one of the nearest lanes below it in
 * the subgroup that record (live: their records come before this one's, in lane order) records
 * the same compared words, in the same SM tile, and (samples) both lanes' keys stand for their
 * lines. A record is then the same lines as one before it in its subgroup on the same SM: they
 * hit in the SM's cache unless a record between evicted one (counted by the stats). */
static uint32_t coalesced(struct pass *p, uint32_t live, uint32_t sc)
{
	uint32_t z = capture_spv_konst(p, 0);
	uint32_t lt = p->next++, bl = p->next++, below = p->next++, nb = p->next++;
	capture_spv_emit4(p, SpvOpLoad, p->t_v4u, lt, p->v_lt);
	capture_spv_emit5(p, SpvOpGroupNonUniformBallot, p->t_v4u, bl, sc, live);
	capture_spv_emit5(p, SpvOpBitwiseAnd, p->t_v4u, below, bl, lt);
	emit6(p, SpvOpGroupNonUniformBallotBitCount, p->t_uint, nb, sc, SpvGroupOperationReduce,
	      below);
	uint32_t words[5] = {0, 0, 0, 0, 0}, nw = 0, gate = 0;
	if (p->co_ok) { /* a sample: this lane's key and the other's stand for their lines */
		uint32_t ok = p->next++;
		uint32_t s6[6] = {6u << 16 | SpvOpSelect,  p->t_uint, ok, p->co_ok,
				  capture_spv_konst(p, 1), z};
		capture_spv_emit(p, s6, 6);
		gate = p->co_ok, words[nw++] = ok; /* the other's must be 1 too: compared */
	}
	for (uint32_t q = 0; q < p->co_n && q < 3; q++)
		words[nw++] = p->co_vals[q];
	if (p->co_pixel && p->vertex) { /* the vertex's warp of 32, which picks its SM */
		uint32_t t = p->next++;
		capture_spv_emit5(p, SpvOpShiftRightLogical, p->t_uint, t, p->co_pixel,
				  capture_spv_konst(p, 5));
		words[nw++] = t;
	} else if (p->co_pixel) { /* the pixel's tile: x >> s | (y >> s) << 16 */
		uint32_t s = capture_spv_konst(p, (uint32_t)p->tile_shift);
		uint32_t x = p->next++, tx = p->next++, ty = p->next++, ty16 = p->next++,
			 t = p->next++;
		capture_spv_emit5(p, SpvOpBitwiseAnd, p->t_uint, x, p->co_pixel,
				  capture_spv_konst(p, 0xffff));
		capture_spv_emit5(p, SpvOpShiftRightLogical, p->t_uint, tx, x, s);
		capture_spv_emit5(p, SpvOpShiftRightLogical, p->t_uint, ty, p->co_pixel,
				  capture_spv_konst(p, 16 + (uint32_t)p->tile_shift));
		capture_spv_emit5(p, SpvOpShiftLeftLogical, p->t_uint, ty16, ty,
				  capture_spv_konst(p, 16));
		capture_spv_emit5(p, SpvOpBitwiseOr, p->t_uint, t, tx, ty16);
		words[nw++] = t;
	}
	/* the candidates: the highest lane of `cand`, then of the lanes below it (its own
	   SubgroupLtMask, shuffled from it) */
	uint32_t any = 0, cand = below;
	for (uint32_t k = 0; k < CO_CANDIDATES; k++) {
		uint32_t has = p->next++, msb = p->next++, pid = p->next++;
		capture_spv_emit5(p, SpvOpUGreaterThan, p->t_bool, has, nb,
				  capture_spv_konst(p, k));
		capture_spv_emit5(p, SpvOpGroupNonUniformBallotFindMSB, p->t_uint, msb, sc, cand);
		/* none (FindMSB of no lane is undefined): lane 0, a lane there is, compared in vain
		 */
		emit6(p, SpvOpSelect, p->t_uint, pid, has, msb, z);
		uint32_t same = same_as(p, sc, has, pid, words, nw);
		if (any) {
			uint32_t o = p->next++;
			capture_spv_emit5(p, SpvOpLogicalOr, p->t_bool, o, any, same);
			any = o;
		} else {
			any = same;
		}
		if (k + 1 < CO_CANDIDATES) {
			uint32_t its = p->next++, nc = p->next++;
			emit6(p, SpvOpGroupNonUniformShuffle, p->t_v4u, its, sc, lt, pid);
			capture_spv_emit5(p, SpvOpBitwiseAnd, p->t_v4u, nc, cand, its);
			cand = nc;
		}
	}
	if (gate) {
		uint32_t a = p->next++;
		capture_spv_emit5(p, SpvOpLogicalAnd, p->t_bool, a, any, gate);
		any = a;
	}
	return any;
}

uint32_t capture_spv_sg_reserve(struct pass *p, uint32_t pc, uint32_t n, uint32_t *keep)
{
	*keep = 0;
	if (!p->sg || p->no_split || !p->cur_label)
		return 0;
	uint32_t sc = capture_spv_konst(p, SpvScopeSubgroup), z = capture_spv_konst(p, 0);
	uint32_t live = p->next++, bal = p->next++, pre = p->next++, cnt = p->next++,
		 first = p->next++, lead = p->next++, tot = p->next++, a = p->next++, m = p->next++,
		 got = p->next++, phi = p->next++, base = p->next++, off = p->next++,
		 at = p->next++;
	if (p->fragment && p->demotes) { /* the lanes that record: not helpers, even demoted */
		uint32_t h = p->next++;
		uint32_t is[3] = {3u << 16 | SpvOpIsHelperInvocationEXT, p->t_bool, h};
		capture_spv_emit(p, is, 3);
		capture_spv_emit4(p, SpvOpLogicalNot, p->t_bool, live, h);
	} else if (p->v_help) { /* the lanes that record: not helpers */
		uint32_t h = p->next++;
		capture_spv_emit4(p, SpvOpLoad, p->t_bool, h, p->v_help);
		capture_spv_emit4(p, SpvOpLogicalNot, p->t_bool, live, h);
	} else {
		capture_spv_emit5(p, SpvOpIEqual, p->t_bool, live, z, z);
	}
	if (p->co_n) { /* coalesced: the lanes that record are those no lane before
			  stands for */
		uint32_t drop = coalesced(p, live, sc), nd = p->next++, k = p->next++;
		capture_spv_emit4(p, SpvOpLogicalNot, p->t_bool, nd, drop);
		capture_spv_emit5(p, SpvOpLogicalAnd, p->t_bool, k, live, nd);
		live = *keep = k;
	}
	capture_spv_emit5(p, SpvOpGroupNonUniformBallot, p->t_v4u, bal, sc, live);
	emit6(p, SpvOpGroupNonUniformBallotBitCount, p->t_uint, pre, sc,
	      SpvGroupOperationExclusiveScan, bal);
	emit6(p, SpvOpGroupNonUniformBallotBitCount, p->t_uint, cnt, sc, SpvGroupOperationReduce,
	      bal);
	capture_spv_emit5(p, SpvOpIEqual, p->t_bool, first, pre, z);
	capture_spv_emit5(p, SpvOpLogicalAnd, p->t_bool, lead, live, first);
	capture_spv_emit5(p, SpvOpIMul, p->t_uint, tot, cnt, capture_spv_konst(p, n));
	capture_spv_emit3(p, SpvOpSelectionMerge, m, SpvSelectionControlMaskNone);
	capture_spv_emit4(p, SpvOpBranchConditional, lead, a, m);
	uint32_t la[2] = {2u << 16 | SpvOpLabel, a};
	capture_spv_emit(p, la, 2);
	uint32_t add[7] = {7u << 16 | SpvOpAtomicIAdd,           p->t_uint, got, pc,
			   capture_spv_konst(p, SpvScopeDevice), z,         tot};
	capture_spv_emit(p, add, 7);
	uint32_t br[4] = {2u << 16 | SpvOpBranch, m, 2u << 16 | SpvOpLabel, m};
	capture_spv_emit(p, br, 4);
	uint32_t ph[7] = {7u << 16 | SpvOpPhi, p->t_uint, phi, got, a, z, p->cur_label};
	capture_spv_emit(p, ph, 7);
	emit6(p, SpvOpGroupNonUniformIAdd, p->t_uint, base, sc, SpvGroupOperationReduce, phi);
	capture_spv_emit5(p, SpvOpIMul, p->t_uint, off, pre, capture_spv_konst(p, n));
	capture_spv_emit5(p, SpvOpIAdd, p->t_uint, at, base, off);
	p->cur_label = m;
	for (size_t k = 0; k < p->n_simg; k++) { /* the block's sampled images, made here again */
		struct sg_image *s = &p->simg[k];
		s->now = p->next++;
		capture_spv_emit5(p, SpvOpSampledImage, s->type, s->now, s->image, s->sampler);
	}
	return at;
}

void capture_spv_sg_finish(struct pass *p)
{
	for (size_t k = 0; k < p->n_phis && !p->oom; k++) {
		uint32_t *o = p->out + p->phis[k], len = o[0] >> 16;
		for (uint32_t q = 4; q < len; q += 2)
			for (size_t r = 0; r < p->n_relabel; r++)
				if (o[q] == p->relabel[r][0]) {
					o[q] = p->relabel[r][1];
					break;
				}
	}
}

void capture_spv_sg_free(struct pass *p)
{
	free(p->simg), free(p->relabel), free(p->phis), free(p->nocontract);
	p->simg = NULL, p->relabel = NULL, p->phis = NULL, p->nocontract = NULL;
}
