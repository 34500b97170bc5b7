// The budget plot (uPlot): calls counting in the window (all, interactive, bulk) against the
// limit, 429 answers per second, and shaded CRM pauses. Starts from the server's recent samples,
// then appends each live sample (live.js dispatches them as console:sample).
(function () {
  'use strict';
  var el = document.getElementById('budget-plot');
  if (!el || !window.uPlot) return;
  var KEEP = 300;
  var cols = [[], [], [], [], [], [], []]; // t, limit, used, interactive, bulk, 429s, paused
  var push = function (s) {
    var last = cols[0][cols[0].length - 1];
    if (last !== undefined && s.t < last) return;
    if (last === s.t)
      cols.forEach(function (c) {
        c.pop();
      });
    cols[0].push(s.t);
    cols[1].push(s.limit);
    cols[2].push(s.used);
    cols[3].push(s.interactive);
    cols[4].push(s.bulk);
    cols[5].push(s.rateLimited || null);
    cols[6].push(s.paused ? s.limit : null);
    if (cols[0].length > KEEP)
      cols.forEach(function (c) {
        c.shift();
      });
  };
  var plot = new uPlot(
    {
      width: Math.max(320, el.clientWidth - 16),
      height: 320,
      scales: {
        // x in epoch seconds, as the samples carry it. Left to uPlot, one sample (a first load)
        // spans years around it (its range pads by the value's magnitude): at least the last
        // minute up to the newest sample instead.
        x: {
          time: true,
          range: function (u, min, max) {
            if (min == null || max == null) {
              var now = Math.floor(Date.now() / 1000);
              return [now - 60, now];
            }
            return [Math.min(min, max - 60), max];
          },
        },
        y: {
          range: function (u, min, max) {
            return [0, Math.max(max, 1)];
          },
        },
      },
      series: [
        {},
        { label: 'limit', stroke: '#cf222e', dash: [6, 4], width: 1.5 },
        { label: 'in window', stroke: '#24292f', width: 2 },
        { label: 'interactive', stroke: '#0969da', width: 1.5 },
        { label: 'bulk', stroke: '#9a6700', width: 1.5 },
        { label: '429s/s', stroke: '#cf222e', width: 0, points: { show: true, size: 7, fill: '#cf222e' } },
        { label: 'paused', stroke: 'rgba(207,34,46,0.25)', fill: 'rgba(207,34,46,0.12)', width: 0 },
      ],
      axes: [{}, { label: 'calls' }],
    },
    cols,
    el,
  );
  el.setAttribute('data-points', '0');
  var redraw = function () {
    plot.setData(cols);
    el.setAttribute('data-points', String(cols[0].length));
    el.setAttribute('data-last-used', String(cols[2][cols[2].length - 1]));
    // The x-axis span drawn, epoch seconds (the browser tests read it).
    el.setAttribute('data-x-min', String(plot.scales.x.min));
    el.setAttribute('data-x-max', String(plot.scales.x.max));
  };
  // Live samples that arrive before the history wait for it, so the columns stay in time order.
  var early = [];
  var ready = false;
  var start = function (samples) {
    samples.concat(early).forEach(push);
    ready = true;
    redraw();
  };
  fetch('/console/budget/history', { credentials: 'same-origin' })
    .then(function (r) {
      return r.json();
    })
    .then(function (h) {
      start(h.samples);
    })
    .catch(function () {
      start([]);
    });
  document.addEventListener('console:sample', function (e) {
    if (!ready) return early.push(e.detail);
    push(e.detail);
    redraw();
  });
  window.addEventListener('resize', function () {
    plot.setSize({ width: Math.max(320, el.clientWidth - 16), height: 320 });
  });
})();
