/* The share page follows the table: it asks /s/<token>/live/ every 2 s with the ETag it has.
   Nothing new is a 304 with no body (one indexed query on the server); news is the fragment, swapped in.
   Polling rather than a stream: the server's sync workers would each be held by one open stream
   (settlement/web/share.py). Hidden tab: a slow poll; offline: none; back (visible, online): at once.
   Errors back off up to a minute. A 410 means the link was revoked (a 404: it is gone): stop and say so. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  var status = document.getElementById("live-status");
  if (!live || !status || !window.fetch) return;

  var FAST = 2000, HIDDEN = 60000, MAX = 60000;
  var url = live.getAttribute("data-src");
  var etag = live.getAttribute("data-etag");
  var delay = FAST, timer = null, busy = false, stopped = false;

  function say(text, gone) {
    status.textContent = text;
    status.classList.toggle("gone", !!gone);
  }

  function time() {
    var now = new Date();
    return [now.getHours(), now.getMinutes(), now.getSeconds()]
      .map(function (n) { return (n < 10 ? "0" : "") + n; }).join(":");
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = null;
    if (stopped || navigator.onLine === false) return;
    timer = setTimeout(poll, document.hidden ? Math.max(ms, HIDDEN) : ms);
  }

  function swap(html) {
    var before = {};
    live.querySelectorAll("article.hand").forEach(function (a) { before[a.id] = a.textContent; });
    live.innerHTML = html;
    live.querySelectorAll("article.hand").forEach(function (a) {
      if (before[a.id] !== a.textContent) a.classList.add("fresh");
    });
  }

  function poll() {
    if (busy || stopped) return;
    busy = true;
    fetch(url, { headers: { "If-None-Match": etag }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.status === 404 || response.status === 410) {
          stopped = true;
          say(status.getAttribute(response.status === 410 ? "data-revoked" : "data-gone"), true);
          return null;
        }
        if (!response.ok) throw new Error("HTTP " + response.status);
        etag = response.headers.get("ETag") || etag;
        return response.text().then(function (html) {
          swap(html);
          say(status.getAttribute("data-updated") + " " + time());
        });
      })
      .then(function () {
        delay = FAST;
      }, function () {
        delay = Math.min(delay * 2, MAX);
        say(status.getAttribute("data-retry"));
      })
      .then(function () {
        busy = false;
        schedule(delay);
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { delay = FAST; schedule(0); } else { schedule(HIDDEN); }
  });
  window.addEventListener("online", function () { delay = FAST; schedule(0); });
  window.addEventListener("offline", function () { clearTimeout(timer); say(status.getAttribute("data-retry")); });

  say(status.getAttribute("data-live"));
  schedule(FAST);
})();
