/* The table page with no connection (and the share page's service worker).
   - Registers the service worker (/sw.js): the table and share pages, their files and their last state
     open offline.
   - Offline, Record keeps the hand on this phone (IndexedDB) with its client key and the number it was
     entered as; the hand list shows it as waiting, with what the phone can say (the fields entered);
     the form is ready for the next hand, its state marked provisional.
   - Online, a Record whose request fails at the network level (no answer, or none within a timeout:
     table.js) is kept the same way, under the key it was sent with.
   - Back online (or "Send now"), the kept hands go to the server one at a time, in order
     (table/sync/): each comes back recorded with the server's receipt. A refusal stays on the phone
     with the server's words and the hands after it wait (edit it or discard it); a hand recorded by
     another device meanwhile is a conflict, explained, sent only when asked (or discarded).
     One tab sends at a time (Web Locks), and the client key makes a second sending record nothing.
   table.js calls window.baifenOffline.attach(form) when it sets the page up, and asks it before Record. */
(function () {
  "use strict";
  var script = document.currentScript;
  var swUrl = script && script.getAttribute("data-sw");
  if (swUrl && "serviceWorker" in navigator) {
    var register = function () {
      var first = !navigator.serviceWorker.controller;
      navigator.serviceWorker.register(swUrl).then(function () {
        return first ? navigator.serviceWorker.ready : null;
      }).then(function (registration) {
        /* This page came from the network, not through the worker: ask it to keep a copy. */
        if (registration && registration.active) registration.active.postMessage({ keep: location.pathname + location.search });
      }).catch(function () { return null; });
    };
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register);
  }
  if (!window.indexedDB || !window.Promise) return;

  var DB_NAME = "baifen-offline", STORE = "hands", RETRY_WAIT = 30000;

  function openDb() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  /* One transaction; `work(store)` may return an IDBRequest whose result is the answer. */
  function withStore(mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var request = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(request ? request.result : undefined); };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function all(table) {
    return withStore("readonly", function (store) { return store.getAll(); }).then(function (items) {
      return (items || []).filter(function (item) { return item.table === table; })
        .sort(function (a, b) { return a.seq - b.seq; });
    });
  }
  /* Other tabs of this table hear of every change, and list the kept hands as this one does. */
  var channel = window.BroadcastChannel ? new BroadcastChannel("baifen-offline") : null;
  function changed(result) {
    if (channel && table) channel.postMessage(table);
    return result;
  }
  function save(item) { return withStore("readwrite", function (store) { store.put(item); }).then(changed); }
  function drop(key) { return withStore("readwrite", function (store) { store["delete"](key); }).then(changed); }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  var form = null, texts = null, table = null, items = [], syncing = null, editing = null, dirty = false;
  var shown = {}; // keys of recorded hands shown on this page (removed from the phone once shown)
  var note = "";

  function T(name) { return (texts && texts.getAttribute("data-" + name)) || ""; }
  function handName(n) { return fill(T("hand"), { n: n }); }
  function waiting() { return items.filter(function (item) { return item.status !== "recorded"; }); }
  function csrf() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  /* The next number a hand entered now would get: after the page's hand, or after the last one kept. */
  function nextNumber() {
    var n = parseInt(form.dataset.number, 10) || 1;
    items.forEach(function (item) {
      if (item.status === "recorded" && item.number) n = Math.max(n, item.number + 1);
      else n = Math.max(n, item.expected + 1);
    });
    return n;
  }

  /* What the phone can say about a hand: each group's legend and what was chosen or typed. */
  function describe() {
    var parts = [];
    form.querySelectorAll("fieldset.group[data-group]").forEach(function (fieldset) {
      if (fieldset.hidden || fieldset.closest("[hidden]")) return;
      var legend = fieldset.querySelector("legend");
      var name = legend ? legend.textContent.replace(/\s+/g, " ").trim() : fieldset.dataset.group;
      var values = [];
      fieldset.querySelectorAll("input").forEach(function (input) {
        if (input.disabled || input.type === "hidden") return;
        if (input.type === "radio" || input.type === "checkbox") {
          if (!input.checked || (input.type === "radio" && input.value === "")) return;  /* "no" / none: the default */
          var label = input.id && form.querySelector('label[for="' + input.id + '"]');
          var text = label ? (label.innerText || label.textContent).replace(/\s+/g, " ").trim() : "";
          values.push(text || (input.type === "checkbox" ? "✓" : input.value));
        } else if (input.value !== "") {
          values.push(input.value);
        }
      });
      var locked = fieldset.querySelector(".locked strong");
      if (locked) values.push(locked.textContent.trim());
      if (values.length) parts.push(name + " " + values.join(", "));
    });
    return parts.join(" · ");
  }

  function fields() {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value !== "string") return;
      /* `expected` is the kept hand's own number (send adds it), not the page's. */
      if (name === "action" || name === "csrfmiddlewaretoken" || name === "client_key" || name === "expected") return;
      out.push([name, value]);
    });
    return out;
  }

  function refresh() {
    if (!table) return Promise.resolve();
    return all(table).then(function (found) { items = found; render(); }).catch(function () { return null; });
  }

  /* The form ready for the next hand, under a new key. */
  function clearForm() {
    var keyInput = form.querySelector('input[name="client_key"]');
    form.reset();
    if (keyInput) keyInput.value = newKey();
    form.dispatchEvent(new Event("change", { bubbles: true }));
    dirty = false;
  }

  /* The seat the next hand starts from (its dealer, or in the level games its declarer), moved on from the
     last hand kept, by the rotation the engine describes (the form's data-rotation-*, rules/entry.py):
     the seat after the dealer where the rules fix it. Where the kept hand's result decides (标分, the level
     games), the phone cannot settle the hand: nothing is pre-selected, the two seats the result chooses
     between are named, and a seat left unchosen is the server's to set by the rules when the hand is sent.
     So the seat the page was drawn with (the server's, before any kept hand) never goes out stale. */
  function rotate() {
    var queue = waiting();
    var last = queue[queue.length - 1];
    var data = form.dataset;
    var name = data.rotationSeat;
    if (!last || !name) return;
    var players = parseInt(data.players, 10) || 4;
    var names = (data.seatNames || "").split("\n");
    var entered = {};
    last.fields.forEach(function (pair) { entered[pair[0]] = pair[1]; });
    var seatOf = function (value) { return value === undefined || value === "" ? null : parseInt(value, 10); };
    var seatName = function (seat) { return names[seat] || String(seat + 1); };
    var hand = handName(last.expected);
    var next = null, won = null, lost = null;
    if (entered.redeal) {
      var base = seatOf(entered[name]);
      if (base !== null) next = (base + parseInt(data.rotationRedeal, 10)) % players;
    } else if (data.rotationScored !== "") {
      var dealer = seatOf(entered.dealer);
      if (dealer !== null) next = (dealer + parseInt(data.rotationScored, 10)) % players;
    } else {
      var declarer = seatOf(entered.declarer);
      if (declarer !== null) {
        won = (declarer + parseInt(data.rotationWon, 10)) % players;
        lost = (declarer + parseInt(data.rotationLost, 10)) % players;
      }
    }
    var fieldset = form.querySelector('fieldset[data-group="' + name + '"]');
    if (!fieldset) return;
    var hint = fieldset.querySelector(".rotation-hint");
    if (!hint) {
      hint = el("p", "hint rotation-hint");
      fieldset.insertBefore(hint, fieldset.querySelector("legend").nextSibling);
    }
    var values = { hand: hand, won: won === null ? "" : seatName(won), lost: lost === null ? "" : seatName(lost) };
    hint.textContent = next !== null ? fill(T("rotation-next"), { hand: hand, seat: seatName(next) }) :
      won !== null ? fill(T("rotation-ask"), values) : "";
    hint.hidden = !hint.textContent;
    var locked = fieldset.querySelector(".locked");
    if (locked) {
      /* The rotation's declarer, shown not chosen: the kept seat, or none (the server sets it). */
      var hidden = locked.querySelector('input[name="' + name + '"]');
      var shown = locked.querySelector("strong");
      if (hidden) hidden.disabled = next === null;
      if (hidden && next !== null) hidden.value = String(next);
      if (shown) shown.textContent = next !== null ? seatName(next) : won !== null ? fill(T("rotation-server"), values) : "?";
      hint.hidden = true;
    } else {
      form.querySelectorAll('input[name="' + name + '"]').forEach(function (input) {
        input.checked = next !== null && input.value === String(next);
      });
    }
    if (name === "dealer") data.dealer = next === null ? "" : String(next);
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  /* `key`: the key of a Record whose request got no answer (it may have arrived: the server records it once). */
  function enqueue(key) {
    var status = form.querySelector(".submit-status");
    var entered = { fields: fields(), summary: describe() };
    var done;
    if (editing) {
      var item = editing;
      editing = null;
      item.fields = entered.fields;
      item.summary = entered.summary;
      item.status = "pending";
      item.message = "";
      done = save(item).then(function () { return item; });
    } else {
      var kept = {
        /* A key of its own: a page opened from the cache carries a key that may have been sent already. */
        key: key || newKey(),
        table: table,
        seq: Date.now() * 1000 + Math.floor(Math.random() * 1000),
        expected: nextNumber(),
        fields: entered.fields,
        summary: entered.summary,
        status: "pending",
        message: "",
        force: false
      };
      done = save(kept).then(function () { return kept; });
    }
    return done.then(function (item) {
      clearForm();
      if (status) status.textContent = fill(T("kept"), { hand: handName(item.expected) });
      return refresh();
    }).then(function () {
      rotate();
      if (navigator.onLine) sync();
    });
  }

  function shouldQueue() {
    return !!texts && (!navigator.onLine || waiting().length > 0 || !!editing);
  }

  function shiftAfter(item, by) {
    var later = items.filter(function (other) { return other.seq > item.seq && other.status !== "recorded"; });
    return Promise.all(later.map(function (other) {
      other.expected += by;
      return save(other);
    }));
  }

  function loginLost(response) {
    if (response.status === 401 || response.status === 403) return true;
    var login = document.body.dataset.login;
    return response.redirected && !!login && new URL(response.url).pathname === new URL(login, location.href).pathname;
  }

  /* Send one kept hand: "recorded", "stop" (refused, conflict, login) or "offline". */
  function send(item) {
    var body = new FormData();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.append("client_key", item.key);
    body.append("expected", String(item.expected));
    if (item.force) body.append("force", "1");
    if (item.correct) {
      body.append("correct", "1");
      body.append("revision", String(item.correct.revision));
    }
    body.append("csrfmiddlewaretoken", csrf());
    return fetch(texts.dataset.sync, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": csrf() }
    }).then(function (response) {
      if (loginLost(response)) {
        item.message = T("login");
        item.status = "refused";
        return save(item).then(function () { return "stop"; });
      }
      return response.json().then(function (data) {
        if (data.status === "recorded") {
          var by = data.number - item.expected;
          item.status = "recorded";
          item.number = data.number;
          item.corrected = !!data.corrected;
          item.receipt = { label: data.label, figures: data.figures || [], steps: data.steps || [] };
          item.message = "";
          return save(item).then(function () { return by ? shiftAfter(item, by) : null; })
            .then(function () { return "recorded"; });
        }
        if (data.reused && !item.correct) {
          /* Its first sending did arrive, as hand `number` (the answer was lost), and the hand was edited on
             this phone since: the edit becomes a correction of that hand, a revision with a reason in its
             trail, rather than a second hand under a new key, which would count the hand twice. */
          item.correct = { number: data.number, revision: data.revision };
          item.message = "";
          return save(item).then(function () { return send(item); });
        }
        item.status = data.moved ? "moved" : "refused";
        item.message = data.message || T("unexpected");
        item.force = false;
        return save(item).then(function () { return "stop"; });
      }, function () {
        item.message = T("unexpected");
        return save(item).then(function () { return "stop"; });
      });
    }, function () { return "offline"; });
  }

  /* Every kept hand of this table, in order, stopping at the first that is not recorded. */
  function sendAll() {
    var sent = 0;
    return all(table).then(function (found) {
      items = found;
      var queue = waiting();
      function next(i) {
        if (i >= queue.length) return "done";
        return send(queue[i]).then(function (outcome) {
          if (outcome !== "recorded") return outcome;
          sent++;
          return next(i + 1);
        });
      }
      return next(0);
    }).then(function (outcome) {
      return { outcome: outcome, sent: sent };
    });
  }

  function sync() {
    if (!texts || !table) return Promise.resolve(null);
    if (syncing) return syncing;
    /* Hands this page lists as waiting: once none waits, the page shows the server's state, even when
       another tab was the one that sent them. */
    var listed = waiting().length;
    var run = function () { return sendAll(); };
    /* One tab at a time sends this table's hands; the other then finds them recorded. */
    var locked = navigator.locks && navigator.locks.request ?
      navigator.locks.request("baifen-sync " + table, run) : run();
    syncing = locked.then(function (result) {
      syncing = null;
      note = result.outcome === "offline" ? T("failed") : "";
      if (result.outcome === "offline") retryLater();
      return refresh().then(function () {
        if (result.outcome === "done" && (result.sent > 0 || listed > 0)) {
          if (!dirty && !editing) {
            /* The server's state now: the page again, at the next hand, saying which hand was recorded last. */
            var last = Math.max.apply(null, [0].concat(items.map(function (item) { return item.number || 0; })));
            var target = table + (last > 0 ? "?saved=" + last : "");
            if (location.pathname + location.search === target) window.location.reload();
            else window.location.replace(target + "#next");
          } else {
            note = T("done");
            render(true);
          }
        }
        return result;
      });
    }, function () {
      syncing = null;
      note = T("failed");
      return refresh();
    });
    note = T("sending");
    render();
    return syncing;
  }

  /* The phone believes it is online but the server did not answer (Wi-Fi with no internet): try again
     in a while, as no "online" event will come. */
  var retry = null;
  function retryLater() {
    if (retry || !navigator.onLine) return;
    retry = setTimeout(function () { retry = null; if (navigator.onLine && waiting().length) sync(); }, RETRY_WAIT);
  }

  function discard(item) {
    if (!window.confirm(T("discard-confirm"))) return;
    var later = items.filter(function (other) { return other.seq > item.seq && other.status !== "recorded"; });
    if (editing && editing.key === item.key) editing = null;
    drop(item.key).then(function () {
      /* The discarded hand never happened: those after it move up one place. */
      return Promise.all(later.map(function (other) { other.expected -= 1; return save(other); }));
    }).then(refresh).then(function () {
      if (navigator.onLine && waiting().length) sync();
    });
  }

  function sendAnyway(item) {
    item.force = true;
    save(item).then(refresh).then(sync);
  }

  /* Put a kept hand back into the form: Record saves it in its place (same key, same order). */
  function edit(item) {
    form.reset();
    /* A seat shown, not chosen (the rotation's declarer) goes out only if the kept hand has it. */
    form.querySelectorAll(".locked input[type=hidden]").forEach(function (input) { input.disabled = true; });
    item.fields.forEach(function (pair) {
      form.querySelectorAll('[name="' + pair[0] + '"]').forEach(function (input) {
        if (input.type === "radio") input.checked = input.value === pair[1];
        else if (input.type === "checkbox") input.checked = true;
        else if (input.type !== "hidden" || pair[0] !== "client_key") {
          input.value = pair[1];
          input.disabled = false;
        }
      });
    });
    editing = item;
    form.querySelectorAll(".rotation-hint").forEach(function (hint) { hint.hidden = true; });
    form.dispatchEvent(new Event("change", { bubbles: true }));
    render();
    var entry = document.getElementById("entry");
    if (entry) entry.scrollIntoView();
  }

  function button(text, className, onClick) {
    var b = el("button", className, text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function article(item, blocked) {
    var recorded = item.status === "recorded";
    var number = recorded ? item.number : item.expected;
    var node = el("article", "hand kept " + item.status);
    node.id = "kept-" + item.key;
    var head = el("header");
    head.appendChild(el("span", "n", "#" + number));
    var badge = recorded ? "recorded" : item.status === "pending" ? "pending" : item.status;
    head.appendChild(el("span", "badge kept-" + badge, T(badge)));
    head.appendChild(el("span", "spacer"));
    node.appendChild(head);
    if (recorded && item.receipt) {
      node.appendChild(el("p", "receipt-label", item.receipt.label));
      if (item.corrected) node.appendChild(el("p", "hint corrected-note", fill(T("corrected"), { hand: handName(item.number) })));
      if (item.receipt.figures.length) node.appendChild(el("p", "figures", item.receipt.figures.join(" · ")));
      var steps = el("ol", "steps");
      item.receipt.steps.forEach(function (step) { steps.appendChild(el("li", null, step)); });
      if (item.receipt.steps.length) node.appendChild(steps);
      return node;
    }
    node.appendChild(el("p", "phone-says", T("phone-says") + " " + item.summary));
    if (item.message) {
      var says = el("p", "server-says neg", T("server-says") + " " + item.message);
      node.appendChild(says);
      if (item.status === "moved") node.appendChild(el("p", "hint", T("moved-help")));
    } else if (blocked) {
      node.appendChild(el("p", "hint", T("waits")));
    }
    var actions = el("p", "kept-actions");
    if (item.status === "moved") actions.appendChild(button(T("send-anyway"), "secondary send-anyway", function () { sendAnyway(item); }));
    /* A waiting hand can be edited too: if an earlier sending of it did arrive, the edit becomes a correction. */
    actions.appendChild(button(T("edit"), "secondary edit", function () { edit(item); }));
    actions.appendChild(button(T("discard"), "secondary discard", function () { discard(item); }));
    node.appendChild(actions);
    return node;
  }

  function render(offerReload) {
    if (!form || !texts) return;
    var more = document.querySelector(".col-more") || form.closest(".table-page") || document.body;
    var box = document.getElementById("kept");
    var queue = waiting();
    var recorded = items.filter(function (item) { return item.status === "recorded"; });
    if (!box) {
      /* In the hand list, above the newest hands the server has. */
      var recent = document.querySelector("section.recent");
      box = el("section", "kept-hands");
      box.id = "kept";
      box.setAttribute("aria-labelledby", "kept-title");
      if (recent) recent.parentNode.insertBefore(box, recent);
      else more.insertBefore(box, more.firstChild);
    }
    box.textContent = "";
    box.hidden = navigator.onLine && !queue.length && !recorded.length && !note;
    var title = el("h2", null, T("title"));
    title.id = "kept-title";
    box.appendChild(title);
    var status = el("p", "kept-status");
    status.setAttribute("role", "status");
    status.textContent = !navigator.onLine ? T("offline") : note;
    box.appendChild(status);
    if (queue.length) {
      var send = button(syncing ? T("sending") : T("send"), "primary send-now", function () { sync(); });
      send.disabled = !!syncing;
      box.appendChild(send);
    }
    if (offerReload) box.appendChild(button(T("reload"), "secondary reload", function () { window.location.reload(); }));
    var blocked = false;
    queue.forEach(function (item) {
      box.appendChild(article(item, blocked));
      blocked = true;
    });
    if (recorded.length) {
      var sentTitle = el("h3", null, T("sent-title"));
      box.appendChild(sentTitle);
      recorded.forEach(function (item) { box.appendChild(article(item, false)); });
    }
    provisional(queue.length);
  }

  /* The entry's number and state say they are provisional while hands wait on the phone. */
  function provisional(count) {
    /* The heading's own text (its first words; the game's label follows in <small>). */
    var heading = document.getElementById("entry-title");
    var words = heading && Array.prototype.filter.call(heading.childNodes, function (node) {
      return node.nodeType === 3 && node.textContent.trim();
    })[0];
    if (words) {
      if (!heading.dataset.server) heading.dataset.server = words.textContent;
      words.textContent = count || editing ?
        " " + handName(editing ? editing.expected : nextNumber()) + " " : heading.dataset.server;
    }
    var entry = form.closest(".entry");
    var line = entry && entry.querySelector(".provisional");
    var text = "";
    if (editing) text = fill(T("editing"), { hand: handName(editing.expected) });
    else if (count) text = fill(T("provisional"), { count: count, last: (parseInt(form.dataset.number, 10) || 1) - 1 });
    if (!text) {
      if (line) line.remove();
      return;
    }
    if (!line) {
      line = el("p", "provisional notice");
      line.setAttribute("role", "note");
      entry.insertBefore(line, form);
    }
    line.textContent = text;
  }

  function attach(theForm) {
    form = theForm;
    texts = document.getElementById("offline-texts");
    if (!form || !texts) return;
    table = new URL(form.getAttribute("action"), location.href).pathname;
    form.dataset.previewOffline = T("preview-offline");
    form.addEventListener("input", function (event) { if (event.isTrusted) dirty = true; });
    form.addEventListener("change", function (event) { if (event.isTrusted) dirty = true; });
    refresh().then(function () {
      /* Hands recorded from this phone: shown on this page once, then forgotten by the phone. */
      items.forEach(function (item) {
        if (item.status === "recorded" && !shown[item.key]) {
          shown[item.key] = true;
          drop(item.key);
        }
      });
      if (!editing) rotate();
      if (navigator.onLine && waiting().length) sync();
    });
  }

  if (channel) {
    channel.onmessage = function (event) {
      if (event.data === table && !syncing) refresh();
    };
  }
  window.addEventListener("online", function () { note = ""; render(); if (waiting().length) sync(); });
  window.addEventListener("offline", function () { render(); });

  function canKeep() { return !!texts && !!table; }

  window.baifenOffline = { attach: attach, canKeep: canKeep, shouldQueue: shouldQueue, enqueue: enqueue, sync: sync };
})();
