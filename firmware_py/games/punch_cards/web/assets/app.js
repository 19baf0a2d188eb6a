// Live updates for a Punch Cards page: the server sends the page's <main> again on every
// change (escaped HTML it rendered itself) and its status every 15 s.  When the stream
// drops, the page keeps what it shows and says "offline · as of ..."; it reconnects by
// itself and says "live" again with the first update.
(function () {
  "use strict";
  var body = document.body;
  var view = body.dataset.view;
  var live = document.getElementById("live");
  var liveText = live.querySelector(".text");
  var closingText = document.getElementById("closing");
  var countdown = document.getElementById("countdown");
  var main = document.getElementById("main");
  var asOf = body.dataset.asOf || "never";
  var closingUs = body.dataset.closingUs ? Number(body.dataset.closingUs) : null;
  var skewMs = body.dataset.nowUs ? Number(body.dataset.nowUs) / 1000 - Date.now() : 0;
  var WATCHDOG_MS = 40000; // two status messages missed: the stream is gone
  var source = null;
  var lastHeard = Date.now();

  function say(state, label) {
    live.className = "live is-" + state;
    liveText.textContent = label + " · as of " + asOf;
  }

  function apply(status) {
    asOf = status.as_of;
    closingUs = status.closing_us;
    if (status.as_of_us && status.state === "live") skewMs = status.as_of_us / 1000 - Date.now(); // fresh only when live
    closingText.textContent = status.closing;
    say(status.state, status.label);
    tick();
  }

  function tick() {
    if (closingUs === null) { countdown.textContent = ""; return; }
    var left = Math.floor((closingUs / 1000 - (Date.now() + skewMs)) / 1000);
    if (left <= 0) { countdown.textContent = ""; return; }
    var h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, s = left % 60;
    countdown.textContent = "· " + (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s + " left";
  }

  function connect() {
    if (source) source.close();
    lastHeard = Date.now();
    source = new EventSource("/events?view=" + encodeURIComponent(view));
    source.addEventListener("page", function (e) {
      lastHeard = Date.now();
      var data = JSON.parse(e.data);
      main.innerHTML = data.main;
      apply(data.status);
    });
    source.addEventListener("status", function (e) {
      lastHeard = Date.now();
      apply(JSON.parse(e.data));
    });
    source.onerror = function () {
      say("offline", "offline");
      if (source.readyState === EventSource.CLOSED) { // refused (busy): try again later
        setTimeout(connect, 5000 + Math.random() * 5000);
      }
    };
  }

  setInterval(function () {
    tick();
    if (view && Date.now() - lastHeard > WATCHDOG_MS) { say("offline", "offline"); connect(); }
  }, 1000);
  tick();
  if (view) connect();
})();
