/*
 * triage plot: draws the charts of the record embedded in #triage-data
 * with uPlot. Every name in the data is untrusted and only ever set as
 * textContent. Zoom: drag across a chart (all charts follow), double-click
 * or "Reset zoom" to undo; a finding's row zooms to its window.
 */
(function () {
	'use strict';
	var D = JSON.parse(document.getElementById('triage-data').textContent);
	/* Series colours; no red or amber, which mark critical and warning findings. */
	var COLORS = ['#1f77b4', '#2ca02c', '#9467bd', '#17becf', '#8c564b', '#e377c2',
		'#7f7f7f', '#bcbd22', '#393b79', '#637939'];
	var SEV = { critical: '198,40,40', warning: '224,138,0', info: '47,111,196' };
	var PAIRED = { groups_cpu: 1, switches: 1, psi: 1, disk: 1, net: 1 };
	/* Charts whose series measure the same things share their colours: a group, a device. */
	var KIND = { groups_cpu: 'group', switches: 'group', disk: 'device', disk_util: 'device' };
	var palettes = Object.create(null);
	var interval = parseFloat(D.meta.interval) || 1;
	var plots = [], syncing = false, ready = false;
	/* Tick spacings on the time axis, in seconds: never below one sample. */
	var TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800,
		21600, 43200, 86400, 172800, 604800];

	function el(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined) e.textContent = text;
		return e;
	}
	function utc(t) {
		return new Date(t * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
	}
	function human(v, div, units) {
		var i = 0;
		while (Math.abs(v) >= div && i < units.length - 1) { v /= div; i++; }
		return (i ? v.toFixed(1) : v.toFixed(Math.abs(v) < 10 && v % 1 ? 1 : 0)) + units[i];
	}
	/*
	 * Tick steps: 1, 2 and 5 times a power of ten, for bytes of a power of
	 * 1024 (20, 40, 60 MiB/s; 200, 400, 600 KiB/s), so tick labels are round.
	 */
	function incrs(unit) {
		var out = [], m = [1, 2, 5], e, p, k;
		if (unit === 'B/s') {
			for (p = 0; p <= 5; p++)
				for (e = 0; e < 3; e++)
					for (k = 0; k < 3; k++) out.push(m[k] * Math.pow(10, e) * Math.pow(1024, p));
			return out;
		}
		for (e = -3; e <= 15; e++)
			for (k = 0; k < 3; k++) out.push(+(m[k] * Math.pow(10, e)).toPrecision(1));
		return out;
	}
	/* Tick labels in the unit of the step, with as many decimals as the step needs. */
	function tickFmt(unit, step) {
		var div = unit === 'B/s' ? 1024 : 1000, i = 0, scale = 1, dec;
		var names = unit === 'B/s' ? [' B/s', ' KiB/s', ' MiB/s', ' GiB/s', ' TiB/s', ' PiB/s'] :
			unit === '/s' ? ['/s', 'k/s', 'M/s', 'G/s', 'T/s'] : null;
		if (names)
			while (step >= scale * div && i < names.length - 1) { scale *= div; i++; }
		var s = step / scale;
		dec = s >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(s) - 1e-9));
		return function (v) {
			var t = (v / scale).toFixed(dec);
			return (names ? t + names[i] : unit === '%' ? t + '%' : t);
		};
	}
	function colour(kind, name) {
		var p = palettes[kind] || (palettes[kind] = { map: Object.create(null), n: 0 });
		if (!(name in p.map)) p.map[name] = p.n++;
		return COLORS[p.map[name] % COLORS.length];
	}
	/* Wide enough for the longest tick label, measured in the axis's own font. */
	function axisSize(u, values, i, cycle) {
		var ax = u.axes[i], w = 0;
		if (cycle > 1 && ax._size) return ax._size; /* settle: uPlot asks again after a resize */
		u.ctx.font = ax.font[0];
		(values || []).forEach(function (v) { w = Math.max(w, u.ctx.measureText(v).width); });
		return Math.ceil(w / devicePixelRatio) + ax.ticks.size + ax.gap + 6;
	}

	function fmt(v, unit) {
		if (v === null || v === undefined || isNaN(v)) return '-';
		if (unit === '%') return v.toFixed(1) + '%';
		if (unit === 'B/s') return human(v, 1024, [' B/s', ' KiB/s', ' MiB/s', ' GiB/s', ' TiB/s']);
		if (unit === '/s') return human(v, 1000, ['/s', 'k/s', 'M/s', 'G/s']);
		return v.toFixed(2);
	}

	function header() {
		var h = document.getElementById('head'), m = D.meta, t0 = Infinity, t1 = -Infinity;
		D.charts.forEach(function (c) {
			if (c.ts.length) { t0 = Math.min(t0, c.ts[0]); t1 = Math.max(t1, c.ts[c.ts.length - 1]); }
		});
		h.appendChild(el('h1', null, 'triage record of ' + (m.hostname || 'unknown host')));
		h.appendChild(el('p', null, 'Linux ' + (m.kernel || '?') + ', ' + (m.ncpu || '?') +
			' CPUs, one sample every ' + interval + ' s' +
			(m.schema_version ? ', schema ' + m.schema_version : '')));
		if (t0 <= t1)
			h.appendChild(el('p', null, utc(t0) + ' to ' + utc(t1) + ' (' +
				Math.round(t1 - t0) + ' s)'));
		h.appendChild(el('p', 'note', 'Drag across a chart to zoom (all charts follow); ' +
			'double-click or Reset zoom to undo. Findings are shaded on every chart.'));
		var b = el('button', null, 'Reset zoom');
		b.addEventListener('click', function () { zoom(null, null); });
		h.appendChild(b);
	}

	function findings() {
		var s = document.getElementById('findings');
		s.appendChild(el('h2', null, 'Findings (' + D.findings.length + ')'));
		if (!D.findings.length) {
			s.appendChild(el('p', 'note', 'No findings in this recording.'));
			return;
		}
		var t = el('table', 'findings'), hr = el('tr');
		['when (UTC)', 'severity', 'rule', 'subject', 'what'].forEach(function (x) {
			hr.appendChild(el('th', null, x));
		});
		t.appendChild(hr);
		D.findings.forEach(function (f) {
			var r = el('tr', 'f');
			r.appendChild(el('td', null, utc(f.start).slice(11, 19) + '\u2013' +
				utc(f.end).slice(11, 19)));
			var sev = el('td');
			sev.appendChild(el('span', 'sev sev-' + (SEV[f.severity] ? f.severity : 'info'),
				f.severity));
			r.appendChild(sev);
			r.appendChild(el('td', null, f.rule));
			r.appendChild(el('td', null, f.subject));
			r.appendChild(el('td', null, f.sentence +
				(f.windows > 1 ? ' (' + f.windows + ' windows)' : '')));
			r.addEventListener('click', function () {
				var pad = Math.max(5 * interval, (f.end - f.start) / 2);
				zoom(f.start - pad, f.end + pad);
			});
			t.appendChild(r);
		});
		s.appendChild(t);
	}

	function zoom(min, max) {
		plots.forEach(function (u) {
			if (min === null) {
				var x = u.data[0];
				u.setScale('x', { min: x[0], max: x[x.length - 1] });
			} else {
				u.setScale('x', { min: min, max: max });
			}
		});
	}

	/* A drag-zoom on one chart moves the others. */
	function syncScale(u, key) {
		if (key !== 'x' || syncing || !ready) return;
		syncing = true;
		plots.forEach(function (p) {
			if (p !== u) p.setScale('x', { min: u.scales.x.min, max: u.scales.x.max });
		});
		syncing = false;
	}

	/*
	 * Each finding's window shaded, with a line where it starts: drawn
	 * right after the canvas is cleared, under the grid and the series.
	 */
	function drawFindings(u) {
		var ctx = u.ctx, b = u.bbox;
		ctx.save();
		D.findings.forEach(function (f) {
			var x0 = u.valToPos(f.start, 'x', true), x1 = u.valToPos(f.end, 'x', true);
			var rgb = SEV[f.severity] || SEV.info;
			if (x1 < b.left || x0 > b.left + b.width) return;
			var a = Math.max(x0, b.left), z = Math.min(x1, b.left + b.width);
			ctx.fillStyle = 'rgba(' + rgb + ',0.07)';
			ctx.fillRect(a, b.top, Math.max(z - a, 1), b.height);
			if (x0 >= b.left) {
				ctx.fillStyle = 'rgba(' + rgb + ',0.85)';
				ctx.fillRect(x0, b.top, 2 * devicePixelRatio, b.height);
			}
		});
		ctx.restore();
	}

	function hinter(hint) {
		return function (u) {
			var i = u.cursor.idx, out = [];
			if (i !== null && i !== undefined) {
				var t = u.data[0][i];
				D.findings.forEach(function (f) {
					if (t >= f.start - interval / 2 && t <= f.end + interval / 2)
						out.push(f.severity + ' ' + f.rule + ': ' + f.sentence);
				});
			}
			var text = out.join('\n');
			if (hint.textContent !== text) hint.textContent = text;
		};
	}

	/* 24-hour UTC tick labels; the date too when the view spans days. */
	function timeTicks(u, ticks) {
		var span = u.scales.x.max - u.scales.x.min;
		return ticks.map(function (t) {
			var s = utc(t);
			return span > 86400 ? s.slice(5, 16) : span < 300 ? s.slice(11, 19) : s.slice(11, 16);
		});
	}

	function width() {
		return Math.max(320, document.getElementById('charts').clientWidth);
	}

	function chart(c) {
		var box = el('div', 'chart'), hint = el('div', 'hint'), paired = PAIRED[c.id];
		box.id = 'chart-' + c.id;
		box.appendChild(el('h2', null, c.title));
		document.getElementById('charts').appendChild(box);
		var series = [{ label: 'time (UTC)', value: function (u, v) { return v === null ? '-' : utc(v).slice(11); } }];
		var kind = KIND[c.id] || (/^cpu\d*$/.test(c.id) ? 'mode' : c.id);
		c.series.forEach(function (s) {
			/* a group's second series (sys, nvcswch/s, write, tx) is dashed */
			series.push({
				label: s.label, width: 1.5, spanGaps: false,
				stroke: colour(kind, s.entity),
				dash: paired && s.part === 1 ? [6, 3] : undefined,
				value: function (u, v) { return fmt(v, c.unit); }
			});
		});
		var opts = {
			width: width(), height: 220, series: series,
			tzDate: function (t) { return uPlot.tzDate(new Date(t * 1000), 'Etc/UTC'); },
			/* From 0 (a little below, so a line at 0 is not cut in half) to the top. */
			scales: { x: { time: true }, y: { range: function (u, lo, hi) {
				var top = hi > 0 ? hi * 1.05 : 1;
				return [lo < 0 ? lo * 1.05 : -0.02 * top, top];
			} } },
			axes: [{ values: timeTicks, incrs: TIME_STEPS }, { size: axisSize, incrs: incrs(c.unit),
				values: function (u, ts, i, space, step) { return ts.map(tickFmt(c.unit, step)); } }],
			/* the legend's swatch is drawn like its line: dashed or solid */
			legend: { markers: { width: 2, dash: function (u, i) {
				return u.series[i].dash ? 'dashed' : 'solid';
			} } },
			cursor: { sync: { key: 'triage' }, drag: { x: true, y: false } },
			hooks: { setScale: [syncScale], setCursor: [hinter(hint)], drawClear: [drawFindings] }
		};
		var data = [c.ts].concat(c.series.map(function (s) { return s.v; }));
		var u = new uPlot(opts, data, box);
		box.appendChild(hint);
		if (c.note) box.appendChild(el('div', 'note', c.note));
		if (c.raw_points > c.ts.length)
			box.appendChild(el('div', 'note', c.raw_points + ' samples shown as ' + c.ts.length +
				' points (minimum and maximum per interval).'));
		return u;
	}

	header();
	findings();
	D.charts.forEach(function (c) { plots.push(chart(c)); });
	ready = true;
	window.addEventListener('resize', function () {
		plots.forEach(function (u) { u.setSize({ width: width(), height: 220 }); });
	});
	window.triagePlots = plots;
	document.body.setAttribute('data-ready', String(plots.length));
})();
