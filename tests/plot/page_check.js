// Loads a triage plot page in headless Chromium through the DevTools
// protocol (node 20's built-in WebSocket: run with --experimental-websocket)
// and prints one JSON object: the console errors, exceptions and log errors
// (a blocked fetch is one), and per chart its series count and how many
// pixels of its plot area carry a series colour with the series shown and
// with them hidden (a chart whose lines are drawn has many more shown).
//
//   node --experimental-websocket page_check.js PAGE.html PORT_FIRST PORT_LAST SCRATCH
'use strict';
const { spawn } = require('child_process');
const path = require('path');

const [page, portFirst, portLast, scratch] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function launch(port) {
	return new Promise((resolve) => {
		const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
			'--disable-extensions', '--disable-background-networking', '--mute-audio',
			'--remote-debugging-address=127.0.0.1', '--remote-debugging-port=' + port,
			'--user-data-dir=' + path.join(scratch, 'chromium-' + port),
			'--window-size=1200,900', 'about:blank'];
		const p = spawn('chromium', args, { stdio: ['ignore', 'ignore', 'pipe'] });
		let err = '', done = false;
		const finish = (v) => { if (!done) { done = true; resolve(v); } };
		p.stderr.on('data', (d) => {
			err += d;
			const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
			if (m) finish({ proc: p, ws: m[1] });
		});
		p.on('exit', () => finish({ proc: null, err }));
		setTimeout(() => { p.kill('SIGKILL'); finish({ proc: null, err: err + '\n(timeout)' }); }, 30000);
	});
}

async function main() {
	let c = null, last = '';
	for (let port = +portFirst; port <= +portLast && !c; port++) {
		const r = await launch(port);
		if (r.proc) c = r;
		else last = r.err;
	}
	if (!c) throw new Error('chromium did not start: ' + last.slice(-500));
	const out = { errors: [], charts: null };
	try {
		// The browser endpoint: make a page target and attach to it (flattened sessions).
		const ws = new WebSocket(c.ws);
		await new Promise((r, j) => { ws.onopen = r; ws.onerror = () => j(new Error('ws error')); });
		let id = 0;
		const pending = new Map(), waiters = [];
		ws.onmessage = (ev) => {
			const m = JSON.parse(ev.data);
			if (m.id && pending.has(m.id)) {
				const { resolve, reject } = pending.get(m.id);
				pending.delete(m.id);
				if (m.error) reject(new Error(JSON.stringify(m.error)));
				else resolve(m.result);
				return;
			}
			if (m.method === 'Runtime.consoleAPICalled' && /error|warn|assert/.test(m.params.type))
				out.errors.push('console.' + m.params.type + ': ' +
					m.params.args.map((a) => a.value !== undefined ? a.value : a.description).join(' '));
			else if (m.method === 'Runtime.exceptionThrown')
				out.errors.push('exception: ' + (m.params.exceptionDetails.exception ?
					m.params.exceptionDetails.exception.description : m.params.exceptionDetails.text));
			else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
				out.errors.push('log: ' + m.params.entry.text + ' ' + (m.params.entry.url || ''));
			for (const w of waiters.slice())
				if (w.method === m.method) { waiters.splice(waiters.indexOf(w), 1); w.resolve(m.params); }
		};
		const send = (method, params, sessionId) => new Promise((resolve, reject) => {
			const msg = { id: ++id, method, params: params || {} };
			if (sessionId) msg.sessionId = sessionId;
			pending.set(msg.id, { resolve, reject });
			ws.send(JSON.stringify(msg));
		});
		const wait = (method, ms) => new Promise((resolve, reject) => {
			waiters.push({ method, resolve });
			setTimeout(() => reject(new Error('timed out waiting for ' + method)), ms);
		});
		const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
		const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
		const s = (m, p) => send(m, p, sessionId);
		await s('Runtime.enable');
		await s('Log.enable');
		await s('Page.enable');
		const loaded = wait('Page.loadEventFired', 30000);
		await s('Page.navigate', { url: 'file://' + path.resolve(page) });
		await loaded;
		const probe = async () => {
			const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
			for (let i = 0; i < 100 && !document.body.getAttribute('data-ready'); i++) await sleep(50);
			const plots = window.triagePlots || [];
			const near = (d, i, c) => Math.abs(d[i] - c[0]) <= 25 && Math.abs(d[i + 1] - c[1]) <= 25 &&
				Math.abs(d[i + 2] - c[2]) <= 25 && d[i + 3] > 200;
			const rgb = (s) => { const m = /^#(..)(..)(..)$/.exec(s); return m ? [1, 2, 3].map((k) => parseInt(m[k], 16)) : null; };
			const count = (u, colors) => {
				const b = u.bbox, d = u.ctx.getImageData(b.left, b.top, b.width, b.height).data;
				let n = 0;
				for (let i = 0; i < d.length; i += 4)
					if (colors.some((c) => near(d, i, c))) n++;
				return n;
			};
			const res = [];
			for (const u of plots) {
				const colors = u.series.slice(1).map((s) => rgb(typeof s._stroke === 'string' ? s._stroke : '')).filter(Boolean);
				await sleep(50);
				const shown = count(u, colors);
				for (let i = 1; i < u.series.length; i++) u.setSeries(i, { show: false });
				await sleep(100);
				const hidden = count(u, colors);
				for (let i = 1; i < u.series.length; i++) u.setSeries(i, { show: true });
				res.push({ id: u.root.parentNode.id, series: u.series.length - 1, points: u.data[0].length,
					colors: colors.length, shown, hidden, canvas: [u.ctx.canvas.width, u.ctx.canvas.height] });
			}
			return JSON.stringify({ charts: res, title: document.title,
				findings: document.querySelectorAll('table.findings tr.f').length,
				scripts: [...document.scripts].filter((x) => x.src).length });
		};
		const r = await s('Runtime.evaluate', { expression: '(' + probe.toString() + ')()',
			awaitPromise: true, returnByValue: true });
		if (r.exceptionDetails) out.errors.push('probe: ' + JSON.stringify(r.exceptionDetails));
		else Object.assign(out, JSON.parse(r.result.value));
		await sleep(200); // late console messages
		ws.close();
	} finally {
		c.proc.kill('SIGKILL');
	}
	process.stdout.write(JSON.stringify(out) + '\n');
}

main().then(() => process.exit(0), (e) => { console.error(String(e && e.stack || e)); process.exit(1); });
