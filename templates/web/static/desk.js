// Optional smoothing: a form with data-preview="IMG_ID" refreshes that image as it changes.
// Without this script the "Check and preview" button does the same with a page load.
(function () {
  document.querySelectorAll("form[data-preview]").forEach(function (form) {
    var img = document.getElementById(form.dataset.preview);
    var timer = null;
    if (!img) return;
    form.addEventListener("change", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var data = new URLSearchParams(new FormData(form));
        data.delete("csrf"); data.delete("version"); data.delete("action");
        img.src = img.src.split("?")[0] + "?" + data.toString();
      }, 250);
    });
  });
})();
