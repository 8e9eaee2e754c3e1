/* report.js - the llctrace report page: opens the results embedded in the page (a SQLite file,
 * gzip'ed and base64'ed by `llctrace report`) with sql.js, runs each section's query for the
 * chosen trace, configuration and policies, draws it with Vega-Lite and shows the query and
 * the rows it returned. The embedded tables carry the names and columns of results.db's views,
 * so every query shown gives the same rows in `llctrace sql RESULTS.db`.
 *
 * window.llctReport exposes what the page did (parts, errors, readiness) to the test suite. */
'use strict';

const state = { ready: false, errors: [], parts: [], views: [], filters: null };
window.llctReport = state;

const MAX_TABLE_ROWS = 300;
let db = null;

/* ---- small helpers ---- */

function el(tag, attrs, ...kids) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {})) {
		if (k === 'class') e.className = v;
		else if (k === 'text') e.textContent = v;
		else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
		else e.setAttribute(k, v);
	}
	for (const k of kids) if (k != null) e.append(k);
	return e;
}

/* An SQL string literal. */
function lit(s) {
	return "'" + String(s).replace(/'/g, "''") + "'";
}

/* Rows of a query as objects, and its column names. */
function query(sql) {
	const res = db.exec(sql);
	if (!res.length) return { columns: [], rows: [] };
	const { columns, values } = res[0];
	return { columns, rows: values.map((v) => Object.fromEntries(columns.map((c, i) => [c, v[i]]))) };
}

function one(sql) {
	const r = db.exec(sql);
	return r.length && r[0].values.length ? r[0].values[0][0] : null;
}

/* How a value is shown in a table: integers as they are, reals to 4 decimals. */
function fmt(v) {
	if (v === null || v === undefined) return '–';
	if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(4);
	return String(v);
}

function bytesLabel(b) {
	if (b % 1048576 === 0) return b / 1048576 + ' MiB';
	if (b % 1024 === 0) return b / 1024 + ' KiB';
	return b + ' B';
}

async function gunzip(bytes) {
	const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

function base64Bytes(text) {
	const bin = atob(text.replace(/\s+/g, ''));
	const out = new Uint8Array(bin.length);
	for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
	return out;
}

function copyText(text, button) {
	const done = () => {
		button.textContent = 'copied';
		setTimeout(() => (button.textContent = 'copy'), 1200);
	};
	if (navigator.clipboard && window.isSecureContext) {
		navigator.clipboard.writeText(text).then(done, () => {});
		return;
	}
	const t = el('textarea', {}, text);
	document.body.append(t);
	t.select();
	document.execCommand('copy');
	t.remove();
	done();
}

/* ---- filters: trace, configuration, policies (kept in the URL's #) ---- */

function readHash() {
	const p = new URLSearchParams(location.hash.slice(1));
	return { trace: p.get('trace'), config: p.get('config'), policies: p.get('policies') };
}

function writeHash(f) {
	const p = new URLSearchParams({ trace: f.trace, config: f.config, policies: f.policies.join(',') });
	history.replaceState(null, '', '#' + p.toString());
}

function traces() {
	return query('SELECT trace, count(*) AS runs FROM configs WHERE latest GROUP BY trace ORDER BY runs DESC, trace').rows;
}

function configsOf(trace) {
	// the configuration most runs share first; among equals, the default LLC (8MiB:16:64), then smaller sizes
	return query(`SELECT config, count(*) AS runs FROM configs WHERE latest AND trace = ${lit(trace)} GROUP BY config ORDER BY runs DESC, config = '8MiB:16:64' DESC, min(llc_bytes), config`).rows;
}

function policiesOf(trace, config) {
	return query(`SELECT policy FROM configs WHERE latest AND trace = ${lit(trace)} AND config = ${lit(config)} ORDER BY policy`).rows.map((r) => r.policy);
}

function buildFilters(onChange) {
	const nav = document.getElementById('filters');
	nav.textContent = '';
	const ts = traces();
	if (!ts.length) return null;
	const h = readHash();
	const f = { trace: ts.some((t) => t.trace === h.trace) ? h.trace : ts[0].trace };
	const cs = configsOf(f.trace);
	f.config = cs.some((c) => c.config === h.config) ? h.config : cs[0].config;
	const all = policiesOf(f.trace, f.config);
	const want = h.policies ? h.policies.split(',').filter((p) => all.includes(p)) : [];
	f.policies = want.length ? want : all;

	const tsel = el('select', { id: 'f-trace', onchange: () => { f.trace = tsel.value; f.config = null; f.policies = null; rebuild(); } });
	for (const t of ts) tsel.append(el('option', { value: t.trace, text: `${t.trace} (${t.runs} runs)` }));
	tsel.value = f.trace;
	const csel = el('select', { id: 'f-config', onchange: () => { f.config = csel.value; f.policies = null; rebuild(); } });
	for (const c of cs) csel.append(el('option', { value: c.config, text: `${c.config} (${c.runs})` }));
	csel.value = f.config;
	const pbox = el('span', { class: 'policies', id: 'f-policies' });
	for (const p of all) {
		const cb = el('input', { type: 'checkbox', value: p });
		cb.checked = f.policies.includes(p);
		cb.addEventListener('change', () => {
			f.policies = [...pbox.querySelectorAll('input:checked')].map((x) => x.value);
			writeHash(f);
			onChange(f);
		});
		pbox.append(el('label', {}, cb, ' ' + p));
	}
	nav.append(el('span', {}, el('label', { for: 'f-trace', text: 'trace' }), tsel),
		el('span', {}, el('label', { for: 'f-config', text: 'configuration' }), csel),
		el('span', {}, el('label', { text: 'policies' }), pbox));

	function rebuild() {
		const cs2 = configsOf(f.trace);
		if (!f.config || !cs2.some((c) => c.config === f.config)) f.config = cs2[0].config;
		f.policies = policiesOf(f.trace, f.config);
		writeHash(f);
		buildFilters(onChange);
	}
	writeHash(f);
	state.filters = f;
	onChange(f);
	return f;
}

/* ---- charts (Vega-Lite specs built from a query's rows) ---- */

const PCT = { format: '.0%' };

function bars(rows, { x, group, y, yTitle, pct, facet, stack }) {
	const enc = {
		x: { field: x, type: 'nominal', title: null, sort: null },
		y: { field: y, type: 'quantitative', title: yTitle, axis: pct ? PCT : {}, stack: stack ? 'zero' : null },
		tooltip: Object.keys(rows[0]).map((k) => ({ field: k })),
	};
	if (stack || group) enc.color = { field: stack || group, type: 'nominal', title: stack || group };
	if (group) enc.xOffset = { field: group, sort: null };
	const inner = { mark: { type: 'bar' }, encoding: enc, width: { step: group ? 9 : 22 }, height: 220 };
	if (!facet) return { data: { values: rows }, ...inner };
	return { data: { values: rows }, facet: { field: facet, type: 'nominal', title: null }, columns: 3, spec: inner };
}

function lines(rows, { x, y, color, yTitle, pct, facet, xTitle, logx, xLabel }) {
	const enc = {
		x: { field: x, type: 'quantitative', title: xTitle || x, scale: logx ? { type: 'log', base: 2 } : {}, axis: { tickMinStep: 1, format: 'd' } },
		y: { field: y, type: 'quantitative', title: yTitle, axis: pct ? PCT : {} },
		color: { field: color, type: 'nominal', title: color },
		tooltip: Object.keys(rows[0]).map((k) => ({ field: k })),
	};
	if (xLabel) enc.x.axis = { labelExpr: xLabel, values: [...new Set(rows.map((r) => r[x]))].sort((a, b) => a - b) };
	const inner = { mark: { type: 'line', point: true }, encoding: enc, width: 300, height: 180 };
	if (!facet) return { data: { values: rows }, ...inner, width: 520, height: 260 };
	return { data: { values: rows }, facet: { field: facet, type: 'nominal', title: null }, columns: 3, spec: inner };
}

// A producer (rows) by consumer (columns) matrix, one a policy: each cell's colour its hit rate,
// its text the reads.
function matrix(rows, { x, y, color, text, facet }) {
	const enc = {
		x: { field: x, type: 'nominal', title: 'consumer', sort: null, axis: { labelLimit: 160 } },
		y: { field: y, type: 'nominal', title: 'producer', sort: null, axis: { labelLimit: 160 } },
		tooltip: Object.keys(rows[0]).map((k) => ({ field: k })),
	};
	const inner = {
		layer: [
			{ mark: 'rect', encoding: { ...enc, color: { field: color, type: 'quantitative', title: color, scale: { domain: [0, 1] }, legend: { format: '.0%' } } } },
			{ mark: { type: 'text', fontSize: 9 }, encoding: { ...enc, text: { field: text, type: 'quantitative', format: '~s' } } },
		],
		width: { step: 70 }, height: { step: 22 },
	};
	return { data: { values: rows }, facet: { field: facet, type: 'nominal', title: null }, columns: 2, spec: inner };
}

function steps(rows) {
	return {
		data: { values: rows },
		facet: { field: 'policy', type: 'nominal', title: null },
		columns: 2,
		spec: {
			mark: { type: 'area', interpolate: 'step-after' },
			encoding: {
				x: { field: 'at_access', type: 'quantitative', title: 'accesses' },
				y: { field: 'ways', type: 'quantitative', stack: 'zero', title: 'ways' },
				color: { field: 'class', type: 'nominal' },
				tooltip: Object.keys(rows[0]).map((k) => ({ field: k })),
			},
			width: 420,
			height: 180,
		},
	};
}

function download(url, name) {
	const a = el('a', { href: url, download: name });
	document.body.append(a);
	a.click();
	a.remove();
}

async function drawChart(box, spec, name) {
	const target = el('div', { class: 'chart' });
	box.append(target);
	const opts = { renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false } };
	// 20 colours (every policy its own: 14 shared a palette of 10) and the legend above the
	// plot, where a wide chart cannot push it off a 1280-pixel screen
	const config = { range: { category: { scheme: 'tableau20' } },
		legend: { orient: 'top', direction: 'horizontal', columns: 8, labelLimit: 160 } };
	const res = await vegaEmbed(target, { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', config, ...spec }, opts);
	state.views.push(res.view);
	box.append(el('div', { class: 'chart-tools' },
		el('button', { onclick: async () => download(await res.view.toImageURL('svg'), name + '.svg') }, 'SVG'),
		el('button', { onclick: async () => download(await res.view.toImageURL('png', 2), name + '.png') }, 'PNG')));
	return res.view;
}

/* Marks drawn in a view's scenegraph (a chart with none is empty). */
function markCount(view) {
	let n = 0;
	(function walk(node) {
		if (!node) return;
		if (node.marktype && node.role === 'mark' && ['rect', 'line', 'symbol', 'area'].includes(node.marktype))
			n += (node.items || []).filter((i) => i.width !== 0 || i.x2 !== i.x || i.marktype || true).length;
		for (const it of node.items || []) walk(it);
	})(view.scenegraph().root);
	return n;
}

/* ---- sections ---- */

const J = (view, alias) => `${view} ${alias} JOIN configs c ON c.run_id = ${alias}.run_id`;

// A reuse section (RT → TEX, Z → TEX): the consumed fraction over the whole trace from VIEW_totals
// and frame by frame from VIEW_reuse, each with its query.
function reuseSection(id, view, title, intro, empty) {
	return {
		id, title, intro, empty,
		parts: (f) => [{
			id: `${id}-total`,
			title: 'Whole trace',
			sql: `SELECT c.policy, t.produced, t.consumed, t.consumed_fraction\nFROM ${J(view + '_totals', 't')}\nWHERE ${sel(f)} AND t.produced > 0\nORDER BY c.policy`,
			chart: (rows) => bars(rows, { x: 'policy', y: 'consumed_fraction', yTitle: 'consumed / produced', pct: true }),
		}, {
			id: `${id}-frames`,
			title: 'Per frame',
			frames: true,
			sql: `SELECT c.policy, t.frame, t.produced, t.consumed, t.consumed_fraction\nFROM ${J(view + '_reuse', 't')}\nWHERE ${sel(f)} AND t.produced > 0\nORDER BY c.policy, t.frame`,
			chart: (rows) => lines(rows, { x: 'frame', y: 'consumed_fraction', color: 'policy', yTitle: 'consumed / produced', pct: true }),
		}],
	};
}

function sel(f) {
	return `c.latest AND c.trace = ${lit(f.trace)} AND c.config = ${lit(f.config)}\n  AND c.policy IN (${f.policies.map(lit).join(', ')})`;
}

/* Which of the selection's runs have per-frame rows in this page. */
function framesNote(f) {
	const missing = one(`SELECT count(*) FROM configs c WHERE ${sel(f)} AND c.run_id NOT IN (SELECT run_id FROM report_frame_runs)`);
	return missing ? `${missing} of the selected runs have no per-frame rows in this page (the results file has more per-frame rows than the report embeds; see "About this page"); the query gives them in full from results.db.` : null;
}

const SECTIONS = [
	{
		id: 'runs',
		title: 'Runs and how each was made',
		intro: 'One row per run of the selection: the policy, the configuration (LLC size:ways:line and every option not at its default), the frames, the records replayed, the model\'s time and rate, the tool version, when it ran, and its parameters as JSON (docs/RESULTS.md).',
		parts: (f) => [{
			id: 'runs',
			sql: `SELECT r.id, r.policy, c.config, r.frames, r.accesses, r.wall_s,\n  r.accesses_per_s, r.tool_version, r.started_at, r.trace_created, r.params\nFROM runs r JOIN configs c ON c.run_id = r.id\nWHERE ${sel(f)}\nORDER BY r.id`,
		}],
	},
	{
		id: 'hit-rates',
		title: 'Read hit rate per stream and policy',
		intro: 'Read hits / reads of each stream over the whole trace (streams with reads only), then frame by frame.',
		parts: (f) => [{
			id: 'hit-rates-total',
			title: 'Whole trace',
			sql: `SELECT s.stream, c.policy, s.reads, s.read_hits, s.read_hit_rate\nFROM ${J('stream_totals', 's')}\nWHERE ${sel(f)} AND s.reads > 0\nORDER BY s.stream, c.policy`,
			chart: (rows) => bars(rows, { x: 'stream', group: 'policy', y: 'read_hit_rate', yTitle: 'read hit rate', pct: true }),
		}, {
			id: 'hit-rates-frames',
			title: 'Per frame',
			frames: true,
			sql: `SELECT h.stream, c.policy, h.frame, h.reads, h.read_hits, h.read_hit_rate\nFROM ${J('read_hit_rates', 'h')}\nWHERE ${sel(f)} AND h.reads > 0\nORDER BY h.stream, c.policy, h.frame`,
			chart: (rows) => lines(rows, { x: 'frame', y: 'read_hit_rate', color: 'policy', yTitle: 'read hit rate', pct: true, facet: 'stream' }),
		}],
	},
	{
		id: 'savings',
		title: 'Misses saved against DRRIP',
		intro: '1 − misses / DRRIP\'s misses, where the baseline is the latest DRRIP run without UCD, partitions, bypass or colors on the same trace and geometry (view drrip_baselines). Positive: fewer misses than DRRIP.',
		empty: 'No DRRIP baseline for this selection: replay the trace with --policy drrip (without --ucd, --partition, --bypass or --colors) on the same geometry.',
		parts: (f) => [{
			id: 'savings-total',
			title: 'Whole trace',
			sql: `SELECT c.policy, m.misses, m.drrip_misses, m.miss_saving, m.read_misses,\n  m.drrip_read_misses, m.read_miss_saving, m.drrip_run_id\nFROM ${J('miss_savings_vs_drrip', 'm')}\nWHERE ${sel(f)}\nORDER BY m.miss_saving DESC, c.policy`,
			chart: (rows) => bars(rows, { x: 'policy', y: 'miss_saving', yTitle: 'misses saved vs DRRIP', pct: true }),
		}, {
			id: 'savings-frames',
			title: 'Per frame',
			frames: true,
			sql: `SELECT c.policy, m.frame, m.misses, m.drrip_misses, m.miss_saving\nFROM ${J('frame_miss_savings_vs_drrip', 'm')}\nWHERE ${sel(f)}\nORDER BY c.policy, m.frame`,
			chart: (rows) => lines(rows, { x: 'frame', y: 'miss_saving', color: 'policy', yTitle: 'misses saved vs DRRIP', pct: true }),
		}],
	},
	{
		id: 'dram',
		title: 'DRAM traffic per stream',
		intro: 'Bytes the LLC read from and wrote to memory over the trace (view dram_totals): a fill or a bypassed read reads a line, a write-back or a bypassed write writes one; write-backs count under the stream that last touched the evicted line.',
		empty: 'No DRAM traffic for this selection (its runs predate version 7 of the results and bypassed accesses: replay them again).',
		parts: (f) => [{
			id: 'dram-total',
			title: 'Whole trace',
			sql: `SELECT d.stream, c.policy, d.read_bytes, d.write_bytes, d.bytes\nFROM ${J('dram_totals', 'd')}\nWHERE ${sel(f)} AND d.bytes > 0\nORDER BY d.stream, c.policy`,
			chart: (rows) => bars(rows, { x: 'stream', group: 'policy', y: 'bytes', yTitle: 'DRAM bytes' }),
		}],
	},
	{
		id: 'kernels',
		title: 'Which kernels miss',
		intro: 'Runs replayed with --per-kernel count every draw, dispatch, copy and clear apart (view kernel_totals; DRAM bytes: fills and bypassed reads read a line, write-backs and bypassed writes write one). First each policy\'s kernels with the most misses over the trace (rank 1 = most), then one frame\'s misses kernel by kernel. To look at a kernel in RenderDoc, capture with --renderdoc and open TRACE.rdc in qrenderdoc; in the Event Browser press Ctrl+G (Go to event) and type the kernel\'s rdc_eid.',
		empty: 'No per-kernel counts in this selection: replay the trace with --per-kernel (or per_kernel = yes in a batch grid).',
		parts: (f) => [{
			id: 'kernels-top',
			title: 'Kernels with the most misses',
			sql: `SELECT c.policy, k.rank, k.frame, k.kernel, k.kind, k.name, k.rdc_eid,\n  k.kind || ' ' || k.kernel AS label, k.accesses, k.misses, k.read_misses,\n  k.writebacks, k.dram_read_bytes, k.dram_write_bytes\nFROM ${J('top_kernels_by_misses', 'k')}\nWHERE ${sel(f)} AND k.rank <= 10\nORDER BY c.policy, k.rank`,
			chart: (rows) => bars(rows, { x: 'label', group: 'policy', y: 'misses', yTitle: 'misses' }),
		}, {
			id: 'kernels-frame',
			title: 'The first frame, kernel by kernel',
			frames: true,
			sql: `SELECT c.policy, k.frame, k.kernel, k.kind, k.name, k.rdc_eid, k.accesses, k.misses\nFROM ${J('kernel_totals', 'k')}\nWHERE ${sel(f)}\n  AND k.frame = (SELECT min(x.frame) FROM kernel_totals x WHERE x.run_id = k.run_id)\nORDER BY c.policy, k.kernel`,
			chart: (rows) => lines(rows, { x: 'kernel', y: 'misses', color: 'policy', yTitle: 'misses' }),
		}],
	},
	{
		id: 'flow',
		title: 'Pass to pass: whose output is read back, and which policy keeps it',
		intro: 'Runs replayed with --flow (or --per-kernel) count, for every read as TEX or CS of a line another kernel wrote last, the producer kernel and stream (RT, Z, CS, OTHER...) and whether the LLC hit (views flow_trace, flow_passes; docs/REPLAY.md, "Pass-to-pass reuse"). The reads come from the trace and are the same under every policy; the hits are the policy\'s. First the hit rate of each stream pair over the trace, then the first frame as a matrix of producer pass (rows) by consumer pass (columns), a cell\'s colour its hit rate and its number the reads. A pass is a render pass named by its attachments (its draws and its store ops), a dispatch by its pipeline, or a kernel\'s debug-label name.',
		empty: 'No pass-to-pass counts in this selection: replay the trace with --flow (or --per-kernel).',
		parts: (f) => [{
			id: 'flow-total',
			title: 'Whole trace, by stream pair',
			sql: `SELECT c.policy, t.from_stream || ' → ' || t.to_stream AS flow, t.frames, t.reads, t.hits, t.hit_rate\nFROM ${J('flow_trace', 't')}\nWHERE ${sel(f)}\nORDER BY flow, c.policy`,
			chart: (rows) => bars(rows, { x: 'flow', group: 'policy', y: 'hit_rate', yTitle: 'hits / reads', pct: true }),
		}, {
			id: 'flow-matrix',
			title: 'The first frame, producer pass → consumer pass',
			frames: true,
			sql: `SELECT c.policy, p.frame, p.producer_pass || ' (' || p.from_stream || ')' AS producer,\n  p.consumer_pass || ' (' || p.to_stream || ')' AS consumer, p.reads, p.hits, p.hit_rate\nFROM ${J('flow_passes', 'p')}\nWHERE ${sel(f)}\n  AND p.frame = (SELECT min(x.frame) FROM flow_passes x WHERE x.run_id = p.run_id)\nORDER BY c.policy, p.reads DESC\nLIMIT 400`,
			chart: (rows) => matrix(rows, { x: 'consumer', y: 'producer', color: 'hit_rate', text: 'reads', facet: 'policy' }),
		}],
	},
	reuseSection('rt-tex', 'rt_tex', 'RT → TEX reuse',
		'Lines written as render target (RT mark set) that a texture read later hit while still cached (consumed), and the consumed fraction.',
		'No render-target lines were produced in this selection.'),
	reuseSection('z-tex', 'z_tex', 'Z → TEX reuse',
		'Lines a depth (Z) access touched last that a texture read then hit while still cached: depth buffers read back as textures, such as shadow maps (produced: Z accesses on lines Z did not touch last; consumed: those TEX hits).',
		'No depth lines were produced in this selection, or its runs predate Z → TEX counting.'),
	{
		id: 'epochs',
		title: 'TEX and Z epoch reuse',
		intro: 'Blocks entering epoch E0, E1, E2+ (hits since the fill) and the hits they got: reuse probability hits/entered in E0 and E1; in E2+, where a hit keeps the block there, hits/(hits + entered), the chance a block there is hit again before its stay ends; death ratio 1 − that.',
		empty: 'No TEX or Z blocks in this selection.',
		parts: (f) => [{
			id: 'epochs',
			sql: `SELECT e.stream, e.epoch, c.policy, e.entered, e.hits, e.reuse_probability,\n  e.death_ratio\nFROM ${J('epoch_reuse', 'e')}\nWHERE ${sel(f)} AND e.entered > 0\nORDER BY e.stream, e.epoch, c.policy`,
			chart: (rows) => bars(rows.map((r) => ({ ...r, 'stream epoch': r.stream + ' ' + r.epoch })), { x: 'stream epoch', group: 'policy', y: 'reuse_probability', yTitle: 'reuse probability', pct: true }),
		}],
	},
	{
		id: 'curves',
		title: 'Miss curves over LLC size',
		intro: 'Misses / accesses of each policy at every LLC size replayed with the same ways, line and options (the configuration\'s shape, * for the size).',
		empty: 'One LLC size in this selection: replay the trace with several sizes (--llc 2MiB,4MiB,8MiB,16MiB: one pass, one run per size) to draw a miss curve.',
		parts: (f) => {
			const shape = one(`SELECT shape FROM configs WHERE config = ${lit(f.config)} LIMIT 1`);
			return [{
				id: 'curves',
				min: 'SELECT count(DISTINCT llc_bytes) FROM (%s)',
				sql: `SELECT c.policy, m.llc_bytes, m.accesses, m.misses, m.miss_rate\nFROM ${J('miss_curves', 'm')}\nWHERE c.latest AND c.trace = ${lit(f.trace)} AND c.shape = ${lit(shape)}\n  AND c.policy IN (${f.policies.map(lit).join(', ')})\nORDER BY c.policy, m.llc_bytes`,
				chart: (rows) => lines(rows, { x: 'llc_bytes', y: 'miss_rate', color: 'policy', yTitle: 'miss rate', pct: true, xTitle: 'LLC size', logx: true, xLabel: "datum.value >= 1048576 ? datum.value / 1048576 + ' MiB' : datum.value / 1024 + ' KiB'" }),
				usable: (rows) => new Set(rows.map((r) => r.llc_bytes)).size >= 2,
			}];
		},
	},
	{
		id: 'lru-curve',
		title: 'LRU miss curve in one pass',
		intro: 'LRU\'s misses / accesses at every size of a one-pass replay (llctrace replay --mrc): each size\'s run is exactly the run LRU alone makes at that size (stack distances); the sizes of one set count differ in their ways.',
		empty: 'No one-pass LRU curve of this trace: llctrace replay TRACE --mrc 2MiB,4MiB,8MiB,16MiB -o RESULTS.db draws one.',
		parts: (f) => [{
			id: 'lru-curve',
			min: 'SELECT count(DISTINCT llc_bytes) FROM (%s)',
			sql: `SELECT r.sets || ' sets' AS sets, m.llc_bytes, r.ways, m.accesses, m.misses, m.miss_rate\nFROM ${J('miss_curves', 'm')} JOIN runs r ON r.id = m.run_id\nWHERE c.latest AND c.trace = ${lit(f.trace)} AND json_extract(r.params, '$.one_pass') IS NOT NULL\nORDER BY r.sets, m.llc_bytes`,
			chart: (rows) => lines(rows, { x: 'llc_bytes', y: 'miss_rate', color: 'sets', yTitle: 'miss rate', pct: true, xTitle: 'LLC size', logx: true, xLabel: "datum.value >= 1048576 ? datum.value / 1048576 + ' MiB' : datum.value / 1024 + ' KiB'" }),
			usable: (rows) => new Set(rows.map((r) => r.llc_bytes)).size >= 2,
		}],
	},
	{
		id: 'tenants',
		title: 'Co-run tenants',
		intro: 'Each tenant\'s modeled time sharing the LLC against running alone with the whole LLC (slowdown) and alone in its own partition (variation, FGPU); system throughput STP = Σ alone / shared time.',
		empty: 'This selection is not a co-run: pick a trace of the form a.llct,b.llct (llctrace replay --corun).',
		parts: (f) => [{
			id: 'tenants',
			title: 'Slowdown per tenant',
			sql: `SELECT c.policy, t.tenant, t.trace, t.accesses, t.misses, t.misses_alone,\n  t.time_shared, t.time_alone, t.slowdown, t.variation_pct\nFROM ${J('tenant_totals', 't')}\nWHERE ${sel(f)}\nORDER BY c.policy, t.tenant`,
			chart: (rows) => bars(rows.map((r) => ({ ...r, tenant: String(r.tenant) })), { x: 'policy', group: 'tenant', y: 'slowdown', yTitle: 'slowdown (shared / alone time)' }),
		}, {
			id: 'stp',
			title: 'System throughput',
			sql: `SELECT c.policy, s.tenants, s.stp, s.max_variation_pct\nFROM ${J('corun_stp', 's')}\nWHERE ${sel(f)}\nORDER BY c.policy`,
			chart: (rows) => bars(rows, { x: 'policy', y: 'stp', yTitle: 'STP' }),
		}],
	},
	{
		id: 'contention',
		title: 'Contention: GDC and PLOB breakdown per victim',
		intro: 'Each victim\'s misses ascribed to each aggressor, in percent: GDC by the demotions the aggressor\'s accesses caused, PLOB by its evictions; wbd is the distance between the two breakdowns (0: they agree; √2: disjoint).',
		empty: 'No contention was tracked in this selection (co-runs track it by tenant; single traces with --contention-by).',
		parts: (f) => [{
			id: 'contention',
			title: 'Breakdown',
			sql: `SELECT c.policy, b.owner_by, b.victim, b.aggressor, b.gdc_demotions, b.plob_evictions,\n  b.gdc_pct, b.plob_pct\nFROM ${J('contention_breakdown', 'b')}\nWHERE ${sel(f)}\nORDER BY c.policy, b.victim, b.aggressor`,
			chart: (rows) => {
				const victims = [...new Set(rows.map((r) => r.victim))].slice(0, 12);
				const long = [];
				for (const r of rows.filter((r) => victims.includes(r.victim)))
					for (const k of ['gdc', 'plob'])
						long.push({ policy: r.policy, victim: 'victim ' + r.victim, aggressor: String(r.aggressor), tracker: k.toUpperCase(), pct: r[k + '_pct'] });
				return {
					data: { values: long },
					facet: { field: 'victim', type: 'nominal', title: null },
					columns: 3,
					spec: {
						mark: 'bar',
						encoding: {
							x: { field: 'policy', type: 'nominal', title: null },
							xOffset: { field: 'tracker' },
							y: { field: 'pct', type: 'quantitative', stack: 'zero', title: '% of the victim\'s misses' },
							color: { field: 'aggressor', type: 'nominal' },
							opacity: { field: 'tracker', type: 'ordinal', sort: ['GDC', 'PLOB'], scale: { range: [1, 0.55] }, title: 'tracker' },
							tooltip: [{ field: 'policy' }, { field: 'victim' }, { field: 'aggressor' }, { field: 'tracker' }, { field: 'pct', format: '.1f' }],
						},
						width: { step: 12 },
						height: 200,
					},
				};
			},
		}, {
			id: 'wbd',
			title: 'wbd per victim',
			sql: `SELECT c.policy, w.owner_by, w.victim, w.wbd\nFROM ${J('contention_wbd', 'w')}\nWHERE ${sel(f)}\nORDER BY c.policy, w.victim`,
			chart: (rows) => bars(rows.map((r) => ({ ...r, victim: String(r.victim) })), { x: 'victim', group: 'policy', y: 'wbd', yTitle: 'wbd' }),
		}],
	},
	{
		id: 'partitions',
		title: 'Way and color allocations',
		intro: 'Ways each class (tenant or stream) held from each decision on (dynamic partitioning decides every interval; static, even and manual ones once), and with page coloring each tenant\'s colors.',
		empty: 'No way partitioning or page coloring in this selection (--partition, --colors).',
		parts: (f) => [{
			id: 'ways',
			title: 'Ways over time',
			sql: `SELECT c.policy, p.interval, p.at_access, p.class_by, p.class, p.ways, p.way_mask\nFROM partitions p JOIN configs c ON c.run_id = p.run_id\nWHERE ${sel(f)}\nORDER BY c.policy, p.interval, p.class`,
			chart: (rows) => {
				if (rows.some((r) => r.interval > 0)) {
					/* the last decision holds to the end: repeat it one interval later */
					const out = [...rows];
					const byPol = {};
					for (const r of rows) (byPol[r.policy] = byPol[r.policy] || []).push(r);
					for (const rs of Object.values(byPol)) {
						const last = Math.max(...rs.map((r) => r.interval));
						const at = rs.filter((r) => r.interval === last);
						const step = last ? at[0].at_access / last : 1;
						for (const r of at) out.push({ ...r, at_access: r.at_access + step });
					}
					return steps(out);
				}
				return bars(rows, { x: 'policy', y: 'ways', yTitle: 'ways', stack: 'class' });
			},
		}, {
			id: 'colors',
			title: 'Page colors per tenant',
			sql: `SELECT c.policy, k.tenant, k.n_colors, k.colors\nFROM colors k JOIN configs c ON c.run_id = k.run_id\nWHERE ${sel(f)}\nORDER BY c.policy, k.tenant`,
			chart: (rows) => bars(rows.map((r) => ({ ...r, tenant: String(r.tenant) })), { x: 'policy', y: 'n_colors', yTitle: 'colors', stack: 'tenant' }),
		}],
	},
];

function table(q) {
	const t = el('table', { class: 'rows' });
	t.append(el('thead', {}, el('tr', {}, ...q.columns.map((c) => el('th', { text: c })))));
	const body = el('tbody');
	for (const r of q.rows.slice(0, MAX_TABLE_ROWS)) {
		body.append(el('tr', {}, ...q.columns.map((c) => el('td', { class: typeof r[c] === 'number' ? 'num' : 'text', text: fmt(r[c]) }))));
	}
	t.append(body);
	return t;
}

async function renderPart(sec, part, box) {
	const info = { section: sec.id, id: part.id, sql: part.sql, rows: 0, shown: 0, chart: false, marks: 0 };
	state.parts.push(info);
	if (part.title) box.append(el('h3', { text: part.title }));
	const q = query(part.sql);
	info.rows = q.rows.length;
	info.shown = Math.min(q.rows.length, MAX_TABLE_ROWS);
	if (part.frames) {
		const note = framesNote(state.filters);
		if (note) box.append(el('p', { class: 'note frames-missing', text: note }));
		info.framesMissing = !!note;
	}
	const usable = q.rows.length > 0 && (!part.usable || part.usable(q.rows));
	if (!usable) box.append(el('p', { class: 'note', text: q.rows.length ? sec.empty : sec.empty || 'No rows for this selection.' }));
	if (usable && part.chart) {
		const view = await drawChart(box, part.chart(q.rows), `llctrace-${part.id}`);
		info.chart = true;
		info.marks = markCount(view);
	}
	const copy = el('button', { class: 'copy', onclick: () => copyText(part.sql, copy) }, 'copy');
	box.append(el('div', { class: 'query' }, el('pre', { class: 'sql', text: part.sql }), copy));
	if (q.rows.length) {
		const det = el('details', { class: 'rows' },
			el('summary', {}, `the query's ${q.rows.length} row${q.rows.length === 1 ? '' : 's'}`), table(q));
		if (q.rows.length > MAX_TABLE_ROWS)
			det.append(el('p', { class: 'note', text: `${MAX_TABLE_ROWS} of ${q.rows.length} rows shown; the query gives them all.` }));
		box.append(det);
	}
}

async function render(f) {
	state.ready = false;
	state.parts = [];
	for (const v of state.views) v.finalize();
	state.views = [];
	const main = document.getElementById('sections');
	main.textContent = '';
	const toc = document.getElementById('toc');
	toc.textContent = '';
	for (const sec of SECTIONS) {
		const box = el('section', { id: sec.id });
		box.append(el('h2', { text: sec.title }), el('p', { class: 'intro', text: sec.intro }));
		main.append(box);
		toc.append(el('a', { href: '#' + sec.id, onclick: (e) => { e.preventDefault(); box.scrollIntoView(); } }, sec.title));
		for (const part of sec.parts(f)) {
			const pbox = el('div', { class: 'part', 'data-section': sec.id, 'data-part': part.id });
			box.append(pbox);
			try {
				await renderPart(sec, part, pbox);
			} catch (e) {
				state.errors.push(String(e));
				pbox.append(el('p', { class: 'error', text: `${part.id}: ${e}` }));
				console.error(e);
			}
		}
	}
	main.append(about());
	state.ready = true;
	document.body.setAttribute('data-ready', '1');
}

function about() {
	const m = Object.fromEntries(query('SELECT key, value FROM report_meta').rows.map((r) => [r.key, r.value]));
	const box = el('section', { id: 'about' }, el('h2', { text: 'About this page' }));
	box.append(el('p', { text: `Made by llctrace ${m.tool_version} on ${m.generated_at} from ${m.source} (results schema ${m.schema_version}: ${m.runs} runs, ${m.latest_runs} of them the latest of their trace, policy and configuration; the page shows those).` }));
	box.append(el('p', { text: `Per-frame rows embedded for ${m.frame_runs} runs (${m.frame_rows} rows; at most ${m.max_frame_rows}, llctrace report --max-frame-rows).` }));
	box.append(el('p', { text: 'The page holds, under the names of results.db\'s views, the rows of the latest runs that its queries can return (streams with reads, RT lines produced, epochs entered), so each query shown returns the same rows from results.db.' }));
	return box;
}

async function main() {
	window.addEventListener('error', (e) => state.errors.push(String(e.message)));
	const text = document.getElementById('llct-data').textContent;
	const SQL = await initSqlJs();
	db = new SQL.Database(await gunzip(base64Bytes(text)));
	const m = Object.fromEntries(query('SELECT key, value FROM report_meta').rows.map((r) => [r.key, r.value]));
	document.getElementById('provenance').textContent =
		`${m.runs} runs from ${m.source}, report made ${m.generated_at} by llctrace ${m.tool_version}. Choose a trace, a configuration and policies; every section follows.`;
	const f = buildFilters((sel2) => {
		render(sel2).catch((e) => { state.errors.push(String(e)); console.error(e); });
	});
	if (!f) {
		document.getElementById('sections').append(el('p', { class: 'note', text: 'This results file has no runs yet: llctrace replay TRACE -o RESULTS.db adds some.' }));
		state.ready = true;
		document.body.setAttribute('data-ready', '1');
	}
}

main().catch((e) => {
	state.errors.push(String(e));
	document.getElementById('provenance').textContent = 'The page could not open its results: ' + e;
	console.error(e);
});
