/* Baifen Ledger's service worker (settlement/web/offline.py serves it from /sw.js).
   It handles three kinds of request and lets every other one through untouched:
   - the static files: from its cache (their names carry a hash), kept at install;
   - the table pages and the share pages (GET, whole pages): from the network, and a copy is kept;
     offline, or with no answer within a few seconds, the copy last kept: the page, its state, its files;
   - the start URL of the installed app: the network, else the table page last kept.
   The cache of static files is named after their hash: a deploy is a new worker, which installs itself,
   takes over and drops the old files; the kept pages are fetched again so they name the new files. */
"use strict";
var CONFIG = {{ config|safe }};
var STATIC_CACHE = "baifen-static-" + CONFIG.version;
var PAGES_CACHE = "baifen-pages";
var PAGES_KEPT = 30;
var NETWORK_WAIT = 4000;
var TABLE = /^\/clubs\/[^/]+\/sessions\/\d+\/table\/$/;
var SHARE = /^\/s\/[^/]+\/$/;
var LAST_TABLE = "/__baifen_last_table__";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then(function (cache) { return cache.addAll(CONFIG.assets || []); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.map(function (name) {
          if (name.indexOf("baifen-static-") === 0 && name !== STATIC_CACHE) return caches.delete(name);
          return null;
        }));
      })
      .then(refreshPages)
      .then(function () { return self.clients.claim(); })
  );
});

/* A page kept under its path (and ?view= for the share page's TV layout): ?saved=… is the same page. */
function pageKey(url) {
  var view = url.searchParams.get("view");
  return url.origin + url.pathname + (view ? "?view=" + encodeURIComponent(view) : "");
}

function keep(key, response) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    /* put replaces the copy at once: no moment without one (a delete first would open a gap). */
    return cache.put(key, response).then(function () {
      return cache.keys();
    }).then(function (keys) {
      var extra = keys.length - PAGES_KEPT;
      return Promise.all(keys.slice(0, Math.max(0, extra)).map(function (old) { return cache.delete(old); }));
    });
  });
}

function keepable(response) {
  return response && response.status === 200 && response.type === "basic" && !response.redirected;
}

/* After an update the kept pages name the old files: fetch them again (best effort, online by now). */
function refreshPages() {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (request) {
        if (request.url.indexOf(LAST_TABLE) >= 0) return null;
        return fetch(request.url, { credentials: "same-origin" }).then(function (response) {
          return keepable(response) ? cache.put(request, response) : null;
        }).catch(function () { return null; });
      }));
    });
  }).catch(function () { return null; });
}

function fromCache(key) {
  return caches.match(key, { ignoreVary: true });
}

function offlinePage() {
  return new Response(
    '<!doctype html><html lang="zh-Hans"><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
    "<title>离线 · Offline</title><main><h1>离线 · Offline</h1>" +
    "<p>这一页没有存在这台设备上。联网后再打开。</p>" +
    '<p lang="en">This page was not kept on this device. Open it again when the connection is back.</p></main></html>',
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
  );
}

/* The network first; the copy kept when it fails, or when it has not answered within NETWORK_WAIT. */
function networkFirst(request, key, isTable) {
  var network = fetch(request).then(function (response) {
    if (keepable(response)) {
      var copies = [keep(key, response.clone())];
      if (isTable) copies.push(keep(self.location.origin + LAST_TABLE, response.clone()));
      Promise.all(copies).catch(function () { return null; });
    }
    return response;
  });
  var slow = new Promise(function (resolve) {
    setTimeout(function () {
      fromCache(key).then(function (kept) { if (kept) resolve(kept); });
    }, NETWORK_WAIT);
  });
  var fallback = network.catch(function () {
    return fromCache(key).then(function (kept) { return kept || offlinePage(); });
  });
  return Promise.race([fallback, slow]);
}

function cacheFirst(request) {
  return fromCache(request).then(function (kept) {
    if (kept) return kept;
    return fetch(request).then(function (response) {
      if (keepable(response)) {
        var copy = response.clone();
        caches.open(STATIC_CACHE).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    });
  });
}

/* A page opened before this worker controlled it asks to be kept (offline.js), so it opens offline too; so does
   the table page a recorded hand landed on, with its HTML (table.js fetched it and put it in place: the worker
   saw no navigation), so the kept copy has that hand without loading the page again. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (!data.keep) return;
  var url = new URL(data.keep, self.location.origin);
  if (url.origin !== self.location.origin) return;
  var isTable = TABLE.test(url.pathname);
  if (!isTable && !SHARE.test(url.pathname)) return;
  var page = typeof data.html === "string"
    ? Promise.resolve(new Response(data.html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } }))
    : fetch(url.href, { credentials: "same-origin" }).then(function (response) {
      return keepable(response) ? response : null;
    });
  event.waitUntil(page.then(function (response) {
    if (!response) return null;
    var copies = [keep(pageKey(url), response.clone())];
    if (isTable) copies.push(keep(self.location.origin + LAST_TABLE, response.clone()));
    return Promise.all(copies);
  }).catch(function () { return null; }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(CONFIG["static"]) === 0) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (request.mode !== "navigate") return;
  var isTable = TABLE.test(url.pathname);
  if (isTable || SHARE.test(url.pathname)) {
    event.respondWith(networkFirst(request, pageKey(url), isTable));
    return;
  }
  if (url.pathname + url.search === CONFIG.start) {
    event.respondWith(fetch(request).catch(function () {
      return fromCache(self.location.origin + LAST_TABLE).then(function (kept) { return kept || offlinePage(); });
    }));
  }
});
