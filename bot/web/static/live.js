// Live updates for the overview, run and locks pages: the element with data-events names a stream of
// server-sent events; each event carries server-rendered fragments that replace (html),
// set (text) or extend (lines) elements by id. Nothing reloads the page.
(function () {
  "use strict";
  var live = document.querySelector("[data-events]");
  if (!live || !window.EventSource) { return; }
  var status = document.getElementById("live-status");
  var say = function (t) { if (status) { status.textContent = t; } };
  var source = new EventSource(live.getAttribute("data-events"));
  var patch = function (e) {
    var d = JSON.parse(e.data);
    Object.keys(d.html || {}).forEach(function (id) {
      var el = document.getElementById(id);
      if (el) { el.innerHTML = d.html[id]; }
    });
    Object.keys(d.text || {}).forEach(function (id) {
      var el = document.getElementById(id);
      if (el) { el.textContent = d.text[id]; }
    });
    var log = document.getElementById("log");
    (d.lines || []).forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      if (log) { log.appendChild(li); }
    });
    live.setAttribute("data-updates", String(Number(live.getAttribute("data-updates") || 0) + 1));
  };
  source.onopen = function () { say("Live: this page updates by itself."); };
  source.onerror = function () { say("Live updates interrupted; reconnecting…"); };
  source.addEventListener("update", patch);
  source.addEventListener("finished", function (e) { patch(e); source.close(); say("The run has ended."); });
  source.addEventListener("signedout", function () { source.close(); say("Your session ended: sign in again with @eos web."); });
  source.addEventListener("hidden", function () { source.close(); say("You can no longer see this run's channel: updates stopped."); });
})();
