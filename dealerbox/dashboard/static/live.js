// One live stream for every tab of this browser (a SharedWorker): a browser opens at most six connections to one
// host over HTTP/1.1, so a stream per tab froze the seventh tab. Each tab says which journal id its page holds
// ("hello"); the worker replays what it kept after that id, then passes on everything new. Each page applies
// only what its own filter shows (static/floor.js).
"use strict";
var ports = [];
var source = null;
var coveredFrom = 0;       // every event after this id has been received (or is kept in `recent`)
var recent = [];
var KEPT = 3000;
var KINDS = ["alert", "table", "tournament", "broker", "invalid"];

function send(msg) { ports.forEach(function (p) { p.postMessage(msg); }); }

function open(after) {
  coveredFrom = after;
  recent = [];
  source = new EventSource("/events?after=" + encodeURIComponent(String(after)));
  KINDS.forEach(function (kind) {
    source.addEventListener(kind, function (ev) {
      var msg = {kind: kind, id: Number(ev.lastEventId), data: ev.data};
      recent.push(msg);
      if (recent.length > KEPT) { coveredFrom = recent.shift().id; }
      send(msg);
    });
  });
  source.onerror = function () {
    // CLOSED: the server refused (401: the session ended); anything else the browser retries by itself
    if (source && source.readyState === EventSource.CLOSED) { source = null; send({kind: "closed"}); }
  };
}

onconnect = function (e) {
  var port = e.ports[0];
  ports.push(port);
  port.onmessage = function (m) {
    if (m.data.bye) { ports = ports.filter(function (p) { return p !== port; }); return; }
    var after = Number(m.data.hello);
    if (!source) { open(after); }
    else if (after < coveredFrom) { port.postMessage({kind: "gap"}); return; }   // the page is older than we hold
    recent.forEach(function (msg) { if (msg.id > after) { port.postMessage(msg); } });
    port.postMessage({kind: "ready"});
  };
  port.start();
};
