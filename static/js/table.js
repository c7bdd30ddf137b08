/* The scorekeeper's table page, a little better with script: the receipt as the hand is filled in,
   bids limited to the declarer's place, shapes that fill the multiplier, +/− steppers, and a Record
   button that cannot record twice. Without this file the page works: Preview and Record post the form. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  /* Large type, remembered on this device. This file is loaded in the head without defer, so the class
     is on <html> before the page is first drawn: no flash of small type. */
  var LARGE = "baifen-large-type";
  function largeStored() {
    try { return window.localStorage.getItem(LARGE) === "1"; } catch (e) { return false; }
  }
  document.documentElement.classList.toggle("large-type", largeStored());

  function ready(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }

  /* A login that expired answers with the login page (a redirect) or a 403: go there, never show it inline. */
  function loginLost(response) {
    if (response.status === 401 || response.status === 403) return true;
    var login = document.body.dataset.login;
    return response.redirected && !!login && new URL(response.url).pathname === new URL(login, location.href).pathname;
  }
  function toLogin() {
    var login = document.body.dataset.login || "/login/";
    window.location.assign(login + "?next=" + encodeURIComponent(location.pathname + location.search));
  }

  /* Bound again whenever the page's body is replaced (setUp). */
  function largeButton() {
    var large = document.querySelector("button.large-type");
    if (large) {
      large.hidden = false;
      large.setAttribute("aria-pressed", String(largeStored()));
      large.addEventListener("click", function () {
        var on = large.getAttribute("aria-pressed") !== "true";
        large.setAttribute("aria-pressed", String(on));
        document.documentElement.classList.toggle("large-type", on);
        try { window.localStorage.setItem(LARGE, on ? "1" : "0"); } catch (e) { /* private mode: this page only */ }
      });
    }
  }

  /* The page a recorded hand redirected to, already fetched: put it in place of this one rather than load
     it again (one load a hand). A page with another head (other styles or scripts) is loaded as a page. */
  function landOn(url, html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var assets = function (doc) {
      return Array.prototype.map.call(doc.querySelectorAll("head link[rel=stylesheet], head script[src]"), function (el) {
        return new URL(el.getAttribute("href") || el.getAttribute("src"), url).href;
      }).join(" ");
    };
    if (assets(page) !== assets(document)) {
      window.location.replace(url);
      return;
    }
    window.history.replaceState(null, "", url);
    document.title = page.title;
    document.body.replaceWith(document.adoptNode(page.body));
    /* The worker keeps the table page it serves offline; it did not see this one (fetched, not navigated to). */
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ keep: url.split("#")[0], html: html });
    var target = window.location.hash && document.getElementById(window.location.hash.slice(1));
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
    setUp();
  }

  ready(setUp);

  function setUp() {
    largeButton();
    var form = document.querySelector("form.table-entry");
    if (!form) return;
    var receipt = document.getElementById("receipt");
    var status = form.querySelector(".submit-status");
    var summary = form.querySelector(".actions .summary");
    var spoken = document.getElementById("receipt-status");
    var players = parseInt(form.dataset.players, 10) || 4;

    function checked(name) {
      var input = form.querySelector('input[name="' + name + '"]:checked');
      if (input) return input.value;
      var hidden = form.querySelector('input[type="hidden"][name="' + name + '"]');
      return hidden ? hidden.value : null;
    }

    function group(name) {
      return form.querySelector('[data-group="' + name + '"]');
    }

    function show(name, visible) {
      var el = group(name);
      if (el) el.hidden = !visible;
    }

    /* Bids the rules allow at the declarer's place (the server lists them per place on each button). */
    function limitBids() {
      var dealer = checked("dealer");
      if (dealer === null || dealer === "") dealer = form.dataset.dealer;
      var declarer = checked("declarer");
      var forcedBox = form.querySelector('input[name="forced"]');
      var place = null;
      if (dealer !== "" && dealer !== null && declarer !== null && declarer !== "") {
        place = String(((parseInt(declarer, 10) - parseInt(dealer, 10)) % players + players) % players);
      }
      var forcedPossible = false;
      form.querySelectorAll('input[name="bid"]').forEach(function (input) {
        if (place !== null && (input.dataset.forcedPlaces || "").split(" ").indexOf(place) >= 0) forcedPossible = true;
      });
      if (forcedBox) {
        forcedBox.disabled = place !== null && !forcedPossible;
        if (forcedBox.disabled) forcedBox.checked = false;
      }
      var forced = forcedBox && forcedBox.checked;
      form.querySelectorAll('input[name="bid"]').forEach(function (input) {
        var places = (forced ? input.dataset.forcedPlaces : input.dataset.places) || "";
        var allowed = place === null || places.split(" ").indexOf(place) >= 0;
        input.disabled = !allowed;
        if (!allowed && input.checked) input.checked = false;
      });
      /* The partner is someone other than the declarer. */
      form.querySelectorAll('input[name="partner"]').forEach(function (input) {
        var own = input.value === declarer;
        input.disabled = own;
        if (own && input.checked) input.checked = false;
      });
    }

    /* Inputs that do not apply: a thrown-in hand keeps only the dealer; a surrender is not played;
       the last-trick shape only with 抠底. */
    function showApplicable() {
      var redeal = checked("redeal");
      var thrown = redeal !== null && redeal !== "";
      form.querySelectorAll(".played > fieldset").forEach(function (fieldset) {
        var name = fieldset.dataset.group;
        fieldset.hidden = thrown && name !== "dealer" && name !== "penalties";
      });
      if (thrown) return;
      var surrender = form.querySelector('input[name="surrender"]');
      var kouDi = form.querySelector('input[name="kou_di"]');
      var notPlayed = surrender && surrender.checked;
      ["captured", "bottom_points", "kou_di", "bombs"].forEach(function (name) {
        if (notPlayed) show(name, false);
        else show(name, true);
      });
      show("bottom_multiplier", !!(kouDi && kouDi.checked) && !notPlayed);
    }

    /* 打二鬼: 100爆 and 100鉤 are bids of 100. */
    form.querySelectorAll('input[name="contract"]').forEach(function (input) {
      input.addEventListener("change", function () {
        var hundred = form.querySelector('input[name="bid"][value="100"]');
        if (input.checked && input.value !== "plain" && hundred) hundred.checked = true;
      });
    });

    /* 红星五: a shape fills the multiplier; typing a number clears the shape. */
    var multiplier = form.querySelector('input[name="bottom_multiplier"]');
    form.querySelectorAll('input[name="kou_shape"]').forEach(function (input) {
      input.addEventListener("change", function () {
        if (multiplier && input.checked) multiplier.value = input.dataset.multiplier;
      });
    });
    if (multiplier) {
      multiplier.addEventListener("input", function () {
        form.querySelectorAll('input[name="kou_shape"]').forEach(function (input) {
          if (input.checked && input.dataset.multiplier !== multiplier.value) input.checked = false;
        });
      });
    }

    /* − and + beside the point inputs, in steps of 5 (bombs: 1). */
    form.querySelectorAll(".number[data-step]").forEach(function (box) {
      var input = box.querySelector("input");
      var step = parseInt(box.dataset.step, 10) || 5;
      [-step, step].forEach(function (delta) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "step";
        button.textContent = delta < 0 ? "−" + step : "+" + step;
        button.setAttribute("aria-label", button.textContent);
        button.addEventListener("click", function () {
          var value = parseInt(input.value, 10) || 0;
          input.value = Math.max(0, value + delta);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        });
        if (delta < 0) box.insertBefore(button, input);
        else box.appendChild(button);
      });
    });

    /* Errors the server put on the page (a refused Record, a fix or void without a reason) stay until
       the field they name is touched: the preview knows nothing of the reason or of what was refused. */
    form.querySelectorAll(".field-error").forEach(function (slot) {
      if (slot.textContent.trim()) slot.dataset.server = "1";
    });
    var serverErrors = form.querySelector(".field-error[data-server]") !== null ||
      document.querySelector(".banner[role=alert]") !== null;

    /* The receipt: ask the server (the rules engine) as the fields change; nothing is saved. */
    var timer = null;
    var asked = 0;
    function placeErrors(fragment) {
      form.querySelectorAll(".field-error").forEach(function (slot) {
        if (slot.dataset.server) return;
        slot.textContent = "";
        var fieldset = slot.closest("fieldset");
        if (fieldset) fieldset.classList.remove("has-error");
      });
      form.querySelectorAll("input[aria-invalid]").forEach(function (input) {
        var slot = form.querySelector('.field-error[data-error-for~="' + input.name + '"]');
        if (!slot || !slot.dataset.server) input.removeAttribute("aria-invalid");
      });
      fragment.querySelectorAll(".receipt-errors li").forEach(function (item) {
        var slot = form.querySelector('.field-error[data-error-for~="' + item.dataset.field + '"]');
        if (!slot || slot.dataset.server) return;
        slot.textContent = item.textContent;
        var fieldset = slot.closest("fieldset");
        if (fieldset) fieldset.classList.add("has-error");
        var input = form.querySelector('input[name="' + item.dataset.field + '"][data-rule]');
        if (input) input.setAttribute("aria-invalid", "true");
      });
    }
    /* A preview that failed says so above the receipt it could not replace. */
    function previewFailed(failed) {
      var note = receipt.querySelector(".preview-failed");
      if (!failed) {
        if (note) note.remove();
        return;
      }
      if (!note) {
        note = document.createElement("p");
        note.className = "preview-failed neg";
        note.setAttribute("role", "status");
        receipt.insertBefore(note, receipt.firstChild);
      }
      note.textContent = !navigator.onLine && form.dataset.previewOffline ? form.dataset.previewOffline : form.dataset.previewFailed;
      if (summary) summary.innerHTML = "";
    }
    /* The receipt in one sentence for a screen reader (a polite live region): what the hand settled and
       each side's figure, or what is still missing, or why the rules refuse it; said again only when it changes. */
    function announce(body) {
      if (!spoken || !body) return;
      var text = "";
      var clean = function (el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; };
      if (body.dataset.state === "ok") {
        var parts = [clean(body.querySelector(".what"))];
        body.querySelectorAll("table.figures tbody tr").forEach(function (row) {
          parts.push(clean(row.querySelector("th")) + " " + clean(row.querySelector("td")));
        });
        var end = body.querySelector(".game-end");
        if (end) parts.push(clean(end));
        text = parts.join("; ");
      } else if (body.dataset.state !== "empty") {
        text = clean(body.querySelector(".missing, .refused"));
      }
      if (text && text !== spoken.textContent) spoken.textContent = text;
    }
    function preview() {
      var number = ++asked;
      var data = new FormData(form);
      fetch(form.dataset.preview, { method: "POST", body: data, credentials: "same-origin" })
        .then(function (response) {
          if (number !== asked) return null;
          if (loginLost(response)) {
            toLogin();
            return null;
          }
          if (!response.ok) previewFailed(true);
          return response.ok ? response.text() : null;
        })
        .then(function (html) {
          if (html === null || number !== asked) return;
          var box = document.createElement("div");
          box.innerHTML = html;
          receipt.innerHTML = "";
          while (box.firstChild) receipt.appendChild(box.firstChild);
          placeErrors(receipt);
          /* The gist beside the Record button, where the thumb is. */
          /* Only a settled hand: "still to fill in" or a refusal is already in the receipt just above. */
          var body = receipt.querySelector(".receipt-body");
          var line = body && body.dataset.state === "ok" ? receipt.querySelector(".receipt-summary") : null;
          if (summary) summary.innerHTML = line ? line.innerHTML : "";
          announce(body);
        })
        .catch(function () {
          /* offline: the receipt says it is stale and waits for the next change */
          if (number === asked) previewFailed(true);
        });
    }
    function changed(event) {
      var fieldset = event && event.target && event.target.closest ? event.target.closest("fieldset") : null;
      if (fieldset) {
        fieldset.querySelectorAll(".field-error[data-server]").forEach(function (slot) {
          delete slot.dataset.server;
        });
      }
      limitBids();
      showApplicable();
      /* A preview still on its way describes the fields as they were: its answer is dropped. */
      asked++;
      clearTimeout(timer);
      timer = setTimeout(preview, 200);
    }
    form.addEventListener("change", changed);
    form.addEventListener("input", changed);
    limitBids();
    showApplicable();
    /* A page that comes back with the server's refusal shows that receipt; the preview starts at the next change. */
    if (!serverErrors) preview();

    /* After Record the page comes back at the next hand (#next): its first field takes the focus,
       so the scorekeeper goes on typing; the anchor has already scrolled it into view. */
    function focusFirst(scroll) {
      var first = form.querySelector(".played > fieldset:not([hidden])");
      var target = first && (first.querySelector("input:checked:not(:disabled)") ||
        first.querySelector("input:not([type=hidden]):not(:disabled)"));
      if (target) target.focus({ preventScroll: !scroll });
      return !!target;
    }
    /* The skip link at the top of the page lands on the first entry field (without script: on the form). */
    var skip = document.querySelector("a.skip-entry");
    if (skip) {
      skip.addEventListener("click", function (event) {
        if (focusFirst(true)) event.preventDefault();
      });
    }
    if (window.location.hash === "#next" && !serverErrors) {
      /* After the browser has scrolled to the fragment, which would otherwise take the focus back. */
      if (document.readyState === "complete") setTimeout(focusFirst, 0);
      else window.addEventListener("load", function () { setTimeout(focusFirst, 0); });
    }

    if (window.baifenOffline) window.baifenOffline.attach(form);

    /* Record once: a second tap while saving does nothing. A request that fails at the network level
       (no answer, or none within RECORD_WAIT) keeps the hand on the phone under its key (offline.js): if
       it did arrive, the later sending records it once. */
    var busy = false;
    var RECORD_WAIT = 10000;
    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (!submitter || submitter.value !== "record") return;
      event.preventDefault();
      if (busy) return;
      /* Offline, or with hands already waiting on the phone: keep this one after them (offline.js). */
      var offline = window.baifenOffline;
      if (offline && offline.shouldQueue()) {
        offline.enqueue();
        return;
      }
      busy = true;
      submitter.disabled = true;
      var label = submitter.textContent;
      submitter.textContent = form.dataset.busy;
      status.textContent = "";
      var data = new FormData(form);
      data.append("action", "record");
      /* form.action would be the buttons named "action": read the attribute. */
      var key = data.get("client_key");
      var abort = window.AbortController ? new AbortController() : null;
      var timer = setTimeout(function () { if (abort) abort.abort(); }, RECORD_WAIT);
      fetch(form.getAttribute("action"), {
        method: "POST", body: data, credentials: "same-origin", signal: abort ? abort.signal : undefined
      })
        .then(function (response) {
          clearTimeout(timer);
          if (loginLost(response)) {
            toLogin();
            return null;
          }
          if (response.redirected) {
            /* fetch drops the redirect's fragment: put back the anchor of the next hand. */
            var url = response.url.indexOf("#") < 0 ? response.url + "#next" : response.url;
            return response.text().then(function (html) {
              landOn(url, html);
              return null;
            });
          }
          /* 400: refused; 409: another device recorded this hand's number meanwhile (a conflict to settle). */
          if (response.status !== 400 && response.status !== 409) throw new Error(String(response.status));
          return response.text();
        })
        .then(function (html) {
          if (html === null) return;
          /* Refused or a conflict: the answer is the page saying why; show it without posting the form again. */
          var page = new DOMParser().parseFromString(html, "text/html");
          document.title = page.title;
          document.body.replaceWith(document.adoptNode(page.body));
          setUp();
        })
        .catch(function (error) {
          clearTimeout(timer);
          busy = false;
          submitter.disabled = false;
          submitter.textContent = label;
          /* fetch rejects with a TypeError (no connection) or an AbortError (no answer in time);
             an answer the page cannot use (a 500) keeps the old words: tap again. */
          var unanswered = !!error && (error.name === "TypeError" || error.name === "AbortError");
          if (unanswered && offline && offline.canKeep() && key) offline.enqueue(key);
          else status.textContent = form.dataset.offline;
        });
    });
  }
})();
