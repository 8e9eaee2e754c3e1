/* spirv_instr_run.c - runs, in tier 3's instrumentation pass: a shader that loads one
 * buffer at constant offsets, load after load in a block (Zink reads a GL program's uniforms a
 * component at a time: a matrix is 16 loads), sends one record for the run, its first load's;
 * the others become sites that follow it (struct llct_spirv_site's run and follows) and the
 * layer touches their bytes when it expands that record. Every lane that makes the first
 * record runs the rest: nothing between them can end the block, call, demote the lane or
 * record (a record between ends the run in capture_spv_record_n). */
#include "spirv_instr_int.h"

#include <spirv/unified1/spirv.h>

/* Whether the load's offset is known and it may be in a run at all. */
static int runnable(const struct pass *p, const struct chain *c, uint32_t size)
{
	return p->run_window && size && size <= p->run_window && (!c || (c->konst && !c->elem_id));
}

int capture_spv_run_join(struct pass *p, const struct chain *c, uint32_t var, uint32_t size)
{
	if (!p->run_lead || !runnable(p, c, size))
		return 0;
	uint32_t off = c ? c->koff : 0, elem = c ? c->elem : 0;
	uint32_t lo = off < p->run_lo ? off : p->run_lo;
	uint32_t hi = off + size > p->run_hi ? off + size : p->run_hi;
	struct llct_spirv_site *lead = &p->sites[p->run_lead - 1];
	size_t me = p->n_sites - 1; /* the site just made: the run's next, or no run */
	if (var != p->run_var || elem != p->run_elem || hi - lo > p->run_window ||
	    lead->run == UINT16_MAX || me != p->run_lead + lead->run || off > UINT32_MAX - size)
		return 0;
	lead->run++;
	p->sites[me].follows = 1;
	p->sites[me].off = off;
	p->run_lo = lo, p->run_hi = hi;
	return 1;
}

void capture_spv_run_open(struct pass *p, const struct chain *c, uint32_t var, uint32_t size)
{
	p->run_lead = 0;
	if (!runnable(p, c, size) || !p->n_sites)
		return;
	uint32_t off = c ? c->koff : 0;
	if (off > UINT32_MAX - size)
		return;
	p->sites[p->n_sites - 1].off = off;
	p->run_lead = (uint32_t)p->n_sites;
	p->run_var = var, p->run_elem = c ? c->elem : 0;
	p->run_lo = off, p->run_hi = off + size;
}

void capture_spv_run_barrier(struct pass *p, uint32_t op)
{
	switch (op) {
	case SpvOpLabel: /* a block starts: reached from elsewhere */
	case SpvOpFunction:
	case SpvOpFunctionEnd:
	case SpvOpFunctionCall: /* it may record, kill or demote */
	case SpvOpDemoteToHelperInvocation:
	case SpvOpKill:
	case SpvOpTerminateInvocation:
		p->run_lead = 0;
		break;
	default:
		break;
	}
}
