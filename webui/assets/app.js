// Live timeline: poll for events after the newest one shown and append the
// server-rendered (escaped) fragment. No framework, no inline script (CSP).
(function () {
  "use strict";
  var box = document.getElementById("events");
  if (!box || !box.dataset.live) { return; }
  var busy = false;
  function poll() {
    if (busy) { return; }
    busy = true;
    fetch(box.dataset.live + "?after=" + encodeURIComponent(box.dataset.after), { credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) { throw new Error("HTTP " + r.status); }
        var last = r.headers.get("X-Last-Sequence");
        return r.text().then(function (html) {
          if (last && last !== box.dataset.after && html.trim() !== "") {
            box.insertAdjacentHTML("beforeend", html);
            box.dataset.after = last;
            var s = document.getElementById("live-status");
            if (s) { s.textContent = "Live: updated " + new Date().toLocaleTimeString() + " (event #" + last + ")"; }
          }
        });
      })
      .catch(function () {})
      .then(function () { busy = false; });
  }
  setInterval(poll, 1000);
})();
