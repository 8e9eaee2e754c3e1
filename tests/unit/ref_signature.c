/* ref_signature.c - the reference implementation's PLRU tree and the training of its signature
 * policies (Hawkeye's OPTgen, Mockingjay's reuse distances), written from docs/REPLAY.md alone,
 * for test_reference.c. */
#include "ref.h"

/* Hawkeye's OPTgen on a sample set's access: the previous access of the line among the last
 * 8 x ways - 1 accesses; MIN hits it if no slot from there to now is full. */
void hk_optgen(struct ref *r, int set, uint64_t line, int sig)
{
	struct hk_set *h = &r->hk[set / 32];
	int t = h->n;
	for (int u = t - 1; u >= 0 && u > t - 8 * r->ways; u--) {
		if (h->line[u] != line)
			continue;
		int fits = 1;
		for (int v = u; v < t; v++)
			if (h->occ[v] >= r->ways)
				fits = 0;
		if (fits) {
			for (int v = u; v < t; v++)
				h->occ[v]++;
			if (r->shct[h->sig[u]] < 7)
				r->shct[h->sig[u]]++;
		} else if (r->shct[h->sig[u]] > 0) {
			r->shct[h->sig[u]]--;
		}
		break;
	}
	h->line[t] = line;
	h->sig[t] = sig;
	h->occ[t] = 0;
	h->n++;
}

/* Mockingjay: the predictor moves towards d; the ETR a signature predicts; a sample set's
 * training at an access (the whole history kept; the window is 8 x ways accesses). */
static void mj_toward(struct ref *r, int sig, int d)
{
	int inf = 8 * r->ways;
	if (d > inf)
		d = inf;
	if (r->rdp[sig] < 0) {
		r->rdp[sig] = d;
		return;
	}
	int diff = d - r->rdp[sig], step = diff / 8;
	if (step == 0 && diff > 0)
		step = 1;
	if (step == 0 && diff < 0)
		step = -1;
	r->rdp[sig] += step;
	if (r->rdp[sig] < 0)
		r->rdp[sig] = 0;
	if (r->rdp[sig] > inf)
		r->rdp[sig] = inf;
}

int mj_predict(struct ref *r, int sig)
{
	if (r->rdp[sig] < 0)
		return 0;
	if (r->rdp[sig] >= 8 * r->ways)
		return 127;
	return (r->rdp[sig] + 7) / 8;
}

void mj_train(struct ref *r, int set, uint64_t line, int sig)
{
	struct hk_set *h = &r->hk[set / 32];
	int t = h->n, window = 8 * r->ways;
	if (t >= window && !h->reused[t - window])
		mj_toward(r, h->sig[t - window], window);
	for (int u = t - 1; u >= 0 && u > t - window; u--)
		if (h->line[u] == line) {
			if (!h->reused[u]) {
				mj_toward(r, h->sig[u], t - u);
				h->reused[u] = 1;
			}
			break;
		}
	h->line[t] = line;
	h->sig[t] = sig;
	h->reused[t] = 0;
	h->n++;
}

void mj_tick(struct ref *r, int set)
{
	if (++r->mj_clock[set] % 8)
		return;
	for (int w = 0; w < r->ways; w++)
		if (L(r, set, w)->valid && L(r, set, w)->etr > -127)
			L(r, set, w)->etr--;
}

/* PLRU, written from its rule: a tree over P leaves (P the smallest power of two >= ways);
 * an access points every node on its way's path away from it; the victim follows the nodes
 * from the root, turning where the pointed half holds no way of the set. */
static int plru_leaves(int ways)
{
	int p = 1;
	while (p < ways)
		p *= 2;
	return p;
}

void plru_access(struct ref *r, int set, int way)
{
	int *t = &r->tree[set * 128], lo = 0, hi = plru_leaves(r->ways), node = 1;
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2, right = way >= mid;
		t[node] = !right; /* 1: the victim is on the right */
		node = 2 * node + right;
		if (right)
			lo = mid;
		else
			hi = mid;
	}
}

int plru_pick(struct ref *r, int set)
{
	int *t = &r->tree[set * 128], lo = 0, hi = plru_leaves(r->ways), node = 1;
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2, right = t[node];
		if (right && mid >= r->ways) /* nothing on the right: a way past the set's */
			right = 0;
		node = 2 * node + right;
		if (right)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
