// Live timeline: poll for events after the newest one shown and append the
// server-rendered (escaped) fragment; when the session list changed
// (X-Sessions-Version), fetch it again and replace it. No framework, no
// inline script (CSP).
(function () {
  "use strict";
  var box = document.getElementById("events");
  if (!box || !box.dataset.live) { return; }
  var list = document.getElementById("session-list");
  var busy = false;
  function get(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) { throw new Error("HTTP " + r.status); }
      return r;
    });
  }
  function refreshSessions(version) {
    if (!list || !list.dataset.live || !version || version === list.dataset.version) { return null; }
    return get(list.dataset.live).then(function (r) {
      return r.text().then(function (html) {
        list.innerHTML = html;
        list.dataset.version = r.headers.get("X-Sessions-Version") || version;
      });
    });
  }
  function poll() {
    if (busy) { return; }
    busy = true;
    get(box.dataset.live + "?after=" + encodeURIComponent(box.dataset.after))
      .then(function (r) {
        var last = r.headers.get("X-Last-Sequence");
        var version = r.headers.get("X-Sessions-Version");
        return r.text().then(function (html) {
          if (last && last !== box.dataset.after && html.trim() !== "") {
            box.insertAdjacentHTML("beforeend", html);
            box.dataset.after = last;
            var s = document.getElementById("live-status");
            if (s) { s.textContent = "Live: updated " + new Date().toLocaleTimeString() + " (event #" + last + ")"; }
          }
          return refreshSessions(version);
        });
      })
      .catch(function () {})
      .then(function () { busy = false; });
  }
  setInterval(poll, 1000);
})();
