// Optional smoothing: a form with data-live="STEP" posts itself (with step=STEP) as it changes and
// swaps in the parts of the answer marked data-live-part (by id), all but the one being edited.
// Without this script the form's own Update button does the same with a page load.
(function () {
  document.querySelectorAll("form[data-live]").forEach(function (form) {
    var asked = 0;
    form.addEventListener("change", function () {
      var mine = ++asked;
      var data = new FormData(form);
      data.set("step", form.dataset.live);
      fetch(form.action, {method: "POST", body: new URLSearchParams(data), credentials: "same-origin"})
        .then(function (response) { return response.text(); })
        .then(function (html) {
          if (mine !== asked) return;  // a later change is on its way
          var answer = new DOMParser().parseFromString(html, "text/html");
          answer.querySelectorAll("[data-live-part]").forEach(function (part) {
            var here = document.getElementById(part.id);
            if (here && !here.contains(document.activeElement)) here.replaceWith(document.importNode(part, true));
          });
          form.dataset.updated = String(mine);
        });
    });
  });
})();
