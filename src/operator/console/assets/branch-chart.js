// The rules page's small chart per rule with branches or a goal (uPlot): its runs per time bucket
// of the period, one series per arm taken, and the goal's conversions. The data comes with the
// page in each chart's data-chart attribute (no inline script: the console's CSP allows none).
(function () {
  'use strict';
  if (!window.uPlot) return;
  var COLORS = ['#24292f', '#0969da', '#9a6700', '#8250df', '#bf3989', '#1a7f37'];
  var GOAL = '#1a7f37';
  document.querySelectorAll('.branch-chart[data-chart]').forEach(function (el) {
    var chart = JSON.parse(el.getAttribute('data-chart'));
    var series = [{}].concat(
      chart.series.map(function (s, i) {
        var goal = s.label === 'goal reached';
        return {
          label: s.label,
          stroke: goal ? GOAL : COLORS[i % COLORS.length],
          width: goal ? 2 : 1.5,
          dash: goal ? [4, 3] : undefined,
          points: { show: true, size: 4 },
        };
      }),
    );
    var data = [chart.t].concat(
      chart.series.map(function (s) {
        return s.values;
      }),
    );
    new uPlot(
      {
        width: Math.max(240, Math.min(420, el.parentElement.clientWidth - 8)),
        height: 140,
        scales: {
          x: { time: true },
          y: {
            range: function (u, min, max) {
              return [0, Math.max(max, 1)];
            },
          },
        },
        series: series,
        axes: [{}, { label: 'runs' }],
      },
      data,
      el,
    );
    el.setAttribute(
      'data-series',
      chart.series
        .map(function (s) {
          return s.label;
        })
        .join(','),
    );
  });
})();
