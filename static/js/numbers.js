/* Number inputs say what they allow before the form is sent. Each carries the engine's limits and the message
   the server would give (data-min, data-max, data-step, data-rule: forms/numbers.py); a figure that is not
   allowed gets that message beside its field (the element its aria-describedby names), aria-invalid, and the
   form is not sent. Without this file the server says the same after the post. */
(function () {
  "use strict";
  var WHOLE = /^[+\-\u2212]?[0-9]{1,18}$/;

  /* True when the input's value is allowed (an empty input is the server's and the rules' to judge). */
  function allowed(input) {
    var typed = input.value.trim();
    /* A number input holding something the browser cannot read as a number reports an empty value. */
    if (typed === "") return !(input.validity && input.validity.badInput);
    if (!WHOLE.test(typed)) return false;
    var value = Number(typed.replace("\u2212", "-"));
    var min = input.dataset.min, max = input.dataset.max, step = Number(input.dataset.step || 1);
    if (min !== undefined && value < Number(min)) return false;
    if (max !== undefined && value > Number(max)) return false;
    return value % step === 0;
  }

  function slotOf(input) {
    var id = (input.getAttribute("aria-describedby") || "").split(" ")[0];
    return id ? document.getElementById(id) : null;
  }

  /* Show or clear the input's message; returns whether it is allowed. */
  function mark(input) {
    var ok = allowed(input);
    var slot = slotOf(input);
    if (ok) input.removeAttribute("aria-invalid");
    else input.setAttribute("aria-invalid", "true");
    if (!slot) return ok;
    /* A slot holds the messages of every input pointing at it (a table of penalties shares one). */
    var form = input.form || document;
    var id = slot.id;
    var wrong = [];
    form.querySelectorAll("input[data-rule]").forEach(function (other) {
      if ((other.getAttribute("aria-describedby") || "").split(" ")[0] !== id) return;
      if (other !== input ? other.getAttribute("aria-invalid") === "true" : !ok) {
        if (wrong.indexOf(other.dataset.rule) < 0) wrong.push(other.dataset.rule);
      }
    });
    var rules = [];
    form.querySelectorAll("input[data-rule]").forEach(function (other) { rules.push(other.dataset.rule); });
    var mine = slot.textContent.trim() === "" || rules.some(function (r) { return slot.textContent.indexOf(r) >= 0; });
    if (wrong.length) {
      slot.textContent = wrong.join(" ");
      slot.hidden = false;
    } else if (mine) {
      slot.textContent = "";
      if (slot.tagName === "P" && slot.classList.contains("error")) slot.hidden = true;
    }
    var box = slot.closest("fieldset");
    if (box) box.classList.toggle("has-error", wrong.length > 0 || (!mine && slot.textContent.trim() !== ""));
    return ok;
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input && input.matches && input.matches("input[data-rule]")) mark(input);
  });

  /* Before the table page's own handler (which sends a hand by fetch): this listens while capturing. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var first = null;
    form.querySelectorAll("input[data-rule]:not(:disabled)").forEach(function (input) {
      if (!mark(input) && !first) first = input;
    });
    if (!first) return;
    event.preventDefault();
    event.stopPropagation();
    var closed = first.closest("details:not([open])");
    if (closed) closed.open = true;
    first.focus();
  }, true);
})();
