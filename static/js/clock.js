/* The round clock (templates/settlement/_round_clock.html) counts down: the minutes left, rounded up, from the end
   time the page was served with, corrected by how far this device's clock is from the server's; at the end it
   shows what a late hand is (already on the page). Looked up at each tick: the big screen replaces its part. */
(function () {
  "use strict";
  var skew = null;
  function tick() {
    document.querySelectorAll("[data-clock-ends]").forEach(function (clock) {
      var ends = Date.parse(clock.dataset.clockEnds);
      if (skew === null) skew = Date.parse(clock.dataset.clockNow) - Date.now();
      var seconds = (ends - (Date.now() + skew)) / 1000;
      var over = seconds <= 0;
      var running = clock.querySelector(".clock-running");
      var ended = clock.querySelector(".clock-over");
      var left = clock.querySelector(".clock-left");
      if (running) running.hidden = over;
      if (ended) ended.hidden = !over;
      clock.classList.toggle("over", over);
      if (left && !over) {
        var text = clock.dataset.clockLeft.replace("{m}", String(Math.ceil(seconds / 60)));
        if (left.textContent !== text) left.textContent = text;
      }
    });
  }
  function start() {
    tick();
    window.setInterval(tick, 5000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
