// The dashboard's page script: live updates from the browser's one shared stream (static/live.js), applied
// through this page's own filter; the floor-call alarm from the server's count of open floor alerts (never from
// the last message); actions by fetch with the CSRF header; "seen" for the rows a supervisor has on screen; the
// hand stepper. No library, no build.
(function () {
  "use strict";
  var body = document.body;
  var csrf = document.querySelector('meta[name="csrf"]').content;
  var site = body.dataset.site;
  var after = Number(body.dataset.after || "0");          // the page holds every change up to this journal id
  var filter = JSON.parse(body.dataset.filter || "{}");
  var floor = JSON.parse(body.dataset.floor || "{}");    // open floor alerts per site, as the server counts them
  var acts = body.dataset.acts === "1";
  var soundOK = false;
  document.addEventListener("click", function () { soundOK = true; }, {once: true});

  function fragment(html) {
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content.firstElementChild;
  }
  function floorCalls() {
    var n = 0;
    Object.keys(floor).forEach(function (s) { if (!site || s === site) { n += floor[s]; } });
    return n;
  }
  function alarm() {
    var n = floorCalls(), el = document.getElementById("alarm");
    body.dataset.calls = String(n);
    if (el) { el.hidden = n === 0; }
    if (n > 0 && soundOK) { var a = document.getElementById("chime"); if (a) { a.play().catch(function () {}); } }
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

  // "seen": the open rows a supervisor has had on screen, told once each (the first look is what counts)
  var told = {};
  var seenTimer = null;
  function noteSeen() {
    if (!acts || document.visibilityState !== "visible" || seenTimer) { return; }
    seenTimer = setTimeout(function () {
      seenTimer = null;
      var ids = [];
      document.querySelectorAll("#queue tr.alert.unseen").forEach(function (tr) {
        if (!told[tr.dataset.id]) { told[tr.dataset.id] = true; ids.push(tr.dataset.id); }
      });
      if (ids.length) {
        fetch("/alerts/seen", {method: "POST", body: new URLSearchParams({ids: ids.join(",")}),
                               headers: {"X-CSRF-Token": csrf}, credentials: "same-origin"});
      }
    }, 300);
  }
  document.addEventListener("visibilitychange", noteSeen);

  function shows(d) {
    // the server's filter (store.alerts), applied to a live row
    if (filter.site && d.site !== filter.site) { return false; }
    if (filter.table && d.table !== filter.table) { return false; }
    if (filter.rule && d.rule !== filter.rule) { return false; }
    if (filter.severity && d.severity !== filter.severity) { return false; }
    if (filter.supervisor && d.people.indexOf(filter.supervisor) < 0) { return false; }
    if (filter.since != null && d.raised_at < filter.since) { return false; }
    if (filter.until != null && d.raised_at > filter.until) { return false; }
    return true;
  }

  var handlers = {
    alert: function (d) {
      floor = d.floor;
      var queue = document.getElementById("queue");
      if (queue) {
        var old = document.getElementById("alert-" + d.id);
        if (!shows(d)) {
          if (old) { old.remove(); }
        } else if (old) {
          var row = fragment(d.html);
          old.replaceWith(row);
          if (d.escalated) { queue.prepend(row); }
        } else if (!filter.older) {           // an older page of the history takes no new rows
          queue.prepend(fragment(d.html));
        }
        noteSeen();
      }
      if (!site || d.site === site) { replaceTile(d.key, d.tile); }
      alarm();
    },
    table: function (d) { if (!site || d.site === site) { replaceTile(d.key, d.tile); } },
    tournament: function (d) {
      var old = document.getElementById("tournament-" + d.id);
      if (old && d.html) { old.replaceWith(fragment(d.html)); }
    },
    broker: function (d) {
      var el = document.getElementById("broker");
      if (el) { el.textContent = "broker: " + d.note; el.className = d.connected ? "ok" : "down"; }
    },
    invalid: function (d) {
      var n = document.getElementById("invalid"), feed = document.getElementById("refused-feed");
      if (n) { n.textContent = String(Math.max(Number(n.textContent), d.total)); }   // the server's count
      if (feed) { var li = document.createElement("li"); li.textContent = d.topic + ": " + d.reason; feed.prepend(li); }
    }
  };

  function deliver(msg) {
    if (msg.kind === "ready") { window.dealerboxEvents = window.dealerboxEvents || []; return; }
    if (msg.kind === "gap") { location.reload(); return; }        // this page is older than the stream holds
    if (msg.kind === "closed") { location.href = "/login?next=" + encodeURIComponent(location.pathname); return; }
    if (!handlers[msg.kind] || msg.id <= after) { return; }       // already in the page as rendered
    after = msg.id;
    var d = JSON.parse(msg.data);
    if (window.dealerboxEvents) { window.dealerboxEvents.push({kind: msg.kind, id: d.id, at: Date.now()}); }
    handlers[msg.kind](d);
  }

  function connect() {
    if (window.SharedWorker) {
      var worker = new SharedWorker("/static/live.js", {name: "dealerbox-live"});
      worker.port.onmessage = function (m) { deliver(m.data); };
      worker.port.start();
      worker.port.postMessage({hello: after});
      window.addEventListener("pagehide", function () { worker.port.postMessage({bye: true}); });
      return;
    }
    // no SharedWorker (some mobile browsers): a stream of this page's own
    var source = new EventSource("/events?after=" + encodeURIComponent(String(after)));
    Object.keys(handlers).forEach(function (kind) {
      source.addEventListener(kind, function (ev) { deliver({kind: kind, id: Number(ev.lastEventId), data: ev.data}); });
    });
    source.addEventListener("open", function () { deliver({kind: "ready"}); });
    source.onerror = function () { if (source.readyState === EventSource.CLOSED) { deliver({kind: "closed"}); } };
  }
  if (!document.getElementById("login") && body.dataset.acts !== undefined && document.getElementById("broker")) {
    connect();
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
  noteSeen();
  alarm();
})();
