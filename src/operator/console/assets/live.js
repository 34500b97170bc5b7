// Live numbers: the element with data-stream names a server-sent-events URL; every message is
// JSON, and each element with data-live="a.b.c" shows that path of it (as text, never HTML).
(function () {
  'use strict';
  var root = document.querySelector('[data-stream]');
  if (!root || !window.EventSource) return;
  var pick = function (obj, path) {
    return path.split('.').reduce(function (o, k) {
      return o == null ? undefined : o[k];
    }, obj);
  };
  var source = new EventSource(root.getAttribute('data-stream'));
  source.onmessage = function (message) {
    var data = JSON.parse(message.data);
    document.querySelectorAll('[data-live]').forEach(function (el) {
      var value = pick(data, el.getAttribute('data-live'));
      el.textContent = value === undefined ? '0' : String(value);
    });
    root.setAttribute('data-updated', String(Date.now()));
    document.dispatchEvent(new CustomEvent('console:sample', { detail: data }));
  };
})();
