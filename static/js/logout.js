/* Logging out on a shared phone: what this user kept on the phone goes with them.
   - The pages the service worker keeps (table and share pages, the cache "baifen-pages" of
     templates/settlement/sw.js) are deleted; the static files stay (nothing of a user's in them).
   - Hands kept on the phone and not sent yet (offline.js's IndexedDB queue) are never lost silently:
     the logout asks first, saying how many wait; logging out anyway removes them with the pages, so the
     next user neither sees nor sends them. Cancel keeps everything. */
(function () {
  "use strict";
  var PAGES_CACHE = "baifen-pages", DB_NAME = "baifen-offline", STORE = "hands", WAIT = 2000;

  function openDb() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {  /* as offline.js makes it */
        request.result.createObjectStore(STORE, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function withStore(mode, work) {
    if (!window.indexedDB) return Promise.resolve([]);
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(request.result); };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function unsent() {
    return withStore("readonly", function (store) { return store.getAll(); }).then(function (items) {
      return (items || []).filter(function (item) { return item.status !== "recorded"; }).length;
    }).catch(function () { return 0; });
  }

  function clear() {
    var work = [withStore("readwrite", function (store) { return store.clear(); })];
    if (window.caches) work.push(caches["delete"](PAGES_CACHE));
    var done = Promise.all(work).catch(function () { return null; });
    /* Log out in any case, even if the browser's storage does not answer. */
    return Promise.race([done, new Promise(function (resolve) { setTimeout(resolve, WAIT); })]);
  }

  document.querySelectorAll("form.logout").forEach(function (form) {
    var leaving = false;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (leaving || !window.Promise) return;
      leaving = true;
      unsent().then(function (count) {
        var ask = (form.getAttribute("data-unsent") || "").replace("{count}", String(count));
        if (count && !window.confirm(ask)) {
          leaving = false;
          return;
        }
        return clear().then(function () { form.submit(); });
      });
    });
  });
})();
