// The reading view: fold or unfold every note at once.
document.querySelectorAll("button[data-fold]").forEach(function (button) {
  button.addEventListener("click", function () {
    var open = button.dataset.fold === "open";
    document.querySelectorAll("details.note").forEach(function (d) { d.open = open; });
  });
});
