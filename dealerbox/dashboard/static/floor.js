// The dashboard's only script: live updates over server-sent events, actions by fetch with the CSRF header,
// the floor-call sound (browsers allow it after the first click) and the hand stepper. No library, no build.
(function () {
  "use strict";
  var body = document.body;
  var csrf = document.querySelector('meta[name="csrf"]').content;
  var site = body.dataset.site;
  var soundOK = false;
  document.addEventListener("click", function () { soundOK = true; }, {once: true});

  function fragment(html) {
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content.firstElementChild;
  }
  function openFloorCalls() {
    return document.querySelectorAll("tr.alert.open.floor").length > 0 || body.dataset.alarm === "on";
  }
  function alarm() {
    var on = openFloorCalls();
    var el = document.getElementById("alarm");
    if (el) { el.hidden = !on; }
    if (on && soundOK) { var a = document.getElementById("chime"); if (a) { a.play().catch(function () {}); } }
  }
  setInterval(alarm, 4000);

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList.contains("act")) { return; }
    ev.preventDefault();
    fetch(form.action, {method: "POST", body: new FormData(form), headers: {"X-CSRF-Token": csrf},
                        credentials: "same-origin"})
      .then(function (r) { return r.text().then(function (t) { if (!r.ok) { alert(t); } }); });
  });

  if (!document.getElementById("login") && window.EventSource) {
    var url = "/events?after=" + encodeURIComponent(body.dataset.after || "0") + (site ? "&site=" + encodeURIComponent(site) : "");
    var source = new EventSource(url);
    window.dealerboxEvents = [];
    source.addEventListener("alert", function (ev) {
      var d = JSON.parse(ev.data);
      window.dealerboxEvents.push({kind: "alert", id: d.id, at: Date.now()});
      var queue = document.getElementById("queue");
      if (queue) {
        var row = fragment(d.html), old = document.getElementById("alert-" + d.id);
        if (old) { old.replaceWith(row); } else { queue.prepend(row); }
        if (d.escalated) { queue.prepend(row); }
      }
      replaceTile(d.key, d.tile);
      if (d.open && d.severity === "floor") { body.dataset.alarm = "on"; } else { body.dataset.alarm = ""; }
      alarm();
    });
    source.addEventListener("table", function (ev) { var d = JSON.parse(ev.data); replaceTile(d.key, d.tile); });
    source.addEventListener("tournament", function (ev) {
      var d = JSON.parse(ev.data), old = document.getElementById("tournament-" + d.id);
      if (old && d.html) { old.replaceWith(fragment(d.html)); }
    });
    source.addEventListener("broker", function (ev) {
      var d = JSON.parse(ev.data), el = document.getElementById("broker");
      if (el) { el.textContent = "broker: " + d.note; el.className = d.connected ? "ok" : "down"; }
    });
    source.addEventListener("invalid", function (ev) {
      var d = JSON.parse(ev.data), n = document.getElementById("invalid"), feed = document.getElementById("refused-feed");
      if (n) { n.textContent = String(Number(n.textContent) + 1); }
      if (feed) { var li = document.createElement("li"); li.textContent = d.topic + ": " + d.reason; feed.prepend(li); }
    });
  }
  function replaceTile(key, html) {
    if (!html) { return; }
    var map = document.getElementById("map");
    if (!map) { return; }
    var fresh = fragment(html), old = map.querySelector('[data-key="' + CSS.escape(key) + '"]');
    if (old) { old.replaceWith(fresh); } else if (!map.classList.contains("one")) { map.appendChild(fresh); }
  }

  // the tournament clock counts down between the server's pushes (every 10 s and on every change)
  setInterval(function () {
    document.querySelectorAll(".clock .left[data-running='1']").forEach(function (el) {
      var left = Math.max(0, Number(el.dataset.left) - 1);
      el.dataset.left = String(left);
      el.textContent = Math.floor(left / 60) + ":" + String(Math.floor(left % 60)).padStart(2, "0");
    });
  }, 1000);

  var steps = document.querySelectorAll("#steps li");
  if (steps.length) {
    var at = 0;
    var show = function () {
      steps.forEach(function (li, i) { li.className = i === at ? "current" : (i > at ? "later" : ""); });
      document.getElementById("where").textContent = "step " + (at + 1) + " of " + steps.length;
    };
    document.getElementById("next").onclick = function () { at = Math.min(at + 1, steps.length - 1); show(); };
    document.getElementById("prev").onclick = function () { at = Math.max(at - 1, 0); show(); };
    show();
  }
  alarm();
})();
